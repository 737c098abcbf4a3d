#!/usr/bin/env bash
# Session 32, device call 6 (probe, timing): fz5 = fz4 with the exact form's mask, S' store and
# barrier after h C^T retires (no GEMM in flight beside the mask; `-call6-fz5.diff` on fz4)
# against head, fw, fz4 (working tree) and fz4x (fz4 without the exact form, timing only).
# Carry: out/ab38.
set -u
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--z 1 --final-states 0" \
  "--z 1 --batch 128 --seqlen 512 --final-states 0" |
  timeout 300 bash scripts/probe_ab.sh --dir out/ab38 --rounds 3 --variants "head fw fz4 fz5 fz4x" > "$O/probe_ab.log" 2>&1
grep -A6 "^summary" "$O/probe_ab.log"
