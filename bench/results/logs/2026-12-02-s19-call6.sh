#!/bin/bash
# Session 19 call 6: does the skeleton's pipeline depth hold it? (timing only,
# `-call6-skeleton-stages.diff`: call 4's skeleton with SKEL_SMALL, the stage's 5.7 KB decay
# records replaced by 512-byte placeholders and no z tile, so that N = 128 fits 3 stages:
# skc3, 224 KB; skc2s the same storage held at 2 stages, 166 KB). Both with SKEL_C and SKEL_P
# (no SSD arithmetic in consumers or producer). skio: the I/O skeleton of call 5 again.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base skc skc2s skc3 skio" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
