#!/usr/bin/env bash
# Session 71, call 3 on (an H200 only: on another card it stops at once): the benchmark of
# record on main's code after the fm2 + d2 merge (out/carry/s71main.tar.xz; its COMMIT is that
# merge; the binaries are call 2's s71fm2d2 build, whose sources equal the commit's: `git diff
# s71-fm2d2 <commit> -- src include tests` is empty), then the checks where time is left (call 2
# ran the suites and sanitizers on these binaries).
# Carry out/carry/s71main.tar.xz third_party_bench.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s71-record.sh > $OUT/call.txt 2>&1
set -u
REQUIRE_GPU=H200 TOTAL_ALL=${TOTAL_ALL:-360} OUT=$OUT bash scripts/device_record.sh s71main
rc=$?
(cd "$OUT" && [ -f bench.log ] && tar -czf record_logs.tgz bench.log && rm -f bench.log)
ls "$OUT"
echo "rc $rc, all done at ${SECONDS} s"
