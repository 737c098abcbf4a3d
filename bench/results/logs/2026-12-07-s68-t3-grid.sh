#!/usr/bin/env bash
# Session 68 call 4: the three-head kernel's throughput per SM against the two-head kernel's as
# the number of busy SMs grows (--grid g: the persistent grid's CTAs; H = 66 gives both kernels
# whole waves: 33 two-head or 22 three-head items per batch row, 3 or 2 per CTA). Where the SMs
# share little DRAM bandwidth (small g) this is the SM's own rate. Carry as the t3 call.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-t3-grid.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
printf '#!/usr/bin/env bash\nexec %s/out/ab/t3_probe --heads-per-cta 3 "$@"\n' "$PWD" > out/ab/t3h3_probe
printf '#!/usr/bin/env bash\nexec %s/out/ab/t3_probe "$@"\n' "$PWD" > out/ab/f3_probe
chmod +x out/ab/t3h3_probe out/ab/f3_probe
timeout 280 bash scripts/probe_ab.sh --rounds 3 --variants "main t3" > $OUT/probe_ab_grid.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 2 --grid 22
--final-states 0 --H 66 --batch 4 --grid 44
--final-states 0 --H 66 --batch 8 --grid 88
--final-states 0 --H 66 --batch 12 --grid 132
--final-states 0 --H 66 --batch 1 --grid 11 --a-scale 4
CFG
echo "probe_ab rc=$?"; tail -7 $OUT/probe_ab_grid.log
# One JSON line of each, to show the variant that ran (heads_per_cta) and its grid.
for v in main t3h3; do out/ab/${v}_probe --softplus 1 --final-states 0 --H 66 --batch 1 --grid 11 --iters 20 2>/dev/null; done
echo "done at ${SECONDS} s"
