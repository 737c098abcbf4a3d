#!/usr/bin/env bash
# Session 61, call 2: the benchmark of record on main (s61main = 216404b), only on an H200 (the
# issue's device; the newest record is session 57's, before the state's 8-byte store and the
# side stream). On another card it stops at once (REQUIRE_GPU), so that the start is all it costs.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s61-call2.sh   (carry out/carry third_party_bench)
set -u
. scripts/device_variant.sh
REQUIRE_GPU=H200 TOTAL_ALL=470 bash scripts/device_record.sh s61main; rc=$?
echo "record + checks rc=$rc at ${SECONDS} s"
[ $rc -eq 3 ] && exit 3
variant_pytest pytest_quick out/dev/s61main "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
