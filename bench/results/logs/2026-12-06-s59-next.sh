#!/usr/bin/env bash
# Prepared in session 59 for the next session (never run: session 59's device time ran out).
#   s60main  = main at 3f14382+ (the state's 8-byte store, verified in session 59 call 2 on its
#              kernels; the environment knobs' parsing, host code only, never run on a device)
#   s60scan2 = main + 2026-12-06-s59-scan2.patch (the boundary scan: 8 runs' decays loaded
#              together, then the live runs' states together, then the links)
#   here (if out/carry lacks them): bash scripts/stage_variant.sh s60main;
#     bash scripts/stage_variant.sh s60scan2 bench/results/logs/2026-12-06-s59-scan2.patch
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s59-next.sh   (carry out/carry third_party_bench)
# - On an H200: the record on s60main with its checks (TOTAL_ALL 430), then the quick GPU pytest.
# - On another card (~480 s):
#   1. API A/B, 3 rounds, against s60main: R1 32k, z, decays 10x slower, R1 8k (one split),
#      R4 128k, A x 0.25; scan2 also at runs of 16 (FLASHSSD_STATE_RUNS=16 at R1, 32 at R4).
#   2. ncu of the scan at R1 32k, runs of 64 and 16 (main's at 64: 7.0-7.4 us, s59 call 2).
#   3. s60main's checks: GPU suite default, fix-up at 3 splits, window forced at 3 splits; Hopper
#      suite; memcheck + racecheck (window forced, 3 splits); quick GPU pytest.
#   4. s60scan2's checks, the window forced: GPU suite default, state and fix-up at 3 splits;
#      Hopper suite; memcheck, racecheck (state at 3 splits).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=430 bash scripts/device_record.sh s60main; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick out/dev/s60main "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
for n in s60main s60scan2; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s60main S=out/dev/s60scan2
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" | timeout 80 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "scan2=$S" \
  --lib "scan2_r16=$S,FLASHSSD_STATE_RUNS=16" --lib "main_r16=$M,FLASHSSD_STATE_RUNS=16" > "$OUT/api_ab_r1.log" 2>&1
echo "api_ab R1 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r1.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 80 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "scan2=$S" \
  --lib "scan2_r16=$S,FLASHSSD_STATE_RUNS=32" --lib "main_r16=$M,FLASHSSD_STATE_RUNS=32" > "$OUT/api_ab_r4.log" 2>&1
echo "api_ab R4 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r4.log"
for r in 4 16; do
  FLASHSSD_STATE_RUNS=$r LD_LIBRARY_PATH=$PWD/$S timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k "regex:split_boundary" --csv $S/bench/flashssd_bench --config R1 --seqlen 32768 --iters 2 --warmup 1 --no-verify \
    > "$OUT/ncu_scan2_runs$r.csv" 2>&1
  echo "ncu scan2 runs $r rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_scan2_runs$r.csv" | cut -c1-160
done
variant_pack ab
VARIANT_SCHEMES=fixup variant_suites main $M
variant_window_suite main $M
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize main_win $M memcheck racecheck
variant_pack main_checks
echo "main's checks at ${SECONDS} s"
# (the window forced: by default, with state and with fix-up at 3 splits; the Hopper suite)
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES="state fixup" variant_suites scan2 $S
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize scan2 $S memcheck racecheck
variant_pack scan2_checks
echo "scan2's checks at ${SECONDS} s"
variant_pytest pytest_quick $M "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
