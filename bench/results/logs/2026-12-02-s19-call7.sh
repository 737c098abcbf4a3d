#!/bin/bash
# Session 19 call 7: the 3-stage skeleton (skc3, call 6) without the consumers' ping-pong turns
# (skc3nt) and also without the tile's named barrier before X^T S'^T (skc3nb; y's TMA store then
# races its stmatrix: timing only). `-call7-skeleton-syncs.diff` (SKEL_NOTURN, SKEL_NOBAR).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "base skc3 skc3nt skc3nb" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
