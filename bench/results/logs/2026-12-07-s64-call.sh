#!/usr/bin/env bash
# Session 64's device call (carry out/carry/s64.tar.xz third_party_bench). s64 = main (5a0feb7) + the
# s63-tidy branch (host code: StreamFork's flag; validation's NotSupported for device dims the kernels
# do not serve) + the portable kernel's half head-dim block (sm80: taken where the default's shared
# memory does not fit, forced by FLASHSSD_SM80_HALF_HEAD_BLOCK=1 in the new GPU test
# GpuForwardSmall.Sm80HalfHeadBlocksMatchReference). The Hopper kernels' SASS is unchanged.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s64-call.sh > $OUT/call.txt 2>&1
# - On an H200: the benchmark of record on s64 with the checks after it (device_record.sh: GPU
#   suite by default and at 3 splits, Hopper suite, segsum suite, memcheck / racecheck on the small
#   shapes; TOTAL_ALL 520), then the quick GPU pytest where time is left.
# - Elsewhere: variant_checks (suites three ways, again with the window forced, memcheck and
#   racecheck with the window forced), then the quick GPU pytest.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=${TOTAL_ALL:-520} bash scripts/device_record.sh s64; echo "record + checks rc=$? at ${SECONDS} s"
  (cd "$OUT" && tar -czf record_logs.tgz ./*.log ./checks_logs.tgz 2>/dev/null; rm -f ./*.log ./checks_logs.tgz)
  if [ $SECONDS -lt "${PYTEST_BEFORE:-500}" ]; then
    PYTEST_LIMIT=$(( 585 - SECONDS )) variant_pytest pytest_quick_s64 out/dev/s64 "not mamba_ssm_triton"
    variant_pack s64_pytest
  fi
  echo "all done at ${SECONDS} s"; exit 0
fi
bash scripts/carry.sh unpack s64 > /dev/null || exit 1
variant_checks s64 out/dev/s64
variant_pytest pytest_quick_s64 out/dev/s64 "not mamba_ssm_triton"
variant_pack s64_pytest
echo "all done at ${SECONDS} s"
