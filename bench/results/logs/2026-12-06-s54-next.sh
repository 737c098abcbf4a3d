#!/usr/bin/env bash
# For the next session, one call (~430 s; an H200, whose targets the issue sets): the record on
# main (staged s54main by 2026-12-06-s54-next-prepare.sh, its commit in s54main/COMMIT), then the
# suites and sanitizers on its library. Session 54 ran both on H100s only (calls 1, 4, 7, 9); the
# last H200 record and checks are session 53's (ad8e9d9: before the float4 boundary scan and
# the N = 256 warpgroup broadcast).
#   device: [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s54-next.sh   (carry out/carry third_party_bench)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6) and
# scripts/update_readme_perf.py regenerates README's table.
exec bash scripts/device_record.sh s54main
