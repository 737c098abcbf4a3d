#!/bin/bash
# Session 21 call 7, prepared, not run (the device budget ran out): dt loaded two tiles ahead
# in the unpacked main pass, into two registers its producer loop (unrolled by two) uses in
# turn (-call7-ring2.diff against 166fd5c; no spill in the probe's kernels or in
# ssd_fwd_sm90_bf16_n128.cu under cmake/ptxas_guard.sh). Session 20 bounded what dt's load
# costs at ~2-3% (call 4: R1 8k 0.472 -> 0.461 ms without dt loads) and found a one-register
# ring's MOV waits for the load (call 3); here no register is moved.
# Builds: out/ab/f64_probe = scripts/build_probe.sh out/ab/f64_probe at 166fd5c (HEAD of
# session 21); out/ab/ring2_probe = scripts/build_probe.sh /tmp/ring2 out/ab/ring2_probe,
# /tmp/ring2 = cp -r src include bench + the diff (patch -p1 in it).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --dt-bf16 1" \
  "--N 128 --packed 4" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "f64 ring2" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
