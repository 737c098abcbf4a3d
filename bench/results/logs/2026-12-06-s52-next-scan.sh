#!/usr/bin/env bash
# NOT RUN (session 52 had no device time left); for the next session (~250 s).
# Branch s52-scan-grid (patch 2026-12-06-s52-patches/scan-grid.patch): the split boundary scan
# as one wave of blocks (8 an SM, 32 registers) walking its tiles of 256 state elements, and
# the launch of the scheme not taken returning at once, grid-wide. Today's grid has a block per
# tile (4096 at R1 32k, 2048 at R4 128k), and every split call launches the scan twice, one of
# them doing nothing: sessions 49 and 47's ncu read the idle launch 7.4 us at R1 32k and 4.5-5.0 at
# R4 128k, the working one 11.1-11.8 and 9.2-9.6 (bench/results/logs/2026-12-05-s49-calls/decay,
# 2026-12-05-s47-calls/auto). Only that kernel's SASS differs from main (sass_diff: 1 different).
# Checks: the suites (default, fix-up forced and state pass forced at 3 splits: the scan's two
# paths), memcheck and racecheck with each scheme forced, ncu of the scan kernel under each
# scheme, and the API A/B against main on rows of both schemes.
# Builds: staged here as out/dev/s52scan (carry out/carry: s52main, s52scan).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s52-next-scan.sh   (carry out/carry)
set -u
for n in s52main s52scan; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s52main S=out/dev/s52scan
VARIANT_SCHEMES="state fixup" variant_suites scan $S
VARIANT_SCHEMES="state fixup" variant_sanitize scan $S memcheck racecheck
variant_pack scan_checks
for lib in "main:$M" "scan:$S"; do
  for scheme in state fixup; do
    for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
      tag=${row%% *}
      # shellcheck disable=SC2086
      FLASHSSD_SPLIT_SCHEME=$scheme LD_LIBRARY_PATH=$PWD/${lib#*:} timeout 60 ncu --clock-control none \
        --metrics gpu__time_duration.sum -k "regex:split_boundary_scan" --csv "${lib#*:}/bench/flashssd_bench" ${row#* } \
        --iters 2 --warmup 1 --no-verify > "$OUT/ncu_${tag}_${scheme}_${lib%%:*}.csv" 2>&1
      echo "ncu scan $tag $scheme ${lib%%:*}"; python3 scripts/ncu_durations.py "$OUT/ncu_${tag}_${scheme}_${lib%%:*}.csv"
    done
  done
done
variant_pack scan_ncu
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072" \
  "--config R4 --seqlen 131072 --A-scale 0.25" "--config R4 --seqlen 524288" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib "main=$M" --lib "scan=$S" > "$OUT/api_ab_scan.log" 2>&1
echo "api_ab scan rc=$?"; tail -7 "$OUT/api_ab_scan.log"
variant_pack scan_ab
