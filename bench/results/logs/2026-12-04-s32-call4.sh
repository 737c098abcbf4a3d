#!/usr/bin/env bash
# Session 32, device call 4 (probe, timing): fz (e68dec1, call 3: -1.0% R1 8k, fw -4.6%) against
# fz2 (factored tiles issue the state update right behind the intra GEMM, no wait between; the
# readout multiply after the turn; the working tree's kernel) and fz3 (fz2 + the exact form's
# intra weights read from an array of ones in shared memory instead of 16 selects per tile;
# /tmp/v_fz3, diff `2026-12-04-s32-call4-fz3.diff` on fz2). Carry: out/ab36.
set -u
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--z 1 --final-states 0" \
  "--z 1 --batch 128 --seqlen 512 --final-states 0" |
  timeout 300 bash scripts/probe_ab.sh --dir out/ab36 --rounds 3 --variants "head fw fz fz2 fz3" > "$O/probe_ab.log" 2>&1
grep -A6 "^summary" "$O/probe_ab.log"
