#!/usr/bin/env bash
# NOT RUN in session 50. Since 64bd228 main's fix-up is the vector form with contiguous runs:
# stage main (s50main) and the ck edits from main's current source before running it.
# Session 50, call 3: the fix-up's work-list chunk (kChunkTiles, 4 on main: h_in, the split's
# incoming state of 32 KB in fp32 at P = 64, N = 128, is loaded and converted once per chunk, a
# chain of its own before the chunk's tiles). Main 37201c6's kernels (out/dev/s50main) against
# the same source with kChunkTiles 8, 16 and 2 (out/dev/ck8, ck16, ck2: build-gpu with the
# constant edited, staged by scripts/stage_device_build.sh; packed: scripts/carry.sh pack ck
# dev/ck8 dev/ck16 dev/ck2).
# Then main's own crossover (state pass forced against the fix-up forced, decays slowed), and the
# GPU pytest without its mamba_ssm comparisons on main (the full one, ~6.5 min, did not fit the
# budget left after four refused starts).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-chunk.sh   (carry out/carry third_party_bench)
set -u
for n in s50main ck; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s50main
for v in ck8 ck16 ck2; do variant_suites $v out/dev/$v; done
for v in ck8 ck16; do variant_sanitize $v out/dev/$v memcheck racecheck; done
variant_pack checks
for v in main:$M ck8:out/dev/ck8 ck16:out/dev/ck16 ck2:out/dev/ck2; do
  variant_ncu "${v%%:*}" "${v#*:}" split_fixup "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
variant_pack ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.5" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib ck8=out/dev/ck8 --lib ck16=out/dev/ck16 --lib ck2=out/dev/ck2 \
    > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$?"; tail -4 "$OUT/api_ab.log"
printf "%s\n" "--config R1 --seqlen 32768" "--config R4 --seqlen 131072 --A-scale 0.25" |
  timeout 100 bash scripts/api_ab.sh --rounds 2 --lib main=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib ck8=out/dev/ck8,FLASHSSD_SPLIT_SCHEME=fixup \
    --lib ck16=out/dev/ck16,FLASHSSD_SPLIT_SCHEME=fixup --lib ck2=out/dev/ck2,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_ab_forced.log" 2>&1
echo "api_ab forced rc=$?"; tail -3 "$OUT/api_ab_forced.log"
printf "%s\n" "--config R4 --seqlen 131072 --A-scale 0.5" "--config R4 --seqlen 131072 --A-scale 0.35" \
  "--config R4 --seqlen 131072 --A-scale 0.25" "--config R1 --seqlen 32768 --A-scale 0.7" |
  timeout 100 bash scripts/api_ab.sh --rounds 2 --lib state=$M,FLASHSSD_SPLIT_SCHEME=state --lib fixup=$M,FLASHSSD_SPLIT_SCHEME=fixup \
    > "$OUT/api_ab_decay.log" 2>&1
echo "api_ab decay rc=$?"; tail -5 "$OUT/api_ab_decay.log"
variant_pack ab
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python:third_party_bench timeout 200 python3 -m pytest tests/python/test_gpu.py \
  -k "not mamba_ssm_triton" -q -rs -p no:cacheprovider > "$OUT/pytest_gpu_quick.log" 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -4 "$OUT/pytest_gpu_quick.log"
