#!/usr/bin/env bash
# Session 75's call after ten refused asks (~250 s on an H100, ~350 s on an H200), in place of
# 2026-12-08-s75-call1.sh (never ran): one build, s75cc, holds all that waits for a device:
# main (c152edb: the DLPack device-type check a875b54 and the dispatch rule's refactor 15f55b7,
# host code, not yet run on a device), branch s74-cuclamp (3f6dc7f: cu_seqlens_at clamps device
# offsets to [0, T]; 40 of 68 kernels differ from main's; its whole GPU suite has not run) and
# branch s75-refonce (StateWindowMatchesReference computes its float64 reference once per input
# set), staged from 2026-12-08-s75-cc-lib.patch.
#  1. on an H200: session 73's call-next without its record (RECORD=0, NO_MAIN69=1: the API A/B of
#     s72main, s73d2n128, s73gnofm2, s73both and ab_choose's pick, ~100 s);
#  2. s75cc: the GPU suite (whole, 200 s limit), the Hopper suite, the cu_seqlens tests under
#     memcheck, tests/python/test_gpu.py without the Triton comparison.
# Carry out/carry (s72main, s65path, s73d2n128, s73gnofm2, s73both, s75cc) and third_party_bench.
#   device: LIMIT=440 OUT=$OUT bash bench/results/logs/2026-12-08-s75-call2.sh > $OUT/call.txt 2>&1
# BUILD=<staged name> (default s75cc) runs step 2 on another build: for the next session
# BUILD=s75next, the same three pieces on main at 3dbe23f, whose float64 reference runs on
# several threads (staged from 2026-12-08-s75-next-lib.patch; branch s75-next, d23322adf30d).
set -u
LIMIT=${LIMIT:-440}
left() { echo $(( LIMIT - SECONDS )); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ "$card" == *H200* ]] && [ -z "${SKIP_CALL_NEXT:-}" ]; then
  RECORD=0 NO_MAIN69=1 OUT=$OUT timeout 180 bash bench/results/logs/2026-12-07-s73-call-next.sh > "$OUT/call_next.txt" 2>&1
  echo "call-next rc=$? at ${SECONDS} s"; grep -E "^summary|^\[|chosen" "$OUT/call_next.txt" | head -30
fi
BUILD=${BUILD:-s75cc}
bash scripts/carry.sh unpack $BUILD > /dev/null || exit 1
mkdir -p "$OUT/m"
F=out/dev/$BUILD; cat $F/COMMIT
t=$(( $(left) - 120 )); [ $t -le 200 ] || t=200
LD_LIBRARY_PATH=$PWD/$F timeout $t $F/tests/gpu/flashssd_gpu_tests > $OUT/m/gpu_default.log 2>&1
echo "GPU suite rc=$? (limit $t s) at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/m/gpu_default.log | head -8
grep -E "StateWindowMatchesReference \(" $OUT/m/gpu_default.log
LD_LIBRARY_PATH=$PWD/$F timeout 40 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/m/sm90.log 2>&1
echo "sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/m/sm90.log | head -5
LD_LIBRARY_PATH=$PWD/$F timeout 40 compute-sanitizer --tool memcheck $F/tests/gpu/flashssd_gpu_tests \
  --gtest_filter="*CuSeqlens*" > $OUT/m/cuseqlens_memcheck.log 2>&1
echo "cu_seqlens tests under memcheck rc=$?"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED)" $OUT/m/cuseqlens_memcheck.log | head -4
OUT=$OUT/m bash -c '. scripts/device_variant.sh; PYTEST_LIMIT=$0 variant_pytest $1_pytest out/dev/$1 "not mamba_ssm_triton"' \
  $(( $(left) < 100 ? $(left) : 100 )) $BUILD
mv "$OUT/m/"*.json "$OUT/" 2>/dev/null
(cd "$OUT/m" && tar -czf ../checks.tgz .) && rm -rf "$OUT/m"
echo "done at ${SECONDS} s"
