#!/usr/bin/env bash
# For the next session, one call (~400 s): the GPU pytest file in full on main's library
# (staged s53main), the 14 mamba_ssm Triton comparisons included (third_party_bench, fetched by
# scripts/fetch_triton_baseline.sh). Session 53 ran it without them on the same SASS (call 6).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s53-next-pytest.sh   (carry out/carry third_party_bench)
set -u
bash scripts/carry.sh unpack s53main > /dev/null || exit 1
M=out/dev/s53main
PYTHONPATH=$M/python LD_LIBRARY_PATH=$PWD/$M FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json \
  timeout 480 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > "$OUT/pytest_gpu.log" 2>&1
echo "pytest rc=$?"; tail -25 "$OUT/pytest_gpu.log"
