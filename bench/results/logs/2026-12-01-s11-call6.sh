#!/bin/bash
# Session 11 call 6: R1 32k with z, base (db7d12c) vs HEAD, by split count.
B=out/dev/build-gpu
for round in 1 2; do
for sp in "" 1 2 3; do
  for cfg in "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768"; do
  for v in base new; do
    if [ $v = base ]; then L=out/dev/base; BIN=out/dev/base/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(FLASHSSD_NUM_SPLITS=$sp LD_LIBRARY_PATH=$PWD/$L timeout 60 $BIN $cfg --no-verify --iters 40 2>&1 | tail -1 | grep -o "median [0-9.]* ms")
    echo "api $round | splits '${sp:-plan}' | $cfg | $v | $r"
  done
  done
done
done
timeout 120 ncu --metrics gpu__time_duration.sum -k regex:"chunk|ssd_fwd|split" --launch-count 4 $B/bench/flashssd_bench --config R1 --seqlen 32768 --z --no-verify --iters 1 --warmup 0 2>&1 | grep -E "chunk_scores|ssd_fwd_sm90_kernel|split|gpu__time" | sed 's/(flashssd::sm90::SsdFwdSm90.*//' | cut -c1-100
LD_LIBRARY_PATH=$PWD/out/dev/base timeout 120 ncu --metrics gpu__time_duration.sum -k regex:"chunk|ssd_fwd|split" --launch-count 3 out/dev/base/flashssd_bench --config R1 --seqlen 32768 --z --no-verify --iters 1 --warmup 0 2>&1 | grep -E "ssd_fwd_sm90_kernel|split|gpu__time" | sed 's/(flashssd::sm90::SsdFwdSm90.*//' | cut -c1-100
