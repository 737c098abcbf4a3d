#!/usr/bin/env bash
# Session 38 call I: what holds the state pass (R4 305 us, R1 32k 111 us: ~0.82 us per two-head
# tile step against ~0.5 us of x's bytes at an SM's DRAM share). Bounds on its consumers'
# operand preparation (each variant's state wrong, timing only; diffs -callI-<name>.diff):
# sw, no warp scan (weights = dt, total 1); sx, no scan and no shuffles (weights a run-time
# 1, the scaling kept: with no scaling ptxas serialised the WGMMAs, C7513); s0, sx without the
# x read (a run-time constant operand: the waits, the WGMMAs and the producer left).
# head = HEAD's kernels (eb0afec). Carry out/ab47.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--batch 1 --seqlen 131072 --state-pass 4 --final-states 0" \
  "--batch 1 --seqlen 524288 --state-pass 4 --final-states 0" \
  "--batch 2 --seqlen 32768 --state-pass 2 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab47 --rounds 3 --variants "head sw sx s0" > $O/ab.log 2>&1
tail -4 $O/ab.log
for v in head s0; do out/ab47/${v}_probe --softplus 1 --iters 20 --final-states 0 --batch 1 --seqlen 131072 --state-pass 4 2>&1 | tail -1 >> $O/plans.log; done
cat $O/plans.log
