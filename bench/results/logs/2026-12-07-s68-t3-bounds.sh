#!/usr/bin/env bash
# Session 68 call 6: what paces the three-head kernel (call 5: +11..+14% at equal work, full grid).
# t3skip (-DT3_SKIP_HEAD2_DECAY, timing only: the producer prepares no decay for the third head,
# whose consumer reads the first head's): the producer's extra work as a bound. t3p56
# (-DT3_PRODUCER_REGS=56: producer 56, consumers 152 registers; ptxas C7512 there). Carry
# out/ab/main_probe out/ab/t3_probe out/ab/t3skip_probe out/ab/t3p56_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-t3-bounds.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for v in t3 t3skip t3p56; do
  printf '#!/usr/bin/env bash\nexec %s/out/ab/%s_probe --heads-per-cta 3 "$@"\n' "$PWD" $v > out/ab/${v}h3_probe
  chmod +x out/ab/${v}h3_probe
done
timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "main t3h3 t3skiph3 t3p56h3" > $OUT/probe_ab_bounds.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
CFG
echo "probe_ab rc=$?"; tail -4 $OUT/probe_ab_bounds.log
for v in t3skiph3 t3p56h3; do out/ab/${v}_probe --softplus 1 --final-states 0 --iters 5 2>/dev/null | grep -o '"heads_per_cta": [0-9]' | sed "s/^/$v /"; done
echo "done at ${SECONDS} s"
