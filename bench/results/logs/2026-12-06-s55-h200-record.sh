#!/usr/bin/env bash
# The record on main's library (s54main) only where the call got an H200, whose figures the
# issue's targets name: on any other card it stops in seconds, so that an H100 start costs
# only the start (session 55 had two H100 records of the same code already, calls 1 and
# session 54's call 9).
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s55-h200-record.sh   (carry out/carry third_party_bench)
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $gpu"
case "$gpu" in
  *H200*) exec bash scripts/device_record.sh s54main ;;
  *) echo "not an H200: no record"; exit 3 ;;
esac
