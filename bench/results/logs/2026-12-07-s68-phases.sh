#!/usr/bin/env bash
# Session 68: bounds on the factored tile's phases at the SM's own rate (11 CTAs) and on the full
# grid (timing only: each variant's y is wrong). Variants: main's consumer with one step of the
# factored schedule compiled out (2026-12-07-s68-phase-bounds.diff; probe built with -DPH_NO_<X>):
# readout (the readout factors' multiply), epilogue (x's reload, D x, y into shared memory),
# intra (the intra-tile GEMM), turn (the issue turns), publish (the tile's barrier and the previous
# y's TMA store). Carry out/ab/main_probe and out/ab/ph{readout,epilogue,intra,turn,publish}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-phases.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "main phreadout phepilogue phintra phturn phpublish" > $OUT/probe_ab_phases.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
CFG
echo "probe_ab rc=$?"; tail -4 $OUT/probe_ab_phases.log
echo "done at ${SECONDS} s"
