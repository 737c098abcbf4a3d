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
# (Never run: session 55 got no H200. Its timing loops moved to scripts/device_split_timing.sh
# in session 56.)
bash scripts/device_split_timing.sh out/dev/s54main
