#!/usr/bin/env bash
# Session 57, call 4 (any card; an A/B within the call). Branch s57-window (staged as s57win):
# the state scheme's state pass over each split's decay window (sm90/split_fixup.h), one CTA
# per run, runs of ~32 tiles, against main (s56main = f38406e).
# 1. its suites: default, the state and fix-up schemes forced at 3 splits (the new
#    GpuForwardSplit.StateWindowMatchesReference in each), the Hopper suite;
# 2. memcheck and racecheck on the small shapes with the state scheme forced at 3 splits (every
#    such call takes the window), and memcheck on the split tests' short cases;
# 3. ncu kernel durations of R1 32k (main, window);
# 4. API A/B: R1 32k (z; A x 0.5 / 0.25 / 0.1: longer windows), R1 16k (no split: control),
#    with the window's runs at 8 (default), 4 and 16; R4 128k with the state scheme forced.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-call4.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
for c in s56main s57win; do bash scripts/carry.sh unpack $c > /dev/null || exit 1; done
M=out/dev/s56main W=out/dev/s57win
. scripts/device_variant.sh
VARIANT_SCHEMES="state fixup"
variant_suites win $W
VARIANT_SCHEMES="state"
variant_sanitize win $W memcheck racecheck
LD_LIBRARY_PATH=$PWD/$W FLASHSSD_SPLIT_SCHEME=state timeout 150 compute-sanitizer --tool memcheck \
  $W/tests/gpu/flashssd_gpu_tests --gtest_filter='GpuForwardSplit.StatePassItemLengths*:GpuForwardSplit.HeadDim128Ungated*' \
  > "$OUT/win_memcheck_split.log" 2>&1
echo "win memcheck split tests rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/win_memcheck_split.log" | head
variant_pack win_checks
echo "checks done at ${SECONDS} s"
for lib in "main:$M" "win:$W"; do
  for row in "32768" "32768 --z"; do
    tag=$(echo "$row" | tr -d ' -')
    LD_LIBRARY_PATH=$PWD/${lib#*:} timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      ${lib#*:}/bench/flashssd_bench --config R1 --seqlen $row --iters 2 --warmup 1 --no-verify > "$OUT/ncu_${tag}_${lib%%:*}.csv" 2>&1
    echo "== ncu R1 $row ${lib%%:*} rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_${tag}_${lib%%:*}.csv" | grep -v fill_uniform | grep -v count_nonfinite
  done
done | tee "$OUT/ncu_r1_32k.txt"
rm -f "$OUT"/ncu_*.csv
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.5" \
  "--config R1 --seqlen 32768 --A-scale 0.25" "--config R1 --seqlen 32768 --A-scale 0.1" "--config R1 --seqlen 16384" |
  timeout 200 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "win=$W" --lib "win_r4=$W,FLASHSSD_STATE_RUNS=4" \
    --lib "win_r16=$W,FLASHSSD_STATE_RUNS=16" > "$OUT/api_ab_win.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_win.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 100 bash scripts/api_ab.sh --rounds 3 --lib "main_state=$M,FLASHSSD_SPLIT_SCHEME=state" \
    --lib "win_state=$W,FLASHSSD_SPLIT_SCHEME=state" --lib "main_auto=$M" > "$OUT/api_ab_win_r4.log" 2>&1
echo "api_ab R4 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_win_r4.log"
echo "all done at ${SECONDS} s"
