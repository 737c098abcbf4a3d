#!/usr/bin/env bash
# The one script for the GPU machine: build (only what is missing), the GPU test
# suite, compute-sanitizer, the side-by-side benchmark; logs and results to $OUT;
# a short summary printed LAST. A failing stage never stops the later ones; the
# exit code is non-zero when any selected stage failed.
#
#   scripts/gpu_check.sh
#   STAGES=tests,sanitizer scripts/gpu_check.sh          # a subset, in this order:
#                                                        # build,tests,sanitizer,bench
# Environment (all optional):
#   STAGES               default build,tests,sanitizer,bench ("build" only builds when
#                        the binaries are missing, or always with FORCE_BUILD=1)
#   BUILD_DIR            default: the first of build, build-gpu holding
#                        tests/gpu/flashssd_gpu_tests, else build
#   OUT                  where logs/results are copied (at most 8 files, flat);
#                        default out/gpu_check (git-ignored)
#   TOTAL_BUDGET         seconds for the whole script (default 570): every stage runs
#                        under `timeout`, the benchmark gets what is left
#   TESTS_TIMEOUT        ctest stage limit, s (default 180); CTEST_PARALLEL (default 8)
#   SANITIZER_FILTER     gtest filter for compute-sanitizer (default *Small*)
#   SANITIZER_TOOLS      default "memcheck racecheck"; SANITIZER_TIMEOUT per tool (default 100)
#   BENCH_ARGS           extra compare.py arguments (default --fwd-bwd)
#   RESULTS_DIR          compare.py --out-dir (default bench/results)
#   FLASHSSD_PYTHONPATH  the python module's build folder (default $BUILD_DIR/python)
#   FLASHSSD_COMMIT      recorded in the results (default: git, else "unknown")
#   TRITON_CACHE_DIR     default build-triton-cache (ignored; kept on a warm machine)
#   CMAKE_EXTRA_ARGS     extra configure arguments when building
set -u -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT" || exit 1
T_START=$(date +%s)
STAGES="${STAGES:-build,tests,sanitizer,bench}"
TOTAL_BUDGET="${TOTAL_BUDGET:-570}"
OUT="${OUT:-$ROOT/out/gpu_check}"
mkdir -p "$OUT"
LOGS="$(mktemp -d "${TMPDIR:-/tmp}/gpu_check.XXXXXX")"
MAIN_LOG="$LOGS/gpu_check.log"
: > "$MAIN_LOG"

if [ -z "${BUILD_DIR:-}" ]; then
  BUILD_DIR=build
  for d in build build-gpu; do
    if [ -x "$d/tests/gpu/flashssd_gpu_tests" ]; then BUILD_DIR=$d; break; fi
  done
