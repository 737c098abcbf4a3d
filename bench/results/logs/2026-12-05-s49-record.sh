#!/usr/bin/env bash
# Session 49, call 1: the record owed since session 48, on main's HEAD b07ba76 (build-gpu built from
# it: the split schemes chosen on the device, the fix-up with every load issued first, the host
# rules in split_scheme.cpp). Staged: scripts/stage_device_build.sh build-gpu s49main; packed:
# scripts/carry.sh pack s49main dev/s49main. PART=bench of device_session.sh (segsum section +
# compare.py), ~520 s.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-record.sh   (carry out/carry third_party_bench)
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
bash scripts/carry.sh unpack s49main > /dev/null || exit 1
FLASHSSD_COMMIT=b07ba7650b1b OUT=${OUT:?} PART=bench bash scripts/device_session.sh out/dev/s49main
