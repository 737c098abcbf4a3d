#!/usr/bin/env bash
# For the next session, one call (~430 s; an H200, whose targets the issue sets):
#   1. the record on main (staged s53main, its commit in s53main/COMMIT): main since session 53's
#      float4 boundary scan (merged in 5ce13d5, off main in 2a494f6 by mistake, back in 0da223a;
#      -0.5..-0.8% at R1 32k through the API on an H100), which session 53's H200 record (ad8e9d9)
#      predates;
#   2. the suites and sanitizers on main's library (PART=checks, ~2 min). Session 53 ran them on
#      its SASS (s53vec4, whole SASS identical) on an H100 (calls 5-6), not on an H200.
# Builds: 2026-12-06-s53-next-prepare.sh.
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s53-next.sh   (carry out/carry third_party_bench)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6) and
# scripts/update_readme_perf.py regenerates README's table.
exec bash scripts/device_record.sh s53main
