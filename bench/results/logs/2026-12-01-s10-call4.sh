set -u
# Session 10 device call 4: is the x read pattern (128-byte rows of one head, 8 KB apart) what
# caps DRAM? Same work decomposition (splits forced), token stride 8 KB (H = 64) vs 256 B (H = 2).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
for spec in "4 --config R4" "4 --config custom --H 2 --P 64 --N 128 --G 1 --batch 32 --seqlen 131072" \
            "1 --config R1 --seqlen 8192" "1 --config custom --H 2 --P 64 --N 128 --G 1 --batch 256 --seqlen 8192"; do
  set -- $spec; s=$1; shift
  echo "=== splits $s [$*]: $(FLASHSSD_NUM_SPLITS=$s timeout 60 $B/bench/flashssd_bench "$@" --no-verify --iters 30 2>/dev/null | python3 -c "import sys,json; d=[json.loads(l) for l in sys.stdin if l.startswith('{')][0]; print(d['median_ms'], 'ms', d['achieved_TBps'], 'TB/s min bytes')")"
  FLASHSSD_NUM_SPLITS=$s timeout 120 ncu --metrics $M -k regex:"ssd|split" --launch-count 3 $B/bench/flashssd_bench "$@" --iters 1 --warmup 0 --no-verify > $O/ncu4.log 2>&1
  grep -E "ssd_fwd|split_boundary|gpu__time_duration|dram__" $O/ncu4.log | sed -e 's/(flashssd::[^)]*)//; s/sm90::SsdFwdSm90<64, 128, 2, cutlass::bfloat16_t>//' | cut -c1-110
done
