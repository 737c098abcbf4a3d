#!/usr/bin/env bash
# Prepared in session 29, not run (no device time left). TIMING ONLY: how much of each main
# pass the producer's decay factors cost (`-next-skp-not-run.diff`: the producer skips
# prepare_tile_decay / _pair and its syncs, the weights are dt, the records keep stale values;
# results wrong). Why: in call 5 the one-head decay, which halves the producer's work for a P =
# 128 pair but syncs its whole warpgroup, was -4% in the N = 64 z kernel and +7.7% in the
# ungated one, while a fourth stage bought the ungated kernel nothing (call 1): R3 (0.385 ms
# against 0.334) may be paced by the producer's per-stage throughput rather than the consumers'
# chain. If skp takes much off R3's shape, the producer is the lever there (session 19's skp:
# -4% at N = 128, on a kernel much changed since).
# Builds (here): scripts/build_probe.sh out/ab_next2/head_probe (HEAD), and
#   git worktree add /tmp/w_skp HEAD && (cd /tmp/w_skp && git apply <diff>) &&
#   scripts/build_probe.sh /tmp/w_skp out/ab_next2/skp_probe   (ptxas -v: no spill, but skp's N = 256
#   kernels spill 4-12 bytes; no configuration below runs them)
# Carry: out/ab_next2.
set -uo pipefail
OUT=${OUT:-/tmp/skp}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--N 64 --final-states 0" \
  "--final-states 0" \
  "--final-states 0 --z 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" |
  bash scripts/probe_ab.sh --dir out/ab_next2 --rounds 3 --variants "head skp" > "$OUT/probe_ab.log" 2>&1
tail -7 "$OUT/probe_ab.log"
