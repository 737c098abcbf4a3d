#!/usr/bin/env bash
# Session 29, call 2: the third stage for the N = 64 z kernel (st3z, session 28's diff applied to
# HEAD) as a library: the checks (GPU suites at 1 and 3 splits, Hopper suite, segsum,
# compute-sanitizer memcheck / racecheck), the API A/B against a8e5b42's library (session 28's
# record; out/dev/new), 3 rounds, and the GPU pytest on the same library and module.
# Carry: out/dev/build-gpu (staged, with python/), out/dev/new.
set -uo pipefail
OUT=${OUT:-/tmp/s29c2}; mkdir -p "$OUT"
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$OUT/checks bash scripts/device_session.sh out/dev/build-gpu > "$OUT/checks.log" 2>&1
echo "checks rc=$?"; grep -E "rc=|PASSED|FAILED|SUMMARY" "$OUT/checks.log" | tail -30
printf "%s\n" "--config R3 --z" "--config R3 --z --batch 128 --seqlen 512" "--config R3" \
  "--config R1 --N 64 --batch 8 --seqlen 8192 --z" "--config R1 --N 64 --batch 8 --seqlen 8192" "--config R1 --batch 8 --seqlen 8192 --z" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/dev/new --lib st3z=out/dev/build-gpu > "$OUT/api_ab.log" 2>&1
tail -8 "$OUT/api_ab.log"
PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json LD_LIBRARY_PATH=$PWD/out/dev/build-gpu \
  timeout 400 python3 -m pytest tests/python/test_gpu.py -q -rs -p no:cacheprovider > "$OUT/pytest_gpu.log" 2>&1
echo "pytest rc=$?"; tail -4 "$OUT/pytest_gpu.log"
