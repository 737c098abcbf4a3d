#!/usr/bin/env bash
# Session 65's call 3 cut to what fits session 66's last device time (~400 s left): branch
# s65-path's forward suite (default dispatch; its Sm80HalfHeadBlocks test forces the half block
# itself), the Hopper suite, memcheck of the small shapes (default), the quick GPU pytest (the new
# forward_path test) and the torch CPU forward_path tests. Dropped from call 3: memcheck with the
# half block at 3 splits, the half-block suite and the R1 8k A/B (the kernels' SASS is s65main's,
# where session 65's call 1 ran those), so s65main is not carried.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s66-call3-short.sh > $OUT/call.txt 2>&1
#   (carry out/carry/s65path.tar.xz)
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
bash scripts/carry.sh unpack s65path > /dev/null || exit 1
source scripts/device_variant.sh
F=out/dev/s65path; T=$F/tests/gpu/flashssd_gpu_tests
export LD_LIBRARY_PATH=$PWD/$F
timeout 100 $T > $OUT/gpu_default.log 2>&1
echo "forward suite, default rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)|ForwardPath|Sm80Half" $OUT/gpu_default.log | grep -v RUN
timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/sm90.log 2>&1
echo "Hopper suite rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/sm90.log
variant_pack call3_suites
PYTEST_LIMIT=120 variant_pytest pytest_quick $F "not mamba_ssm_triton"
PYTHONPATH=$PWD/$F/python timeout 60 python3 -m pytest tests/python/test_torch_cpu.py -k "forward_path or exports" -v -p no:cacheprovider > $OUT/pytest_cpu_path.log 2>&1
echo "torch CPU forward_path tests rc=$? at ${SECONDS} s"; tail -1 $OUT/pytest_cpu_path.log
variant_pack call3_pytest
timeout 80 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $OUT/memcheck_default.log 2>&1
echo "memcheck, default rc=$? at ${SECONDS} s"; grep -E "ERROR SUMMARY" $OUT/memcheck_default.log
variant_pack call3_memcheck
echo "all done at ${SECONDS} s"
