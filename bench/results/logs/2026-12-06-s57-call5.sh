#!/usr/bin/env bash
# Session 57, call 5 (the H200 of call 4, while warm): the record on branch s57-window (staged as
# s57win: suites, memcheck and racecheck passed in call 4 on this H200) with its checks
# (TOTAL_ALL 420), then the GPU pytest without the 14 mamba_ssm comparisons. On another card: the
# GPU pytest only.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call5.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s57win > /dev/null || exit 1
M=out/dev/s57win
run_pytest() {  # <log name> [pytest -k expression]
  LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$PWD/$M/python:$PWD/third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/$1.json \
    timeout ${PYTEST_LIMIT:-150} python3 -m pytest tests/python/test_gpu.py ${2:+-k "$2"} -v -rs -p no:cacheprovider \
    --durations=10 > "$OUT/$1.log" 2>&1
  echo "pytest $1 rc=$? at ${SECONDS} s"; tail -3 "$OUT/$1.log"
}
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=420 bash scripts/device_record.sh s57win; echo "record + checks rc=$? at ${SECONDS} s"
fi
run_pytest pytest_quick "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
