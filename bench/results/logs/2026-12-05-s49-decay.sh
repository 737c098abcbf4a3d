#!/usr/bin/env bash
# Session 49, call 4: branch s49-decay (tile_log_decay with dt's type, the softplus and the
# whole-warp case as template parameters: ~25 instructions a token, was ~72; call 3 found it
# issue-bound) staged as out/dev/s49d, and branch s49-decay7 (s49-decay + s48-fixup7's fix-up at
# five CTAs an SM) as out/dev/s49d7, against main's HEAD (out/dev/s49main). ~4-5 min:
#   1. s49d7: GPU suite (default; fix-up forced at 3 splits), memcheck and racecheck (small shapes,
#      fix-up forced, 3 splits); s49d: GPU suite both ways;
#   2. ncu durations of tile_log_decay and the fix-up (forced), R1 32k and R4 128k, all three;
#   3. API A/B: main, s49d, s49d7, and main / s49d7 with the fix-up forced.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-decay.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
for n in s49main s49d s49d7; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
M=out/dev/s49main D=out/dev/s49d D7=out/dev/s49d7
suite() {  # <name> <folder>: the GPU suite by default and with the fix-up forced at 3 splits
  local T=$2/tests/gpu/flashssd_gpu_tests
  LD_LIBRARY_PATH=$PWD/$2 timeout 100 $T > $O/$1_gpu_default.log 2>&1
  echo "$1 GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/$1_gpu_default.log | head -5
  LD_LIBRARY_PATH=$PWD/$2 FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/$1_gpu_fixup3.log 2>&1
  echo "$1 GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/$1_gpu_fixup3.log | head -5
}
suite s49d7 $D7
for tool in memcheck racecheck; do
  LD_LIBRARY_PATH=$PWD/$D7 FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool $tool \
    $D7/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/s49d7_${tool}_fixup3.log 2>&1
  echo "s49d7 $tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/s49d7_${tool}_fixup3.log
done
suite s49d $D
pack checks
for lib in main:$M s49d:$D s49d7:$D7; do
  name=${lib%%:*} F=${lib#*:}
  for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
    tag=${row%% *} args=${row#* }
    FLASHSSD_SPLIT_SCHEME=fixup LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum \
      --csv $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_$name.csv 2>&1
    echo "ncu $tag $name (fix-up forced) rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_$name.csv | grep -e tile_log -e split_fixup
  done
done
pack ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  timeout 170 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib s49d=$D --lib s49d7=$D7 \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib s49d7_forced=$D7,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
pack ab
