set -u
# Session 10 device call 11 (branch state-pass-overlap): the state pass's consumer reads and scales tile b's
# operand while tile a's update runs. Base: db7d12c46db0 (main's GPU code).
B=out/dev/build-gpu; BASE=out/dev/base; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 60 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log
for cfg in "3 1" "5 3" "7 1"; do set -- $cfg
  FLASHSSD_NUM_SPLITS=$1 FLASHSSD_STATE_RUNS=$2 timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s$1r$2.log 2>&1; echo "gpu_tests ($1 splits, $2 runs) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s$1r$2.log | tail -3
done
FLASHSSD_NUM_SPLITS=3 timeout 60 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/memcheck_splits3.log 2>&1; echo "memcheck (3 splits) rc=$?"; grep "ERROR SUMMARY" $O/memcheck_splits3.log
FLASHSSD_NUM_SPLITS=3 timeout 80 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_gpu_tests --gtest_filter='*Small*' > $O/racecheck_splits3.log 2>&1; echo "racecheck (3 splits) rc=$?"; grep "RACECHECK SUMMARY" $O/racecheck_splits3.log
ms() { timeout 30 "$@" --no-verify --iters 50 2>/dev/null | python3 -c "import sys,json; print([json.loads(l)['median_ms'] for l in sys.stdin if l.startswith('{')][0])" 2>/dev/null || echo fail; }
pm() { timeout 20 "$@" 2>/dev/null | python3 -c "import sys,json; print(json.loads(sys.stdin.read())['median_ms'])" 2>/dev/null || echo fail; }
for r in 1 2; do
  for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768"; do
    echo "ab round $r [$cfg] base $(LD_LIBRARY_PATH=$PWD/$BASE ms $BASE/flashssd_bench $cfg) new $(ms $B/bench/flashssd_bench $cfg)"
  done
  for a in "--N 128" "--N 64" "--N 128 --z 1"; do
    echo "probe round $r [$a] base $(pm $BASE/flashssd_sm90_forward_probe $a) new $(pm $B/bench/flashssd_sm90_forward_probe $a)"
  done
done
