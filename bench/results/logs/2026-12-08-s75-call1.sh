#!/usr/bin/env bash
# Session 75's first call, for whichever card comes (~300 s on an H100, ~420 s on an H200; made
# short after three refused asks, so that it fits what the budget keeps):
#  1. on an H200: session 73's call-next without its record (RECORD=0, NO_MAIN69=1: the API A/B of
#     s72main, s73d2n128, s73gnofm2, s73both and ab_choose's pick, ~100 s); a record of the pick
#     goes to a warm follow-up;
#  2. main's HEAD build (s75main = a1137e6): the Hopper suite and tests/python/test_gpu.py without
#     the Triton comparison (~60 s): the DLPack device-type check (a875b54) and the dispatch rule's
#     refactor (15f55b7) have not run on a device;
#  3. branch s74-cuclamp (3f6dc7f): the whole GPU suite (call 17 of session 74 cut it at 100 s,
#     before the sm80 shapes, whose kernels the clamp changes) and the Hopper suite. Its cu_seqlens
#     tests under memcheck, its A/B and varlen_time ran in call 17.
# Carry out/carry (s72main, s65path, s73d2n128, s73gnofm2, s73both, s74cuclamp, s75main) and
# third_party_bench.
#   device: LIMIT=440 OUT=$OUT bash bench/results/logs/2026-12-08-s75-call1.sh > $OUT/call.txt 2>&1
set -u
LIMIT=${LIMIT:-440}
left() { echo $(( LIMIT - SECONDS )); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ "$card" == *H200* ]] && [ -z "${SKIP_CALL_NEXT:-}" ]; then
  RECORD=0 NO_MAIN69=1 OUT=$OUT timeout 180 bash bench/results/logs/2026-12-07-s73-call-next.sh > "$OUT/call_next.txt" 2>&1
  echo "call-next rc=$? at ${SECONDS} s"; grep -E "^summary|^\[|chosen" "$OUT/call_next.txt" | head -30
fi
for v in s75main s74cuclamp; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
mkdir -p "$OUT/m"
OUT=$OUT/m bash -c '. scripts/device_variant.sh
  F=out/dev/s75main; cat $F/COMMIT
  LD_LIBRARY_PATH=$PWD/$F timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/s75main_sm90.log 2>&1
  echo "s75main sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/s75main_sm90.log | head -5
  PYTEST_LIMIT=100 variant_pytest s75main_pytest $F "not mamba_ssm_triton"'
echo "s75main checks at ${SECONDS} s"
F=out/dev/s74cuclamp; cat $F/COMMIT
t=$(( $(left) - 40 )); [ $t -le 200 ] || t=200
LD_LIBRARY_PATH=$PWD/$F timeout $t $F/tests/gpu/flashssd_gpu_tests > $OUT/m/cuclamp_gpu_default.log 2>&1
echo "cuclamp GPU suite rc=$? (limit $t s) at ${SECONDS} s"; grep -E "^\[  (PASSED|FAILED)" $OUT/m/cuclamp_gpu_default.log | head -5
LD_LIBRARY_PATH=$PWD/$F timeout 40 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/m/cuclamp_sm90.log 2>&1
echo "cuclamp sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/m/cuclamp_sm90.log | head -5
mv "$OUT/m/"*.json "$OUT/" 2>/dev/null
(cd "$OUT/m" && tar -czf ../checks.tgz .) && rm -rf "$OUT/m"
echo "done at ${SECONDS} s"
