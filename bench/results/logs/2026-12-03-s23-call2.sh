#!/bin/bash
# Session 23 call 2: the benchmark (scripts/device_session.sh PART=bench) on the library that
# call 1b checked (out/dev/build-gpu, commit in out/dev/COMMIT). Carry out/dev, third_party_bench.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=bench OUT=$O/bench timeout 520 bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -40
