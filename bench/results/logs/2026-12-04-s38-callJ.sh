#!/usr/bin/env bash
# Session 38 call J: the split rows' boundary states chained in the main pass's prologue
# (chain_split_states) instead of the boundary scan kernel (fs; -callJ-fs.diff). (1) The checks
# on fs's library (GPU suites at 1 and 3 splits, Hopper suite, segsum, memcheck, racecheck);
# (2) flashssd_bench, the API's whole path, head (eb0afec's library) against fs, 3 rounds,
# the order rotated (scripts/api_ab.sh). Carry out/dev/fs (fs's staged build) and
# out/dev/headlib (eb0afec's libflashssd.so and flashssd_bench).
set -u
O=${OUT:?}; mkdir -p $O
W=/tmp/s38j; mkdir -p $W
FLASHSSD_COMMIT=$(cat out/dev/fs/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh out/dev/fs | tail -25
(cd $W && tar czf $O/chk.tgz chk)
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072" \
  "--config R4 --seqlen 524288" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" \
  | bash scripts/api_ab.sh --rounds 3 --lib head=out/dev/headlib --lib fs=out/dev/fs > $O/api_ab.log 2>&1
tail -8 $O/api_ab.log
