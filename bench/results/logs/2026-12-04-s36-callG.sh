#!/usr/bin/env bash
# Session 36, device call G: checks (GPU suites at 1 and 3 splits, Hopper suite, segsum,
# memcheck and racecheck on small shapes) and the benchmark of record on the third stage
# (os3's kernels, the library staged from this commit). Carry out/dev/build-gpu and
# third_party_bench.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
W=/tmp/s36g; mkdir -p $W
FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh $B
(cd $W && tar czf $O/chk.tgz chk)
FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh $B | tail -3
(cd $O && tar czf bench_all.tgz bench)
