#!/usr/bin/env bash
# Session 51, call 1, on main 07717f9's kernels (the merged fix-up: 16-byte y / z, contiguous
# work runs). Builds (here): build-gpu of main staged as s51main, and the same source with
# kChunkTiles 8 and 2 (split_fixup.cu) staged as s51ck8 / s51ck2:
#   bash scripts/stage_device_build.sh build-gpu s51main; (sed kChunkTiles; cmake --build build-gpu;
#   bash scripts/stage_device_build.sh build-gpu s51ck<k>) for k in 8 2;
#   bash scripts/carry.sh pack s51main dev/s51main; bash scripts/carry.sh pack s51ck dev/s51ck8 dev/s51ck2
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s51-call1.sh   (carry out/carry)
# 1. The crossover of the split schemes on the merged fix-up: auto, the state pass forced and the
#    fix-up forced, decays slowed by --A-scale (W/S from 2026-12-05-s4[8]/s50-windows_model.log),
#    with and without z: kFixupCostRatio (5) and kFixupMinStateSteps (256, keeps R1 32k on the
#    state pass) are set from it.
# 1b. Branch s51-min128 (kFixupMinStateSteps 128, staged s51min128) against main, R1 32k rows.
# 2. The GPU pytest without its mamba_ssm comparisons on main (not run since the fix-up merged).
# 3. The fix-up's work-list chunk (kChunkTiles 4 on main) against 8 and 2: suites, ncu, API
#    (skipped with SKIP_CHUNK=1).
set -u
for n in s51main s51min128 s51ck; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s51main
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.5" \
  "--config R4 --seqlen 131072 --A-scale 0.35" "--config R4 --seqlen 131072 --A-scale 0.25" \
  "--config R4 --seqlen 131072 --z" "--config R4 --seqlen 131072 --z --A-scale 0.5" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.7" "--config R1 --seqlen 32768 --A-scale 0.5" \
  "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --z --A-scale 0.7" |
  timeout 220 bash scripts/api_ab.sh --rounds 2 --lib auto=$M --lib state=$M,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$M,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_crossover.log" 2>&1
echo "api_ab crossover rc=$?"; tail -13 "$OUT/api_crossover.log"
# Branch s51-min128 (kFixupMinStateSteps 128: R1 32k reaches the device's choice) against main.
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.7" "--config R1 --seqlen 32768 --z" \
  "--config R1 --seqlen 32768 --z --A-scale 0.7" "--config R4 --seqlen 131072" |
  timeout 80 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib min128=out/dev/s51min128 > "$OUT/api_min128.log" 2>&1
echo "api_ab min128 rc=$?"; tail -6 "$OUT/api_min128.log"
variant_pack crossover
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python timeout 170 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > "$OUT/pytest_gpu_quick.log" 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -6 "$OUT/pytest_gpu_quick.log"
variant_pack pytest
[ "${SKIP_CHUNK:-0}" = 1 ] && exit 0
for v in ck8 ck2; do variant_suites $v out/dev/s51$v; done
variant_pack ck_checks
for v in main:$M ck8:out/dev/s51ck8 ck2:out/dev/s51ck2; do
  variant_ncu "${v%%:*}" "${v#*:}" split_fixup "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
variant_pack ck_ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" |
  timeout 90 bash scripts/api_ab.sh --rounds 2 --lib main=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib ck8=out/dev/s51ck8,FLASHSSD_SPLIT_SCHEME=fixup \
    --lib ck2=out/dev/s51ck2,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_ab_ck.log" 2>&1
echo "api_ab ck (fix-up forced) rc=$?"; tail -4 "$OUT/api_ab_ck.log"
variant_pack ck_ab
