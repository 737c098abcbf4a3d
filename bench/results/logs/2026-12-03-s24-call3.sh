#!/bin/bash
# Session 24 call 3: what bounds the split scheme's state pass (probe --state-pass, three rounds;
# timing-only variants, results wrong): base = HEAD's kernel; io = -call2-io.diff (consumers
# wait and release, compute nothing); ionob = io + -call2-nob.diff (no B tile); iodt0 = io +
# -call3-dt0.diff (the producer loads no dt: a constant 0.01); pure = ionob + dt0 (the x tiles'
# TMA stream alone with the producer's a / dt stores); "--N 128 | base pure": the main pass
# without dt loads (pure's main pass). References in the same call: the read-only bandwidth
# of 830 MB (the R4 state pass's x bytes) and 1 GB, and a 1 GB device-to-device copy
# (probe --read-bw / --copy-bw). Builds: scripts/build_probe.sh <tree> out/ab/<v>_probe, trees =
# HEAD's src/include/bench + the diffs. Carry out/ab.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 | base io ionob iodt0 pure" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2 | base io ionob iodt0 pure" \
  "--N 128 | base pure" "--read-bw 830 | base" "--read-bw 1024 | base" "--copy-bw 1024 | base" \
  | timeout 400 bash scripts/probe_ab.sh --rounds 3 --variants "base" > $O/probe_ab.log 2>&1
tail -12 $O/probe_ab.log
for a in "--batch 1 --seqlen 131072 --state-pass 4" "--batch 2 --seqlen 32768 --state-pass 2"; do
  out/ab/base_probe --softplus 1 --iters 20 --N 128 $a 2>&1 | tee -a $O/state_pass_json.log
done
