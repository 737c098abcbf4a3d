#!/bin/bash
# Session 19 call 4: the N = 128 main pass's skeleton (timing only, results wrong;
# `-call4-skeleton.diff`): skc = the consumers without their SSD arithmetic (no S load, mask or
# S' store, no state decay, x unscaled as the update's operand, no readout factors, no D x):
# the same TMA pipeline, barriers, conversions of the state, WGMMAs (16 per tile), x ldmatrix
# and y stmatrix + TMA store; skp = the producer without its decay factors; skcp = both.
# What today's tile structure costs with no SSD arithmetic at all.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base skc skp skcp" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
