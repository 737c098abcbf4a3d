#!/usr/bin/env bash
# The sequence of checks behind bench/results/<date>-h200.* , for a GPU machine
# with a build folder made elsewhere (no ctest needed, so a carried build folder
# works as is). scripts/gpu_check.sh is the general-purpose version (it also builds).
#
#   FLASHSSD_COMMIT=<sha> OUT=<dir> [PART=checks|bench] scripts/device_session.sh [build-folder]
#
# PART=checks runs the test suites and sanitizers only, PART=bench the benchmark only (each
# fits one device call of 10 minutes; both together take ~8-9). The checks' logs end up in
# $OUT/checks_logs.tgz (the device returns at most 8 files).
#
# Build folder (here, for the GPU machine's Python 3.12):
#   py=$(PYTHON=python3.12 scripts/setup_python.sh --no-torch)
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a-real \
#         -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py" && cmake --build build-gpu
#   scripts/fetch_triton_baseline.sh            # mamba_ssm sources, never committed
# Carry build-gpu and third_party_bench.
# The GPU pytest file (~6.5 min on an H200, mostly mamba_ssm's Triton autotuning) needs a
# device call of its own:
#   PYTHONPATH=build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json \
#     timeout 420 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15
set -u
B=${1:-build-gpu}
OUT=${OUT:-out/device_session}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
export FLASHSSD_COMMIT=${FLASHSSD_COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
PART=${PART:-all}
case $PART in all|checks|bench) ;; *) echo "device_session: PART must be checks, bench or all, not $PART" >&2; exit 2;; esac
if [ "$PART" != bench ]; then
timeout 120 "$B/tests/gpu/flashssd_gpu_tests" > "$OUT/gpu_tests.log" 2>&1
echo "gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" "$OUT/gpu_tests.log" | tail -3
# The sm90 forward's kernel tested directly (issue 5; built only with sm_90a in the architectures).
if [ -x "$B/tests/gpu/flashssd_sm90_gpu_tests" ]; then
  timeout 120 "$B/tests/gpu/flashssd_sm90_gpu_tests" > "$OUT/sm90_tests.log" 2>&1
  echo "sm90_tests rc=$?"; grep -E "^sm90|^\[  PASSED|^\[  FAILED" "$OUT/sm90_tests.log" | tail -12
  timeout 120 compute-sanitizer --tool memcheck "$B/tests/gpu/flashssd_sm90_gpu_tests" --gtest_filter='*Small*' \
    > "$OUT/sm90_memcheck.log" 2>&1
  echo "sm90 memcheck rc=$?"; grep -E "ERROR SUMMARY" "$OUT/sm90_memcheck.log"
  timeout 200 compute-sanitizer --tool racecheck --racecheck-report hazard "$B/tests/gpu/flashssd_sm90_gpu_tests" \
    --gtest_filter='*Small*' > "$OUT/sm90_racecheck.log" 2>&1
  echo "sm90 racecheck rc=$?"; grep -E "RACECHECK SUMMARY" "$OUT/sm90_racecheck.log"
fi
# The split-sequence path (state pass + boundary scan) on every GPU test shape.
FLASHSSD_NUM_SPLITS=3 timeout 120 "$B/tests/gpu/flashssd_gpu_tests" > "$OUT/gpu_tests_splits3.log" 2>&1
echo "gpu_tests (3 splits) rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" "$OUT/gpu_tests_splits3.log" | tail -3
timeout 100 "$B/tests/gpu/flashssd_segsum_gpu_tests" > "$OUT/segsum_tests.log" 2>&1
echo "segsum_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" "$OUT/segsum_tests.log" | tail -3
{
  timeout 70 compute-sanitizer --tool memcheck "$B/tests/gpu/flashssd_gpu_tests" --gtest_filter='*Small*'
  echo "memcheck rc=$?"
  timeout 70 compute-sanitizer --tool racecheck --racecheck-report hazard "$B/tests/gpu/flashssd_gpu_tests" --gtest_filter='*Small*'
  echo "racecheck rc=$?"
} > "$OUT/sanitizer.log" 2>&1
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|rc=" "$OUT/sanitizer.log"
# The state pass (its own shared-memory protocol) under racecheck: the small shapes at 3 splits.
FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard "$B/tests/gpu/flashssd_gpu_tests" \
  --gtest_filter='*Small*' > "$OUT/racecheck_splits3.log" 2>&1
echo "racecheck (3 splits) rc=$?"; grep -E "RACECHECK SUMMARY" "$OUT/racecheck_splits3.log"
# The device tool returns at most 8 files from $OUT: the checks' logs travel as one archive.
logs=()
for f in gpu_tests.log sm90_tests.log sm90_memcheck.log sm90_racecheck.log gpu_tests_splits3.log segsum_tests.log \
         sanitizer.log racecheck_splits3.log; do [ -f "$OUT/$f" ] && logs+=("$f"); done
tar -czf "$OUT/checks_logs.tgz" -C "$OUT" "${logs[@]}" && (cd "$OUT" && rm -f "${logs[@]}")
echo "checks' logs: $OUT/checks_logs.tgz (${#logs[@]} files)"
fi
[ "$PART" = checks ] && exit 0
timeout 150 python3 bench/segsum_section.py --build "$B" --out "$OUT/segsum_section.json" --rounds 3
PYTHONPATH=$B/python:third_party_bench timeout 370 python3 bench/compare.py --out-dir "$OUT" \
  --time-limit 340 --probe-timeout 70 --merge-json "$OUT/segsum_section.json" > "$OUT/bench.log" 2>&1
echo "bench rc=$?"; tail -40 "$OUT/bench.log"
