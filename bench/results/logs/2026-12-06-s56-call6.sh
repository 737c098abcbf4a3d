#!/usr/bin/env bash
# Session 56, call 6 (ask for an nvidia-h200). main = s56main (f38406e; its suites and sanitizers
# ran in calls 2-3 on an H100, its H100 record in call 5).
# - On an H200: the record and, as time allows, the checks (TOTAL_ALL 420), then the GPU pytest
#   without the 14 mamba_ssm comparisons (~35 s) and scripts/device_split_timing.sh (~70 s).
# - On another card: the whole GPU pytest file (the 14 mamba_ssm comparisons included, ~5-6 min),
#   which has not run on the sets_per_group cleanup's kernels.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call6.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s56main > /dev/null || exit 1
M=out/dev/s56main
run_pytest() {  # <log name> [pytest -k expression]
  LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$PWD/$M/python:$PWD/third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/$1.json \
    timeout ${PYTEST_LIMIT:-150} python3 -m pytest tests/python/test_gpu.py ${2:+-k "$2"} -v -rs -p no:cacheprovider \
    --durations=10 > "$OUT/$1.log" 2>&1
  echo "pytest $1 rc=$? at ${SECONDS} s"; tail -3 "$OUT/$1.log"
}
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=420 bash scripts/device_record.sh s56main; echo "record + checks rc=$? at ${SECONDS} s"
  run_pytest pytest_quick "not mamba_ssm_triton"
  bash scripts/device_split_timing.sh $M
else
  PYTEST_LIMIT=540 run_pytest pytest_gpu
fi
echo "all done at ${SECONDS} s"
