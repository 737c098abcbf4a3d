#!/usr/bin/env bash
# Session 70, call 5 (any H100 / H200; ~30 s): ask 19's guess tested. d2 = main with the main
# pass's dt loaded two rounds ahead (kMainDtDepth 2; session 26's d2m: R1 8k +3.7% then, when
# the producer spilled; no spill now), fmd2 = fm + d2 (`2026-12-07-s70-fm.diff`, -DFM_SKIP_MASK
# -DD2_MAIN_DT_DEPTH). If fm's stages come late because the mask's work no longer covers the dt
# load's latency, fmd2 should win back fm's loss. Probe, 3 rounds. Timing only.
# Carry out/ab/main_probe out/ab/fm_probe out/ab/d2_probe out/ab/fmd2_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s70-fmd2-call.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "main fm d2 fmd2" > $OUT/probe_ab_fmd2.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
CFG
echo "probe_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab_fmd2.log
