#!/usr/bin/env bash
# Session 72, call 2 (any H100 / H200):
#  1. on an H200 only: the benchmark of record of main (s72main: 719f9b9, d2u merged), checks
#     skipped (session 72 call 1 ran them on d2u's build, whose kernels' sources are these):
#     scripts/device_record.sh with TOTAL_ALL=330 (~306 s);
#  2. f16d2 (`2026-12-07-s72-f16d2-lib.patch`, staged as s72f16d2): the fp16 N = 128 two-head
#     ungated main pass loads dt two rounds ahead like bf16's, its producer at 56 registers
#     (48 spill at two): the API against main, 3 rounds, the fp16 rows it changes and two
#     unchanged controls (fp16 R1 8k z, bf16 R1 8k); then, where the call has time left, the GPU
#     suite (default, fix-up at 3 splits), the Hopper suite, memcheck and racecheck (small
#     shapes, both suites).
# Carry out/carry/s72main.tar.xz out/carry/s72f16d2.tar.xz third_party_bench.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s72-call2.sh > $OUT/call.txt 2>&1
set -u
# (device_record.sh stops at once, exit 3, on another card)
REQUIRE_GPU=H200 TOTAL_ALL=330 OUT=$OUT bash scripts/device_record.sh s72main
echo "record part rc=$? at ${SECONDS} s"
[ -d out/dev/s72main ] || bash scripts/carry.sh unpack s72main > /dev/null || exit 1
bash scripts/carry.sh unpack s72f16d2 > /dev/null || exit 1
F=out/dev/s72f16d2
mkdir -p "$OUT/f16d2"
printf "%s\n" "--config R1 --seqlen 512 --dtype fp16" "--config R1 --seqlen 8192 --dtype fp16" \
  "--config R1 --seqlen 32768 --dtype fp16" "--config R3 --seqlen 2048 --dtype fp16" \
  "--config R4 --seqlen 131072 --dtype fp16" "--config R1 --seqlen 8192 --z --dtype fp16" "--config R1 --seqlen 8192" \
  | timeout 90 bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/s72main --lib f16d2=$F > $OUT/f16d2/api_ab.log 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/f16d2/api_ab.log
if [ $SECONDS -lt 390 ]; then
  # (within the call's 600 s: what ran before the limit still comes back)
  OUT=$OUT/f16d2 F=$F timeout $((575 - SECONDS)) bash -c '. scripts/device_variant.sh
    VARIANT_SCHEMES=fixup variant_suites f16d2 "$F"
    VARIANT_SCHEMES=fixup variant_sanitize f16d2 "$F" memcheck racecheck'
  echo "f16d2 checks rc=$? at ${SECONDS} s"
else
  echo "f16d2's checks skipped at ${SECONDS} s"
fi
tar -czf "$OUT/f16d2.tgz" -C "$OUT" f16d2 && rm -rf "$OUT/f16d2"
echo "done at ${SECONDS} s"
