#!/bin/bash
# Session 22 call 4 (the device budget's last ~10 minutes): X^T S'^T by halves of its output
# tokens (MmaYScoresHalf): tokens 0..31 read only S''s first two k-blocks (S' is causal), a
# quarter of that GEMM's MACs (5% of the tile's tensor work) skipped.
# Probe A/B, API's dt, 3 rounds: f64b = cd35dbf (the record's kernels), causal = this change.
# Then scripts/device_session.sh PART=checks and PART=bench on the library with the change.
# Builds: out/ab/f64b_probe (call 2); out/ab/causal_probe = scripts/build_probe.sh at this change;
# out/dev/build-gpu = cmake --build build-gpu && scripts/stage_device_build.sh (this change).
# Carry out/dev, out/ab, third_party_bench.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
B=out/dev/build-gpu
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --packed 4" \
  | timeout 100 bash scripts/probe_ab.sh --rounds 3 --variants "f64b causal" > $O/probe_ab.log 2>&1
echo "probe_ab rc=$?"; cat $O/probe_ab.log
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=/tmp/checks timeout 200 bash scripts/device_session.sh $B
tar -czf $O/checks.tar.gz -C /tmp checks
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=bench OUT=$O/bench timeout 330 bash scripts/device_session.sh $B
