#!/usr/bin/env bash
# Session 39 call A: the main pass's balanced last wave (bt: src/kernels/sm90/tail_plan.h).
# (1) The checks on bt's library (GPU suites at 1 and 3 splits with the new
# GpuForwardBalancedTail test, Hopper suite, segsum, memcheck and racecheck, memcheck on the
# balanced-tail test); (2) flashssd_bench, the API's whole path, head (1c36bd2's library,
# eb0afec's SASS) against bt, 3 rounds, the order rotated (scripts/api_ab.sh). R1 16k (128
# items on 132 SMs) and R4 128k (splits) do not balance: control rows.
# Carry out/dev/bt (bt's staged build, without python/) and out/headlib.
set -u
O=${OUT:?}; mkdir -p $O
W=/tmp/s39a; mkdir -p $W
FLASHSSD_COMMIT=$(cat out/dev/bt/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh out/dev/bt | tail -25
(cd $W && tar czf $O/chk.tgz chk)
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 1024" "--config R1 --seqlen 2048" \
  "--config R1 --seqlen 4096" "--config R1 --seqlen 8192" "--config R1 --seqlen 16384" \
  "--config R1 --seqlen 512 --z" "--config R1 --seqlen 2048 --z" "--config R1 --seqlen 8192 --z" \
  "--config R2" "--config R2 --z" "--config R3" "--config R3 --z" "--config R4 --seqlen 131072" \
  | bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib bt=out/dev/bt > $O/api_ab.log 2>&1
tail -18 $O/api_ab.log
