#!/usr/bin/env bash
# Session 54, the last call: the record on main after the N = 256 warpgroup broadcast (staged
# s54main, its commit in out/dev/s54main/COMMIT), the record only (TOTAL_ALL=300 leaves the checks
# out: every kernel's SASS is one that calls 1, 4 and 7 checked).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s54-record.sh   (carry out/carry third_party_bench)
TOTAL_ALL=300 exec bash scripts/device_record.sh s54main
