#!/bin/bash
# Session 13 call 1: x kept as 32-bit pairs in the consumer (no split / rejoin), bf16 unpacked by
# shift and mask, the chunk-score mask's redundant zeroing selects dropped. GPU suites, sanitizers,
# probe and API A/B against HEAD a2a6edd (out/ab/base: da7a07e's build, library SASS identical).
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
timeout 60 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -5
timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -5
FLASHSSD_NUM_SPLITS=3 timeout 60 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s3.log 2>&1; echo "gpu s3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s3.log | tail -5
FLASHSSD_DISABLE_SM90=1 timeout 90 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_sm80.log 2>&1; echo "gpu sm80 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_sm80.log | tail -5
timeout 60 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_memcheck.log 2>&1; echo "sm90 memcheck rc=$?"; grep "ERROR SUMMARY" $O/sm90_memcheck.log
timeout 80 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*Small*' > $O/sm90_racecheck.log 2>&1; echo "sm90 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/sm90_racecheck.log
cp $B/bench/flashssd_sm90_forward_probe out/ab/new_probe
for round in 1 2; do
for args in "--N 128" "--N 128 --z 1" "--N 128 --seqlen 512 --batch 128" "--N 256" "--N 64 --P 128 --H 32" "--N 64 --P 128 --H 32 --z 1"; do
  for v in base new; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 8192 --dtype fp16" "--config R2" "--config R2 --z" "--config R3" "--config R4 --seqlen 131072"; do
  for v in base new; do
    if [ $v = base ]; then L=out/ab/base; BIN=out/ab/base/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 30 $BIN $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
    echo "api | $cfg | $v | $r"
  done
done
timeout 150 ncu --set full --import-source no -k regex:ssd_fwd --launch-skip 1 --launch-count 1 -o /tmp/main $B/bench/flashssd_sm90_forward_probe --N 128 --iters 2 > /tmp/ncu_run.log 2>&1; echo "ncu rc=$?"; tail -2 /tmp/ncu_run.log
ncu -i /tmp/main.ncu-rep --page details > $O/ncu_main_details.txt 2>&1
ncu -i /tmp/main.ncu-rep --page source --csv --print-source sass > /tmp/sass.csv 2>&1; echo "source csv rc=$? $(wc -l < /tmp/sass.csv) lines"
python3 out/dev/ncu_extract.py /tmp/sass.csv $O/ncu_sass.csv; gzip -9 $O/ncu_sass.csv; ls -la $O
