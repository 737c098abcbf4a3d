#!/usr/bin/env bash
# Session 48, not run (no device budget left): the record owed on main's kernels since session 48
# (8855b32 = 8855b320bfbe; the split schemes chosen on the device), best on an H200 (the targets
# are the H200's; session 48's calls all ran on H100s). Main's later HEAD (082008d on) compiles to the
# same instructions (split_scheme.cpp took the host rules; the fix-up kernels' anonymous-namespace
# names changed, their SASS text did not). out/dev/s48main is build-gpu of 8855b32
# staged (scripts/stage_device_build.sh build-gpu s48main; packed: scripts/carry.sh pack s48main
# dev/s48main). PART=bench of device_session.sh: segsum section + compare.py, ~520 s.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-next-record-not-run.sh   (carry out/carry third_party_bench)
# Then copy $OUT's json / md / png to bench/results/<date>-<device>.* as DESIGN.md section 6 says.
set -u
bash scripts/carry.sh unpack s48main > /dev/null || exit 1
FLASHSSD_COMMIT=8855b320bfbe OUT=${OUT:?} PART=bench bash scripts/device_session.sh out/dev/s48main
