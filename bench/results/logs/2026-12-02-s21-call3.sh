#!/bin/bash
# Session 21 call 3, one machine start:
#  1. probe A/B, three rounds: base (c426a6f, the record's kernels), final (the kept state fold,
#     this call's commit: scripts/build_probe.sh out/ab/final_probe) and pfpk (final + dt asked of
#     L2 three tiles ahead in the packed producer loop only: session 20's prefetch, which lost
#     everywhere but packed, -5% there; /tmp/pfpk, the diff in -call3-pfpk.diff);
#  2. the checks (scripts/device_session.sh PART=checks) and
#  3. the benchmark (PART=bench) on the library built from this call's commit (out/dev/build-gpu).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ab $O/ds $O/bench
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" \
  "--N 128 --packed 4" "--N 64 --packed 4" "--N 128 --z 1 --packed 4 | base final pfpk" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base final pfpk" > $O/ab/probe_ab.log 2>&1
cat $O/ab/probe_ab.log
FLASHSSD_COMMIT=$COMMIT PART=checks OUT=$O/ds timeout 150 bash scripts/device_session.sh out/dev/build-gpu > $O/checks.log 2>&1
echo "checks rc=$?"; grep -E "rc=|PASSED|FAILED|SUMMARY" $O/checks.log
FLASHSSD_COMMIT=$COMMIT PART=bench OUT=$O/bench timeout 420 bash scripts/device_session.sh out/dev/build-gpu > $O/bench.log 2>&1
echo "bench rc=$?"; tail -45 $O/bench.log
cd $O && tar czf ds.tgz ds && tar czf bench.tgz bench && rm -rf ds bench
