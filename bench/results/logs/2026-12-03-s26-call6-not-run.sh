#!/usr/bin/env bash
# Session 26 call 6 (device; prepared, not run: the device refused four starts and the session's
# device time ran out): R4 and R1 32k through the API with more rounds (calls 1-2 read
# the new library +1-2% at R4 with ranges of +-1.5% between identical kernels): base = 31e7214's
# library, new = 68bff54's with PDL and without; and the state pass alone in the probe
# (base_probe = 31e7214's kernels, new_probe = 68bff54's).
# Carry: out/ab (baselib, base_probe, new_probe), out/dev/build-gpu (no python).
set -uo pipefail
OUT=${OUT:-/tmp/s26call6}; mkdir -p "$OUT"
printf "%s\n" "--config R4" "--config R1 --batch 2 --seqlen 32768" |
  bash scripts/api_ab.sh --rounds 8 --lib base=out/ab/baselib --lib new=out/dev/build-gpu \
    --lib new_nopdl=out/dev/build-gpu,FLASHSSD_DISABLE_PDL=1 > "$OUT/api_ab.log" 2>&1
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4" "--N 64 --batch 1 --seqlen 131072 --state-pass 4" |
  bash scripts/probe_ab.sh --rounds 4 --variants "base new" > "$OUT/probe_ab.log" 2>&1
