#!/usr/bin/env bash
# Session 59, call 3 (any card; ~365 s of device time left). s59scan2 = main +
# 2026-12-06-s59-scan2.patch: the boundary scan loads 8 runs' decays together, then the states
# of the live ones together, then links them (call 2's first form read every run's slot, the
# dead ones' too, from DRAM: 12.4 -> 26-27 us at runs of 16, R4 128k +1.4%).
# 1. API A/B, 3 rounds, against s59main; scan2 also at runs of 16.
# 2. ncu of the scan at R1 32k, runs of 64 and 16.
# 3. s59scan2's GPU suite default, window forced and fix-up at 3 splits; memcheck, window forced.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s59-call3.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s59main s59scan2; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s59main S=out/dev/s59scan2
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 80 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "scan2=$S" --lib "scan2_r16=$S,FLASHSSD_STATE_RUNS=16" \
  > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab.log"
variant_pack ab
for r in 4 16; do
  FLASHSSD_STATE_RUNS=$r LD_LIBRARY_PATH=$PWD/$S timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k "regex:split_boundary" --csv $S/bench/flashssd_bench --config R1 --seqlen 32768 --iters 2 --warmup 1 --no-verify \
    > "$OUT/ncu_scan2_runs$r.csv" 2>&1
  echo "ncu scan2 runs $r rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_scan2_runs$r.csv" | cut -c1-160
done
variant_pack ncu
T=$S/tests/gpu/flashssd_gpu_tests
LD_LIBRARY_PATH=$PWD/$S timeout 60 $T > "$OUT/scan2_gpu_default.log" 2>&1
echo "scan2 GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/scan2_gpu_default.log"
LD_LIBRARY_PATH=$PWD/$S FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout 60 $T \
  > "$OUT/scan2_gpu_win3.log" 2>&1
echo "scan2 GPU suite, window at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/scan2_gpu_win3.log"
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize scan2 $S memcheck
variant_pack checks1
LD_LIBRARY_PATH=$PWD/$S FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 60 $T > "$OUT/scan2_gpu_fixup3.log" 2>&1
echo "scan2 GPU suite, fix-up at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/scan2_gpu_fixup3.log"
variant_pack checks2
echo "all done at ${SECONDS} s"
