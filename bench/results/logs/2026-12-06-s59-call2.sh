#!/usr/bin/env bash
# Session 59, call 2 (ask for nvidia-h200). s59main = main at c947bf9 (the state's 8-byte store,
# call 1's s58store, merged), staged by `bash scripts/stage_variant.sh s59main`.
# - On an H200: the record on s59main with its checks (TOTAL_ALL 440), then the GPU suite with
#   the window forced at 3 splits.
# - On another card: s59main's checks (GPU suite by default, fix-up and window forced at 3 splits;
#   Hopper suite; memcheck + racecheck on the small shapes, both schemes; quick pytest), then a
#   diagnostic: why call 1's live-run list (s58queue) gained nothing over the store alone, by
#   ncu of the split kernels at R1 32k (s59main at runs of 64; s58queue at runs of 16 / 32 / 64).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s59-call2.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s59main s58queue; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s59main Q=out/dev/s58queue
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=440 bash scripts/device_record.sh s59main; echo "record + checks rc=$? at ${SECONDS} s"
  FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites main_win $M
  variant_pack win
  echo "all done at ${SECONDS} s"; exit 0
fi
VARIANT_SCHEMES=fixup variant_suites main $M
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites main_win $M
echo "suites at ${SECONDS} s"
VARIANT_SCHEMES=fixup variant_sanitize main $M memcheck racecheck
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize main_win $M memcheck racecheck
variant_pack checks
echo "sanitizers at ${SECONDS} s"
variant_pytest pytest_quick $M "not mamba_ssm_triton"
K="ssd_fwd_sm90_kernel|split_boundary|tile_log|state_window|chunk_scores|live_runs"
ncu_r1() {  # <tag> <folder> <runs per split>
  FLASHSSD_STATE_RUNS=$3 LD_LIBRARY_PATH=$PWD/$2 timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k "regex:$K" --csv $2/bench/flashssd_bench --config R1 --seqlen 32768 --iters 2 --warmup 1 --no-verify \
    > "$OUT/ncu_$1.csv" 2>&1
  echo "ncu $1 rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_$1.csv" | cut -c1-200
}
ncu_r1 main_runs4 $M 4
for r in 4 8 16; do ncu_r1 queue_runs$r $Q $r; done
variant_pack ncu
echo "all done at ${SECONDS} s"
