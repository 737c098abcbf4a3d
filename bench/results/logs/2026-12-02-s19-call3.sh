#!/bin/bash
# Session 19 call 3: is the N = 128 main pass bound by the shared-memory (LSU) pipe? Timing-only
# variants (wrong results) that keep every instruction but predicate off stores to shared
# memory: nosp (S' stmatrix, 4 per warp and tile, 64 wavefronts per tile-head), noy (y
# stmatrix.trans, 64 wavefronts), nospy (both). Diff: 2026-12-02-s19-call3-stores.diff.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --z 1" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base nosp noy nospy" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
