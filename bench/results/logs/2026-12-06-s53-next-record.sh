#!/usr/bin/env bash
# For the next session, after 2026-12-06-s53-next.sh passes and s53-scan-any-n is merged (~300 s;
# an H200, whose targets the issue sets): the record on the merged main, whose library is the
# staged s53anyn (the branch's patch on main: the same sources).
#   device: FLASHSSD_COMMIT=<the merge's short sha> OUT=$OUT bash bench/results/logs/2026-12-06-s53-next-record.sh
#           (carry out/carry third_party_bench)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6) and
# scripts/update_readme_perf.py regenerates README's table.
set -u
: "${FLASHSSD_COMMIT:?the merge commit the record names}"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
bash scripts/carry.sh unpack s53anyn > /dev/null || exit 1
FLASHSSD_COMMIT=$FLASHSSD_COMMIT OUT=$OUT PART=bench bash scripts/device_session.sh out/dev/s53anyn
