#!/usr/bin/env bash
# Session 62, call 3 (carry out/carry; ~280 s of device time left): the C++ GPU suites on s62ev
# (main's build since a10d851: the side stream's events kept), by default and with the fix-up at
# 3 splits, and the Hopper suite, on whatever card comes.
set -u
. scripts/device_variant.sh
bash scripts/carry.sh unpack s62ev > /dev/null || exit 1
variant_suites ev out/dev/s62ev
variant_pack ev_suites
echo "all done at ${SECONDS} s"
