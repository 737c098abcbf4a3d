#!/usr/bin/env bash
# Session 65 call 3 (carry out/carry/s65path.tar.xz out/carry/s65main.tar.xz): branch s65-path
# (ssd_forward_path; the sm80 launch's describe-only argument; host code, the kernels' SASS as
# s65main's) before its merge: the forward suite by default and on the portable kernel with the half
# block forced (its test now asserts the path ran; the portable kernel's default blocks ran in call 1 on the same SASS), the Hopper suite, memcheck of the small shapes
# (portable kernel with the half block at 3 splits; default), the quick GPU pytest (the new
# forward_path test included), the torch CPU forward_path tests (this machine's Python has no torch), and flashssd_bench on both builds (R1 8k, 2 rounds) if the call is under 350 s by then; the half-block suite first if under 250 s (the tests ordered by what the merge needs).
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s65-call3.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for v in s65path s65main; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
source scripts/device_variant.sh
F=out/dev/s65path; T=$F/tests/gpu/flashssd_gpu_tests
export LD_LIBRARY_PATH=$PWD/$F
timeout 100 $T > $OUT/gpu_default.log 2>&1
echo "forward suite, default rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)|ForwardPath|Sm80Half" $OUT/gpu_default.log | grep -v RUN
timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/sm90.log 2>&1
echo "Hopper suite rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/sm90.log
variant_pack call3_suites
timeout 90 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $OUT/memcheck_default.log 2>&1
echo "memcheck, default rc=$? at ${SECONDS} s"; grep -E "ERROR SUMMARY" $OUT/memcheck_default.log
FLASHSSD_DISABLE_SM90=1 FLASHSSD_SM80_HALF_HEAD_BLOCK=1 FLASHSSD_NUM_SPLITS=3 timeout 90 compute-sanitizer --tool memcheck \
  $T --gtest_filter='*Small*' > $OUT/memcheck_half3.log 2>&1
echo "memcheck, half blocks forced, 3 splits rc=$? at ${SECONDS} s"; grep -E "ERROR SUMMARY" $OUT/memcheck_half3.log
variant_pack call3_memcheck
PYTEST_LIMIT=200 variant_pytest pytest_quick $F "not mamba_ssm_triton"
PYTHONPATH=$PWD/$F/python timeout 120 python3 -m pytest tests/python/test_torch_cpu.py -k "forward_path or exports" -v -p no:cacheprovider > $OUT/pytest_cpu_path.log 2>&1
echo "torch CPU forward_path tests rc=$? at ${SECONDS} s"; tail -1 $OUT/pytest_cpu_path.log
variant_pack call3_pytest
if [ $SECONDS -lt 250 ]; then
  FLASHSSD_DISABLE_SM90=1 FLASHSSD_SM80_HALF_HEAD_BLOCK=1 timeout 100 $T > $OUT/gpu_sm80_half.log 2>&1
  echo "forward suite, portable kernel, half blocks forced rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/gpu_sm80_half.log
  variant_pack call3_half
fi
if [ $SECONDS -lt 350 ]; then
  for round in 1 2; do
    for v in s65main s65path; do
      echo "round $round $v R1 8k: $(LD_LIBRARY_PATH=$PWD/out/dev/$v timeout 60 out/dev/$v/bench/flashssd_bench --config R1 --seqlen 8192 --iters 200 --warmup 20 2>&1 | tail -2 | tr '\n' ' ')"
    done
  done | tee $OUT/bench.txt
fi
echo "all done at ${SECONDS} s"
