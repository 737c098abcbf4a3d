#!/usr/bin/env bash
# Session 34, device call 4: the benchmark of record on HEAD (c09c56e + the packed N = 128
# kernels without dt's L2 prefetch; every sm90 kernel's SASS equals one checked in call 1 or
# call 3). PART=bench of scripts/device_session.sh (compare.py, placements 3). Carry:
# out/dev/build-gpu (staged from HEAD), third_party_bench.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
ls $O/bench
