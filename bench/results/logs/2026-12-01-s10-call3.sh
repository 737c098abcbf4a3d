set -u
# Session 10 device call 3: where the split path's time goes (ncu per-kernel durations).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
run_ncu() {  # label, env..., then bench args
  local label=$1; shift
  env "$@" > /dev/null
}
for spec in "2 --config R1 --seqlen 16384" "4 --config R4" "2 --config R1 --seqlen 32768" "1 --config R1 --seqlen 16384"; do
  set -- $spec; s=$1; shift
  echo "=== splits $s [$*]"
  FLASHSSD_NUM_SPLITS=$s timeout 120 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed \
    -k regex:"ssd|split|reset" --launch-skip 0 --launch-count 12 $B/bench/flashssd_bench "$@" --iters 2 --warmup 1 --no-verify > $O/ncu_$s.log 2>&1
  grep -E "ssd_fwd|split_boundary|gpu__time_duration|dram__bytes|sm__throughput" $O/ncu_$s.log | sed -e 's/(flashssd::[^)]*)//' | cut -c1-150 | head -40
done
