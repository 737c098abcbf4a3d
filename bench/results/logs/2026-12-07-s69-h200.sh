#!/usr/bin/env bash
# Session 69, on an H200 only (an H100 stops at once): the SM's own rate (11 CTAs) against the
# full grid for main (ungated, gated, N = 64) with xs and xi beside it (2026-12-07-s69-call.sh
# says what they are; timing only); then the benchmark of record on s65path (= main's code),
# then, with the time left in the call's 570 s, the suites and sanitizers on it.
# (Asks 1-6 ran an earlier form with the three-head kernel, t3h3 / t3skiph3, in place of xs / xi.)
# Carry out/carry/s65path.tar.xz third_party_bench out/ab/main_probe out/ab/xs_probe out/ab/xi_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s69-h200.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
[[ "$card" == *H200* ]] || { echo "not an H200: stop"; exit 3; }
timeout 120 bash scripts/probe_ab.sh --rounds 3 --variants "main xs xi" > $OUT/probe_ab_h200.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
CFG
echo "probe_ab rc=$?"; tail -4 $OUT/probe_ab_h200.log
timeout 40 bash scripts/probe_ab.sh --rounds 3 --variants "main" > $OUT/probe_ab_h200_z.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --H 66 --batch 12 --z 1
--final-states 0 --N 64 --P 128 --H 33 --batch 1 --grid 11
--final-states 0 --N 64 --P 128 --H 33 --batch 12
CFG
echo "probe_ab z rc=$?"; tail -5 $OUT/probe_ab_h200_z.log
echo "bounds done at ${SECONDS} s"
REQUIRE_GPU=H200 TOTAL_ALL=$((570 - SECONDS)) OUT=$OUT bash scripts/device_record.sh s65path
rc=$?
(cd "$OUT" && [ -f bench.log ] && tar -czf record_logs.tgz bench.log && rm -f bench.log)
ls "$OUT"
echo "rc $rc, all done at ${SECONDS} s"
