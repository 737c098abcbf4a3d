#!/bin/bash
# Session 20 call 6: call 5's A/B (-call5.sh, the probes in out/ab) and, on the library built
# from fde09447a687 (kDtPrefetchRounds = 3; out/dev/build-gpu), the checks
# (scripts/device_session.sh PART=checks: GPU suites, Hopper suite, segsum, memcheck and racecheck)
# and the benchmark (PART=bench), in one machine start (device time was short: refused starts).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ab $O/ds $O/bench
OUT=$O/ab bash bench/results/logs/2026-12-02-s20-call5.sh
FLASHSSD_COMMIT=fde09447a687 PART=checks OUT=$O/ds timeout 120 bash scripts/device_session.sh out/dev/build-gpu > $O/checks.log 2>&1
echo "checks rc=$?"; tail -25 $O/checks.log
FLASHSSD_COMMIT=fde09447a687 PART=bench OUT=$O/bench timeout 420 bash scripts/device_session.sh out/dev/build-gpu > $O/bench.log 2>&1
echo "bench rc=$?"; tail -30 $O/bench.log
cd $O && tar czf ds.tgz ds && tar czf bench.tgz bench && rm -rf ds bench
