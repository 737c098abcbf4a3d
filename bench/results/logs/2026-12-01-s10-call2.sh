set -u
# Session 10 device call 2: the state pass loads dt (and reset flags) 4 tiles ahead. Tests of the split path, then an
# A/B against the base (677e5a3) and a sweep of splits / state runs for the planner.
B=out/dev/build-gpu; BASE=out/dev/base; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 100 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log
FLASHSSD_NUM_SPLITS=3 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_splits3.log 2>&1; echo "gpu_tests (3 splits) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_splits3.log | tail -3
FLASHSSD_NUM_SPLITS=5 FLASHSSD_STATE_RUNS=3 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_splits5r3.log 2>&1; echo "gpu_tests (5 splits, 3 runs) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_splits5r3.log | tail -3
FLASHSSD_NUM_SPLITS=3 timeout 120 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/memcheck_splits3.log 2>&1; echo "memcheck (3 splits) rc=$?"; grep "ERROR SUMMARY" $O/memcheck_splits3.log
FLASHSSD_NUM_SPLITS=3 timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/racecheck_splits3.log 2>&1; echo "racecheck (3 splits) rc=$?"; grep "RACECHECK SUMMARY" $O/racecheck_splits3.log
ms() { timeout 60 "$@" --no-verify 2>/dev/null | python3 -c "import sys,json; print([json.loads(l)['median_ms'] for l in sys.stdin if l.startswith('{')][0])" 2>/dev/null || echo fail; }
for r in 1 2; do
  for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z"; do
    a=$(LD_LIBRARY_PATH=$PWD/$BASE ms $BASE/flashssd_bench $cfg); b=$(ms $B/bench/flashssd_bench $cfg)
    echo "ab round $r [$cfg] base $a new $b"
  done
done
for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768"; do
  for s in 2 3 4 5 6 8 12; do
    for runs in 1 2 4; do echo "sweep [$cfg] splits $s runs $runs: $(FLASHSSD_NUM_SPLITS=$s FLASHSSD_STATE_RUNS=$runs ms $B/bench/flashssd_bench $cfg --iters 40)"; done
  done
done
for s in 1 2; do for runs in 1 2 4; do echo "sweep [--config R1 --seqlen 16384] splits $s runs $runs: $(FLASHSSD_NUM_SPLITS=$s FLASHSSD_STATE_RUNS=$runs ms $B/bench/flashssd_bench --config R1 --seqlen 16384 --iters 40)"; done; done
for cfg in "--config R4 --z" "--config R1 --seqlen 32768 --N 64" "--config R3 --seqlen 32768" "--config R2 --seqlen 32768"; do
  for s in 1 2 4; do echo "sweep [$cfg] splits $s: $(FLASHSSD_NUM_SPLITS=$s ms $B/bench/flashssd_bench $cfg --iters 40)"; done
done
timeout 60 $B/bench/flashssd_bench --config R4 --seqlen 524288 > $O/r4_512k_verify.json 2>&1; echo "verify R4 512k rc=$?"; tail -c 600 $O/r4_512k_verify.json
