#!/bin/bash
# Session 21 call 4: the library with the packed-only dt prefetch (this call's commit,
# out/dev/build-gpu): a short probe A/B against base (c426a6f) on the packed rows and R1 8k
# (final2 = scripts/build_probe.sh out/ab/final2_probe at this commit), then the checks
# (scripts/device_session.sh PART=checks) and the benchmark of record (PART=bench).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ab $O/ds $O/bench
printf "%s\n" "--N 128" "--N 128 --packed 4" "--N 64 --packed 4" "--N 128 --z 1 --packed 4" \
  | timeout 100 bash scripts/probe_ab.sh --rounds 3 --variants "base final2" > $O/ab/probe_ab.log 2>&1
cat $O/ab/probe_ab.log
FLASHSSD_COMMIT=$COMMIT PART=checks OUT=$O/ds timeout 150 bash scripts/device_session.sh out/dev/build-gpu > $O/checks.log 2>&1
echo "checks rc=$?"; grep -E "rc=|PASSED|FAILED|SUMMARY" $O/checks.log
FLASHSSD_COMMIT=$COMMIT PART=bench OUT=$O/bench timeout 420 bash scripts/device_session.sh out/dev/build-gpu > $O/bench.log 2>&1
echo "bench rc=$?"; tail -45 $O/bench.log
cd $O && tar czf ds.tgz ds && tar czf bench.tgz bench && rm -rf ds bench
