#!/usr/bin/env bash
# Session 40 call C, on 3dc063a's library (the persistent chunk scores pass; its other kernels'
# SASS is HEAD~'s line for line, and call B's checks ran on the same SASS): (1) the Hopper suite
# with the new Sm90ChunkScores.ManyTilesPerCtaSmall, and memcheck / racecheck on the chunk-scores
# tests; (2) the benchmark of record (PART=bench), the SM clock and power sampled every 200 ms.
# Carry out/dev/build-gpu (staged, without the probe and the stability tests) and third_party_bench.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
T=$B/tests/gpu/flashssd_sm90_gpu_tests
timeout 120 $T > $O/sm90_tests.log 2>&1; echo "sm90 tests rc=$?"; grep -E "ManyTiles|chunk scores .*CTAs <= [1-9]|PASSED|FAILED" $O/sm90_tests.log | tail -9
timeout 45 compute-sanitizer --tool memcheck $T --gtest_filter='Sm90ChunkScores*' > $O/scores_memcheck.log 2>&1
echo "scores memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $O/scores_memcheck.log | tail -3
timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard $T --gtest_filter='Sm90ChunkScores*' > $O/scores_racecheck.log 2>&1
echo "scores racecheck rc=$?"; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $O/scores_racecheck.log | tail -3
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 > $O/clocks.csv 2>&1 &
sampler=$!
FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh $B | tail -3
kill $sampler
(cd $O && tar czf bench_all.tgz bench)
