#!/bin/bash
# Session 20 call 5: the real kernel without dt loads (call 4, nodt) is 3% faster at R1 8k; the
# load, one round ahead into a register, is waited for by the next round. HEAD's change asks L2
# for dt's line kDtPrefetchRounds rounds ahead (prefetch.global.L2, no register): A/B of 2, 3,
# 5 rounds (pf2, pf3, pf5: /tmp/pfN = copy of src include bench with the constant edited), 3
# rounds into L1 (pf3l1: prefetch.global.L1), HEAD~ (base: git archive of the parent) and
# call 4's bound (nodt). Built by scripts/build_probe.sh <tree> out/ab/<v>_probe.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 128 --packed 4" \
  | timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "base pf2 pf3 pf5 pf3l1 nodt" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
