#!/usr/bin/env bash
# Session 27 call 2 (device): (1) the N = 64 main pass with S = C B^T's rows balanced over the
# warps (bal: C as a register A operand read by ldmatrix in ScoreRows' balanced rows, so that
# each warp masks 9 of the 36 causal (row block, n-tile) pairs, where warp 3 masked 15), base =
# HEAD's kernels; (2) session 26's prepared call 6: R4 and R1 32k through the API, 8 rounds,
# base = 31e7214's library, new = HEAD's with and without PDL (the probe's state pass: session
# 26 call 1, -0.7%).
# Builds (here): base_probe, bal_probe = scripts/build_probe.sh on HEAD / on this session's
# working tree; baselib = 31e7214's libflashssd + bench/flashssd_bench; out/dev/build-gpu-head =
# HEAD's build (scripts/stage_device_build.sh, no python).
# Carry: out/ab, out/dev/build-gpu-head.
set -uo pipefail
OUT=${OUT:-/tmp/s27call2}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--N 64 --final-states 0" \
  "--N 64 --final-states 0 --z 1" \
  "--N 64 --batch 128 --seqlen 512 --final-states 0" \
  "--N 64 --final-states 0 --packed 4" \
  "--final-states 0" |
  bash scripts/probe_ab.sh --rounds 3 --variants "base bal" > "$OUT/probe_ab.log" 2>&1
tail -8 "$OUT/probe_ab.log"
printf "%s\n" "--config R4" "--config R1 --batch 2 --seqlen 32768" |
  bash scripts/api_ab.sh --rounds 8 --lib base=out/ab/baselib --lib new=out/dev/build-gpu-head \
    --lib new_nopdl=out/dev/build-gpu-head,FLASHSSD_DISABLE_PDL=1 > "$OUT/api_ab.log" 2>&1
tail -3 "$OUT/api_ab.log"
