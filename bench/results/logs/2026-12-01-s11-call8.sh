#!/bin/bash
# Session 11 call 8: ncu details of the chunk-scores pre-pass at R1 8k and R2.
B=out/dev/build-gpu
for cfg in "--config R1 --seqlen 8192" "--config R2"; do
  echo "== $cfg"
  timeout 150 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis -k regex:chunk --launch-count 1 $B/bench/flashssd_bench $cfg --no-verify --iters 1 --warmup 0 2>&1 | grep -v "^==PROF==\|^flashssd_bench" | grep -E "Duration|Throughput|Occupancy|Block Limit|Registers|Shared Memory|Waves|Stall|Warp Cycles|Active Warps|Issued|Eligible|Dram|L2|Mem Busy|Max Bandwidth|Threads|Grid" | head -60
done
