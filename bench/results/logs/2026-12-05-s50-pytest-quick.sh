#!/usr/bin/env bash
# NOT RUN: the device tool answered "too little device-machine time is left to start another machine" (290 s left).
# Session 50, call 6: the GPU pytest without its mamba_ssm comparisons on main 4a41642's build
# (out/dev/s50final: build-gpu staged; its library's SASS is call 5's s50vr's by sass_diff), with
# the budget's last ~290 s.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-pytest-quick.sh   (carry out/carry)
set -u
bash scripts/carry.sh unpack s50final > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
M=out/dev/s50final
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python timeout 150 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > "$OUT/pytest_gpu_quick.log" 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -6 "$OUT/pytest_gpu_quick.log"