fi
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
GPU_TESTS="$BUILD_DIR/tests/gpu/flashssd_gpu_tests"
RESULTS_DIR="${RESULTS_DIR:-$ROOT/bench/results}"
case "$RESULTS_DIR" in /*) ;; *) RESULTS_DIR="$ROOT/$RESULTS_DIR" ;; esac
export TRITON_CACHE_DIR="${TRITON_CACHE_DIR:-$ROOT/build-triton-cache}"

declare -A STATUS=()   # stage -> ok | FAILED | skipped ...
declare -A DETAIL=()
FAILED=0

log() { echo "[gpu_check $(date +%H:%M:%S)] $*" | tee -a "$MAIN_LOG" >&2; }
has_stage() { [[ ",$STAGES," == *",$1,"* ]]; }
elapsed() { echo $(( $(date +%s) - T_START )); }
remaining() { echo $(( TOTAL_BUDGET - $(elapsed) )); }
# stage_timeout DEFAULT RESERVE: DEFAULT capped so that RESERVE seconds stay for later stages.
stage_timeout() {
  local t=$1 left=$(( $(remaining) - $2 ))
  (( left < t )) && t=$left
  (( t < 20 )) && t=20
  echo "$t"
}
fail() { STATUS[$1]="FAILED"; DETAIL[$1]="$2"; FAILED=1; log "$1: FAILED: $2"; }

# ------------------------------------------------------------------ environment
{
  echo "== gpu_check: $(date -u +%Y-%m-%dT%H:%M:%SZ) root=$ROOT build=$BUILD_DIR stages=$STAGES budget=${TOTAL_BUDGET}s"
  echo "== commit: ${FLASHSSD_COMMIT:-$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,mig.mode.current --format=csv 2>&1 || echo "nvidia-smi failed"
  echo "== nvcc: $(nvcc --version 2>/dev/null | tail -n1 || echo none)  cmake: $(cmake --version 2>/dev/null | head -n1 || echo none)  ninja: $(ninja --version 2>/dev/null || echo none)"
  python3 - <<'EOF' 2>&1
import sys
print("== python", sys.version.split()[0])
for m in ("torch", "triton", "einops", "numpy", "matplotlib", "packaging"):
    try:
        mod = __import__(m)
        print(f"   {m} {getattr(mod, '__version__', '?')}")
    except Exception as e:
        print(f"   {m}: MISSING ({type(e).__name__}: {e})")
try:
    import torch
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        print(f"   device {p.name}, sm_{p.major}{p.minor}, {p.multi_processor_count} SMs, "
              f"L2 {getattr(p, 'L2_cache_size', 0) >> 20} MiB, {p.total_memory >> 30} GiB")
    else:
        print("   torch sees no CUDA device")
except Exception as e:
    print("   torch device query failed:", e)
EOF
} >> "$MAIN_LOG" 2>&1
cat "$MAIN_LOG" >&2

# ------------------------------------------------------------------ relocation
# A build folder configured elsewhere (e.g. /work/main/build on the dev machine)
# holds absolute paths (ctest files, RUNPATHs). If the repository sits at another
# path here, make the old path point at this checkout; else fall back to running
# the test binaries directly with LD_LIBRARY_PATH.
RELOCATED=0
fix_relocation() {
  local cache="$BUILD_DIR/CMakeCache.txt" old_bld old_src
  [ -f "$cache" ] || return 0
  old_bld=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")
  old_src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  [ -n "$old_bld" ] || return 0
  if [ "$(realpath -m "$old_bld")" = "$(realpath -m "$BUILD_DIR")" ]; then return 0; fi
  log "build folder was configured at $old_bld (source $old_src); this checkout is $ROOT"
  if [ -n "$old_src" ] && [ ! -e "$old_src" ] && [ "${old_bld#"$old_src"/}" != "$old_bld" ] \
     && [ "$(realpath -m "$ROOT/${old_bld#"$old_src"/}")" = "$(realpath -m "$BUILD_DIR")" ]; then
    if mkdir -p "$(dirname "$old_src")" 2>/dev/null && ln -s "$ROOT" "$old_src" 2>/dev/null; then
      log "linked $old_src -> $ROOT so that the build folder's absolute paths resolve"
      return 0
    fi
  fi
  RELOCATED=1
  log "cannot link the old path: running test binaries directly with LD_LIBRARY_PATH"
}
export LD_LIBRARY_PATH="$BUILD_DIR:$BUILD_DIR/python/flashssd${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# ------------------------------------------------------------------ (a) build
if has_stage build; then
  if [ -x "$GPU_TESTS" ] && [ "${FORCE_BUILD:-0}" != 1 ]; then
    STATUS[build]="reused"
    DETAIL[build]="$BUILD_DIR (gpu tests built $(date -r "$GPU_TESTS" '+%Y-%m-%d %H:%M' 2>/dev/null))"
    log "build: reusing $BUILD_DIR"
  else
    t0=$(date +%s)
    if [ -f "$BUILD_DIR/CMakeCache.txt" ]; then
      cached=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$BUILD_DIR/CMakeCache.txt")
      if [ "$(realpath -m "$cached")" != "$(realpath -m "$BUILD_DIR")" ]; then
        log "build: $BUILD_DIR was configured at $cached: configuring afresh"
        rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
      fi
    fi
    gen=()
    command -v ninja >/dev/null 2>&1 && [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && gen=(-G Ninja)
    pyargs=()
    if python3 -m nanobind --cmake_dir >/dev/null 2>&1; then
      pyargs=(-DFLASHSSD_BUILD_PYTHON=ON "-DPython_EXECUTABLE=$(command -v python3)")
    fi
    log "build: configuring and building $BUILD_DIR (CUDA 80-real;90a-real)"
    # shellcheck disable=SC2086
    { cmake -S "$ROOT" -B "$BUILD_DIR" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
        "-DCMAKE_CUDA_ARCHITECTURES=80-real;90a-real" "${pyargs[@]}" ${CMAKE_EXTRA_ARGS:-} &&
      timeout "$(stage_timeout 1800 0)" cmake --build "$BUILD_DIR" --parallel "$(nproc)"; } \
      > "$LOGS/build.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ -x "$GPU_TESTS" ]; then
      STATUS[build]="built"; DETAIL[build]="in $(( $(date +%s) - t0 )) s"
    else
      fail build "rc=$rc (see build.log): $(grep -m3 -E 'error|Error' "$LOGS/build.log" | tr '\n' ' ' | cut -c1-300)"
    fi
  fi
fi
fix_relocation

# ------------------------------------------------------------------ (b) tests
TESTS_SUMMARY="not run"
FAILED_TESTS=""
run_gtest_direct() {  # fallback when ctest's absolute paths cannot be used
  local bin rc=0 p=0 f=0 s=0 n
  for bin in "$BUILD_DIR"/tests/*/flashssd_*_tests; do
    [ -x "$bin" ] || continue
    echo "== $bin"
    timeout "$1" "$bin" --gtest_color=no || rc=1
  done > "$LOGS/tests.log" 2>&1
  p=$(grep -h -E '^\[  PASSED  \] [0-9]+ test' "$LOGS/tests.log" | awk '{s+=$4} END{print s+0}')
  f=$(grep -h -c -E '^\[  FAILED  \] [^0-9 ]' "$LOGS/tests.log" | awk '{s+=$1} END{print s+0}')
  s=$(grep -h -E '^\[  SKIPPED \] [0-9]+ test' "$LOGS/tests.log" | awk '{s+=$4} END{print s+0}')
  TESTS_SUMMARY="$p passed, $f failed, $s skipped (gtest binaries run directly)"
  return $rc
}
if has_stage tests; then
  reserve=0
  has_stage sanitizer && reserve=$(( reserve + 200 ))
  has_stage bench && reserve=$(( reserve + 240 ))
  tt=$(stage_timeout "${TESTS_TIMEOUT:-180}" "$reserve")
  if [ ! -d "$BUILD_DIR" ] || [ ! -f "$BUILD_DIR/CTestTestfile.cmake" ]; then
    fail tests "no build folder $BUILD_DIR"
  elif [ "$RELOCATED" = 1 ]; then
    log "tests: gtest binaries directly (limit ${tt}s)"
    if run_gtest_direct "$tt" && ! grep -q '^0 passed' <<<"$TESTS_SUMMARY"; then
      STATUS[tests]="ok"
    else
      fail tests "$TESTS_SUMMARY"
    fi
  else
    log "tests: ctest --test-dir $BUILD_DIR (limit ${tt}s, parallel ${CTEST_PARALLEL:-8})"
    t0=$(date +%s)
    # --stop-time lets ctest stop starting tests and still print its summary;
    # `timeout` (20 s later) is the hard cap.
    timeout --kill-after=10 $(( tt + 20 )) ctest --test-dir "$BUILD_DIR" --output-on-failure \
      --parallel "${CTEST_PARALLEL:-8}" --timeout 300 --stop-time "$(date -d "+${tt} seconds" +%H:%M:%S)" \
      > "$LOGS/tests.log" 2>&1
    rc=$?
    line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$LOGS/tests.log" | tail -n1)
    total=$(sed -n 's/.*out of \([0-9]*\).*/\1/p' <<<"$line")
    nfail=$(sed -n 's/.*passed, \([0-9]*\) tests\{0,1\} failed.*/\1/p' <<<"$line")
    nskip=$(sed -n '/The following tests did not run:/,/^$/p' "$LOGS/tests.log" | grep -c -E '\((Skipped|Disabled)\)$')
    ngpuskip=$(grep -c -E '^\[  SKIPPED \] ' "$LOGS/tests.log")
    if [ -n "$total" ]; then
      npass=$(( total - nfail - nskip ))
      TESTS_SUMMARY="$npass passed, $nfail failed, $nskip skipped of $total ctest tests in $(( $(date +%s) - t0 )) s"
      (( ngpuskip > 0 )) && TESTS_SUMMARY+=" (gtest SKIPPED lines in the output: $ngpuskip)"
      if (( nskip > 0 )); then
        TESTS_SUMMARY+="; skipped: $(sed -n '/The following tests did not run:/,/^$/p' "$LOGS/tests.log" \
          | grep -E '\((Skipped|Disabled)\)$' | head -n 4 | sed -E 's/^\s*[0-9]+ - //; s/  # GetParam.*//; s/ \((Skipped|Disabled)\)$//' | tr '\n' ',' | sed 's/,$//')$( (( nskip > 4 )) && echo ', ...')"
      fi
    else
      TESTS_SUMMARY="no ctest summary (rc=$rc$([ $rc -eq 124 ] && echo ', timed out'))"
    fi
    if [ $rc -eq 0 ] && [ -n "$total" ] && [ "$total" -gt 0 ]; then
      STATUS[tests]="ok"
    else
      FAILED_TESTS=$(sed -n '/The following tests FAILED:/,$p' "$LOGS/tests.log" | grep -E '^\s+[0-9]+ - ' | head -n 10 | sed -E 's/^\s*[0-9]+ - //; s/  # GetParam[^(]*//' | tr '\n' ';')
      fail tests "$TESTS_SUMMARY${FAILED_TESTS:+ | FAILED: $FAILED_TESTS}"
    fi
  fi
  log "tests: $TESTS_SUMMARY"
