#!/usr/bin/env bash
# Session 68's last device budget (277 s: too little for the record). On an H200 only (an H100
# stops at once): main's SM rate (11 CTAs) against the full grid, ungated and gated, with the
# three-head kernel (t3h3) and its bound without the producer's third decay (t3skiph3), and eu.
# Carry out/ab/{main,t3,t3skip,eu}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-h200-bounds.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
[[ "$card" == *H200* ]] || { echo "not an H200: stop"; exit 3; }
for v in t3 t3skip; do
  printf '#!/usr/bin/env bash\nexec %s/out/ab/%s_probe --heads-per-cta 3 "$@"\n' "$PWD" $v > out/ab/${v}h3_probe
  chmod +x out/ab/${v}h3_probe
done
timeout 100 bash scripts/probe_ab.sh --rounds 3 --variants "main t3h3 t3skiph3 eu" > $OUT/probe_ab_h200.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0
CFG
echo "probe_ab rc=$?"; tail -4 $OUT/probe_ab_h200.log
timeout 40 bash scripts/probe_ab.sh --rounds 3 --variants "main" > $OUT/probe_ab_h200_z.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --H 66 --batch 12 --z 1
--final-states 0 --N 64 --P 128 --H 33 --batch 1 --grid 11
--final-states 0 --N 64 --P 128 --H 33 --batch 12
CFG
tail -5 $OUT/probe_ab_h200_z.log
echo "done at ${SECONDS} s"
