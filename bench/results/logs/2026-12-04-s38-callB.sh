#!/usr/bin/env bash
# Session 38 call B: where R1 512 z's extra ~13 us goes. In the record R1 512 z reads 0.536 ms
# against 1k-16k z 0.509-0.513 (+4.5%), while the ungated 512 row reads like the others and the
# probe's main pass at 512 z is only 2.6% over 8k z (call A). flashssd_bench (the API's whole
# path) on the rows, then ncu's kernel list of each. Carry out/dev/build-gpu (ee986d0 = HEAD SASS).
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
rows=("--config R1 --seqlen 512 --z" "--config R1 --seqlen 1024 --z" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 8192")
for r in 1 2; do for a in "${rows[@]}"; do
  echo "$r | $a | $($B/bench/flashssd_bench $a --no-verify --iters 50 --warmup 5 2>&1 | tail -1)" >> $O/bench.txt
done; done
for a in "${rows[@]}"; do
  n=$(echo $a | tr -d ' -'); 
  ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/bench/flashssd_bench $a \
    --no-verify --iters 2 --warmup 1 > $O/$n.ncu.csv 2> $O/$n.ncu.err
  echo "== $a"; python3 scripts/ncu_durations.py $O/$n.ncu.csv 2>&1 | tail -8
done
cat $O/bench.txt
