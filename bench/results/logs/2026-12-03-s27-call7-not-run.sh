#!/usr/bin/env bash
# Session 27 call 7 (device; prepared, not run: too little device time was left to start a
# machine): the N = 64 z kernel with the consumers' ping-pong turns (pp; session 6 measured it
# 13% slower at N = 64 with z, on a kernel since changed), and with the turns and S's balanced
# rows (ppbal); head = HEAD's kernels (= 40f1555's). Probe, 3 rounds (~1 min).
# pp: kPingPong also for kGateZ at N = 64 (-call7-pp-not-run.diff); ppbal: the same and
# kBalancedScores = true (-call7-ppbal-not-run.diff). ptxas -v: no spill, no C75xx in either.
# Builds (here): scripts/build_probe.sh on HEAD (head_probe) and on the two edited trees.
# Carry: out/ab (head_probe, pp_probe, ppbal_probe).
set -uo pipefail
OUT=${OUT:-/tmp/s27call7}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1" \
  "--N 64 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" |
  bash scripts/probe_ab.sh --rounds 3 --variants "head pp ppbal" > "$OUT/probe_ab.log" 2>&1
tail -5 "$OUT/probe_ab.log"
