#!/usr/bin/env bash
# Prepared in session 59 for the next session (never run: session 59's device time ran out).
# Libraries (out/carry; scripts/stage_variant.sh):
#   s60main  = main at c59ec46 (the state's 8-byte store, whose kernels session 59's call 2
#              verified; the environment knobs' parsing, host code only: SASS identical)
#   s60scan2 = main + 2026-12-06-s59-scan2.patch: the boundary scan loads 8 runs' decays
#              together, then the live runs' states together, then links them (the old scan
#              waits on each decay, then on the state its test guards)
#   s60side  = main + 2026-12-06-s59-side.patch: with more than one split, the chunk scores run
#              on a side stream beside the split kernels (forked before them, joined before the
#              scan), not after the scan (ncu, R1 32k: chunk scores 15.8-16.5 us; window
#              kernels 6.8 + 6.0-6.5; state pass 55.7-57.1, with the median SM busy ~34 us)
#   s60both  = both patches
#   here (if out/carry lacks them): bash scripts/stage_variant.sh s60main;
#     bash scripts/stage_variant.sh s60scan2 bench/results/logs/2026-12-06-s59-scan2.patch;
#     bash scripts/stage_variant.sh s60side bench/results/logs/2026-12-06-s59-side.patch;
#     cat bench/results/logs/2026-12-06-s59-{side,scan2}.patch > /tmp/both.patch && bash scripts/stage_variant.sh s60both /tmp/both.patch
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s59-next.sh   (carry out/carry third_party_bench)
# - On an H200: the record on s60main with its checks (TOTAL_ALL 430), then the quick GPU pytest
#   (its current-stream test now also on the split path; never run before).
# - On another card (~350 s):
#   1. API A/B, 3 rounds, against s60main: R1 32k, z, decays 10x slower, R1 8k (one split: no
#      change expected), R4 128k, A x 0.25; scan2 and main also at runs of 16 tiles.
#   2. ncu of the split kernels at R1 32k: scan2 at runs of 64 and 16 (ncu serialises kernels:
#      it cannot show the side stream's overlap).
#   3. s60main's checks: GPU suite default, fix-up at 3 splits, window forced at 3 splits;
#      Hopper suite; memcheck + racecheck (window forced, 3 splits); quick GPU pytest.
#   Then the winner's checks: 2026-12-06-s59-next2.sh <staged name>.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=430 bash scripts/device_record.sh s60main; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick out/dev/s60main "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
for n in s60main s60scan2 s60side s60both; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s60main S=out/dev/s60scan2 D=out/dev/s60side B=out/dev/s60both
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" | timeout 90 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "scan2=$S" \
  --lib "side=$D" --lib "both=$B" --lib "scan2_r16=$S,FLASHSSD_STATE_RUNS=16" --lib "main_r16=$M,FLASHSSD_STATE_RUNS=16" \
  > "$OUT/api_ab_r1.log" 2>&1
echo "api_ab R1 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r1.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 90 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "scan2=$S" --lib "side=$D" --lib "both=$B" \
  --lib "scan2_r16=$S,FLASHSSD_STATE_RUNS=32" --lib "main_r16=$M,FLASHSSD_STATE_RUNS=32" > "$OUT/api_ab_r4.log" 2>&1
echo "api_ab R4 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r4.log"
# (the state scheme forced: what "auto" takes at R1 32k)
for r in 4 16; do
  FLASHSSD_STATE_RUNS=$r VARIANT_SCHEMES=state variant_ncu scan2 $S "ssd_fwd_sm90_kernel|split_boundary|tile_log|state_window|chunk_scores" \
    "R1_32k_runs$r --config R1 --seqlen 32768"
done
variant_pack ab
VARIANT_SCHEMES=fixup variant_suites main $M
variant_window_suite main $M
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize main_win $M memcheck racecheck
variant_pack main_checks
echo "main's checks at ${SECONDS} s"
variant_pytest pytest_quick $M "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
