#!/usr/bin/env bash
# Session 48, not run (no device budget left): branch s48-fixup7's fix-up (five CTAs an SM, 96
# registers: 32 channels at a time, C by cp.async; staged as out/dev/s48f, packed in
# out/carry/s48f.tar.xz) against main's (out/dev/s48main, 8855b32: the same instructions as main's
# HEAD 082008d). One
# call, ~4 min:
#   1. fixup7: GPU suite (default; fix-up forced at 3 splits), memcheck and racecheck of the
#      small shapes at 3 splits with the fix-up forced;
#   2. ncu durations with the fix-up forced (R1 32k, R4 128k) of both;
#   3. API A/B: main, fixup7, and both with the fix-up forced;
#   4. the stall sampling of main's fix-up and tile_log_decay (-s48-next-fixup-stalls-not-run.sh).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-next-fixup7-not-run.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s48main > /dev/null && bash scripts/carry.sh unpack s48f > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
M=out/dev/s48main N=out/dev/s48f
( export LD_LIBRARY_PATH=$PWD/$N; T=$N/tests/gpu/flashssd_gpu_tests
  timeout 100 $T > $O/gpu_default.log 2>&1
  echo "fixup7 GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_default.log | head -5
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/gpu_fixup3.log 2>&1
  echo "fixup7 GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -5
  for tool in memcheck racecheck; do
    FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool $tool $T --gtest_filter='*Small*' \
      > $O/${tool}_fixup3.log 2>&1
    echo "fixup7 $tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/${tool}_fixup3.log
  done )
for lib in main:$M fixup7:$N; do
  name=${lib%%:*} F=${lib#*:}
  for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
    tag=${row%% *} args=${row#* }
    FLASHSSD_SPLIT_SCHEME=fixup LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum \
      --csv $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_$name.csv 2>&1
    echo "ncu $tag $name (fix-up forced) rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_$name.csv | grep -e tile_log -e split_fixup
  done
done
pack stage1
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib fixup7=$N \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib fixup7_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
pack stage2
OUT=$O/stalls bash bench/results/logs/2026-12-05-s48-next-fixup-stalls-not-run.sh
ls $O $O/stalls
