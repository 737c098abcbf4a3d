#!/bin/bash
# Session 18 call 1: session 17's prepared v2 (state pass: tile i + 2's weights scanned beside
# tile i + 1's scaling) against main (fbf611e): split suite + racecheck at 3 splits on v2, ncu
# durations of R4's kernels, API A/B; then a splits / runs sweep on main's library (the plan's
# cost model predates the faster state pass).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
F=out/dev/build-gpu; V=out/ab/v2lib; K=out/ab/kr1lib
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
FLASHSSD_NUM_SPLITS=3 LD_LIBRARY_PATH=$PWD/$V timeout 60 $V/flashssd_gpu_tests > $O/v2_splits3.log 2>&1; rc=$?; echo "v2 gpu splits3 rc=$rc"; grep -E "^\[  PASSED|^\[  FAILED" $O/v2_splits3.log | tail -3
LD_LIBRARY_PATH=$PWD/$V timeout 60 $V/flashssd_gpu_tests > $O/v2_gpu.log 2>&1; echo "v2 gpu rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/v2_gpu.log | tail -3
FLASHSSD_NUM_SPLITS=3 LD_LIBRARY_PATH=$PWD/$K timeout 60 $K/flashssd_gpu_tests > $O/kr1_splits3.log 2>&1; echo "kr1 gpu splits3 rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/kr1_splits3.log | tail -3
if [ $rc = 0 ]; then
FLASHSSD_NUM_SPLITS=3 LD_LIBRARY_PATH=$PWD/$V timeout 90 compute-sanitizer --tool racecheck --racecheck-report hazard $V/flashssd_gpu_tests --gtest_filter='*Small*' > $O/v2_racecheck.log 2>&1; echo "v2 racecheck rc=$?"; grep "RACECHECK SUMMARY" $O/v2_racecheck.log
for v in fin v2; do
  L=$F; bin=$F/bench/flashssd_bench; [ $v = v2 ] && { L=$V; bin=$V/flashssd_bench; }
  for cfg in "--config R4" "--config R1 --seqlen 32768"; do
  LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum --csv -k regex:"ssd_fwd|boundary|chunk_scores" $bin $cfg --iters 1 --warmup 1 --no-verify > $O/ncu.csv 2>/dev/null
  echo "ncu $v $cfg rc=$?"; grep '^"[0-9]' $O/ncu.csv | awk -F'","' '{print $5, $NF}' | sed 's/void sm90:://; s/cutlass::bfloat16_t//; s/(T1::Params)//' | cut -c1-60,200-
  done
done
printf "%s --no-verify\n" "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R4 --N 256" \
  | timeout 280 bash scripts/api_ab.sh --rounds 2 --lib fin=$F --lib v2=$V --lib kr1=$K > $O/api_ab.log 2>&1
cat $O/api_ab.log
fi
echo "== splits sweep (main's library; plan: R1 32k 2 splits x 2 runs, R4 4 x 4)"
B=$F/bench/flashssd_bench
sw() { r=$(env "$@" LD_LIBRARY_PATH=$PWD/$F timeout 60 $B $ARGS --no-verify 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "$ARGS | $* | $r"; }
ARGS="--config R1 --seqlen 32768"; for s in 1 2 3 4 6; do sw FLASHSSD_NUM_SPLITS=$s; done; sw FLASHSSD_NUM_SPLITS=2 FLASHSSD_STATE_RUNS=1; sw FLASHSSD_NUM_SPLITS=2 FLASHSSD_STATE_RUNS=4
ARGS="--config R4"; for s in 2 4 6 8 12; do sw FLASHSSD_NUM_SPLITS=$s; done; sw FLASHSSD_NUM_SPLITS=4 FLASHSSD_STATE_RUNS=2; sw FLASHSSD_NUM_SPLITS=4 FLASHSSD_STATE_RUNS=8
ARGS="--config R4 --seqlen 524288"; for s in 4 8; do sw FLASHSSD_NUM_SPLITS=$s; done; sw FLASHSSD_NUM_SPLITS=4 FLASHSSD_STATE_RUNS=8
ARGS="--config R1 --seqlen 16384"; for s in 1 2; do sw FLASHSSD_NUM_SPLITS=$s; done
