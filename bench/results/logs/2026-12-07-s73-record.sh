#!/usr/bin/env bash
# Session 73: the H200 record of the variant that session 72's call 4 (2026-12-07-s72-call4.sh)
# chose, on the same warm H200 right after it. NAME is s73both, s73d2n128 or s73gnofm2: builds of
# branches s73-both / s73-d2n128 / s73-gnofm2 (3e2cf9d + that patch; out/dev/<NAME>/COMMIT names
# the branch's commit). s73both's 68 kernels are byte-identical to s72both's, whose checks call 4
# runs. Checks skipped (TOTAL_ALL=330).
# Carry out/carry/<NAME>.tar.xz third_party_bench.
#   device: NAME=s73both OUT=$OUT bash bench/results/logs/2026-12-07-s73-record.sh > $OUT/call.txt 2>&1
set -u
REQUIRE_GPU=H200 TOTAL_ALL=330 OUT=$OUT bash scripts/device_record.sh "${NAME:?}"
echo "record rc=$? at ${SECONDS} s"
