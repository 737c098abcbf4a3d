#!/usr/bin/env bash
# Session 56, call 4, on two GPUs (nvidia-h100-x2): the GPU pytest file without its 14 mamba_ssm
# comparisons on main's library (s56main, staged at f38406e), so that the two-device test (tensors on
# a device that is not the current one, three cases since this session: the plain, packed and
# split paths; each device its own workspace pool) runs for the first time; sessions 6-55 had
# one GPU and skipped it. Then the C++ GPU suite on the second device alone.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call4.sh   (carry out/carry)
set -u
bash scripts/carry.sh unpack s56main > /dev/null || exit 1
nvidia-smi --query-gpu=index,name --format=csv,noheader
M=out/dev/s56main
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python timeout 240 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -v -rs -p no:cacheprovider > "$OUT/pytest_two_gpus.log" 2>&1
echo "pytest (no Triton comparisons) rc=$?"; grep -E "non_current|passed|failed|skipped" "$OUT/pytest_two_gpus.log" | tail -8
CUDA_VISIBLE_DEVICES=1 LD_LIBRARY_PATH=$PWD/$M timeout 100 $M/tests/gpu/flashssd_gpu_tests > "$OUT/gpu_tests_device1.log" 2>&1
echo "gpu_tests on device 1 rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/gpu_tests_device1.log"
echo "all done at ${SECONDS} s"
