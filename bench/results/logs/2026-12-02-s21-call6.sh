#!/bin/bash
# Session 21 call 6 (the device budget's last ~3 minutes): the state fold's floor, 2^-100 ->
# 2^-64. At 2^-100 the folded state and its readout may reach 2^100 times h and h C^T, so
# states over ~2^28 overflow fp32 where the plain recurrence does not. The new test
# Sm90Forward.LargeStatesWithRefolds (x, B, C 1000x) on
#   sm90_tests_f100   the Hopper suite built at c8acd4c's floor 2^-100 (the record's kernels)
#   the library's     the Hopper and API suites at this call's commit (2^-64; out/dev/build-gpu)
# then the probe A/B of the two floors (final2 = c8acd4c, f64 = this commit).
# Builds (session 21 made them; out/ is not committed, so rebuild if they are gone):
#   out/ab/sm90_tests_f100: build-gpu's flashssd_sm90_gpu_tests target with kFoldFloor set back
#     to 0x1p-100f in src/kernels/sm90/ssd_fwd_sm90.cuh (tests at this commit), copied;
#   out/ab/final2_probe: scripts/build_probe.sh <git archive c8acd4c src include bench> out/ab/final2_probe;
#   out/ab/f64_probe: scripts/build_probe.sh out/ab/f64_probe at this commit;
#   out/dev/build-gpu: cmake --build build-gpu && scripts/stage_device_build.sh build-gpu build-gpu.
# Carry out/dev/build-gpu and out/ab (~41 MB).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
timeout 60 out/ab/sm90_tests_f100 --gtest_filter='*LargeStates*' > $O/sm90_tests_f100.log 2>&1
echo "f100 LargeStates rc=$?"; grep -E "rel err|PASSED|FAILED" $O/sm90_tests_f100.log | head -8
timeout 100 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1
echo "sm90_tests rc=$?"; grep -E "LargeStates|PASSED|FAILED" $O/sm90_tests.log | tail -6; grep -B1 -A3 "LargeStatesWithRefolds" $O/sm90_tests.log | grep "rel err"
timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1
echo "gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -3
FLASHSSD_NUM_SPLITS=3 timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_splits3.log 2>&1
echo "gpu_tests (3 splits) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_splits3.log | tail -3
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" \
  | timeout 60 bash scripts/probe_ab.sh --rounds 2 --variants "final2 f64" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
