#!/usr/bin/env bash
# Session 51: the record on an H200 on the merged fix-up (16-byte y / z, contiguous work runs).
# STAGE is a staged build of main (scripts/stage_device_build.sh build-gpu <STAGE>; packed:
# scripts/carry.sh pack <STAGE> dev/<STAGE>) and COMMIT the main commit it was built from
# (build-gpu as in 2026-12-05-s50-record.sh's header). The GPU suite runs first (by default and
# with the fix-up forced at 3 splits) when CHECK=1.
#   device: STAGE=<name> COMMIT=<sha12> [CHECK=1] OUT=$OUT bash bench/results/logs/2026-12-05-s51-record.sh
#           (carry out/carry third_party_bench; kind nvidia-h200)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6) and
# scripts/update_readme_perf.py regenerates README's table.
set -u
: "${STAGE:?}" "${COMMIT:?}"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
bash scripts/carry.sh unpack "$STAGE" > /dev/null || exit 1
if [ "${CHECK:-0}" = 1 ]; then
  . scripts/device_variant.sh
  variant_suites "$STAGE" "out/dev/$STAGE"
  variant_pack checks
fi
FLASHSSD_COMMIT=$COMMIT OUT=${OUT:?} PART=bench bash scripts/device_session.sh "out/dev/$STAGE"
