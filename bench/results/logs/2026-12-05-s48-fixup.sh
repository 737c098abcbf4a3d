#!/usr/bin/env bash
# Session 48, call 3, branch s48-fixup (out/dev/s48a): the fix-up's fourth form
#   - tile_log_decay reads splits 1 .. S - 1 only, every token's dt load of a tile in flight
#     at once; split_log_prefix over splits 1 .. S - 1, 8 rows of 32 tiles in flight;
#   - the fix-up's work list entries clipped to their window; each tile's dt, C, y and z lines
#     asked of L2 one tile ahead; C's loads batched;
#   - the state pass whatever the scheme where dt may be negative (a new split test).
# Checks (split tests, GPU suite at 3 splits fix-up forced and chosen, Hopper suite, memcheck
# and racecheck on small shapes at 3 splits with the fix-up forced), ncu of R1 32k and R4 128k
# with the fix-up forced, then the API A/B of state / fixup / auto over the decay scale.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-fixup.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s48a > /dev/null || exit 1
F=out/dev/s48a
T=$F/tests/gpu/flashssd_gpu_tests
nvidia-smi --query-gpu=name --format=csv,noheader
(
export LD_LIBRARY_PATH=$PWD/$F
timeout 200 $T --gtest_filter='GpuForwardSplit.*' > $O/split_tests.log 2>&1
echo "split tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure" $O/split_tests.log | head -20
for scheme in fixup auto; do
  FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout 150 $T > $O/gpu_${scheme}3.log 2>&1
  echo "GPU suite, $scheme at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_${scheme}3.log | head -10
done
timeout 120 $F/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1
echo "sm90 tests rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/sm90_tests.log | head
for tool in memcheck racecheck; do
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 150 compute-sanitizer --tool $tool $T --gtest_filter='*Small*' > $O/${tool}_fixup3.log 2>&1
  echo "$tool (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/${tool}_fixup3.log
done
for row in "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"; do
  tag=${row%% *} args=${row#* }
  FLASHSSD_SPLIT_SCHEME=fixup timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $F/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > $O/ncu_${tag}_fixup.csv 2>&1
  echo "ncu $tag fixup rc=$?"; python3 scripts/ncu_durations.py $O/ncu_${tag}_fixup.csv | grep -v -e fill_uniform -e count_nonfinite
done
)
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072 --A-scale 0.25" "--config R4 --seqlen 131072 --A-scale 0.1" \
  "--config R4 --seqlen 131072 --A-scale 0.04" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R1 --seqlen 32768 --A-scale 0.5" "--config R1 --seqlen 32768 --A-scale 0.25" \
  "--config R1 --seqlen 32768 --z --A-scale 0.01" |
  timeout 330 bash scripts/api_ab.sh --rounds 2 --lib state=$F,FLASHSSD_SPLIT_SCHEME=state \
    --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup --lib auto=$F > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -12 $O/api_ab.log
(cd $O && tar -czf s48a_logs.tgz *.log *.csv && rm -f *.log *.csv)
ls $O
