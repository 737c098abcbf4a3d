#!/usr/bin/env bash
# For the next session, one call (~520 s; an H200 for the record, whose targets are the H200's):
#   1. the record on main (staged s52main, its commit in s52main/COMMIT): the last H200 record is
#      session 50's, before the fix-up's merged form (64bd228) and the ratio 4 (session 52);
#   2. the choice's kernels, one forward call each under ncu (2026-12-06-s52-next-choice.sh, on
#      s52main / s52min128): where the ~26 us go that kFixupMinStateSteps 128 pays at R1 32k
#      where decays are slow;
#   3. the suites and sanitizers on main's library (PART=checks, ~2 min): session 52 ran the GPU
#      pytest on it, the C++ suites last ran on its SASS in session 50 (s50vr).
# Builds: 2026-12-06-s52-next-prepare.sh.
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s52-next.sh   (carry out/carry third_party_bench)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6) and
# scripts/update_readme_perf.py regenerates README's table.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
for n in s52main s52min128; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s52main
FLASHSSD_COMMIT=$(cat $M/COMMIT) OUT=$OUT PART=bench bash scripts/device_session.sh $M
echo "record done at ${SECONDS} s"
timeout $(( ${TOTAL_ALL:-520} - SECONDS > 30 ? 150 : 5 )) bash bench/results/logs/2026-12-06-s52-next-choice.sh
echo "choice done at ${SECONDS} s"
left=$(( ${TOTAL_ALL:-520} - SECONDS ))
if [ $left -gt 100 ]; then
  FLASHSSD_COMMIT=$(cat $M/COMMIT) OUT=$OUT PART=checks timeout $left bash scripts/device_session.sh $M
else
  echo "checks skipped: ${left} s left"
fi
