#!/usr/bin/env bash
# Session 50, call 2: branch s50-fixup-stage (session 49's lost s49-fixup-stage written again:
# the fix-up's second slice of y and z by cp.async with the tile's C, each thread its own words,
# so that a P = 64 tile waits on DRAM once, not twice; a template parameter, chosen by the
# launcher where it keeps the CTAs an SM: P = 64 with N <= 128) staged as out/dev/s50fs, against
# main 37201c6 (out/dev/s50main); then main against session 46's record library 6303500
# (out/dev/s46lib: libflashssd + flashssd_bench) on the rows whose record moved most between
# session 46's H200 record and session 50's (R1 z 512 +4.2%, R2 +2.6%, R1 32k z +4.8%), in one run.
#   here: scripts/carry.sh pack s50fs dev/s50fs; scripts/carry.sh pack s46lib dev/s46lib
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-fixup-stage.sh   (carry out/carry)
set -u
for n in s50main s50fs s46lib; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s50main N=out/dev/s50fs
variant_suites s50fs $N
variant_sanitize s50fs $N memcheck racecheck
variant_pack checks
for lib in main:$M s50fs:$N; do
  variant_ncu "${lib%%:*}" "${lib#*:}" split_fixup "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
variant_pack ncu
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072 --N 256" |
  timeout 170 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib s50fs=$N \
    --lib main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup --lib s50fs_forced=$N,FLASHSSD_SPLIT_SCHEME=fixup > "$OUT/api_ab.log" 2>&1
echo "api_ab rc=$?"; tail -8 "$OUT/api_ab.log"
printf "%s\n" "--config R1 --seqlen 512 --z" "--config R1 --seqlen 2048 --z" "--config R1 --seqlen 32768 --z" \
  "--config R2 --seqlen 2048" "--config R2 --seqlen 2048 --z" "--config R1 --seqlen 8192" "--config R3 --seqlen 2048" |
  timeout 120 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib s46=out/dev/s46lib > "$OUT/api_ab_s46.log" 2>&1
echo "api_ab s46 rc=$?"; tail -8 "$OUT/api_ab_s46.log"
# The fix-up's crossover against the state pass on the staged form (kFixupCostRatio 5 was
# measured on session 48's fourth form): both forced, decays slowed (window tiles W against the
# state pass's S: 2026-12-05-s48-windows_model.log).
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.5" "--config R4 --seqlen 131072 --A-scale 0.25" \
  "--config R4 --seqlen 131072 --A-scale 0.1" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --A-scale 0.5" |
  timeout 120 bash scripts/api_ab.sh --rounds 2 --lib state=$N,FLASHSSD_SPLIT_SCHEME=state --lib fixup=$N,FLASHSSD_SPLIT_SCHEME=fixup \
    > "$OUT/api_ab_decay.log" 2>&1
echo "api_ab decay rc=$?"; tail -7 "$OUT/api_ab_decay.log"
variant_pack ab
