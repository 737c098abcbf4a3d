#!/usr/bin/env bash
# On the device: the benchmark of record on a staged library (out/carry/<name>.tar.xz, its commit
# in out/dev/<name>/COMMIT; scripts/stage_variant.sh), then, where the call has time left, the
# suites and sanitizers on it: scripts/device_session.sh with PART=bench, then PART=checks.
# The session scripts that prepared these two steps by hand repeated them (bench/results/logs/
# 2026-12-05-s51-combined.sh, 2026-12-06-s52-next.sh).
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash scripts/device_record.sh <name>   (carry out/carry third_party_bench)
# TOTAL_ALL (default 540): the seconds the whole call may take; the checks (~130 s) run only
# where more than 100 of them are left after the record (~290 s).
# REQUIRE_GPU=<text> (e.g. H200): stop at once, exit 3, unless the card's name holds it, so that
# a start on another card costs only the start (the issue's targets are the H200's).
set -u
: "${OUT:?device_record: set OUT}"
name=${1:?device_record: name the staged library}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [ -n "${REQUIRE_GPU:-}" ] && [[ "$card" != *"$REQUIRE_GPU"* ]]; then
  echo "device_record: the card is '$card', not $REQUIRE_GPU: no record"; exit 3
fi
bash scripts/carry.sh unpack "$name" > /dev/null || exit 1
M=out/dev/$name
FLASHSSD_COMMIT=$(cat "$M/COMMIT") OUT=$OUT PART=bench bash scripts/device_session.sh "$M"
echo "record done at ${SECONDS} s"
left=$(( ${TOTAL_ALL:-540} - SECONDS ))
if [ $left -gt 100 ]; then
  FLASHSSD_COMMIT=$(cat "$M/COMMIT") OUT=$OUT PART=checks timeout $left bash scripts/device_session.sh "$M"
else
  echo "checks skipped: ${left} s left"
fi
