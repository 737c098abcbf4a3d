set -u
# Session 10 device call 9: the boundary scan's new grid (ncu), then the full device session
# (all GPU suites, sanitizers, benchmark) on this commit.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
for spec in "--config R4" "--config R1 --seqlen 32768"; do
  timeout 60 ncu --metrics gpu__time_duration.sum -k regex:"ssd|split" --launch-count 3 $B/bench/flashssd_bench $spec --iters 1 --warmup 0 --no-verify > $O/ncu9.log 2>&1
  echo "=== [$spec]"; grep -E "ssd_fwd|split_boundary|gpu__time_duration" $O/ncu9.log | sed -e 's/(flashssd::[^)]*)//; s/sm90::SsdFwdSm90<64, 128, 2, cutlass::bfloat16_t>//' | cut -c1-100
done
mkdir -p $O/ds
FLASHSSD_COMMIT=$(cat out/dev/commit) OUT=$O/ds bash scripts/device_session.sh $B > $O/session.log 2>&1
echo "session rc=$?"
grep -E "rc=|PASSED|FAILED|SUMMARY" $O/session.log | head -30
tail -24 $O/session.log
cd $O/ds && tar czf ../logs.tgz *.log && rm -f *.log
