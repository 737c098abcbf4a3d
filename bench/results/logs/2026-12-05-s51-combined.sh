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
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-05-s51-combined.sh   (carry out/carry third_party_bench)
# (TOTAL_ALL, default 580: the seconds the whole call may take; the record takes ~320 of them, the
# lean part gets what is left, down to a few seconds a step.)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6), and
# scripts/update_readme_perf.py regenerates README's table.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
bash scripts/carry.sh unpack s51main > /dev/null || exit 1
M=out/dev/s51main
FLASHSSD_COMMIT=$(cat $M/COMMIT) OUT=$OUT PART=bench bash scripts/device_session.sh $M
echo "record done at ${SECONDS} s"
# min128, the crossover and the quick pytest: the lean call's, in what is left
TOTAL=$((${TOTAL_ALL:-580} - SECONDS)) OUT=$OUT bash bench/results/logs/2026-12-05-s51-lean.sh
(cd "$OUT" && tar -czf s51_checks.tgz api_crossover.log api_min128.log pytest_gpu_quick.log && rm -f api_crossover.log api_min128.log pytest_gpu_quick.log)
