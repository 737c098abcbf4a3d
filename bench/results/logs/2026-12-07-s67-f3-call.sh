#!/usr/bin/env bash
# The f3 A/B (session 67, `2026-12-07-s67-f3.patch`: the consumer's schedules re-ordered so that a
# 160-register consumer has no C7512; here at today's 224 registers): what the longer chain costs
# the two-consumer kernel today. Carry out/carry/s65path.tar.xz (main's code) and out/carry/s67f3.tar.xz.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s67-f3-call.sh > $OUT/call.txt 2>&1   (~200 s)
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for v in s65path s67f3; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
F=out/dev/s67f3
# Correctness of the variant first: the Hopper suite and the GPU suite on its build.
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/f3_sm90.log 2>&1
echo "f3 Hopper suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/f3_sm90.log
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_gpu_tests > $OUT/f3_gpu.log 2>&1
echo "f3 GPU suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/f3_gpu.log
# (The patch changes every main kernel's epilogue, D x by groups: R3 (N = 64) and N = 256 rows too;
# sass_diff s65path s67f3: 12 main kernels different, the 6 state passes and the portable kernels identical.)
printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 32768" \
  "--config R3 --seqlen 2048" "--config R1 --N 256 --seqlen 8192" \
  | timeout 260 bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/s65path --lib f3=$F > $OUT/api_ab_f3.log 2>&1
echo "api_ab rc=$?"; tail -8 $OUT/api_ab_f3.log
echo "done at ${SECONDS} s"
