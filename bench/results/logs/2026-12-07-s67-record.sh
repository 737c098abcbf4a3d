#!/usr/bin/env bash
# Session 67's H200 record (carry out/carry/s65path.tar.xz third_party_bench): the benchmark of
# record on s65path (branch s65-path at ba7809e, merged into main as f06afcd after its call 3 passed
# on an H100 in this session; its 68 kernels' SASS is main's before the merge), on an H200 only
# (an H100 stops at once: session 64's H100 record has the same SASS). No checks after it: they
# passed on the H100 (call7/).
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s67-record.sh > $OUT/call.txt 2>&1
set -u
REQUIRE_GPU=H200 TOTAL_ALL=0 OUT=$OUT bash scripts/device_record.sh s65path
rc=$?
(cd "$OUT" && [ -f bench.log ] && tar -czf record_logs.tgz bench.log && rm -f bench.log)
ls "$OUT"
echo "rc $rc, all done at ${SECONDS} s"
