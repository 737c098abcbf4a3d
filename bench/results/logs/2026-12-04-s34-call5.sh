#!/usr/bin/env bash
# Session 34, device call 5 (timing only): the gated kernels with packed sequences. fin = HEAD
# (ad07e70's kernels); zf = the reset flag loaded a tile ahead in the gated kernels too
# (kPrefetchFlags = true; session 33 measured +0.8% at N = 128 before pfold); zfd = zf + dt's
# L2 prefetch in the gated N = 64 / 256 packed kernels. Carry out/ab34b.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0 --packed 4 --z 1" "--final-states 0 --packed 4 --z 1 --N 64" "--final-states 0 --packed 16 --z 1" \
  "--final-states 0 --packed 4 --z 1 --N 256" "--final-states 0 --z 1" \
  | bash scripts/probe_ab.sh --dir out/ab34b --rounds 3 --variants "fin zf zfd" > $O/ab.log 2>&1
tail -8 $O/ab.log
