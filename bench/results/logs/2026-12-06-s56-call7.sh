#!/usr/bin/env bash
# Session 56, call 7 (ask for an nvidia-h200): call 6's H200 branch only (the record on s56main and
# its checks, the GPU pytest without the mamba_ssm comparisons, scripts/device_split_timing.sh);
# on another card it stops in seconds (exit 3): main's H100 record (call 5), suites and
# sanitizers (calls 2-3) and whole GPU pytest (call 6) have run.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call7.sh   (carry out/carry third_party_bench)
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
[[ "$card" == *H200* ]] || { echo "card: $card, not an H200: no record"; exit 3; }
exec bash bench/results/logs/2026-12-06-s56-call6.sh
