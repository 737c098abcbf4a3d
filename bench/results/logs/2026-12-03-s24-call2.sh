#!/bin/bash
# Session 24 call 2 (call 1, the checks alone, was refused twice). Libraries:
#   out/base/build-gpu = HEAD (347b078; the record's kernels' SASS), out/base/COMMIT;
#   out/dev/build-gpu  = HEAD + -call2-pk.diff (bf16: the state update's operand (X diag(w))^T
#     by one bf16x2 multiply per pair, the weights rounded to bf16 pairs; N = 128 main tile
#     loop 24 instructions fewer: 32 FMUL + 16 F2FP -> 16 HMUL2 + 8 F2FP; the state pass's
#     pair loop 48 fewer).
# (a) PART=checks on pk (GPU suites at 1 and 3 splits, Hopper suite, segsum, sanitizers; with
#     the new GpuForwardSmall.Dt16BitAtOddElementOffsets); (b) probe A/B base vs pk, three
#     rounds (out/ab/base_probe: HEAD; out/ab/pk_probe: pk; both with the probe's new
#     --state-pass mode, which times the split scheme's state pass of R4 and R1 32k alone);
#     state-pass rows also: io = base + -call2-io.diff (session 18's I/O probe: consumers wait
#     and release, compute nothing), nob = base + -call2-nob.diff (no B tile loaded), ionob =
#     both (timing only, results wrong): what B's bytes and the consumers cost the pass;
#     (c) R4 and R1 32k through the API on both libraries, alternated, three rounds;
#     (d) PART=checks on base (HEAD) if time is left. Carry out/dev, out/base, out/ab.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
C=/tmp/checks_pk; mkdir -p $C
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=$C timeout 200 bash scripts/device_session.sh out/dev/build-gpu > $O/checks_pk_summary.log 2>&1
cat $O/checks_pk_summary.log
grep -h "Dt16BitAtOddElementOffsets" $C/gpu_tests.log $C/gpu_tests_splits3.log | head -6
tar -czf $O/checks_pk_logs.tgz -C /tmp checks_pk
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512 --final-states 0" "--N 128 --z 1" "--N 64" "--N 256" \
  "--N 128 --packed 4" "--N 128 --dt-bf16 1" "--N 128 --H 128 --G 8 --batch 32 --seqlen 2048" \
  "--N 64 --P 128 --H 32 --batch 32 --seqlen 2048" \
  "--N 128 --batch 1 --seqlen 131072 --state-pass 4 | base pk io nob ionob" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2 | base pk io nob ionob" \
  | timeout 270 bash scripts/probe_ab.sh --rounds 3 --variants "base pk" > $O/probe_ab.log 2>&1
tail -20 $O/probe_ab.log
for r in 1 2 3; do for v in base dev; do for args in "--config R4" "--config R1 --batch 2 --seqlen 32768"; do
  printf "round %s %s %s: " $r $v "$args"
  LD_LIBRARY_PATH=$PWD/out/$v/build-gpu timeout 40 out/$v/build-gpu/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 \
    | grep -o "\"median_ms\": *[0-9.e-]*" | head -1
done; done; done | tee $O/api_ab.log
C=/tmp/checks_base; mkdir -p $C
FLASHSSD_COMMIT=$(cat out/base/COMMIT) PART=checks OUT=$C timeout 150 bash scripts/device_session.sh out/base/build-gpu > $O/checks_base_summary.log 2>&1
cat $O/checks_base_summary.log
tar -czf $O/checks_base_logs.tgz -C /tmp checks_base
