#!/bin/bash
# Session 24 call 1: PART=checks (GPU suites at 1 and 3 splits, Hopper suite, segsum, memcheck,
# racecheck) on HEAD's library (out/dev/build-gpu, commit in out/dev/COMMIT), the first run of
# GpuForwardSmall.Dt16BitAtOddElementOffsets on the kept kernels. Carry out/dev.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=/tmp/checks timeout 300 bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -30
grep -E "Dt16BitAtOddElementOffsets" /tmp/checks/gpu_tests.log /tmp/checks/gpu_tests_splits3.log | head
tar czf $O/checks.tgz -C /tmp checks
