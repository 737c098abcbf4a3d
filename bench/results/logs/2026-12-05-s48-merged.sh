#!/usr/bin/env bash
# Session 48, call 5 (the budget allows one): main after the merge of s48-fixup (out/dev/s48m; its
# SASS is call 4's library's (out/dev/s48b) but for tile_log_decay, whose softplus now comes from
# fast intrinsics: scripts/sass_diff.py, 1 different, 56 identical) and branch s48-fixup5
# (out/dev/s48c: the fix-up issues every load of a tile before its first wait). Stages, each
# packing its logs (the device returns what a cut-off call left):
#   1. merged: GPU suite (default; fix-up forced at 3 splits), Hopper suite, memcheck and
#      racecheck of the small shapes at 3 splits with the fix-up forced;
#   2. fixup5: split tests, GPU suite with the fix-up forced at 3 splits, memcheck and racecheck
#      as above; ncu of R4 128k and R1 32k with the fix-up forced;
#   3. API A/B: call 4's library, merged, fixup5 (and fixup5 with the fix-up forced at R1 32k);
#   4. merged: the GPU pytest without its mamba_ssm comparisons.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-merged.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s48m > /dev/null || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
pack() { (cd $O && tar -czf $1.tgz *.log *.csv 2>/dev/null; rm -f *.log *.csv); }
checks() {  # tag folder
  local tag=$1 F=$2; local T=$F/tests/gpu/flashssd_gpu_tests
  export LD_LIBRARY_PATH=$PWD/$F
  timeout 100 $T > $O/${tag}_gpu_default.log 2>&1
  echo "$tag GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/${tag}_gpu_default.log | head -5
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/${tag}_gpu_fixup3.log 2>&1
  echo "$tag GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/${tag}_gpu_fixup3.log | head -5
  for tool in memcheck racecheck; do
    FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool $tool $T --gtest_filter='*Small*' \
      > $O/${tag}_${tool}_fixup3.log 2>&1
    echo "$tag $tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/${tag}_${tool}_fixup3.log
  done
}
M=out/dev/s48m N=out/dev/s48c P=out/dev/s48b
( checks merged $M
  timeout 100 $M/tests/gpu/flashssd_sm90_gpu_tests > $O/merged_sm90_tests.log 2>&1
  echo "merged sm90 tests rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/merged_sm90_tests.log | head -3 )
pack stage1
( checks fixup5 $N
  for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
    tag=${row%% *} args=${row#* }
    FLASHSSD_SPLIT_SCHEME=fixup timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      $N/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_fixup5.csv 2>&1
    echo "ncu $tag fixup5 (fixup forced) rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_fixup5.csv | grep -e tile_log -e split_fixup
  done )
pack stage2
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib call4=$P --lib merged=$M --lib fixup5=$N \
    --lib fixup5_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -6 $O/api_ab.log
pack stage3
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python timeout 150 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > $O/pytest_gpu_quick.log 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -3 $O/pytest_gpu_quick.log
pack stage4
ls $O
