#!/usr/bin/env bash
# Session 68's last ask. On an H200: the third consumer's bounds and main's SM rate (main, t3,
# t3skip), then the benchmark of record on s65path (= main's code). On an H100 (the record and the
# H200 figures need an H200): instead the eu variant at the SM's own rate and on the full grid
# (2026-12-07-s68-eu.diff, -DEU_EARLY_UPDATE: the factored tile's state update issued right
# behind h C^T, before the intra GEMM; timing only, not verified).
# Carry out/carry/s65path.tar.xz third_party_bench out/ab/{main,t3,t3skip,eu}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-h200b.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
if [[ "$card" != *H200* ]]; then
  timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "main eu" > $OUT/probe_ab_eu.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --H 66 --batch 12 --z 1
--final-states 0
--final-states 0 --a-scale 4 --H 66 --batch 1 --grid 11
CFG
  echo "probe_ab rc=$?"; tail -7 $OUT/probe_ab_eu.log
  echo "done at ${SECONDS} s"; exit 0
fi
bash bench/results/logs/2026-12-07-s68-h200.sh
