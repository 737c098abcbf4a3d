set -u
# Session 10 device call 7: the state pass's producer fills two stages per round.
B=out/dev/build-gpu; BASE=out/dev/base; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 100 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log
for cfg in "3 1" "5 3" "2 2" "7 1"; do set -- $cfg
  FLASHSSD_NUM_SPLITS=$1 FLASHSSD_STATE_RUNS=$2 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s$1r$2.log 2>&1; echo "gpu_tests ($1 splits, $2 runs) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s$1r$2.log | tail -3
done
FLASHSSD_NUM_SPLITS=3 timeout 120 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/memcheck_splits3.log 2>&1; echo "memcheck (3 splits) rc=$?"; grep "ERROR SUMMARY" $O/memcheck_splits3.log
FLASHSSD_NUM_SPLITS=3 timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/racecheck_splits3.log 2>&1; echo "racecheck (3 splits) rc=$?"; grep "RACECHECK SUMMARY" $O/racecheck_splits3.log
FLASHSSD_NUM_SPLITS=3 timeout 150 compute-sanitizer --tool synccheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/synccheck_splits3.log 2>&1; echo "synccheck (3 splits) rc=$?"; grep "ERROR SUMMARY" $O/synccheck_splits3.log
ms() { timeout 60 "$@" --no-verify 2>/dev/null | python3 -c "import sys,json; print([json.loads(l)['median_ms'] for l in sys.stdin if l.startswith('{')][0])" 2>/dev/null || echo fail; }
for r in 1 2; do
  for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --z" "--config R1 --seqlen 8192"; do
    a=$(LD_LIBRARY_PATH=$PWD/$BASE ms $BASE/flashssd_bench $cfg); b=$(ms $B/bench/flashssd_bench $cfg)
    echo "ab round $r [$cfg] base $a new $b"
  done
done
for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768"; do
  for s in 2 3 4 8; do
    for runs in 1 2 4; do echo "sweep [$cfg] splits $s runs $runs: $(FLASHSSD_NUM_SPLITS=$s FLASHSSD_STATE_RUNS=$runs ms $B/bench/flashssd_bench $cfg --iters 40)"; done
  done
done
for s in 1 2; do echo "sweep [--config R1 --seqlen 16384] splits $s: $(FLASHSSD_NUM_SPLITS=$s ms $B/bench/flashssd_bench --config R1 --seqlen 16384 --iters 40)"; done
FLASHSSD_NUM_SPLITS=4 timeout 120 ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum -k regex:"ssd|split" --launch-count 3 $B/bench/flashssd_bench --config R4 --iters 1 --warmup 0 --no-verify > $O/ncu7.log 2>&1
grep -E "ssd_fwd|split_boundary|gpu__time_duration|dram__" $O/ncu7.log | sed -e 's/(flashssd::[^)]*)//; s/sm90::SsdFwdSm90<64, 128, 2, cutlass::bfloat16_t>//' | cut -c1-110
