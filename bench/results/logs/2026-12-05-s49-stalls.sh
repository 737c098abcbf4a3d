#!/usr/bin/env bash
# Session 49, call 3 (session 48 prepared it): where the fix-up kernel (split_fixup.cu, kernel 4)
# and tile_log_decay (kernel 1: 19.4 us for 25 MB of dt at R4 128k, ~1.3 TB/s, cause unknown)
# waits. Calls 5-6 showed neither its loads' order (-15%) nor its instruction count (call 6:
# unchanged) bounds it; it runs ~12 ns per window tile-head, ~6.5 us per tile and CTA, ~3x its
# bytes. ncu's warp-state sampling by source line says which wait dominates (h_in's load and
# conversion per item, the C / dt / y / z loads per tile, the barriers, the mma chain, the
# stores). One call, ~60 s:
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-next-fixup-stalls-not-run.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s49main > /dev/null || exit 1
F=out/dev/s49main
export LD_LIBRARY_PATH=$PWD/$F
FLASHSSD_SPLIT_SCHEME=fixup timeout 240 ncu --clock-control none -k regex:"split_fixup_kernel|tile_log_decay_kernel" -c 2 --import-source yes \
  --section WarpStateStats --section SourceCounters --section SchedulerStats --section Occupancy \
  --section MemoryWorkloadAnalysis_Tables -o $O/fixup_stalls \
  $F/bench/flashssd_bench --config R4 --seqlen 131072 --iters 1 --warmup 1 --no-verify > $O/ncu_run.log 2>&1
echo "ncu rc=$?"; tail -3 $O/ncu_run.log
ncu --import $O/fixup_stalls.ncu-rep --page details > $O/fixup_stalls_details.log 2>&1
ncu --import $O/fixup_stalls.ncu-rep --page source --csv --print-source sass > $O/fixup_stalls_source.csv 2>&1
grep -E "Stall|Warp Cycles|Issued|Eligible|Active Warps" $O/fixup_stalls_details.log | head -30
(cd $O && tar -czf stalls.tgz *.log *.csv *.ncu-rep && rm -f *.log *.csv *.ncu-rep)
