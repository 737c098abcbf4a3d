#!/usr/bin/env bash
# Session 27 call 1 (device): session 26's prepared call 7 (what the mask and S' store cost:
# nomask, timing only) beside this session's shared S' for P = 128 (share: the two consumers of
# a head's two slices each mask and store half of S''s 16-column groups into one buffer per
# tile, a barrier of both, both read all of it; -call1-share.diff), base = HEAD's kernels.
# Builds (here): base_probe = scripts/build_probe.sh out/ab/base_probe; nomask_probe as in
# 2026-12-03-s26-call7-not-run.sh; share_probe = build_probe.sh on a tree with -call1-share.diff.
# Carry: out/ab (base_probe, nomask_probe, share_probe).
set -uo pipefail
OUT=${OUT:-/tmp/s27call1}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--P 128 --N 128 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--N 64 --final-states 0" \
  "--final-states 0" \
  "--final-states 0 --z 1" |
  bash scripts/probe_ab.sh --rounds 3 --variants "base nomask share" > "$OUT/probe_ab.log" 2>&1
tail -25 "$OUT/probe_ab.log"
