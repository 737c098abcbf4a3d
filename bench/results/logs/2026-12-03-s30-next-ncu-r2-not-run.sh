#!/usr/bin/env bash
# Prepared in session 30, not run. Session 29's estimate (HOPPER_PLAN, "What the two rows say
# about R2") puts R2's distance from R1's efficiency in the chunk-scores pre-pass for G = 8 (B
# and C read, S written and read again: ~0.08-0.1 ms of ~1.0). This measures it: every kernel's
# duration at the GPU's own clocks (ncu --clock-control none) through the API for R2, R2 z, R1
# 8k and R3 (library = out/dev/build-gpu, staged from b67cbb9 in session 30). ~1 min.
# Carry: out/dev/build-gpu.
set -u
O=${OUT:-/tmp/ncu_r2}; mkdir -p "$O"
B=out/dev/build-gpu
for args in "--config R2" "--config R2 --z" "--config R1 --batch 8 --seqlen 8192" "--config R3"; do
  echo "== $args"
  f="$O/ncu_${args//[ -]/_}.csv"
  LD_LIBRARY_PATH=$PWD/$B timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $B/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > "$f" 2>&1
  echo "rc=$?"
  python3 scripts/ncu_durations.py "$f"
done
