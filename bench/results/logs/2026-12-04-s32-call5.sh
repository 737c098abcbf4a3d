#!/usr/bin/env bash
# Session 32, device call 5 (probe, timing): fz4 = fz with fw's order after the intra GEMM (the
# readout multiply after the turn, the next stage after the epilogue) and fz3's array of ones
# (the working tree's kernel); fz4p = fz4 with the consumer barrier (previous y's store) after
# the intra GEMM's issue in factored tiles; fz4x = fz4 with the exact form compiled out (timing
# only: the cost of the fallback's presence). Against head, fw, fz. Carry: out/ab37.
set -u
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--z 1 --final-states 0" \
  "--z 1 --batch 128 --seqlen 512 --final-states 0" |
  timeout 300 bash scripts/probe_ab.sh --dir out/ab37 --rounds 3 --variants "head fw fz fz4 fz4p fz4x" > "$O/probe_ab.log" 2>&1
grep -A6 "^summary" "$O/probe_ab.log"
