#!/usr/bin/env bash
# Session 59, call 2 (any card; the record needs an H200, which no start since session
# 55 gave). Libraries (out/carry; scripts/stage_variant.sh):
#   s59main  = main at c947bf9 (call 1's s58store merged: the state's 8-byte store)
#   s59scan  = main + 2026-12-06-s59-scan.patch: the boundary scan loads 4 runs' decays and
#              states ahead of their links (before: each link waited on its decay, then on the
#              state its test guarded). ncu (session 58): the scan 6.8 / 8.9 / 12.4 us at runs
#              of 64 / 32 / 16 at R1 32k; the runs of 16 lost ~+1.2%, ~the scan's growth.
#   s59qscan = s59scan + 2026-12-06-s58-queue.patch (the live-run list, runs of 32): call 1's
#              queue was no faster than the store alone at its runs of 32, +1.2% at 16.
# 1. API A/B, 3 rounds, against s59main; the queue also at runs of 16 (FLASHSSD_STATE_RUNS).
# 2. s59main's checks (its exact build): GPU suite default, fix-up at 3 splits, window forced at
#    3 splits; Hopper suite; memcheck + racecheck (small shapes, window forced at 3 splits).
# 3. s59scan's checks: GPU suite default, fix-up and window forced at 3 splits; memcheck +
#    racecheck window forced at 3 splits and fix-up at 3 splits.
# 4. quick GPU pytest on s59main; ncu of the split kernels at R1 32k (main; scan and qscan at runs of 16).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s59-call2.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s59main s59scan s59qscan; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s59main S=out/dev/s59scan Q=out/dev/s59qscan
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 150 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "scan=$S" --lib "qscan=$Q" \
    --lib "qscan_r16=$Q,FLASHSSD_STATE_RUNS=16" --lib "scan_r16=$S,FLASHSSD_STATE_RUNS=16" > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab.log"
variant_pack ab
VARIANT_SCHEMES=fixup variant_suites main $M
LD_LIBRARY_PATH=$PWD/$M FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout 100 \
  $M/tests/gpu/flashssd_gpu_tests > "$OUT/main_gpu_win3.log" 2>&1
echo "main GPU suite, window at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/main_gpu_win3.log"
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize main_win $M memcheck racecheck
variant_pack main_checks
echo "main's checks at ${SECONDS} s"
T=$S/tests/gpu/flashssd_gpu_tests
LD_LIBRARY_PATH=$PWD/$S timeout 100 $T > "$OUT/scan_gpu_default.log" 2>&1
echo "scan GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/scan_gpu_default.log"
LD_LIBRARY_PATH=$PWD/$S FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > "$OUT/scan_gpu_fixup3.log" 2>&1
echo "scan GPU suite, fix-up at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/scan_gpu_fixup3.log"
LD_LIBRARY_PATH=$PWD/$S FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout 100 $T \
  > "$OUT/scan_gpu_win3.log" 2>&1
echo "scan GPU suite, window at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/scan_gpu_win3.log"
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES="state fixup" variant_sanitize scan $S memcheck racecheck
variant_pack scan_checks
echo "scan's checks at ${SECONDS} s"
variant_pytest pytest_quick $M "not mamba_ssm_triton"
K="ssd_fwd_sm90_kernel|split_boundary|tile_log|state_window|chunk_scores|live_runs"
ncu_r1() {  # <tag> <folder> <runs per split>
  FLASHSSD_STATE_RUNS=$3 LD_LIBRARY_PATH=$PWD/$2 timeout 50 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k "regex:$K" --csv $2/bench/flashssd_bench --config R1 --seqlen 32768 --iters 2 --warmup 1 --no-verify \
    > "$OUT/ncu_$1.csv" 2>&1
  echo "ncu $1 rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_$1.csv" | cut -c1-200
}
ncu_r1 main_runs4 $M 4; ncu_r1 scan_runs16 $S 16; ncu_r1 qscan_runs16 $Q 16
variant_pack ncu
echo "all done at ${SECONDS} s"
