#!/bin/bash
# Session 22 call 5, prepared, not run (the device budget was spent): fp32 dt brought by
# cp.async into a per-thread shared ring kDtAhead = 4 tiles ahead in the unpacked main pass's
# producer (-call5-cpasync.diff, made against 7071d3a, applies to session 22's last commit with offset 1; compiles without spill; 2.5 KB of shared
# memory, the N = 64 kernel keeps its three stages). Session 20 call 4 bounds what dt's load
# costs at ~2-3% (R1 8k 0.472 -> 0.461 ms without dt loads); a register ring (session 20
# call 3; session 22 call 1) and an L2 prefetch (session 20 calls 5-6) did not take it.
# The probe times only: if cpasync wins, build the library with it and run the suites
# (scripts/device_session.sh PART=checks) before keeping it; 16-bit dt needs its own path
# (a 4-byte word around the element, or the register load kept for it).
# Builds: out/ab/base_probe = scripts/build_probe.sh at session 22's last commit (the probe needs its --final-states); out/ab/cpasync_probe =
# scripts/build_probe.sh /tmp/cpa out/ab/cpasync_probe, /tmp/cpa = cp -r src include bench + the diff.
# Carry out/ab.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512 --final-states 0" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --packed 4" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "base cpasync" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
