#!/usr/bin/env bash
# Session 36's prepared device call for the next session (not run: no device time left).
# R4 did not move in session 36's record (1.345 -> 1.347 ms) although its main pass runs the
# kernel that gained the third stage (6cfa101; probe R1 8k -2.2..-2.6%). Time that main pass
# alone at R4's and R1 32k's plans (the probe's new --main-splits), head (76f3be1's kernels)
# against os3 (HEAD's), 3 rounds, ~1 min on a warm machine.
# Build here first (~3 min), from the checkout at HEAD:
#   mkdir -p out/ab43 && rm -rf /tmp/v_head && mkdir /tmp/v_head
#   git archive 76f3be1 src include | tar x -C /tmp/v_head && cp -r bench /tmp/v_head/
#   scripts/build_probe.sh /tmp/v_head out/ab43/head_probe && scripts/build_probe.sh out/ab43/os3_probe
# Carry out/ab43.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--batch 1 --seqlen 131072 --main-splits 4 --final-states 0" \
  "--batch 1 --seqlen 524288 --main-splits 4 --final-states 0" \
  "--batch 2 --seqlen 32768 --main-splits 2 --final-states 0" \
  "--batch 2 --seqlen 32768 --main-splits 2 --final-states 0 --z 1" "--final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab43 --rounds 3 --variants "head os3" > $O/ab.log 2>&1
tail -6 $O/ab.log
