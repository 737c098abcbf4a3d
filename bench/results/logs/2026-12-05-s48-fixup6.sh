#!/usr/bin/env bash
# Session 48, call 6, branch s48-fixup6 (out/dev/s48e) against main d00ff6c's library (out/dev/s48c,
# SASS-identical to main's 8855b32): the fix-up's indices by shifts (call 5's form spent more
# instructions on integer divisions, 64-bit in h_in's conversion, than on its loads: 4604 -> 3484
# SASS lines), tile_log_decay 4 tiles a block. Checks as call 5's, ncu with the fix-up forced,
# then the API A/B. Stages pack their logs.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-fixup6.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s48e > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
M=out/dev/s48c N=out/dev/s48e
( export LD_LIBRARY_PATH=$PWD/$N; T=$N/tests/gpu/flashssd_gpu_tests
  timeout 100 $T > $O/gpu_default.log 2>&1
  echo "GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_default.log | head -5
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/gpu_fixup3.log 2>&1
  echo "GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -5
  for tool in memcheck racecheck; do
    FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool $tool $T --gtest_filter='*Small*' \
      > $O/${tool}_fixup3.log 2>&1
    echo "$tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/${tool}_fixup3.log
  done
  for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
    tag=${row%% *} args=${row#* }
    FLASHSSD_SPLIT_SCHEME=fixup timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      $N/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_fixup6.csv 2>&1
    echo "ncu $tag fixup6 (fixup forced) rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_fixup6.csv | grep -e tile_log -e split_fixup
  done )
pack stage1
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib fixup6=$N \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib fixup6_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
pack stage2
ls $O
