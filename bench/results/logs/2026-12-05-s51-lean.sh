#!/usr/bin/env bash
# NOT RUN in session 51 (its last try was refused: "too little device-machine time is left").
# The combined call (2026-12-05-s51-combined.sh) without the record, for a short budget:
# branch s51-min128 against main, the split schemes' crossover (fewer rows), then the GPU pytest
# without its mamba_ssm comparisons, all within ${TOTAL:-360} s. Builds: 2026-12-05-s51-next-prepare.sh.
#   device: [TOTAL=<s>] OUT=$OUT bash bench/results/logs/2026-12-05-s51-lean.sh   (carry out/carry)
set -u
left() { local l=$((${TOTAL:-360} - SECONDS)); [ $l -gt $1 ] && l=$1; echo $((l > 5 ? l : 5)); }
for n in s51main s51min128; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
M=out/dev/s51main
# (A x 0.5: W/S 0.342, where the choice falls back to the state pass after its decay kernels: the
# branch's cost where it loses)
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.7" "--config R1 --seqlen 32768 --z" \
  "--config R1 --seqlen 32768 --A-scale 0.5" "--config R4 --seqlen 131072" |
  timeout "$(left 60)" bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib min128=out/dev/s51min128 > "$OUT/api_min128.log" 2>&1
echo "api_ab min128 rc=$? at $SECONDS s"; tail -5 "$OUT/api_min128.log"
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.5" \
  "--config R4 --seqlen 131072 --A-scale 0.35" "--config R4 --seqlen 131072 --A-scale 0.25" \
  "--config R4 --seqlen 131072 --z" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.7" \
  "--config R1 --seqlen 32768 --z" |
  timeout "$(left 140)" bash scripts/api_ab.sh --rounds 2 --lib auto=$M --lib state=$M,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$M,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_crossover.log" 2>&1
echo "api_ab crossover rc=$? at $SECONDS s"; tail -10 "$OUT/api_crossover.log"
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python timeout "$(left 170)" python3 -m pytest tests/python/test_gpu.py \
  -k "not mamba_ssm_triton" -q -rs -p no:cacheprovider > "$OUT/pytest_gpu_quick.log" 2>&1
echo "pytest (no Triton comparisons) rc=$? at $SECONDS s"; tail -6 "$OUT/pytest_gpu_quick.log"
