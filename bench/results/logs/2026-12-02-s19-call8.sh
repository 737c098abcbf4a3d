#!/bin/bash
# Session 19 call 8: the 3-stage skeleton (skc3) with X^T S'^T in its own accumulator, issued
# right after h C^T with no wait between, the two added in the epilogue (skc3sa;
# `-call8-skeleton-own-acc.diff`, on top of `-call7-skeleton-syncs.diff`): does one WGMMA round
# trip less per tile shorten the skeleton's chain?
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 100 bash scripts/probe_ab.sh --rounds 2 --variants "base skc3 skc3sa" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
