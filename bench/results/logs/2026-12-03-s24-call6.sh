#!/bin/bash
# Session 24 call 6: the benchmark of record (scripts/device_session.sh PART=bench) on HEAD's library
# (out/dev/build-gpu; commit in out/dev/COMMIT; its kernels' SASS is call 2's checked base, which
# is the 2026-12-02 record's). Carry out/dev, third_party_bench.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=bench OUT=$O/bench timeout 540 bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -45
