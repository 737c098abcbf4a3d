#!/usr/bin/env bash
# Session 38, device call F: checks (GPU suites at 1 and 3 splits, Hopper suite, segsum,
# memcheck and racecheck on small shapes) and the benchmark of record on zr (the gated
# epilogue's z ring started before the readout factors; the library staged from this commit), with the
# SM clock and power sampled every 200 ms during the benchmark (clocks.csv; compare.log's
# timestamps place each row). Carry out/dev/build-gpu and third_party_bench.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
W=/tmp/s38f; mkdir -p $W
FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh $B
(cd $W && tar czf $O/chk.tgz chk)
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 > $O/clocks.csv 2>&1 &
sampler=$!
FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh $B | tail -3
kill $sampler
(cd $O && tar czf bench_all.tgz bench)
