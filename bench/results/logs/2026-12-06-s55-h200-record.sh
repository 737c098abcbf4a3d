#!/usr/bin/env bash
# The record on main's library (s54main) only where the call got an H200, whose figures the
# issue's targets name: on any other card it stops in seconds (REQUIRE_GPU), so that an H100
# start costs only the start (this code has two H100 records already: session 54 call 9 and
# session 55 call 1).
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s55-h200-record.sh   (carry out/carry third_party_bench)
REQUIRE_GPU=H200 exec bash scripts/device_record.sh s54main
