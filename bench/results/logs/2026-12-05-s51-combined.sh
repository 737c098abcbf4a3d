#!/usr/bin/env bash
# NOT RUN in session 51 (no device machine could be started: 21 tries); for the next session.
# One call (~580 s) for an H200: the record on the merged fix-up (main's kernels since 64bd228: the
# fix-up's 16-byte y / z with contiguous work runs; staged s51main, its commit in s51main/COMMIT),
# branch s51-min128 against main (kFixupMinStateSteps 256 -> 128: R1 32k, 128 state-pass steps, reaches the device's choice;
# patch 2026-12-05-s51-patches/min128.patch, staged s51min128), the split schemes' crossover on
# the merged fix-up (auto / state pass forced / fix-up forced, decays slowed by --A-scale; W/S in
# 2026-12-05-s50-windows_model.log and the s48 one: kFixupCostRatio 5 was set on a form ~20% slower),
# then the GPU pytest without its mamba_ssm comparisons (not run on the merged fix-up), each within
# what is left of ~580 s. The builds: 2026-12-05-s51-next-prepare.sh.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s51-combined.sh   (carry out/carry third_party_bench)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6), and
# scripts/update_readme_perf.py regenerates README's table.
set -u
left() { local l=$((580 - SECONDS - $2)); [ $l -gt $1 ] && l=$1; echo $((l > 5 ? l : 5)); }
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
for n in s51main s51min128; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s51main
FLASHSSD_COMMIT=$(cat $M/COMMIT) OUT=$OUT PART=bench bash scripts/device_session.sh $M
echo "record done at ${SECONDS} s"
. scripts/device_variant.sh
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.5" \
  "--config R4 --seqlen 131072 --A-scale 0.35" "--config R4 --seqlen 131072 --A-scale 0.25" \
  "--config R4 --seqlen 131072 --z" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.7" \
  "--config R1 --seqlen 32768 --z" |
  timeout "$(left 150 0)" bash scripts/api_ab.sh --rounds 2 --lib auto=$M --lib state=$M,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$M,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_crossover.log" 2>&1
echo "api_ab crossover rc=$? at ${SECONDS} s"; tail -10 "$OUT/api_crossover.log"
# Branch s51-min128 (kFixupMinStateSteps 128: R1 32k reaches the device's choice) against main.
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.7" "--config R1 --seqlen 32768 --z" \
  "--config R1 --seqlen 32768 --z --A-scale 0.7" "--config R4 --seqlen 131072" |
  timeout "$(left 80 0)" bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib min128=out/dev/s51min128 > "$OUT/api_min128.log" 2>&1
echo "api_ab min128 rc=$?"; tail -6 "$OUT/api_min128.log"
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$M/python timeout "$(left 170 0)" python3 -m pytest tests/python/test_gpu.py \
  -k "not mamba_ssm_triton" -q -rs -p no:cacheprovider > "$OUT/pytest_gpu_quick.log" 2>&1
echo "pytest (no Triton comparisons) rc=$? at ${SECONDS} s"; tail -6 "$OUT/pytest_gpu_quick.log"
(cd "$OUT" && tar -czf s51_checks.tgz api_crossover.log api_min128.log pytest_gpu_quick.log && rm -f api_crossover.log api_min128.log pytest_gpu_quick.log)
