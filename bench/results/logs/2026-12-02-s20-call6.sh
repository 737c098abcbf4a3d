#!/bin/bash
# Session 20 call 6: call 5's A/B (-call5.sh, the probes in out/ab) and, on the library built
# from fde09447a687 (kDtPrefetchRounds = 3; out/dev/build-gpu), the checks
# (scripts/device_session.sh PART=checks: GPU suites, Hopper suite, segsum, memcheck and racecheck)
# and the benchmark (PART=bench), in one machine start (device time was short: refused starts).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ab $O/ds $O/bench
OUT=$O/ab bash bench/results/logs/2026-12-02-s20-call5.sh
# The checks and benchmark only where the A/B shows pf3 (the library's setting) at least 1% faster
# than base at R1 8k (median of the three rounds); otherwise the change is reverted.
gain=$(python3 - "$O/ab/probe_ab.log" <<'PY'
import re, statistics, sys
t = {}
for line in open(sys.argv[1]):
    m = re.match(r"round=\d+ (\S+) \[--N 128\] ([0-9.]+)", line)
    if m: t.setdefault(m[1], []).append(float(m[2]))
print(1 if statistics.median(t["pf3"]) < 0.99 * statistics.median(t["base"]) else 0)
PY
)
echo "pf3 gain >= 1%: $gain"
[ "$gain" = 1 ] || exit 0
FLASHSSD_COMMIT=fde09447a687 PART=checks OUT=$O/ds timeout 120 bash scripts/device_session.sh out/dev/build-gpu > $O/checks.log 2>&1
echo "checks rc=$?"; tail -25 $O/checks.log
FLASHSSD_COMMIT=fde09447a687 PART=bench OUT=$O/bench timeout 420 bash scripts/device_session.sh out/dev/build-gpu > $O/bench.log 2>&1
echo "bench rc=$?"; tail -30 $O/bench.log
cd $O && tar czf ds.tgz ds && tar czf bench.tgz bench && rm -rf ds bench