fi

# ------------------------------------------------------------------ (c) sanitizer
SAN_SUMMARY=""
find_sanitizer() {
  local c
  for c in "$(command -v compute-sanitizer 2>/dev/null)" /usr/local/cuda/bin/compute-sanitizer \
           /usr/local/cuda/compute-sanitizer/compute-sanitizer /opt/nvidia/nsight-compute/*/compute-sanitizer/compute-sanitizer; do
    [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
  done
  return 1
}
if has_stage sanitizer; then
  : > "$LOGS/sanitizer.log"
  filter="${SANITIZER_FILTER:-*Small*}"
  if ! SAN=$(find_sanitizer); then
    fail sanitizer "compute-sanitizer not found"
  elif [ ! -x "$GPU_TESTS" ]; then
    fail sanitizer "no GPU test binary $GPU_TESTS"
  else
    ntests=$("$GPU_TESTS" --gtest_list_tests --gtest_filter="$filter" 2>/dev/null | grep -c '^  ')
    if [ "$ntests" -eq 0 ]; then
      fail sanitizer "gtest filter '$filter' matches no test of $GPU_TESTS"
    else
      san_ok=1
      for tool in ${SANITIZER_TOOLS:-memcheck racecheck}; do
        reserve=0; has_stage bench && reserve=240
        st=$(stage_timeout "${SANITIZER_TIMEOUT:-100}" "$reserve")
        log "sanitizer: $tool on $ntests tests matching '$filter' (limit ${st}s)"
        extra=()
        [ "$tool" = memcheck ] && extra=(--leak-check full)
        [ "$tool" = racecheck ] && extra=(--racecheck-report hazard)
        {
          echo "===== compute-sanitizer --tool $tool ${extra[*]} $GPU_TESTS --gtest_filter=$filter"
          timeout --kill-after=10 "$st" "$SAN" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
            "$GPU_TESTS" --gtest_filter="$filter" --gtest_color=no 2>&1
          echo "===== exit code $?"
        } > "$LOGS/san_$tool.log" 2>&1
        cat "$LOGS/san_$tool.log" >> "$LOGS/sanitizer.log"
        rc=$(sed -n 's/^===== exit code //p' "$LOGS/san_$tool.log" | tail -n1)
        errs=$(grep -E 'ERROR SUMMARY: [0-9]+ error' "$LOGS/san_$tool.log" | tail -n1 | sed 's/.*ERROR SUMMARY: \([0-9]*\).*/\1/')
        hz=$(grep -E 'RACECHECK SUMMARY: [0-9]+ hazard' "$LOGS/san_$tool.log" | tail -n1 | sed 's/.*SUMMARY: \([0-9]*\).*/\1/')
        gfail=$(grep -c -E '^\[  FAILED  \] [^0-9 ]' "$LOGS/san_$tool.log")
        gpass=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$LOGS/san_$tool.log" | awk '{print $4}' | tail -n1)
        gskip=$(grep -E '^\[  SKIPPED \] [0-9]+ test' "$LOGS/san_$tool.log" | awk '{print $4}' | tail -n1)
        s="$tool: ${errs:-?} errors${hz:+, $hz hazards}, tests ${gpass:-?} passed/${gfail} failed/${gskip:-0} skipped"
        [ "$rc" = 124 ] || [ "$rc" = 137 ] && s+=" (TIMED OUT after ${st}s)"
        [ "${gpass:-0}" = 0 ] && { s+=" (NO TEST RAN under the sanitizer)"; gfail=${gfail:-0}; rc=${rc:-1}; san_ok=0; }
        SAN_SUMMARY+="${SAN_SUMMARY:+; }$s"
        if [ "$rc" != 0 ] || [ "${errs:-x}" != 0 ] || { [ -n "$hz" ] && [ "$hz" != 0 ]; } || [ "$gfail" != 0 ]; then
          san_ok=0
        fi
      done
      SAN_SUMMARY+=" [filter '$filter', $ntests tests]"
      if [ $san_ok = 1 ]; then STATUS[sanitizer]="ok"; else fail sanitizer "$SAN_SUMMARY"; fi
    fi
  fi
  log "sanitizer: ${SAN_SUMMARY:-${DETAIL[sanitizer]:-}}"
fi

# ------------------------------------------------------------------ (d) bench
RESULT_JSON=""; RESULT_MD=""; RESULT_PNG=""
if has_stage bench; then
  pyp="${FLASHSSD_PYTHONPATH:-$BUILD_DIR/python}"
  case "$pyp" in /*) ;; *) pyp="$ROOT/$pyp" ;; esac
  [ -d "$pyp/flashssd" ] || log "bench: note: no python module at $pyp/flashssd (FlashSSD will be recorded null with the import error)"
  [ -d "$ROOT/third_party_bench" ] || log "bench: note: third_party_bench/ missing (run scripts/fetch_triton_baseline.sh here and carry it)"
  bt=$(( $(remaining) - 10 ))
  (( bt < 60 )) && bt=60
  tl=$(( bt - 45 ))
  stamp="$LOGS/bench.stamp"; touch "$stamp"; sleep 1
  log "bench: compare.py ${BENCH_ARGS---fwd-bwd} (limit ${bt}s, rows started until ${tl}s)"
  # shellcheck disable=SC2086
  PYTHONPATH="$pyp:$ROOT/third_party_bench:$ROOT/bench${PYTHONPATH:+:$PYTHONPATH}" \
    timeout --signal=TERM --kill-after=15 "$bt" python3 "$ROOT/bench/compare.py" --out-dir "$RESULTS_DIR" \
      --time-limit "$tl" ${BENCH_ARGS---fwd-bwd} > "$LOGS/bench.log" 2>&1
  rc=$?
  RESULT_JSON=$(find "$RESULTS_DIR" -maxdepth 1 -name '*.json' -newer "$stamp" 2>/dev/null | sort | tail -n1)
  if [ -n "$RESULT_JSON" ]; then
    RESULT_MD="${RESULT_JSON%.json}.md"; RESULT_PNG="${RESULT_JSON%.json}.png"
    [ -f "$RESULT_MD" ] || RESULT_MD=""; [ -f "$RESULT_PNG" ] || RESULT_PNG=""
  fi
  if [ $rc -eq 0 ] && [ -n "$RESULT_JSON" ]; then
    STATUS[bench]="ok"; DETAIL[bench]="$RESULT_JSON"
  else
    fail bench "compare.py rc=$rc$([ $rc -eq 124 ] && echo ' (timed out)'), results: ${RESULT_JSON:-none} (see bench.log: $(grep -m1 -E 'FATAL|Error' "$LOGS/bench.log" | cut -c1-200))"
  fi
fi

# ------------------------------------------------------------------ (f) summary
SUMMARY="$LOGS/summary.txt"
{
  echo
  echo "==================== gpu_check summary ($(elapsed) s, stages: $STAGES) ===================="
  grep -m1 -E '^ *device ' "$MAIN_LOG" | sed 's/^ */device: /' || true
  for st in build tests sanitizer bench; do
    has_stage "$st" || continue
    d="${DETAIL[$st]:-}"
    [ "$st" = tests ] && d="$TESTS_SUMMARY${FAILED_TESTS:+ | FAILED: $FAILED_TESTS}"
    [ "$st" = sanitizer ] && d="${SAN_SUMMARY:-${DETAIL[$st]:-}}"
    printf '%-10s %-7s %s\n' "$st:" "${STATUS[$st]:-?}" "$d"
  done
  if [ -n "$RESULT_JSON" ]; then
    python3 - "$RESULT_JSON" <<'EOF' || true
import json, sys
r = json.load(open(sys.argv[1]))
rows = r["rows"]
fwd = [x for x in rows if x["pass"] == "fwd"]
timed = [x for x in fwd if x.get("flashssd_ms")]
r1 = [x for x in fwd if x["config"] == "R1"]
beat = [x for x in r1 if x.get("flashssd_ms") and x.get("triton_ms") and x["flashssd_ms"] < x["triton_ms"]]
print(f"bench: {sys.argv[1]}  memcpy {r.get('memcpy_TBps')} TB/s, commit {r.get('commit')}")
print(f"bench: FlashSSD timed on {len(timed)}/{len(fwd)} forward rows; faster than Triton on {len(beat)}/{len(r1)} R1 rows")
errs = r.get("errors") or {}
for k, v in list(errs.items())[:5]:
    print(f"bench error: {k}: {str(v)[:300]}")
first = {}
for x in fwd:
    for who, msg in (x.get("errors") or {}).items():
        first.setdefault(who, f"{x['config']} T={x['seqlen']} z={x['z']}: {str(msg)[:200]}")
for who, msg in list(first.items())[:6]:
    print(f"bench row note ({who}): {msg}")
EOF
    if [ -n "$RESULT_MD" ]; then
      echo
      awk '/^## R1 forward/{p=1} /^## Other rows/{p=0} p' "$RESULT_MD"
    fi
  fi
  if [ "$FAILED" = 0 ]; then echo "gpu_check: ALL SELECTED STAGES OK"; else
    echo "gpu_check: FAILED stages: $(for s in build tests sanitizer bench; do [ "${STATUS[$s]:-}" = FAILED ] && printf '%s ' "$s"; done)"
  fi
} > "$SUMMARY" 2>&1
cat "$SUMMARY" >> "$MAIN_LOG"

# ------------------------------------------------------------------ (e) copy to $OUT (<= 8 files, flat)
copy() { [ -n "$1" ] && [ -f "$1" ] && cp -f "$1" "$OUT/" 2>/dev/null; }
copy "$MAIN_LOG"
for f in tests.log sanitizer.log bench.log build.log; do copy "$LOGS/$f"; done
copy "$RESULT_JSON"; copy "$RESULT_MD"; copy "$RESULT_PNG"
n=$(find "$OUT" -maxdepth 1 -type f | wc -l)
(( n > 8 )) && echo "gpu_check: warning: $OUT holds $n files (more than 8)" >&2

cat "$SUMMARY"
exit $FAILED
