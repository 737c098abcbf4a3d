#!/bin/bash
# Session 11 call 3: ncu kernel durations, base (db7d12c) vs chunk-scores branch.
B=out/dev/build-gpu
for cfg in "--config R1 --seqlen 8192" "--config R2" "--config R3" "--config R1 --seqlen 512"; do
  for v in base new; do
    if [ $v = base ]; then L=out/dev/base; BIN=out/dev/base/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    echo "== $cfg | $v"
    LD_LIBRARY_PATH=$PWD/$L timeout 120 ncu --metrics gpu__time_duration.sum,dram__bytes.sum -k regex:"chunk|ssd_fwd|split" --launch-count 3 $BIN $cfg --no-verify --iters 1 --warmup 0 2>&1 | grep -E "chunk_scores|ssd_fwd_sm90_kernel|gpu__time|dram__bytes" | sed 's/(flashssd::sm90::SsdFwdSm90.*//' | cut -c1-120
  done
done
