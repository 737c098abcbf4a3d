#!/usr/bin/env bash
# Session 62, call 2 (carry out/carry third_party_bench; ~470 s of device time left): the
# benchmark of record on main (s62ev = a10d851's src: 2dad1d7's kernels, SASS as s61wl, and the
# side stream's events kept), only on an H200 (REQUIRE_GPU stops any other card at once). No
# time for its checks (main's exact kernels passed variant_checks in call 1, on an H100).
set -u
TOTAL_ALL=280 REQUIRE_GPU=H200 bash scripts/device_record.sh s62ev
echo "record rc=$? at ${SECONDS} s"
