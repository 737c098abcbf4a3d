#!/usr/bin/env bash
# Session 71, call 10 (any H100 / H200; ~200 s; the last of the session's device time): d2u
# (branch s71-d2u, `2026-12-07-s71-d2u-lib.patch`, staged as s71d2u): main (ac56c5c, fm2 + d2)
# with the main pass's dt back at one round in the gated and N = 256 kernels, where call 2's API
# read no gain from two (R1 512 z +1.1%, R3 z +1.5%, N = 256 +0.2%); their SASS then equals main's
# before ac56c5c but the gated bf16 N = 128 kernel's (fm2 at one round).
#  1. the API against main (s71main), 3 rounds, the rows d2u changes and an unchanged control;
#  2. the GPU suite (default, fix-up at 3 splits), the
#     Hopper suite, memcheck and racecheck on the Hopper suite's small shapes.
# Carry out/carry/{s71main,s71d2u}.tar.xz.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s71-call10.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
for v in s71main s71d2u; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
F=out/dev/s71d2u
printf "%s\n" "--config R1 --seqlen 512 --z" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 32768 --z" \
  "--config R3 --seqlen 2048 --z" "--config R2 --seqlen 2048 --z" "--config R1 --N 256 --seqlen 8192" \
  "--config R1 --seqlen 8192" \
  | timeout 60 bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/s71main --lib d2u=$F > $OUT/api_ab.log 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/api_ab.log
. scripts/device_variant.sh
VARIANT_SCHEMES=fixup variant_suites d2u "$F"
for tool in memcheck racecheck; do
  LD_LIBRARY_PATH=$PWD/$F timeout 70 compute-sanitizer --tool $tool $F/tests/gpu/flashssd_sm90_gpu_tests \
    --gtest_filter='*Small*' > $OUT/d2u_sm90_$tool.log 2>&1
  echo "d2u sm90 $tool rc=$? at ${SECONDS} s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/d2u_sm90_$tool.log
done
variant_pack d2u_checks
echo "done at ${SECONDS} s"
