#!/usr/bin/env bash
# Session 50, call 4: the GPU pytest in full (with its mamba_ssm Triton comparisons; last run in
# full in session 46: 77 passed) on main 37201c6's build (out/dev/s50main; the Python module built
# for Python 3.12 with it). ~6.5 min on an H200 in session 46, mostly Triton's autotuning.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-pytest.sh   (carry out/carry third_party_bench)
# (Not run in session 50. Session 51: STAGE names another staged build, e.g. STAGE=s51main from
# 2026-12-05-s51-next-prepare.sh.)
set -u
STAGE=${STAGE:-s50main}
bash scripts/carry.sh unpack "$STAGE" > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
M=out/dev/$STAGE
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python:third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json \
  timeout 480 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > "$OUT/pytest_gpu.log" 2>&1
echo "pytest rc=$?"; tail -25 "$OUT/pytest_gpu.log"
