#!/usr/bin/env bash
# Functions for a device call that checks and times a staged library build against another
# (the stages every session's call scripts repeated: bench/results/logs/*-s4[7-9]-*.sh). Source
# it, with OUT set, on the device:
#
#   . scripts/device_variant.sh
#   variant_suites new out/dev/new              # GPU suite by default and with the fix-up forced at 3 splits; Hopper suite
#   variant_window_suite new out/dev/new        # GPU suite, windowed state pass forced at 3 splits
#   variant_sanitize new out/dev/new memcheck racecheck   # small shapes, fix-up forced, 3 splits; Hopper suite's
#   (VARIANT_SCHEMES="state fixup" forces each scheme in turn in both)
#   variant_ncu main out/dev/main split_fixup "R4_128k --config R4 --seqlen 131072"   # (scheme forced as above)
#   variant_quick_checks new out/dev/new       # the first two, fix-up only (kernels whose state pass did not change)
#   variant_checks new out/dev/new             # before a merge: both suites three ways, sanitizers with the window forced
#   variant_pytest pytest_quick out/dev/new "not mamba_ssm_triton"   # the GPU pytest file, logs and JSON report in $OUT
#   variant_pack checks                         # $OUT's *.log / *.csv into $OUT/checks.tgz
#   printf "%s\n" "--config R4 --seqlen 131072" | variant_against new out/dev/new out/dev/main
#                                               # all of the above for a fix-up variant, then an
#                                               # API A/B of the rows on stdin against main,
#                                               # its logs in $OUT/new.tar
#
# The device returns at most 8 files from $OUT: pack each stage's logs as it ends, so that what
# ran before a time limit comes back.
: "${OUT:?device_variant: set OUT}"
mkdir -p "$OUT"

variant_suites() {  # <name> <staged folder>: default, then each scheme of VARIANT_SCHEMES (fixup) forced at 3 splits; the Hopper suite
  local T=$2/tests/gpu/flashssd_gpu_tests H=$2/tests/gpu/flashssd_sm90_gpu_tests scheme
  # (GPU_SUITE_LIMIT: the whole suite took 89.7 s on an H100 in session 74's call 10 and more
  # than 100 s in call 17, its float64 references 51 and 64 s of it: 200 s by default)
  LD_LIBRARY_PATH=$PWD/$2 timeout "${GPU_SUITE_LIMIT:-200}" "$T" > "$OUT/$1_gpu_default.log" 2>&1
  echo "$1 GPU suite, default rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/$1_gpu_default.log" | head -5
  for scheme in ${VARIANT_SCHEMES:-fixup}; do
    LD_LIBRARY_PATH=$PWD/$2 FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout "${GPU_SUITE_LIMIT:-200}" "$T" \
      > "$OUT/$1_gpu_${scheme}3.log" 2>&1
    echo "$1 GPU suite, $scheme at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/$1_gpu_${scheme}3.log" | head -5
  done
  if [ -x "$H" ]; then
    LD_LIBRARY_PATH=$PWD/$2 timeout 60 "$H" > "$OUT/$1_sm90.log" 2>&1
    echo "$1 sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/$1_sm90.log"
  fi
}
variant_window_suite() {  # <name> <staged folder>: the GPU suite with the windowed state pass forced at 3 splits
  LD_LIBRARY_PATH=$PWD/$2 FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout "${GPU_SUITE_LIMIT:-200}" \
    "$2/tests/gpu/flashssd_gpu_tests" > "$OUT/$1_gpu_win3.log" 2>&1
  echo "$1 GPU suite, window at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/$1_gpu_win3.log" | head -5
}
variant_sanitize() {  # <name> <staged folder> <tool>...: small shapes, each scheme of VARIANT_SCHEMES (fixup) forced, 3 splits; the Hopper suite's
  local n=$1 F=$2 tool scheme; shift 2
  for tool in "$@"; do
    for scheme in ${VARIANT_SCHEMES:-fixup}; do
      LD_LIBRARY_PATH=$PWD/$F FLASHSSD_SPLIT_SCHEME=$scheme FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer \
        --tool "$tool" "$F/tests/gpu/flashssd_gpu_tests" --gtest_filter='*Small*' > "$OUT/${n}_${tool}_${scheme}3.log" 2>&1
      echo "$n $tool ($scheme, 3 splits) rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/${n}_${tool}_${scheme}3.log"
    done
    if [ -x "$F/tests/gpu/flashssd_sm90_gpu_tests" ]; then
      LD_LIBRARY_PATH=$PWD/$F timeout 120 compute-sanitizer --tool "$tool" "$F/tests/gpu/flashssd_sm90_gpu_tests" \
        --gtest_filter='*Small*' > "$OUT/${n}_sm90_${tool}.log" 2>&1
      echo "$n sm90 $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/${n}_sm90_${tool}.log"
    fi
  done
}

