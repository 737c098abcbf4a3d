#!/usr/bin/env bash
# Session 49, call 6: branch s49-decay2 (2ad73f51ad66: tile_log_decay's faster form, its
# whole-warp case now tested apart after call 4's read past T) staged as out/dev/s49d2, against
# main 8acd00ed2582 (out/dev/s49m7). Ordered by need, each stage's logs packed at once (the
# budget left is ~5 min with the start): the GPU suite both ways, memcheck of the small shapes
# with the fix-up forced at 3 splits, ncu of tile_log_decay, then an API A/B.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-decay2.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
for n in s49m7 s49d2; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
M=out/dev/s49m7 D=out/dev/s49d2 T=out/dev/s49d2/tests/gpu/flashssd_gpu_tests
export LD_LIBRARY_PATH=$PWD/$D
timeout 60 $T > $O/gpu_default.log 2>&1
echo "s49d2 GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_default.log | head -5
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 60 $T > $O/gpu_fixup3.log 2>&1
echo "s49d2 GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -5
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 80 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' \
  > $O/memcheck_fixup3.log 2>&1
echo "s49d2 memcheck (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY" $O/memcheck_fixup3.log
pack checks
for lib in main:$M s49d2:$D; do
  name=${lib%%:*} F=${lib#*:}
  FLASHSSD_SPLIT_SCHEME=fixup LD_LIBRARY_PATH=$PWD/$F timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:tile_log_decay --csv $F/bench/flashssd_bench --config R4 --seqlen 131072 --iters 2 --warmup 1 --no-verify \
    > $O/ncu_R4_128k_$name.csv 2>&1
  echo "ncu R4 128k $name rc=$?"; python3 scripts/ncu_durations.py $O/ncu_R4_128k_$name.csv | grep tile_log
done
pack ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" |
  timeout 100 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib s49d2=$D > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -4 $O/api_ab.log
pack ab
