#!/usr/bin/env bash
# Prepared in session 60 for the next session (session 60's call 3 never ran: its starts were
# refused). Stage main first on a fresh checkout (~8 min here):
#   bash scripts/setup_build_gpu.sh && bash scripts/stage_variant.sh s61main
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s60-next.sh   (carry out/carry third_party_bench)
# - On an H200: the benchmark of record on s61main with its checks (scripts/device_record.sh:
#   the newest record is still session 57's, before the 8-byte state store and the side stream),
#   then the quick GPU pytest. After it: copy $OUT's json / md / png to bench/results/, commit,
#   python3 scripts/update_readme_perf.py, and update README's record paragraph.
# - Elsewhere (~400 s):
#   1. the split plan's knobs on main (the chunk scores now overlap the split kernels, which may
#      move the best number of splits and runs; session 60's call 3, never run): API A/B, 3
#      rounds, FLASHSSD_NUM_SPLITS 2, 3, 4, 6 and FLASHSSD_STATE_RUNS 2, 8 against the default plan;
#   2. the whole GPU pytest with its 14 mamba_ssm Triton comparisons (last run in session 56 call
#      6: 14/14; ~5 min).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
F=out/dev/s61main
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=480 bash scripts/device_record.sh s61main; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick $F "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
bash scripts/carry.sh unpack s61main > /dev/null || exit 1
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 16384" \
  "--config R4 --seqlen 131072" | timeout 100 bash scripts/api_ab.sh --rounds 3 --lib "main=$F" \
  --lib "splits2=$F,FLASHSSD_NUM_SPLITS=2" --lib "splits3=$F,FLASHSSD_NUM_SPLITS=3" --lib "splits4=$F,FLASHSSD_NUM_SPLITS=4" \
  --lib "splits6=$F,FLASHSSD_NUM_SPLITS=6" --lib "runs2=$F,FLASHSSD_STATE_RUNS=2" --lib "runs8=$F,FLASHSSD_STATE_RUNS=8" \
  > "$OUT/api_ab_knobs.log" 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' "$OUT/api_ab_knobs.log"
PYTEST_LIMIT=420 variant_pytest pytest_all $F
echo "all done at ${SECONDS} s"
