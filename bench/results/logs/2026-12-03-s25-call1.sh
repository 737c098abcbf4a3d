#!/bin/bash
# Session 25 call 1: session 24's prepared dt-by-TMA state pass (-s24-dttma-not-run.diff, applied to
# the working tree), timed and checked in one call.
#   out/ab/base_probe  = HEAD (3ce4f80) + the probe's new --warm-l2 1 (no L2 flush between runs);
#   out/ab/dttma_probe = HEAD + the diff (probe --dt-tma 1 picks the new state pass);
#   out/base/build-gpu = HEAD's kernels (347b078's library), out/dev/build-gpu = HEAD + the diff.
# (a) probe A/B, three rounds: the state pass of R4 128k, R1 32k and N = 64, base vs dttma;
#     and, base only, cold vs warm L2 on shapes whose inputs fit in L2 (the main pass at
#     4 x 512 tokens: x and y 16.8 MB each; the state pass at 1 x 4096 tokens, 4 splits: 25 MB
#     read): how much of each pass's time is its HBM reads.
# (b) PART=checks on out/dev (GPU suites at 1 and 3 splits, incl. the diff's
#     GpuForwardSplit.StatePassDtByTmaMatchesReference; sanitizers).
# (c) R4 and R1 32k through the API, base vs dev alternated, three rounds.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttma" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2" "--N 128 --batch 2 --seqlen 32768 --state-pass 2 --dt-tma 1 | dttma" \
  "--N 64 --batch 1 --seqlen 131072 --state-pass 4" "--N 64 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttma" \
  "--N 128 --batch 4 --seqlen 512 --final-states 0 | base" "--N 128 --batch 4 --seqlen 512 --final-states 0 --warm-l2 1 | base" \
  "--N 128 --batch 1 --seqlen 4096 --state-pass 4 | base" "--N 128 --batch 1 --seqlen 4096 --state-pass 4 --warm-l2 1 | base" \
  "--N 128 --batch 1 --seqlen 4096 --state-pass 4 --dt-tma 1 | dttma" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base dttma" > $O/probe_ab.log 2>&1
tail -14 $O/probe_ab.log
C=/tmp/checks_dttma; mkdir -p $C
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=$C timeout 200 bash scripts/device_session.sh out/dev/build-gpu > $O/checks_summary.log 2>&1
cat $O/checks_summary.log
grep -h "StatePassDtByTma" $C/gpu_tests.log $C/gpu_tests_splits3.log | head -6
tar -czf $O/checks_dttma_logs.tgz -C /tmp checks_dttma
for r in 1 2 3; do for v in base dev; do for args in "--config R4" "--config R1 --batch 2 --seqlen 32768"; do
  printf "round %s %s %s: " $r $v "$args"
  LD_LIBRARY_PATH=$PWD/out/$v/build-gpu timeout 40 out/$v/build-gpu/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 \
    | grep -o "\"median_ms\": *[0-9.e-]*" | head -1
done; done; done | tee $O/api_ab.log
