#!/bin/bash
# Session 25 call 4: which TMA of a small fp32 dt box is legal (2026-12-03-s25-tma_dt_box_check.cu,
# built here into out/ab/tma_dt_box_check): call 3 showed the dttma state pass's box load illegal
# at batch 1 and 2 alike, whatever the extent-1 stride.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
for m in 0 1 2 3; do timeout 30 out/ab/tma_dt_box_check $m 2>&1 | tail -2; done | tee $O/tma_modes.log
# The SM clock and power while the main pass runs (R1 8k, back to back): is the kernel's pace
# set at the top clock (1980 MHz) or under a power cap?
( for i in $(seq 12); do nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader; sleep 0.5; done ) > $O/clocks.log 2>&1 &
timeout 40 out/ab/base_probe --N 128 --softplus 1 --iters 12000 2>&1 | tail -1
wait; cat $O/clocks.log
