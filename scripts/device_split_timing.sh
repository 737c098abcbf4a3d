#!/usr/bin/env bash
# On the device: where R1 32k's time goes against R1 16k's (the split machinery: state pass,
# boundary scan), with and without z: every kernel's duration under ncu (GPU clocks as they
# run) and flashssd_bench's own timing of the four rows (1000 iterations, L2 flushed before
# each, two rounds). ~70 s. Logs: $OUT/ncu_r1_split.txt, $OUT/bench_r1_split.txt.
# (First written as session 55's H200 call, bench/results/logs/2026-12-06-s55-h200-record.sh.)
#   device: OUT=$OUT bash scripts/device_split_timing.sh out/dev/<name>
set -u
: "${OUT:?device_split_timing: set OUT}"
F=${1:?device_split_timing: name the staged library folder}
for row in "16384" "16384 --z" "32768" "32768 --z"; do
  tag=$(echo "$row" | tr -d ' -')
  LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $F/bench/flashssd_bench --config R1 --seqlen $row --iters 2 --warmup 1 --no-verify > "$OUT/ncu_$tag.csv" 2>&1
  echo "== ncu R1 $row rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_$tag.csv"
done | tee "$OUT/ncu_r1_split.txt"
for round in 1 2; do
  for row in "16384" "16384 --z" "32768" "32768 --z"; do
    echo "round $round R1 $row: $(LD_LIBRARY_PATH=$PWD/$F timeout 30 $F/bench/flashssd_bench --config R1 --seqlen $row --iters 1000 --warmup 50 --no-verify 2>&1 | tail -1)"
  done
done | tee "$OUT/bench_r1_split.txt"
rm -f "$OUT"/ncu_*.csv
