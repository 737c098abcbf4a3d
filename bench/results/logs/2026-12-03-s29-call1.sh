#!/usr/bin/env bash
# Session 29, call 1: (a) session 28's prepared third stage for the N = 64 z kernel (st3z) and four
# stages for the ungated N = 64 kernel (st4) against HEAD's kernels (probe, 3 rounds; builds in
# `2026-12-03-s28-next-st3z-not-run.sh`'s header; head_probe built from 979125d);
# (b) session 28's open question: R2 / R2 z through the API, base = fbc959c's library (session 27's
# record) against a8e5b42's (session 28's record), with R1 8k and R3 z beside them, 3 rounds.
# Carry: out/ab (head, st3z, st4 probes), out/dev/base, out/dev/new (a8e5b42's library + flashssd_bench).
set -uo pipefail
OUT=${OUT:-/tmp/s29c1}; mkdir -p "$OUT"
OUT=$OUT/st3z bash bench/results/logs/2026-12-03-s28-next-st3z-not-run.sh
cp "$OUT/st3z/probe_ab.log" "$OUT/probe_ab.log"
python3 scripts/probe_ab_summary.py "$OUT/probe_ab.log"
printf "%s\n" "--config R2" "--config R2 --z" "--config R1 --batch 8 --seqlen 8192" "--config R3 --z" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/dev/base --lib new=out/dev/new > "$OUT/api_ab.log" 2>&1
tail -14 "$OUT/api_ab.log"
