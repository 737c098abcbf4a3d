#!/usr/bin/env bash
# Session 69, from ask 7 on. On an H200: 2026-12-07-s69-h200.sh (the SM's own rate against the
# full grid, then the record and the checks). On an H100: xs and xi against main through the
# probe, 3 rounds, then stop (timing only; xs: the factored tile scales x by its weights under
# h C^T, before the tile's barrier, `2026-12-07-s69-xs.diff` with -DXS_SCALE_FIRST; xi: x scaled
# first, then h C^T and the intra GEMM, into its own accumulator, issued together with one wait,
# Y^T = factored_scale h C^T + intra by one FFMA per register, `2026-12-07-s69-xi.diff` with
# -DXI_OWN_ACC).
# Carry out/carry/s65path.tar.xz third_party_bench out/ab/{main,xs,xi}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s69-call.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
if [[ "$card" == *H200* ]]; then
  exec bash bench/results/logs/2026-12-07-s69-h200.sh
fi
timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "main xs xi" > $OUT/probe_ab_xs_xi.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
--final-states 0 --batch 128 --seqlen 512
--final-states 0 --H 66 --batch 1 --grid 11 --a-scale 4
CFG
echo "probe_ab rc=$?"; tail -24 $OUT/probe_ab_xs_xi.log
echo "done at ${SECONDS} s"
exit 3
