#!/usr/bin/env bash
# Prepared in session 59: the checks of the variant that 2026-12-06-s59-next.sh's A/B shows
# faster (s60scan2, s60side or s60both; staged as that script says), before it is merged:
# the GPU suite by default, with the fix-up at 3 splits and the window forced (by default and
# with the state scheme at 3 splits); the Hopper suite; memcheck and racecheck on the small
# shapes, the window forced at 3 splits and the fix-up at 3 splits; the quick GPU pytest (its
# graph capture at two splits and its current-stream test on the split path exercise the side
# stream); ~300 s.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s59-next2.sh <staged name>   (carry out/carry third_party_bench)
set -u
name=${1:?next2: name the staged variant}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
bash scripts/carry.sh unpack "$name" > /dev/null || exit 1
F=out/dev/$name
VARIANT_SCHEMES=fixup variant_suites "$name" $F
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites "${name}_win" $F
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES="state fixup" variant_sanitize "$name" $F memcheck racecheck
variant_pack checks
echo "checks at ${SECONDS} s"
variant_pytest pytest_quick $F "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
