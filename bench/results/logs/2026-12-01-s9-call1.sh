set -u
B=out/dev/build-gpu; export LD_LIBRARY_PATH=$PWD/$B; O=$OUT; T=$B/tests/gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
timeout 150 $T/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $O/sm90_tests.log | tail -8
timeout 170 $T/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $O/gpu_tests.log | tail -8
FLASHSSD_NUM_SPLITS=3 timeout 60 $T/flashssd_gpu_tests --gtest_filter='*N256*:*StatePass*' > $O/gpu_split3.log 2>&1; echo "gpu split3 N256 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" $O/gpu_split3.log | tail -4
run_probe() { local bin=$1; shift; timeout 30 $bin "$@" | python3 -c "import sys,json; d=json.loads(sys.stdin.read()); print(d['median_ms'])"; }
for r in 1 2; do
  for cfg in "" "--N 64" "--z 1" "--seqlen 512 --batch 128" "--P 128 --N 64 --H 32"; do
    echo "round $r [$cfg] base $(run_probe out/dev/base/flashssd_sm90_forward_probe $cfg) new $(run_probe $B/bench/flashssd_sm90_forward_probe $cfg)"
  done
done
for cfg in "--N 256" "--N 256 --z 1" "--N 256 --seqlen 512 --batch 128"; do echo "new [$cfg] $(run_probe $B/bench/flashssd_sm90_forward_probe $cfg)"; done
for z in "" "--z"; do
  for dis in 0 1; do echo "api R1 N256 $z disable_sm90=$dis:"; FLASHSSD_DISABLE_SM90=$dis timeout 60 $B/bench/flashssd_bench --config R1 --N 256 --seqlen 8192 $z 2>&1 | tail -2; done
done
FLASHSSD_DISABLE_SM90=0 timeout 60 $B/bench/flashssd_bench --config R1 --N 256 --seqlen 512 2>&1 | tail -1
timeout 60 $B/bench/flashssd_bench --config R4 --N 256 2>&1 | tail -1
timeout 150 compute-sanitizer --tool memcheck $T/flashssd_sm90_gpu_tests --gtest_filter='*StateDim256*' > $O/memcheck.log 2>&1; echo "memcheck sm90 N256 rc=$?"; grep "ERROR SUMMARY" $O/memcheck.log
timeout 100 compute-sanitizer --tool memcheck $T/flashssd_gpu_tests --gtest_filter='*N256*' > $O/memcheck_api.log 2>&1; echo "memcheck api N256 rc=$?"; grep "ERROR SUMMARY" $O/memcheck_api.log
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $T/flashssd_sm90_gpu_tests --gtest_filter='*StateDim256*' > $O/racecheck.log 2>&1; echo "racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/racecheck.log
cd $O && tar czf logs.tgz *.log && rm -f *.log
