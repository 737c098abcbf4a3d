#!/usr/bin/env bash
# Session 62, call 1 (carry out/carry third_party_bench): main's exact build (s62main = 2dad1d7,
# SASS as s61wl) and s62ev (main + the side stream's events made once per thread and device,
# 2026-12-06-s62-events.patch; host code only).
# - On an H200: the benchmark of record on s62main with its checks (the newest H200 record is
#   session 57's), then the quick GPU pytest on s62ev (graph capture, streams, the split path).
# - Elsewhere: the whole pre-merge list on s62main (variant_checks: the window search's loads,
#   2249662, were merged after their forced-window suite and memcheck only), then the quick GPU
#   pytest on s62ev.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
bash scripts/carry.sh unpack s62ev > /dev/null || exit 1
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=420 bash scripts/device_record.sh s62main; echo "record + checks rc=$? at ${SECONDS} s"
  PYTEST_LIMIT=130 variant_pytest pytest_quick_ev out/dev/s62ev "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
bash scripts/carry.sh unpack s62main > /dev/null || exit 1
variant_checks main out/dev/s62main
echo "checks at ${SECONDS} s"
PYTEST_LIMIT=130 variant_pytest pytest_quick_ev out/dev/s62ev "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
