#!/usr/bin/env bash
# Session 49, not run (no H200 lent; the device budget spent): the record on main's kernels of
# b41245461d90 (= 2ad73f5's: the tile log-decay form merged after session 49's H100 record), on
# an H200 (the issue's targets are the H200's). out/dev/s50main is build-gpu of b412454 staged
# (scripts/stage_device_build.sh build-gpu s50main; packed: scripts/carry.sh pack s50main
# dev/s50main; its SASS is call 6's library's by scripts/sass_diff.py). PART=bench of
# device_session.sh (segsum section + compare.py): 257 s on the H100 in call 5.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-next-record-not-run.sh   (carry out/carry third_party_bench)
# Then copy $OUT's json / md / png to bench/results/ as DESIGN.md section 6 says and run
# scripts/update_readme_perf.py.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
bash scripts/carry.sh unpack s50main > /dev/null || exit 1
FLASHSSD_COMMIT=b41245461d90 OUT=${OUT:?} PART=bench bash scripts/device_session.sh out/dev/s50main
