#!/usr/bin/env bash
# Session 38 call A: session 37's prepared call (2026-12-04-s37-next-not-run.sh), run, plus "all" (ds + zr + fs in one tree; rf conflicts with zr).
# Four small cuts on the factored tile's chain (docs/HOPPER_PLAN.md session 37 "Next" 1-2):
#   ds: the factored tile decays its state by factored_scale, which equals its total decay, so
#       decay_state's shared load after the factored GEMM's wait goes (-next-ds.diff);
#   zr: the gated epilogue's z ring started before the readout factors, not after x's reload
#       (-next-zr.diff);
#   fs: the next tile's factored_scale read by next_stage once its stage is filled, so the loop
#       head needs no shared load before its branch on the tile's form (-next-fs.diff; the
#       turnaround, ~220 cycles in the traces: S2R of the shared window, the stage's address,
#       that load and the branch, call J's SASS);
#   rf: the readout factors read into registers before the turn's barrier (which holds plain
#       loads back) and applied after it (-next-rf.diff; "readout factors" ~310 cycles a tile).
# All four built clean here (ptxas: no spill, no C751x). Build (~3 min each), from HEAD:
#   for v in ds zr fs rf; do rm -rf /tmp/v_$v && mkdir /tmp/v_$v && cp -r src include bench /tmp/v_$v &&
#     (cd /tmp/v_$v && patch -p0 < "$OLDPWD/bench/results/logs/2026-12-04-s37-next-$v.diff"); done
#   mkdir -p out/ab45 && scripts/build_probe.sh out/ab45/head_probe &&
#   for v in ds zr fs rf; do scripts/build_probe.sh /tmp/v_$v out/ab45/${v}_probe; done
# Carry out/ab45; 3 rounds, ~90 s on a warm machine. A variant kept needs PART=checks (the GPU
# suites, sanitizers) and the benchmark, as every kernel change.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" "--a-scale 4 --final-states 0" \
  "--a-scale 8 --final-states 0" "--packed 4 --final-states 0" \
  "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--batch 32 --seqlen 2048 --z 1 --final-states 0" "--packed 4 --z 1 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab45 --rounds 3 --variants "head ds zr fs rf all" > $O/ab.log 2>&1
tail -11 $O/ab.log
