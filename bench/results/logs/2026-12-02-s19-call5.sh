#!/bin/bash
# Session 19 call 5: the skeleton of call 4 split further (timing only; `-call4-skeleton.diff`
# plus SKEL_NOMMA, which leaves wgmma_issue's k-loop empty, and the probe's N = 128 as
# SsdFwdSm90<64, 128, 1> for skone): skc = consumers without SSD arithmetic (call 4);
# skio = skc and skp without the GEMMs too (TMA in, barriers, y stmatrix + TMA store: the I/O
# pipeline alone); skone = skc with one consumer per CTA (one chain's structural cost).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base skc skio skone" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
