#!/usr/bin/env bash
# Session 48, call 2: where the fix-up's time goes where it loses (R1 32k, 2 splits) against the
# state pass, per kernel (ncu) and, where nsys exists, on the timeline (the programmatic launches'
# overlap, which ncu's serialised kernels hide). Branch s47-auto's third form (out/dev/auto2).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-diag.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s47auto2 > /dev/null || exit 1
F=out/dev/auto2
export LD_LIBRARY_PATH=$PWD/$F
B=$F/bench/flashssd_bench
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader
run_ncu() {  # tag scheme args...
  local tag=$1 scheme=$2; shift 2
  FLASHSSD_SPLIT_SCHEME=$scheme timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $B "$@" --iters 2 --warmup 1 --no-verify > $O/ncu_$tag.csv 2>&1
  echo "== ncu $tag ($scheme: $*) rc=$?"; python3 scripts/ncu_durations.py $O/ncu_$tag.csv | grep -v fill_uniform | grep -v count_nonfinite
}
run_ncu R1_32k_state state --config R1 --seqlen 32768
run_ncu R1_32k_fixup fixup --config R1 --seqlen 32768
run_ncu R1_32k_z_fixup fixup --config R1 --seqlen 32768 --z
run_ncu R4_128k_state state --config R4 --seqlen 131072
run_ncu R4_128k_slow_auto auto --config R4 --seqlen 131072 --A-scale 0.01
for scheme in state fixup; do
  for args in "--config R1 --seqlen 32768" "--config R4 --seqlen 131072"; do
    echo "== bench $scheme $args"; FLASHSSD_SPLIT_SCHEME=$scheme timeout 30 $B $args --iters 50 --warmup 5 --no-verify 2>&1 | tail -2
  done
done
if command -v nsys > /dev/null; then
  for scheme in state fixup; do
    FLASHSSD_SPLIT_SCHEME=$scheme timeout 90 nsys profile -o $O/nsys_R1_32k_$scheme --force-overwrite true \
      $B --config R1 --seqlen 32768 --iters 3 --warmup 1 --no-verify > $O/nsys_$scheme.log 2>&1
    timeout 60 nsys stats --report cuda_gpu_trace --format csv $O/nsys_R1_32k_$scheme.nsys-rep > $O/nsys_trace_$scheme.csv 2>&1
    echo "== nsys $scheme rc=$?"; grep -E "ssd_fwd|split|tile_log|chunk_scores|boundary" $O/nsys_trace_$scheme.csv | tail -9 | cut -c1-160
  done
else echo "no nsys"; fi
(cd $O && tar -czf diag_logs.tgz *.csv *.log 2>/dev/null; rm -f *.csv *.log *.nsys-rep *.sqlite)
ls $O
