#!/bin/bash
# Session 24 call 4: what dt's strided loads cost, by layout rather than by removal. The probe's new
# --dt-transposed 1 reads the same dt buffer as (b, H, T) (strides only; the kernel takes any), so
# that a producer warp's 32 tokens of one head are 128 contiguous bytes instead of 32 lines
# H * 4 bytes apart; dt0 = HEAD + -call3-dt0.diff (no dt loads at all; timing only): the bound.
# base_probe: HEAD's kernel (its main N = 128 kernel's SASS checked identical to call 2's).
# Three rounds. Carry out/ab.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 | base dt0" \
  "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --dt-transposed 1 | base" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2 | base dt0" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2 --dt-transposed 1 | base" \
  "--N 128 | base dt0" "--N 128 --dt-transposed 1 | base" \
  "--N 128 --batch 128 --seqlen 512 --final-states 0 | base" "--N 128 --batch 128 --seqlen 512 --final-states 0 --dt-transposed 1 | base" \
  "--N 128 --z 1 | base" "--N 128 --z 1 --dt-transposed 1 | base" \
  "--N 64 | base dt0" "--N 64 --dt-transposed 1 | base" \
  "--N 128 --packed 4 | base" "--N 128 --packed 4 --dt-transposed 1 | base" \
  "--N 128 --dt-bf16 1 | base" "--N 128 --dt-bf16 1 --dt-transposed 1 | base" \
  | timeout 400 bash scripts/probe_ab.sh --rounds 3 --variants "base" > $O/probe_ab.log 2>&1
tail -18 $O/probe_ab.log
