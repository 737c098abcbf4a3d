#!/usr/bin/env bash
# Session 68 call 5: the timing of calls 3 and 4 again with the three-head kernel in it. (There
# the variant "t3" ran out/ab/t3_probe without --heads-per-cta 3, i.e. the branch's two-head
# kernel, main + f3; the wrapper that passes it is out/ab/t3h3_probe.) Carry as the t3 call.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-t3-time.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
printf '#!/usr/bin/env bash\nexec %s/out/ab/t3_probe --heads-per-cta 3 "$@"\n' "$PWD" > out/ab/t3h3_probe
printf '#!/usr/bin/env bash\nexec %s/out/ab/t3_probe "$@"\n' "$PWD" > out/ab/f3_probe
chmod +x out/ab/t3h3_probe out/ab/f3_probe
timeout 400 bash scripts/probe_ab.sh --rounds 3 --variants "main f3 t3h3" > $OUT/probe_ab_t3h3.log 2>&1 <<'CFG'
--final-states 0
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 12 --a-scale 4
--final-states 0 --batch 128 --seqlen 512
--final-states 0 --main-splits 3
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 4 --grid 44
--final-states 0 --H 66 --batch 8 --grid 88
CFG
echo "probe_ab rc=$?"; tail -9 $OUT/probe_ab_t3h3.log
grep -c heads_per_cta <(out/ab/t3h3_probe --softplus 1 --final-states 0 --iters 5 2>/dev/null) | sed 's/^/t3h3 JSON lines with heads_per_cta: /'
echo "done at ${SECONDS} s"
