#!/usr/bin/env bash
# Session 64 call 7 (carry out/carry/s64.tar.xz): the whole forward suite on the portable kernel
# (FLASHSSD_DISABLE_SM90=1; its launch was reshaped for the half head-dim block), then again with
# the half block forced wherever one is built (FLASHSSD_SM80_HALF_HEAD_BLOCK=1: every option test,
# the split tests included, on the half blocks at N = 128 / 256), memcheck of the small shapes with
# the half block forced where the call has time (MEMCHECK_BEFORE, 200 s), and the segsum suite
# (not run on this build in call 3 or 5).
#   device: [V=<staged name>] OUT=$OUT bash bench/results/logs/2026-12-07-s64-call7.sh > $OUT/call.txt 2>&1
# (V: s64 by default; s65main is main's build at ca3536b, carry out/carry/<V>.tar.xz)
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
V=${V:-s64}
bash scripts/carry.sh unpack "$V" > /dev/null || exit 1
F=out/dev/$V; T=$F/tests/gpu/flashssd_gpu_tests
export LD_LIBRARY_PATH=$PWD/$F
FLASHSSD_DISABLE_SM90=1 timeout 100 $T > $OUT/sm80_default.log 2>&1
echo "portable kernel, default blocks rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/sm80_default.log
FLASHSSD_DISABLE_SM90=1 FLASHSSD_SM80_HALF_HEAD_BLOCK=1 timeout 100 $T > $OUT/sm80_half.log 2>&1
echo "portable kernel, half blocks forced rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/sm80_half.log
timeout 60 $F/tests/gpu/flashssd_segsum_gpu_tests > $OUT/segsum.log 2>&1
echo "segsum suite rc=$? at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/segsum.log
(cd $OUT && tar -czf call7_suites.tgz ./*.log && rm -f ./*.log)  # (back even if the lease ends below)
if [ $SECONDS -lt "${MEMCHECK_BEFORE:-200}" ]; then
  FLASHSSD_DISABLE_SM90=1 FLASHSSD_SM80_HALF_HEAD_BLOCK=1 FLASHSSD_NUM_SPLITS=3 timeout 90 compute-sanitizer --tool memcheck \
    $T --gtest_filter='*Small*' > $OUT/sm80_half_memcheck3.log 2>&1
  echo "memcheck, half blocks forced, 3 splits rc=$? at ${SECONDS} s"; grep -E "ERROR SUMMARY" $OUT/sm80_half_memcheck3.log
  (cd $OUT && tar -czf call7_memcheck.tgz ./*.log && rm -f ./*.log)
fi
echo "all done at ${SECONDS} s"
