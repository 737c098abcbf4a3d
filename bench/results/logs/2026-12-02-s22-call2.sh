#!/bin/bash
# Session 22 call 2: dt's offset and validity apart again (has_dt / dt_offset, this call's
# commit), after call 1 measured session 21's refactor (5e50b66: one offset, -1 for none)
# 1-2% slower at N = 256 and packed. Probe A/B, API's dt, 3 rounds:
#   final2 = c8acd4c (the previous record's kernels, floor 2^-100), f64 = 5e50b66 (floor 2^-64,
#   the -1 offset), f64b = this commit (floor 2^-64, has_dt); rows R1 8k N = 128 / 512 tokens /
#   z / N = 64 / N = 256 / packed, and R2's (H 128, G 8) and R3's (P 128, N 64, H 32) shapes.
# Then scripts/device_session.sh PART=checks and PART=bench (the benchmark of record) on this
# commit's library. The checks' logs come back as one tarball (call 1 lost them to $OUT's file count).
# Builds: out/ab/{final2,f64}_probe as call 1; out/ab/f64b_probe = scripts/build_probe.sh at this
# commit; out/dev/build-gpu = cmake --build build-gpu && scripts/stage_device_build.sh.
# Carry out/dev, out/ab, third_party_bench.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --packed 4" \
  "--N 128 --H 128 --G 8 --batch 32 --seqlen 2048" "--N 64 --P 128 --H 32 --batch 32 --seqlen 2048" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "final2 f64 f64b" > $O/probe_ab.log 2>&1
echo "probe_ab rc=$?"; cat $O/probe_ab.log
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=/tmp/checks timeout 330 bash scripts/device_session.sh $B
tar -czf $O/checks.tar.gz -C /tmp checks
grep -E "LargeStates" -A3 /tmp/checks/sm90_tests.log | grep -E "rel err|OK|FAILED" | head -6
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=bench OUT=$O/bench timeout 420 bash scripts/device_session.sh $B
