#!/usr/bin/env bash
# Session 56, from call 11 on (ask for an nvidia-h200; ~360 s on one): with less device time left
# than call 7 needs (~560 s), the H200 record on s56main alone, then scripts/device_split_timing.sh
# (R1 32k z's H200-only spread). On another card it stops in seconds (exit 3).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call11.sh   (carry out/carry third_party_bench)
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
[[ "$card" == *H200* ]] || { echo "card: $card, not an H200: no record"; exit 3; }
TOTAL_ALL=0 bash scripts/device_record.sh s56main; echo "record rc=$? at ${SECONDS} s"
bash scripts/device_split_timing.sh out/dev/s56main
echo "all done at ${SECONDS} s"
