#!/bin/bash
# Session 24 call 5: the state pass's dt asked of L2 ahead (-call5-pf.diff: the producer's existing
# prefetch_dt_l2, so far for packed main passes only, in the state pass PFD tiles ahead of use;
# its plain load stays a round = 2 tiles ahead): pf6 (PFD = 6), pf12 (PFD = 12), against base
# (HEAD) and dt0 (no dt loads, the bound; call 4). Three rounds. Carry out/ab.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4" "--N 128 --batch 2 --seqlen 32768 --state-pass 2" \
  "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --dt-bf16 1 | base pf6 pf12" \
  "--N 64 --batch 1 --seqlen 131072 --state-pass 4 | base pf6 pf12" \
  | timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "base pf6 pf12 dt0" > $O/probe_ab.log 2>&1
tail -6 $O/probe_ab.log
