#!/usr/bin/env bash
# Session 38 call D: (1) the L2 flush's write-back in the record's rows (-callD.py); (2) probe
# A/B of head, zr (session 37's prepared z ring before the readout factors) and zr2 (zr with
# two groups of z ahead at N = 128 too). Carry out/dev/build-gpu and out/ab45.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
export PYTHONPATH=$PWD/$B/python LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
timeout 300 python3 bench/results/logs/2026-12-04-s38-callD.py > $O/flush.jsonl 2> $O/flush.err
printf "%s\n" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --z 1 --final-states 0" \
  "--batch 64 --seqlen 1024 --z 1 --final-states 0" "--batch 4 --seqlen 16384 --z 1 --final-states 0" \
  "--packed 4 --z 1 --final-states 0" "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0" \
  "--final-states 0" "--a-scale 8 --z 1 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab45 --rounds 3 --variants "head zr zr2" > $O/ab.log 2>&1
cat $O/flush.jsonl; tail -3 $O/flush.err; tail -9 $O/ab.log
