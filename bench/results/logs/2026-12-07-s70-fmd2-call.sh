#!/usr/bin/env bash
# Session 70, call 5 (any H100 / H200; ~40 s; not run: the device time ran out, ask 20): why fm
# (ask 16) was slower. fm's producer got 16 BSSY / BRA pairs (a branch per chain_dt store) and
# its stages came later (ask 19). fm2 (`2026-12-07-s70-fm2.diff`, -DFM_SKIP_MASK) tests the mask
# once and runs the chain in two copies (BRA +6, no BSSY). d2 = main with the main pass's dt two
# rounds ahead (-DD2_MAIN_DT_DEPTH, kMainDtDepth 2; session 26's d2m read R1 8k +3.7% when its
# producer spilled; no spill now); fmd2 / fm2d2 = fm / fm2 + d2. Probe, 3 rounds. Timing only.
# Build (here, ~60 s each): fm, fmd2 and d2 from a copy of src/include/bench with
# `2026-12-07-s70-fm.diff` applied (patch -p3), fm2 and fm2d2 with `-fm2.diff`, each by
#   NVCC_FLAGS="-DFM_SKIP_MASK [-DD2_MAIN_DT_DEPTH]" scripts/build_probe.sh <tree> out/ab/<name>_probe
# (d2: -DD2_MAIN_DT_DEPTH alone); main_probe from the checkout.
# Carry out/ab/{main,fm,fm2,d2,fmd2,fm2d2}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s70-fmd2-call.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "main fm fm2 d2 fmd2 fm2d2" > $OUT/probe_ab_fmd2.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
CFG
echo "probe_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab_fmd2.log
