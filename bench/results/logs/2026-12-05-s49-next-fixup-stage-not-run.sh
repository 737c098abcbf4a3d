#!/usr/bin/env bash
# Session 49, not run (the device budget spent): branch s49-fixup-stage 5e6fa8512d44 (the
# fix-up's second slice of y and z by cp.async with the tile's C, so that a P = 64 tile waits on
# DRAM once, not twice; 96 registers, no local memory; 8 KB more shared memory a CTA: five CTAs
# still fit at P = 64, N = 128, N = 256 drops from three to two) staged as out/dev/s49fs,
# against main's b41245461d90 (out/dev/s50main). ~3.5 min:
#   1. s49fs: GPU suite (default; fix-up forced at 3 splits), memcheck and racecheck of the small
#      shapes at 3 splits with the fix-up forced (the stage is per thread: no barrier orders it);
#   2. ncu durations with the fix-up forced (R1 32k, R4 128k) of both;
#   3. API A/B: main, s49fs, both with the fix-up forced.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-next-fixup-stage-not-run.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
for n in s50main s49fs; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
M=out/dev/s50main N=out/dev/s49fs T=out/dev/s49fs/tests/gpu/flashssd_gpu_tests
( export LD_LIBRARY_PATH=$PWD/$N
  timeout 100 $T > $O/gpu_default.log 2>&1
  echo "s49fs GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_default.log | head -5
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/gpu_fixup3.log 2>&1
  echo "s49fs GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -5
  for tool in memcheck racecheck; do
    FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool $tool $T --gtest_filter='*Small*' \
      > $O/${tool}_fixup3.log 2>&1
    echo "s49fs $tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/${tool}_fixup3.log
  done )
pack checks
for lib in main:$M s49fs:$N; do
  name=${lib%%:*} F=${lib#*:}
  for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
    tag=${row%% *} args=${row#* }
    FLASHSSD_SPLIT_SCHEME=fixup LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum \
      -k regex:split_fixup --csv $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_$name.csv 2>&1
    echo "ncu $tag $name (fix-up forced) rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_$name.csv | grep split_fixup
  done
done
pack ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib s49fs=$N \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib s49fs_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
pack ab
