#!/usr/bin/env bash
# Session 60, call 1: session 59's two prepared calls (2026-12-06-s59-next.sh, then -next2.sh on
# the winner) folded into one, to spend one machine start (this session's first four starts were
# refused): on an H200 the record on s60main, as next.sh; elsewhere
#   1. API A/B, 3 rounds, as next.sh: main, scan2, side, both; scan2 and main at runs of 16
#      (R1) / 32 (R4; labelled _r16 as next.sh did);
#   2. the checks of s60both (next2.sh's set: both patches, and main's host code since c947bf9,
#      whose kernels call 2 of session 59 verified): GPU suite default, fix-up at 3 splits,
#      window forced (default and state at 3 splits), Hopper suite; memcheck and racecheck
#      (window forced: state and fix-up at 3 splits; Hopper small); the quick GPU pytest (its
#      current-stream test runs the split path; its graph capture exercises the side stream);
#   3. ncu of the scan (scan2 at runs of 4 and 16 per split), if time is left.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s60-call1.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  exec bash bench/results/logs/2026-12-06-s59-next.sh
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
variant_pack ab
VARIANT_SCHEMES=fixup variant_suites both $B
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites both_win $B
FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES="state fixup" variant_sanitize both $B memcheck racecheck
variant_pack both_checks
echo "both's checks at ${SECONDS} s"
variant_pytest pytest_quick $B "not mamba_ssm_triton"
if [ "$SECONDS" -lt 480 ]; then
  for r in 4 16; do
    FLASHSSD_STATE_RUNS=$r VARIANT_SCHEMES=state variant_ncu scan2 $S "ssd_fwd_sm90_kernel|split_boundary|tile_log|state_window|chunk_scores" \
      "R1_32k_runs$r --config R1 --seqlen 32768"
  done
  variant_pack ncu
fi
echo "all done at ${SECONDS} s"
