#!/usr/bin/env bash
# Session 37 call B: where R4's time goes beyond its two passes. Call A measured R4 128k's
# main pass 0.817 ms and state pass 0.300 ms alone (probe), the record 1.347 ms through the
# API. ncu (clocks not locked) times every kernel of a few API calls; carry out/dev/build-gpu.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu/bench/flashssd_bench
export LD_LIBRARY_PATH=$PWD/out/dev/build-gpu:${LD_LIBRARY_PATH:-}
for a in "--config R4 --seqlen 131072" "--config R1 --seqlen 32768"; do
  n=$(echo $a | tr -d ' -')
  $B $a --no-verify --iters 50 --warmup 5 > $O/$n.bench.txt 2>&1
  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      --csv $B $a --no-verify --iters 2 --warmup 1 > $O/$n.ncu.csv 2> $O/$n.ncu.err
done
tail -5 $O/*.bench.txt
