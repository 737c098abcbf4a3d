#!/bin/bash
# Session 25 call 2: why call 1's dt-by-TMA state pass stops with "illegal instruction" (715), and
# the warm-L2 timings redone (call 1's --warm-l2 runs timed the host's launch latency: nothing
# was queued before the first event; the probe now queues a 50 us wait there).
#   out/ab/dttma_probe = the working tree (HEAD + the diff + the probe's warm-L2 fix);
#   out/ab/notma_probe = the same with the dt box's TMA not issued (consumers read stale
#     shared memory: timing / fault isolation only).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
S="--N 128 --batch 1 --seqlen 8192 --state-pass 4 --softplus 1 --iters 3"
for v in dttma notma; do
  echo "== $v"; timeout 60 out/ab/${v}_probe $S --dt-tma 1 2>&1 | tail -4
done | tee $O/plain.log
timeout 120 compute-sanitizer --tool memcheck --show-backtrace device out/ab/dttma_probe $S --dt-tma 1 > $O/memcheck_dttma.log 2>&1
echo "memcheck rc=$?"; grep -v "^=========     Saved host backtrace" $O/memcheck_dttma.log | head -40
printf "%s\n" "--N 128 --batch 4 --seqlen 512 --final-states 0" "--N 128 --batch 4 --seqlen 512 --final-states 0 --warm-l2 1" \
  "--N 128 --batch 2 --seqlen 2048 --final-states 0" "--N 128 --batch 2 --seqlen 2048 --final-states 0 --warm-l2 1" \
  "--N 128 --batch 1 --seqlen 4096 --state-pass 4" "--N 128 --batch 1 --seqlen 4096 --state-pass 4 --warm-l2 1" \
  "--N 128 --batch 1 --seqlen 8192 --state-pass 4" "--N 128 --batch 1 --seqlen 8192 --state-pass 4 --warm-l2 1" \
  | timeout 100 bash scripts/probe_ab.sh --rounds 3 --variants "dttma" > $O/probe_warm.log 2>&1
tail -9 $O/probe_warm.log
