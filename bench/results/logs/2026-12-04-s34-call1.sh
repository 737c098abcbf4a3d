#!/usr/bin/env bash
# Session 34, device call 1: checks and the benchmark of record on one library (HEAD = 14186db's
# kernels + the packed N = 128 kernels folding their state, pfold128). PART=all of
# scripts/device_session.sh: GPU suites at 1 and 3 splits, Hopper suite, segsum suite, memcheck,
# racecheck, then compare.py (placements 3). Carry: out/dev/build-gpu, third_party_bench.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=all OUT=$O/rec bash scripts/device_session.sh out/dev/build-gpu
ls $O/rec
