#!/usr/bin/env bash
# Session 74's H200 call, one call for what the budget left (~700 s after eleven refused asks):
#  1. session 73's call-next without its record (RECORD=0, NO_MAIN69=1): the API A/B of
#     s72main (main's kernels), s73d2n128, s73gnofm2, s73both, 3 rounds, 11 rows, and
#     scripts/ab_choose.py's choice by session 72's rules;
#  2. the broadcast test of main's HEAD build (s74main) (2026-12-07-s74-followup.sh, SKIP_MAIN=1);
#  3. a variant chosen: its quick checks (the follow-up, NAME=<chosen>), so that a merge waits
#     only for the record.
# Carry out/carry/{s72main,s65path,s73d2n128,s73gnofm2,s73both,s74main}.tar.xz third_party_bench
# (and the chosen build is among them).
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s74-call.sh > $OUT/call.txt 2>&1
set -u
RECORD=0 NO_MAIN69=1 OUT=$OUT bash bench/results/logs/2026-12-07-s73-call-next.sh | tee "$OUT/call_next.txt"
rc=${PIPESTATUS[0]}
echo "call-next rc=$rc at ${SECONDS} s"
[ "$rc" -eq 3 ] && exit 3  # not an H200: nothing else run
chosen=$(sed -n 's/^chosen: //p' "$OUT/call_next.txt" | tail -1)
SKIP_MAIN=1 NAME=${chosen:-none} OUT=$OUT bash bench/results/logs/2026-12-07-s74-followup.sh
echo "follow-up rc=$? at ${SECONDS} s"
