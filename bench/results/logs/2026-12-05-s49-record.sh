#!/usr/bin/env bash
# Session 49, call 1: the record owed since session 48, on main's HEAD b07ba76 (build-gpu built from
# it: the split schemes chosen on the device, the fix-up with every load issued first, the host
# rules in split_scheme.cpp). Staged: scripts/stage_device_build.sh build-gpu s49main; packed:
# scripts/carry.sh pack s49main dev/s49main. PART=bench of device_session.sh (segsum section +
# compare.py), ~520 s.
# Or, with the argument s49d7, on branch s49-decay7's c76ff4026fe7 (main + the faster
# tile_log_decay + s48-fixup7's fix-up; staged as out/dev/s49d7), if call 4 finds it correct and
# no slower: main is then fast-forwarded to it.
# As run (call 5): with s49m7, main's 8acd00ed2582 (main b07ba76 + s48-fixup7's fix-up at five CTAs
# an SM, merged after calls 2 and 4 found it correct and no slower; staged as out/dev/s49m7).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-record.sh [s49d7|s49m7]   (carry out/carry third_party_bench)
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
case ${1:-s49main} in
  s49main) lib=s49main commit=b07ba7650b1b ;;
  s49d7) lib=s49d7 commit=c76ff4026fe7 ;;
  s49m7) lib=s49m7 commit=8acd00ed2582 ;;
  *) echo "record: s49main or s49d7, not $1" >&2; exit 2 ;;
esac
bash scripts/carry.sh unpack $lib > /dev/null || exit 1
FLASHSSD_COMMIT=$commit OUT=${OUT:?} PART=bench bash scripts/device_session.sh out/dev/$lib
