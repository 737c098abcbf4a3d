#!/usr/bin/env bash
# Session 35, device call 6: the short item prologue (fd2: WorkScheduler's divisions by
# precomputed divisors, cutlass::FastDivmod, and a branch around the incoming state's loads;
# N = 256 unchanged), against head (is) and fdonly (the divisors without the branch; its N = 256
# kernels spill, not timed). Call 5's ncu: at 512 tokens the consumers' item prologue was ~5% of
# the samples. Then PART=checks on fd2's library. Carry out/ab36 (probes: head = s35's is
# probe) and out/dev/build-gpu.
set -u
O=${OUT:?}; mkdir -p $O
W=/tmp/s35c6; mkdir -p $W
printf "%s\n" "--batch 128 --seqlen 512 --final-states 0" "--batch 64 --seqlen 1024 --final-states 0" "--final-states 0" \
  "--batch 128 --seqlen 512 --final-states 0 --z 1" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--final-states 0 --packed 4" "--batch 2 --seqlen 32768 --state-pass 2 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab36 --rounds 3 --variants "head fd2 fdonly" > $O/ab.log 2>&1
tail -10 $O/ab.log
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh out/dev/build-gpu
(cd $W && tar czf $O/chk.tgz chk)
