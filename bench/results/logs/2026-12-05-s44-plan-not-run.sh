#!/usr/bin/env bash
# Session 44, prepared for call 1 (H200) and refused: no device was lent this session. Carry: out/carry (s43next.tar.xz = dev/build-gpu: main 4aeae59, whose library is
# 3154aa2's SASS; headlib: 257ca28's library and flashssd_bench), built here by
# `PART=build bash bench/results/logs/2026-12-05-s43-next-not-run.sh`.
#  1. session 43's prepared sustained A/B (R1 32k z, 32k, 2k z, 4k z, R4 128k; 1500 iterations, 3 rounds);
#  2. the split plan's choices against its neighbours on today's kernels (the cost model's weights were
#     measured in sessions 4 and 10): R1 32k (z) and R4 128k / 512k under FLASHSSD_STATE_RUNS and
#     FLASHSSD_NUM_SPLITS, main's library, 3 rounds, order rotated.
set -u
O=${OUT:?}; mkdir -p "$O"
PART=run OUT=$O bash bench/results/logs/2026-12-05-s43-next-not-run.sh
L=out/dev/build-gpu
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" |
  bash scripts/api_ab.sh --rounds 3 --common "--iters 400 --warmup 30 --no-verify" \
    --lib plan=$L --lib runs1=$L,FLASHSSD_STATE_RUNS=1 --lib runs4=$L,FLASHSSD_STATE_RUNS=4 \
    --lib s3=$L,FLASHSSD_NUM_SPLITS=3 > "$O/plan_r1.log" 2>&1
tail -4 "$O/plan_r1.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" |
  bash scripts/api_ab.sh --rounds 3 --common "--iters 100 --warmup 10 --no-verify" \
    --lib plan=$L --lib runs1=$L,FLASHSSD_STATE_RUNS=1 --lib runs2=$L,FLASHSSD_STATE_RUNS=2 \
    --lib runs8=$L,FLASHSSD_STATE_RUNS=8 --lib s8=$L,FLASHSSD_NUM_SPLITS=8 --lib s5=$L,FLASHSSD_NUM_SPLITS=5 > "$O/plan_r4.log" 2>&1
tail -4 "$O/plan_r4.log"
