#!/usr/bin/env bash
# Prepared in session 26, not run (no device time left): what the main pass's mask and S'
# store cost, as a bound for sharing S' between the two 64-channel slices of a P = 128 head
# (R3: both consumers of a CTA compute the same S and apply the same mask today, since a
# head's slices share its decay; at N = 64 each also runs the same S = C B^T WGMMA).
# nomask = -call7-nomask-not-run.diff built with -DFLASHSSD_TIMING_NO_MASK: both consumers skip
# the mask and the S' store (timing only, results wrong); ptxas -v: no spill, no C75xx.
# (Skipping the N = 64 S WGMMA as well made ptxas serialise the kernel's WGMMAs, C7514: not a
# clean measure, so not prepared.) Sharing would save about half of base - nomask per CTA
# at P = 128, plus half of the S WGMMA at N = 64.
# Build here (base = this checkout's kernels):
#   bash scripts/build_probe.sh out/ab/base_probe
#   rm -rf /tmp/vmask && mkdir /tmp/vmask && cp -r src include bench /tmp/vmask &&
#     (cd /tmp/vmask && git apply "$OLDPWD/bench/results/logs/2026-12-03-s26-call7-nomask-not-run.diff") &&
#     NVCC_FLAGS=-DFLASHSSD_TIMING_NO_MASK bash scripts/build_probe.sh /tmp/vmask out/ab/nomask_probe
# Carry: out/ab (base_probe, nomask_probe).
set -uo pipefail
OUT=${OUT:-/tmp/s26call7}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--N 64 --final-states 0" \
  "--final-states 0" \
  "--final-states 0 --z 1" |
  bash scripts/probe_ab.sh --rounds 3 --variants "base nomask" > "$OUT/probe_ab.log" 2>&1
