#!/usr/bin/env bash
# Prepared in session 29; its reduced form ran as call 7 (`-call7.sh`: slower, not kept): S = C B^T inside the N = 128 main pass
# (an SS WGMMA from the stage's B and C, as the N = 64 z kernel did until session 29) instead of
# the chunk scores, and with it a third stage for the ungated N = 128 kernel.
#   base    = HEAD's library (2431ef0; SASS equal to 08fad0c's)
#   ss128   = `-call7-ss128.diff` on 08fad0c (the SS path, removed in 2431ef0 while no
#             kernel took it, is what it uses): kChunkScores = (N == 256), S's m16n8 rows and the
#             run-time mask at N = 128; no chunk-scores pre-pass, no S tile in the stage (8 KB)
#   ss128s3 = `-call7-ss128s3.diff`: ss128, the decay record without its unread fields at
#             N = 128 too and no z placeholder in the ungated stage: 60 416 bytes, 3 stages
#             (232 448 bytes of shared memory, the whole 227 KB)
# Why: the pre-pass reads B and C and writes S (R2, G = 8: ~0.4 GB of extra HBM traffic, ~16%
# of R2's floor; R1 ~40 MB), and a third stage paid 3% (ungated N = 64, session 16) to 9% (N =
# 64 z, session 29). Against: S's tensor work in every consumer (+~40% of the tile's MACs), the
# mask's m16n8 imbalance (session 27: balanced rows -1.7% at N = 64), acc_s live through the
# epilogue. ptxas -v (here): the ungated N = 128 kernel 0 spill; the N = 128 z kernel spills 4
# bytes, so these libraries were built with cmake/ptxas_guard.sh not failing (experiment only;
# if ss128 wins, kChunkScores must become per-kernel, kGate-dependent, the z kernel keeping the
# chunk scores).
# Builds (here, before the call; in place in build-gpu, `--target flashssd`):
#   git show 08fad0c:src/kernels/sm90/ssd_fwd_sm90.cuh > src/kernels/sm90/ssd_fwd_sm90.cuh && git apply <diff>
#   guard not failing; cmake --build build-gpu --target flashssd; copy libflashssd.so* + flashssd_bench
#   into out/ab_next/<name>lib; restore the header and the guard.
# Carry: out/ab_next (basel, ss128lib, ss128s3lib: libflashssd.so* and bench/flashssd_bench each;
# gpu_tests = HEAD's flashssd_gpu_tests, which loads whichever libflashssd.so.0 LD_LIBRARY_PATH names).
set -uo pipefail
OUT=${OUT:-/tmp/ss128}; mkdir -p "$OUT"
for v in ss128 ss128s3; do
  LD_LIBRARY_PATH=$PWD/out/ab_next/${v}lib timeout 200 out/ab_next/flashssd_gpu_tests > "$OUT/gpu_tests_$v.log" 2>&1
  echo "$v gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" "$OUT/gpu_tests_$v.log" | head -8
done
printf "%s\n" "--config R1 --batch 8 --seqlen 8192" "--config R1 --batch 128 --seqlen 512" \
  "--config R1 --batch 2 --seqlen 32768" "--config R1 --batch 8 --seqlen 8192 --z" "--config R2" "--config R2 --z" \
  "--config R4 --batch 1 --seqlen 131072" |
  bash scripts/api_ab.sh --rounds 3 --lib base=out/ab_next/baselib --lib ss128=out/ab_next/ss128lib \
    --lib ss128s3=out/ab_next/ss128s3lib > "$OUT/api_ab.log" 2>&1
tail -9 "$OUT/api_ab.log"
