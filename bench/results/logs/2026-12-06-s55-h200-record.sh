#!/usr/bin/env bash
# The record on main's library (s54main) only where the call got an H200, whose figures the
# issue's targets name: on any other card it stops in seconds (REQUIRE_GPU), so that an H100
# start costs only the start (this code has two H100 records already: session 54 call 9 and
# session 55 call 1; its suites, sanitizers and GPU pytest ran in session 55 calls 1-2).
# After the record (~270 s), in place of the checks: where R1 32k z's time goes on the H200.
# Its records there read 0.640-0.823 ms across sessions 41-53 (16k z ~0.50-0.51), i.e. +0.13
# to +0.3 ms for the split machinery, against a steady +0.12-0.13 on H100s (R1 32k ungated:
# +0.11 on both). Every kernel's duration (ncu) at R1 16k / 32k, z and not, and flashssd_bench's
# own timing of them (1000 iterations, L2 flushed before each), ~70 s.
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s55-h200-record.sh   (carry out/carry third_party_bench)
set -u
TOTAL_ALL=${TOTAL_ALL:-300} REQUIRE_GPU=H200 bash scripts/device_record.sh s54main || exit $?
F=out/dev/s54main
for row in "16384" "16384 --z" "32768" "32768 --z"; do
  tag=$(echo "$row" | tr -d ' -')
  LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $F/bench/flashssd_bench --config R1 --seqlen $row --iters 2 --warmup 1 --no-verify > "$OUT/ncu_$tag.csv" 2>&1
  echo "== ncu R1 $row rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_$tag.csv"
done | tee "$OUT/ncu_r1_split.txt"
for round in 1 2; do
  for row in "16384" "16384 --z" "32768" "32768 --z"; do
    echo "round $round R1 $row: $(LD_LIBRARY_PATH=$PWD/$F timeout 30 $F/bench/flashssd_bench --config R1 --seqlen $row --iters 1000 --warmup 50 --no-verify 2>&1 | tail -1)"
  done
done | tee "$OUT/bench_r1_split.txt"
rm -f "$OUT"/ncu_*.csv
