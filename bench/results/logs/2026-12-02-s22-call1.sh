#!/bin/bash
# Session 22 call 1: session 21's prepared calls 6 and 7 and the checks and benchmark of HEAD
# (5e50b66: the state fold's floor 2^-64, not yet run on the device) in one call.
#   1. Sm90Forward.LargeStatesWithRefolds (x, B, C 1000x the tests') on the Hopper suite built
#      with the floor set back to 2^-100 (out/ab/sm90_tests_f100: test_sm90_forward.cu compiled
#      against a copy of src/ with kFoldFloor = 0x1p-100f, linked with the library): it should
#      fail there (Inf) and pass at HEAD (the checks below run HEAD's suite).
#   2. Probe A/B, API's dt, 3 rounds: final2 = c8acd4c (the record's kernels, floor 2^-100),
#      f64 = HEAD, ring2 = HEAD + -s21-call7-ring2.diff (dt two tiles ahead, two registers).
#   3. scripts/device_session.sh PART=checks, then PART=bench (the record) on HEAD's library.
# Carry out/dev/build-gpu, out/ab, third_party_bench.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
timeout 60 out/ab/sm90_tests_f100 --gtest_filter='*LargeStates*' > $O/sm90_tests_f100.log 2>&1
echo "f100 LargeStates rc=$?"; grep -E "rel err|non-finite|Inf|nan|PASSED|FAILED|OK \]" $O/sm90_tests_f100.log | head -12
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --packed 4" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "final2 f64 ring2" > $O/probe_ab.log 2>&1
echo "probe_ab rc=$?"; cat $O/probe_ab.log
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=$O/checks timeout 330 bash scripts/device_session.sh $B
grep -E "LargeStates" -A3 $O/checks/sm90_tests.log | grep -E "rel err|OK|FAILED" | head -6
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=bench OUT=$O/bench timeout 420 bash scripts/device_session.sh $B
