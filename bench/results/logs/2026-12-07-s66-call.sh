#!/usr/bin/env bash
# Session 66's call (carry out/carry/s65path.tar.xz out/carry/s65main.tar.xz third_party_bench):
# session 65's call 3 (branch s65-path's checks before its merge) on any card; on an H200 its
# checks without the optional tail (half-block suite, R1 8k A/B) and then the benchmark of record on
# s65path (whose kernels' SASS is main's: sass_diff 68 identical), as the targets are the H200's.
#   device: [SHORT=1] OUT=$OUT bash bench/results/logs/2026-12-07-s66-call.sh > $OUT/call.txt 2>&1
# SHORT=1 (where less than ~500 s of device time is left): call 3 without its optional tail (the
# half-block suite and the R1 8k A/B, which ran in session 65's call 1 on the same SASS) on any
# card, and no record (carry both staged builds still: call 3 unpacks both).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
# (call 3 sourced with SECONDS past 350 skips its optional tail)
call3_checks() { ( SECONDS=400; source bench/results/logs/2026-12-07-s65-call3.sh ); }
if [ "${SHORT:-0}" = 1 ]; then
  call3_checks
  exit
fi
if [[ "$card" != *H200* ]]; then
  OUT=$OUT bash bench/results/logs/2026-12-07-s65-call3.sh
  exit
fi
mkdir -p "$OUT/c3"
OUT=$OUT/c3 call3_checks > "$OUT/c3/call3.txt" 2>&1  # (without the tail: the record needs the time)
cat "$OUT/c3/call3.txt"
(cd "$OUT" && tar -czf call3.tgz c3 && rm -rf c3)
echo "call 3's checks done at ${SECONDS} s"
TOTAL_ALL=0 OUT=$OUT bash scripts/device_record.sh s65path
(cd "$OUT" && [ -f bench.log ] && tar -czf record_logs.tgz bench.log && rm -f bench.log)
ls "$OUT"
echo "all done at ${SECONDS} s"
