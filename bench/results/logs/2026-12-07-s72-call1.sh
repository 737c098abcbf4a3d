#!/usr/bin/env bash
# Session 72, call 1 (any H100 / H200). Two parts:
#  1. on an H200 only: the benchmark of record of main's kernels (s71main: ac56c5c's build, whose
#     SASS equals HEAD's, `2026-12-07-s71-review-sass.txt`), checks skipped (session 71 call 2 ran
#     them on these binaries): scripts/device_record.sh with TOTAL_ALL=330 (~306 s);
#  2. on any card: d2u's verification, session 71's call 10 unchanged (`2026-12-07-s71-call10.sh`,
#     ~200 s), its files packed in $OUT/d2u.tgz.
# Carry out/carry/s71main.tar.xz out/carry/s71d2u.tar.xz third_party_bench.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s72-call1.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=330 OUT=$OUT bash scripts/device_record.sh s71main
  echo "record part done at ${SECONDS} s"
fi
mkdir -p "$OUT/d2u"
OUT=$OUT/d2u bash bench/results/logs/2026-12-07-s71-call10.sh > "$OUT/d2u/call.txt" 2>&1
echo "d2u part rc=$? at ${SECONDS} s"; cat "$OUT/d2u/call.txt"
tar -czf "$OUT/d2u.tgz" -C "$OUT" d2u && rm -rf "$OUT/d2u"
echo "done at ${SECONDS} s"
