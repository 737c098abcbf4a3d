#!/usr/bin/env bash
# Session 37 call C: the API from Python against flashssd_bench (2026-12-04-s37-gap.py), and
# ncu's kernel list of R1 32k z. Carry out/dev/build-gpu.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
PYTHONPATH=$B/python timeout 200 python3 bench/results/logs/2026-12-04-s37-gap.py > $O/gap.jsonl 2> $O/gap.err
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
for a in "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 16384 --z" "--config R4 --seqlen 131072"; do
  $B/bench/flashssd_bench $a --no-verify --iters 50 --warmup 5 2>&1 | tail -1 >> $O/bench.txt
done
ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/bench/flashssd_bench --config R1 --seqlen 32768 --z \
    --no-verify --iters 1 --warmup 1 > $O/r1z32k.ncu.csv 2> $O/r1z32k.ncu.err
cat $O/gap.jsonl $O/bench.txt; tail -3 $O/gap.err
grep gpu__time_duration $O/r1z32k.ncu.csv | awk -F'","' '{print $5, $(NF)}' | tail -5