variant_ncu() {  # <name> <staged folder> <kernel regex> "<tag> <flashssd_bench arguments>"...: each scheme of VARIANT_SCHEMES (fixup) forced
  local n=$1 F=$2 kernels=$3 row tag scheme; shift 3
  for scheme in ${VARIANT_SCHEMES:-fixup}; do
    for row in "$@"; do
      tag=${row%% *}
      # shellcheck disable=SC2086  # (the row's arguments split on purpose)
      FLASHSSD_SPLIT_SCHEME=$scheme LD_LIBRARY_PATH=$PWD/$F timeout 60 ncu --clock-control none \
        --metrics gpu__time_duration.sum -k "regex:$kernels" --csv "$F/bench/flashssd_bench" ${row#* } \
        --iters 2 --warmup 1 --no-verify > "$OUT/ncu_${tag}_${scheme}_$n.csv" 2>&1
      echo "ncu $tag $n ($scheme forced) rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_${tag}_${scheme}_$n.csv"
    done
  done
}

variant_pytest() {  # <log name> <staged folder> [pytest -k expression]: tests/python/test_gpu.py on the staged build
  # (PYTEST_LIMIT seconds, 150 by default; the 14 mamba_ssm comparisons need third_party_bench
  # carried and ~5 min: -k "not mamba_ssm_triton" leaves them out)
  LD_LIBRARY_PATH=$PWD/$2 PYTHONPATH=$PWD/$2/python:$PWD/third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/$1.json \
    timeout "${PYTEST_LIMIT:-150}" python3 -m pytest tests/python/test_gpu.py ${3:+-k "$3"} -v -rs -p no:cacheprovider \
    --durations=10 > "$OUT/$1.log" 2>&1
  echo "pytest $1 rc=$? at ${SECONDS} s"; tail -3 "$OUT/$1.log"
}

variant_quick_checks() {  # <name> <staged folder>: the suites (default, fix-up at 3 splits) and memcheck /
  # racecheck (fix-up at 3 splits; the Hopper suite's small shapes), ~200 s on an H100 / H200:
  # where the state pass and the window did not change (session 72's calls 2 and 4)
  VARIANT_SCHEMES=fixup variant_suites "$1" "$2"
  VARIANT_SCHEMES=fixup variant_sanitize "$1" "$2" memcheck racecheck
}

variant_checks() {  # <name> <staged folder>: what a build passes before it is merged, packed as <name>_checks.tgz:
  # the suites by default and with the fix-up at 3 splits, again with the window forced (by default
  # and the state scheme at 3 splits), memcheck and racecheck with the window forced (state and
  # fix-up at 3 splits; the Hopper suite's small shapes); ~330 s on an H100 (session 60)
  VARIANT_SCHEMES=fixup variant_suites "$1" "$2"
  FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES=state variant_suites "$1_win" "$2"
  FLASHSSD_STATE_WINDOW=1 VARIANT_SCHEMES="state fixup" variant_sanitize "$1" "$2" memcheck racecheck
  variant_pack "$1_checks"
}

variant_pack() {  # <archive name>
  (cd "$OUT" && tar -czf "$1.tgz" ./*.log ./*.csv 2>/dev/null; rm -f ./*.log ./*.csv)
}

variant_against() {  # <name> <staged folder> <main's staged folder>; API A/B rows on stdin
  local n=$1 F=$2 M=$3 lib rows
  rows=$(cat)  # (read first: nothing after it reads the rows)
  variant_suites "$n" "$F"
  variant_sanitize "$n" "$F" memcheck racecheck
  variant_pack "${n}_checks"
  for lib in "main:$M" "$n:$F"; do
    variant_ncu "${lib%%:*}" "${lib#*:}" split_fixup "R1_32k --config R1 --seqlen 32768" \
      "R4_128k --config R4 --seqlen 131072" "R4_128k_z --config R4 --seqlen 131072 --z"
  done
  variant_pack "${n}_ncu"
  printf "%s\n" "$rows" | timeout 150 bash scripts/api_ab.sh --rounds 2 --lib "main=$M" --lib "$n=$F" --lib "main_forced=$M,FLASHSSD_SPLIT_SCHEME=fixup" \
    --lib "${n}_forced=$F,FLASHSSD_SPLIT_SCHEME=fixup" > "$OUT/api_ab_$n.log" 2>&1
  echo "api_ab $n rc=$?"; tail -8 "$OUT/api_ab_$n.log"
  variant_pack "${n}_ab"
  # (one file for the three: the device returns at most 8)
  (cd "$OUT" && tar -cf "$n.tar" "${n}_checks.tgz" "${n}_ncu.tgz" "${n}_ab.tgz" && rm -f "${n}_checks.tgz" "${n}_ncu.tgz" "${n}_ab.tgz")
}
