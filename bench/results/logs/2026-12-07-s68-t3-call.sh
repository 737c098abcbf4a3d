#!/usr/bin/env bash
# Session 68: the third consumer warpgroup, measured at last (branch s68-t3: three head slices per
# CTA, 512 threads, producer 32 / consumers 160 registers, the f3 schedule, two ungated stages,
# round-robin issue turns, hardware barrier ids; the probe's --heads-per-cta 3 builds only the
# ungated bf16 N = 128 main pass and checks its y and final states against the two-head kernel's).
# Carry out/ab/main_probe (main's code), out/ab/t3_probe (the branch: K2 = main + f3, K3 with
# --heads-per-cta 3).
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-t3-call.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
P=out/ab/t3_probe
printf '#!/usr/bin/env bash\nexec %s/out/ab/t3_probe --heads-per-cta 3 "$@"\n' "$PWD" > out/ab/t3h3_probe
printf '#!/usr/bin/env bash\nexec %s/out/ab/t3_probe "$@"\n' "$PWD" > out/ab/f3_probe
chmod +x out/ab/t3h3_probe out/ab/f3_probe
echo "== checks: three heads against two (rel norm error of y, final states; outputs poisoned)"
while read -r args; do
  echo "-- $args"
  timeout 60 $P --heads-per-cta 3 --iters 3 $args 2>&1 | grep -E "rel err|error|bad|must" | head -3
done <<'CFG'
--softplus 1
--softplus 1 --a-scale 4
--softplus 1 --a-scale 8
--softplus 1 --packed 4
--softplus 1 --main-splits 2
--softplus 1 --dt-bf16 1 --G 2 --H 16 --batch 2 --seqlen 1000
--seqlen 100 --batch 3 --H 5
--seqlen 4096 --batch 2 --H 6 --a-scale 0.01
CFG
echo "== sanitizers on a small shape (three heads, then the two-head check kernel)"
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --print-limit 5 $P --heads-per-cta 3 --iters 1 --batch 2 --seqlen 300 --H 7 --G 1 > $OUT/san_$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $OUT/san_$tool.log | head -2 | tr '\n' ' ')"
done
echo "== timing (probe_ab: main = main's kernel, f3 = main + f3 (two heads), t3 = three heads)"
timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "main f3 t3" > $OUT/probe_ab_t3.log 2>&1 <<'CFG'
--final-states 0
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 12 --a-scale 4
--final-states 0 --batch 128 --seqlen 512
--final-states 0 --H 66 --batch 192 --seqlen 512
--final-states 0 --main-splits 3
CFG
echo "probe_ab rc=$?"; tail -8 $OUT/probe_ab_t3.log
echo "done at ${SECONDS} s"
