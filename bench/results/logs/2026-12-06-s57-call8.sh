#!/usr/bin/env bash
# Session 57, call 8 (ask for an nvidia-h200). s57final = branch s57-window's f83805b: the same
# SASS as s57win in all 58 kernels (scripts/sass_diff.py; s57win's suites, sanitizers, record and
# quick pytest ran in calls 4-5), host changes only: runs of 64 tiles, and "auto" takes the
# windowed state pass (R4 too), as calls 6-7 measured by the environment.
# - On an H200: the record on s57final with its checks (TOTAL_ALL 430), then the quick GPU pytest.
# - On another card: its suites (default, the state and fix-up schemes forced at 3 splits, the
#   Hopper suite), memcheck on the small shapes by default, the quick GPU pytest.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call8.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s57final > /dev/null || exit 1
M=out/dev/s57final
run_pytest() {  # <log name> [pytest -k expression]
  LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$PWD/$M/python:$PWD/third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/$1.json \
    timeout ${PYTEST_LIMIT:-150} python3 -m pytest tests/python/test_gpu.py ${2:+-k "$2"} -v -rs -p no:cacheprovider \
    --durations=10 > "$OUT/$1.log" 2>&1
  echo "pytest $1 rc=$? at ${SECONDS} s"; tail -3 "$OUT/$1.log"
}
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=430 bash scripts/device_record.sh s57final; echo "record + checks rc=$? at ${SECONDS} s"
else
  . scripts/device_variant.sh
  VARIANT_SCHEMES="state fixup"
  variant_suites final $M
  LD_LIBRARY_PATH=$PWD/$M timeout 100 compute-sanitizer --tool memcheck $M/tests/gpu/flashssd_gpu_tests \
    --gtest_filter='*Small*:GpuForwardSplit.StatePassItemLengths*' > "$OUT/final_memcheck_default.log" 2>&1
  echo "final memcheck default rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/final_memcheck_default.log" | head -4
  variant_pack final_checks
fi
run_pytest pytest_quick "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
