#!/usr/bin/env bash
# Session 49, call 2: main's HEAD b07ba76 (out/dev/s49main) verified on the device, and branch
# s48-fixup7's fix-up (five CTAs an SM, 96 registers, 32 channels at a time, C by cp.async; staged
# as out/dev/s48f) measured against it. ~8 min:
#   0. HEAD: GPU suite (default; fix-up forced at 3 splits), Hopper suite, memcheck of the small
#      shapes at 3 splits with the fix-up forced (082008d's host rules never ran on a device);
#   1. fixup7: GPU suite (both ways), memcheck and racecheck (small shapes, fix-up forced, 3 splits);
#   2. ncu durations with the fix-up forced (R1 32k, R4 128k) of both;
#   3. API A/B: main, fixup7, and both with the fix-up forced.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s49-fixup7.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s49main > /dev/null && bash scripts/carry.sh unpack s48f > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
M=out/dev/s49main N=out/dev/s48f
suite() {  # <name> <folder>: the GPU suite by default and with the fix-up forced at 3 splits
  local T=$2/tests/gpu/flashssd_gpu_tests
  LD_LIBRARY_PATH=$PWD/$2 timeout 100 $T > $O/$1_gpu_default.log 2>&1
  echo "$1 GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/$1_gpu_default.log | head -5
  LD_LIBRARY_PATH=$PWD/$2 FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/$1_gpu_fixup3.log 2>&1
  echo "$1 GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/$1_gpu_fixup3.log | head -5
}
sanitize() {  # <name> <folder> <tool>...: the small shapes at 3 splits with the fix-up forced
  local n=$1 F=$2; shift 2
  for tool in "$@"; do
    LD_LIBRARY_PATH=$PWD/$F FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool $tool \
      $F/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/${n}_${tool}_fixup3.log 2>&1
    echo "$n $tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/${n}_${tool}_fixup3.log
  done
}
suite main $M
LD_LIBRARY_PATH=$PWD/$M timeout 100 $M/tests/gpu/flashssd_sm90_gpu_tests > $O/main_sm90.log 2>&1
echo "main Hopper suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/main_sm90.log | head -5
sanitize main $M memcheck
suite fixup7 $N
sanitize fixup7 $N memcheck racecheck
pack checks
for lib in main:$M fixup7:$N; do
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
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib fixup7=$N \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib fixup7_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
pack ab
