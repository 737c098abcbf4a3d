#!/usr/bin/env bash
# Session 75's first call, for whichever card comes:
#  1. on an H200: session 73's call-next with its record (NO_MAIN69=1: the API A/B of s72main,
#     s73d2n128, s73gnofm2, s73both, ~100 s; then the record of ab_choose's pick, ~290 s). If a
#     record ran, stop there: steps 2-3 go to a warm follow-up (SKIP_CALL_NEXT=1).
#  2. main's HEAD build (s75main): the Hopper suite and tests/python/test_gpu.py without the Triton
#     comparison (~60 s): the DLPack device-type check (a875b54) and the dispatch rule's refactor
#     (15f55b7) have not run on a device.
#  3. branch s74-cuclamp: 2026-12-07-s74-call2.sh without its call-next (its whole GPU suite with
#     200 s, the Hopper suite, the cu_seqlens tests under memcheck, the A/B against s74main, whose
#     kernels are main's, and bench/varlen_time.py).
# Carry out/carry/{s72main,s65path,s73d2n128,s73gnofm2,s73both,s74main,s74cuclamp,s75main}.tar.xz
# third_party_bench.
#   device: LIMIT=580 OUT=$OUT bash bench/results/logs/2026-12-08-s75-call1.sh > $OUT/call.txt 2>&1
set -u
LIMIT=${LIMIT:-580}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ "$card" == *H200* ]] && [ -z "${SKIP_CALL_NEXT:-}" ]; then
  NO_MAIN69=1 CALL_LIMIT=$LIMIT OUT=$OUT bash bench/results/logs/2026-12-07-s73-call-next.sh > "$OUT/call_next.txt" 2>&1
  echo "call-next rc=$? at ${SECONDS} s"; grep -E "^summary|^\[|chosen|record" "$OUT/call_next.txt" | head -30
  grep -q "^record rc=" "$OUT/call_next.txt" && exit 0
fi
bash scripts/carry.sh unpack s75main > /dev/null || exit 1
mkdir -p "$OUT/m"
OUT=$OUT/m bash -c '. scripts/device_variant.sh
  F=out/dev/s75main; cat $F/COMMIT
  LD_LIBRARY_PATH=$PWD/$F timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/s75main_sm90.log 2>&1
  echo "sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/s75main_sm90.log | head -5
  PYTEST_LIMIT=100 variant_pytest s75main_pytest $F "not mamba_ssm_triton"
  variant_pack s75main_checks'
mv "$OUT/m/s75main_checks.tgz" "$OUT/m/"*.json "$OUT/" 2>/dev/null; rm -rf "$OUT/m"
echo "s75main checks at ${SECONDS} s"
NO_CALL_NEXT=1 LIMIT=$(( LIMIT - SECONDS )) OUT=$OUT bash bench/results/logs/2026-12-07-s74-call2.sh
echo "done at ${SECONDS} s"
