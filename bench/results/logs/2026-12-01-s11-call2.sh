#!/bin/bash
# Session 11 call 2: GPU tests of the chunk-scores branch + A/B of the main kernel variants
# + API A/B (base lib db7d12c vs branch) with flashssd_bench.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 120 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90 rc=$?"; grep -E "^chunk|^sm90|^\[  PASSED|^\[  FAILED" $O/sm90_tests.log | tail -30
timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1; echo "gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests.log | tail -5
FLASHSSD_NUM_SPLITS=3 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/gpu_tests_s3.log 2>&1; echo "gpu s3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/gpu_tests_s3.log | tail -5
cd out/ab
for round in 1 2; do
for args in "--N 128" "--N 128 --z 1" "--N 64" "--N 64 --z 1" "--N 128 --batch 128 --seqlen 512" "--N 256 --batch 8" "--N 256 --batch 8 --z 1"; do
  for v in base new v1 v2 v3; do
    [ -x ./${v}_probe ] || continue
    r=$(timeout 30 ./${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "round $round | $args | $v | $r"
  done
done
done
cd ../..
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 32768" "--config R2" "--config R3" "--config R4 --seqlen 131072" "--config R1 --N 256 --seqlen 8192"; do
  for v in base new; do
    if [ $v = base ]; then L=out/dev/base; BIN=out/dev/base/flashssd_bench; else L=$B; BIN=$B/bench/flashssd_bench; fi
    r=$(LD_LIBRARY_PATH=$PWD/$L timeout 60 $BIN $cfg --no-verify --iters 40 2>&1 | tail -1)
    echo "api | $cfg | $v | $r"
  done
done
