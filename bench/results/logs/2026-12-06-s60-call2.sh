#!/usr/bin/env bash
# Session 60, call 2: main's exact build after the side-stream merge (s60side2 = main at 56344f6+,
# the chunk scores beside the split kernels; call 1 ran its code only inside s60both, with the
# scan's second form).
# - On an H200: the record on s60side2 with its checks (scripts/device_record.sh), then the quick
#   GPU pytest.
# - Elsewhere (~420 s): the API A/B of s60side2 against s60main (885255d), 3 rounds, R1 32k, z,
#   R1 8k, R4 128k (a second run of call 1's side figure); then the checks that 2026-12-06-s59-
#   next2.sh names (GPU suite default, fix-up at 3 splits, window forced by default and state at
#   3 splits; Hopper suite; memcheck and racecheck with the window forced, state and fix-up at 3
#   splits, and the Hopper suite's small shapes); the quick GPU pytest.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s60-call2.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=480 bash scripts/device_record.sh s60side2; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick out/dev/s60side2 "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
for n in s60main s60side2; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s60main F=out/dev/s60side2
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 8192" \
  "--config R4 --seqlen 131072" | timeout 60 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "side=$F" \
  > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab.log"
VARIANT_SCHEMES=fixup variant_suites side $F
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites side_win $F
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES="state fixup" variant_sanitize side $F memcheck racecheck
variant_pack side_checks
echo "checks at ${SECONDS} s"
variant_pytest pytest_quick $F "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
