#!/usr/bin/env bash
# Prepared in session 58 for the next session (any card; never run: session 58's device time ran
# out). Two stacked branches against main (s58main, 69c0e31: 6e09649's kernels):
#   s58store = main + branch s58-store (2026-12-06-s58-store.patch): the states stored as 8-byte
#              pairs where aligned (call 5's timeline: a state-pass run spends ~4.2-4.6 us
#              storing its 64 KB with 4-byte stores). SASS: 18 kernels differ (STG.E.64).
#   s58queue = s58store + branch s58-queue (2026-12-06-s58-queue.patch): live_runs_kernel lists
#              the windowed state pass's live runs, longest first, and marks the dead; the pass
#              walks the list with a persistent grid (each CTA's ~9 us start paid once per SM);
#              runs of 32 tiles (2026-12-06-s58-queue-model.py: ~43 us at R1 32k against ~61).
#   here (if out/carry lacks them): bash scripts/stage_variant.sh s58main;
#     bash scripts/stage_variant.sh s58store bench/results/logs/2026-12-06-s58-store.patch;
#     cat bench/results/logs/2026-12-06-s58-{store,queue}.patch > /tmp/q.patch && bash scripts/stage_variant.sh s58queue /tmp/q.patch
# 1. API A/B, 3 rounds, against main: R1 32k, z, decays 10x slower, R4 128k, A x 0.25, R1 8k
#    (control: one split); the queue also at runs of 16 and 64 tiles (FLASHSSD_STATE_RUNS).
# 2. s58queue's checks: the GPU suite by default, with the window forced (state scheme at 3
#    splits) and with the fix-up forced at 3 splits; the Hopper suite; memcheck and racecheck on
#    the small shapes with the window forced at 3 splits; the quick GPU pytest.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-next-split.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s58main s58store s58queue; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s58main S=out/dev/s58store Q=out/dev/s58queue
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.1" \
  "--config R1 --seqlen 8192" |
  timeout 200 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "store=$S" --lib "queue=$Q" \
    --lib "queue_r16=$Q,FLASHSSD_STATE_RUNS=16" --lib "queue_r64=$Q,FLASHSSD_STATE_RUNS=4" > "$OUT/api_ab_r1.log" 2>&1
echo "api_ab R1 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r1.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 150 bash scripts/api_ab.sh --rounds 3 --lib "main=$M" --lib "store=$S" --lib "queue=$Q" \
    --lib "queue_r16=$Q,FLASHSSD_STATE_RUNS=32" --lib "queue_r64=$Q,FLASHSSD_STATE_RUNS=8" > "$OUT/api_ab_r4.log" 2>&1
echo "api_ab R4 rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_r4.log"
variant_pack ab
VARIANT_SCHEMES=fixup variant_suites queue $Q
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites queue_win $Q
echo "suites at ${SECONDS} s"
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_sanitize queue_win $Q memcheck racecheck
variant_pack checks
variant_pytest pytest_quick $Q "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
