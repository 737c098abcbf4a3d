#!/usr/bin/env bash
# Session 70, call 2 (any H100 / H200; ~200 s): xt / xtz / fm against main through the probe, 3 rounds.
# xt (`2026-12-07-s70-xt.diff`, -DXT_RELOAD_BEFORE_TURN): the factored tile's reload of x for
# D x issued before the turn's barrier, not after the update's issue (call 1's ncu: its
# ldmatrix latency is ~7% of the consumers' stall samples, short scoreboard, in the epilogue).
# xtz: also z's first groups (-DXT_Z_BEFORE_TURN). Timing only; no C751x, no spill (ptxas -v).
# fm (`2026-12-07-s70-fm.diff`, -DFM_SKIP_MASK): the producer's pair form writes the mask's
# fields (u, chain_dt, the diagonal blocks: ~80 of the tile-slice's 812 shared wavefronts, the
# diagonal blocks' stores 4-way bank conflicts) only for tiles that take the exact schedule;
# factored tiles' consumers read none of them (results unchanged by construction; not yet tested).
# Carry out/ab/main_probe out/ab/xt_probe out/ab/xtz_probe out/ab/fm_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s70-xt-call.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
timeout 400 bash scripts/probe_ab.sh --rounds 3 --variants "main xt xtz fm" > $OUT/probe_ab_xt.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0
--final-states 0 --batch 128 --seqlen 512
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --H 66 --batch 12 --z 1
--final-states 0 --z 1
--final-states 0 --H 66 --batch 1 --grid 11 --a-scale 4 | main fm
--final-states 0 --a-scale 8 | main fm
CFG
echo "probe_ab rc=$?"; sed -n '/^summary/,$p' $OUT/probe_ab_xt.log
echo "done at ${SECONDS} s"
