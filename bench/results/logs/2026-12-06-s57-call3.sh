#!/usr/bin/env bash
# Session 57, call 3 (ask for an nvidia-h200). main = s56main (f38406e).
# - On an H200: session 56's call 7 (the record on s56main, its checks, the quick GPU pytest,
#   scripts/device_split_timing.sh; ~560 s).
# - On another card: scripts/device_split_timing.sh alone (~70 s), its first run: the tool is
#   checked before an H200 session depends on it, and the H100's per-kernel times of R1 16k /
#   32k (with and without z) are recorded beside the H200's when one comes.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call3.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
if [[ "$card" == *H200* ]]; then exec bash bench/results/logs/2026-12-06-s56-call7.sh; fi
bash scripts/carry.sh unpack s56main > /dev/null || exit 1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
bash scripts/device_split_timing.sh out/dev/s56main
echo "all done at ${SECONDS} s"
