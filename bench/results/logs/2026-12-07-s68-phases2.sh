#!/usr/bin/env bash
# Session 68 call 16: the epilogue's bound (call 15: -21.5% per SM) split: phdx (no x reload, no
# D x: y = the accumulator; stmatrix kept), phst (x reload and D x kept, stmatrix replaced by a
# never-true store of the packed values). 2026-12-07-s68-phase-bounds.diff, -DPH_NO_DX /
# -DPH_NO_STMATRIX. Carry out/ab/{main,phepilogue,phdx,phst}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-phases2.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "main phepilogue phdx phst" > $OUT/probe_ab_phases2.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 4 --grid 44
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
CFG
echo "probe_ab rc=$?"; tail -5 $OUT/probe_ab_phases2.log
echo "done at ${SECONDS} s"
