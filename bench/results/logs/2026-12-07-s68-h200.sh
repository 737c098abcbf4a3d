#!/usr/bin/env bash
# Session 68, on an H200 only (an H100 stops at once): the third consumer's bounds where the main
# pass is not bandwidth-bound (main, t3 three heads, t3skip three heads without the producer's
# third decay), then the benchmark of record on s65path (= main's code; session 67's record script).
# Carry out/carry/s65path.tar.xz third_party_bench out/ab/main_probe out/ab/t3_probe out/ab/t3skip_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s68-h200.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
[[ "$card" == *H200* ]] || { echo "not an H200: stop"; exit 3; }
for v in t3 t3skip; do
  printf '#!/usr/bin/env bash\nexec %s/out/ab/%s_probe --heads-per-cta 3 "$@"\n' "$PWD" $v > out/ab/${v}h3_probe
  chmod +x out/ab/${v}h3_probe
done
timeout 120 bash scripts/probe_ab.sh --rounds 3 --variants "main t3h3 t3skiph3" > $OUT/probe_ab_h200.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
CFG
echo "probe_ab rc=$?"; tail -4 $OUT/probe_ab_h200.log
echo "bounds done at ${SECONDS} s"
REQUIRE_GPU=H200 TOTAL_ALL=0 OUT=$OUT bash scripts/device_record.sh s65path
rc=$?
(cd "$OUT" && [ -f bench.log ] && tar -czf record_logs.tgz bench.log && rm -f bench.log)
ls "$OUT"
echo "rc $rc, all done at ${SECONDS} s"
