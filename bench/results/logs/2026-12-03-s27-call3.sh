#!/usr/bin/env bash
# Session 27 call 3 (device): (1) probe A/B at P = 128, N = 64: base = 40f1555~'s kernels, bal2 =
# 40f1555's (S's rows balanced: C as a register A operand), shared = 0d20adec's (the two slices of
# a P = 128 head share S': each computes, masks and stores two of its four 16-column groups; one
# buffer per tile; a barrier of both), sharedz = shared also in the z kernel
# (-call3-sharedz.diff on 0d20adec, probe only); (2) through the API, base = 40f1555~'s library
# (out/dev/build-gpu-head), new = 0d20adec's (out/dev/build-gpu); (3) the checks
# (device_session.sh PART=checks) on 0d20adec.
# Carry: out/ab (base_probe, bal2_probe, shared_probe, sharedz_probe), out/dev/build-gpu,
# out/dev/build-gpu-head.
set -uo pipefail
OUT=${OUT:-/tmp/s27call3}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 4 --seqlen 16384 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --packed 4" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1 | base bal2 sharedz" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1 | base bal2 sharedz" |
  bash scripts/probe_ab.sh --rounds 3 --variants "base bal2 shared" > "$OUT/probe_ab.log" 2>&1
tail -7 "$OUT/probe_ab.log"
printf "%s\n" "--config R3" "--config R3 --z" "--config R3 --batch 128 --seqlen 512" "--config R1 --batch 8 --seqlen 8192 --N 64" "--config R1 --batch 8 --seqlen 8192" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/dev/build-gpu-head --lib new=out/dev/build-gpu > "$OUT/api_ab.log" 2>&1
tail -6 "$OUT/api_ab.log"
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT="$OUT/checks" bash scripts/device_session.sh out/dev/build-gpu
