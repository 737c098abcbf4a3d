#!/usr/bin/env bash
# Session 71, call 1 (any H100 / H200; ~50 s of probe): session 70's prepared call
# (`2026-12-07-s70-fmd2-call.sh`: main against fm, fm2, d2, fmd2, fm2d2; its header says how
# they were built), then xtz (session 70's `-xt.diff` with -DXT_RELOAD_BEFORE_TURN and its z
# groups before the turn, -DXT_Z_BEFORE_TURN; `2026-12-07-s70-xt-call.sh`; built in session 70, never run) against main and xt on the gated rows.
# Carry out/ab/{main,fm,fm2,d2,fmd2,fm2d2,xt,xtz}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s71-call1.sh > $OUT/call.txt 2>&1
set -u
bash bench/results/logs/2026-12-07-s70-fmd2-call.sh
timeout 90 bash scripts/probe_ab.sh --rounds 3 --variants "main xt xtz" > $OUT/probe_ab_xtz.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
--final-states 0 --H 66 --batch 1 --grid 11
CFG
echo "probe_ab xtz rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab_xtz.log
