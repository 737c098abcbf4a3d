#!/usr/bin/env bash
# Session 74: the follow-up on the warm machine after 2026-12-07-s73-call-next.sh (or alone).
#  1. main's new host-side code (s74main, commits 4e8c49f and 7e8b049: int64 seq_idx never
#     wrapped, broadcast dimensions routed / copied): the GPU suite, the Hopper suite, the
#     broadcast test under memcheck, and tests/python/test_gpu.py but the Triton comparison
#     (its new int64 / broadcast cases included), packed as $OUT/s74main_checks.tgz (~150 s);
#  2. NAME set (both, d2n128, gnofm2: call-next's choice): that build's checks before a merge
#     (variant_quick_checks, as session 73's follow-up), packed as $OUT/checks.tgz (~200 s).
# SKIP_MAIN=1 runs only the broadcast test of step 1 (step 1 ran on an H100 at 23:22, call 10,
# before that test went through run_case).
# Carry out/carry/s74main.tar.xz (and out/carry/s73<NAME>.tar.xz).
#   device: NAME=none OUT=$OUT bash bench/results/logs/2026-12-07-s74-followup.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
bash scripts/carry.sh unpack s74main > /dev/null || exit 1
if [ -n "${SKIP_MAIN:-}" ]; then
  LD_LIBRARY_PATH=$PWD/out/dev/s74main timeout 60 out/dev/s74main/tests/gpu/flashssd_gpu_tests \
    --gtest_filter="*Broadcast*" > "$OUT/s74main_broadcast.log" 2>&1
  echo "broadcast test rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/s74main_broadcast.log"
else
mkdir -p "$OUT/m"
OUT=$OUT/m bash -c '. scripts/device_variant.sh
  F=out/dev/s74main
  LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_gpu_tests > $OUT/s74main_gpu_default.log 2>&1
  echo "GPU suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/s74main_gpu_default.log | head -5
  LD_LIBRARY_PATH=$PWD/$F timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/s74main_sm90.log 2>&1
  echo "sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/s74main_sm90.log | head -5
  LD_LIBRARY_PATH=$PWD/$F timeout 60 compute-sanitizer --tool memcheck $F/tests/gpu/flashssd_gpu_tests \
    --gtest_filter="*Broadcast*" > $OUT/s74main_broadcast_memcheck.log 2>&1
  echo "broadcast memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $OUT/s74main_broadcast_memcheck.log | head -3
  PYTEST_LIMIT=200 variant_pytest s74main_pytest $F "not mamba_ssm_triton"
  grep -E "int64|strided_and_misaligned" $OUT/s74main_pytest.log | head -4
  variant_pack s74main_checks'
echo "s74main checks at ${SECONDS} s"
mv "$OUT/m/s74main_checks.tgz" "$OUT/" 2>/dev/null; mv "$OUT/m/"*.json "$OUT/" 2>/dev/null; rm -rf "$OUT/m"
fi
if [ "${NAME:-none}" != none ]; then
  build=s73$NAME
  bash scripts/carry.sh unpack $build > /dev/null || exit 1
  mkdir -p "$OUT/chk"
  OUT=$OUT/chk timeout $((580 - SECONDS)) bash -c '. scripts/device_variant.sh; variant_quick_checks "$0" "$1"; variant_pack checks' \
    "$NAME" "out/dev/$build"
  echo "checks rc=$? at ${SECONDS} s"
  mv "$OUT/chk/checks.tgz" "$OUT/" 2>/dev/null; rm -rf "$OUT/chk"
fi
