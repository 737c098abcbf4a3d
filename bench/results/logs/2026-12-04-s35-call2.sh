#!/usr/bin/env bash
# Session 35, device call 2: PART=checks on the library with `is` (134fbc386a0d: the bf16 chunk
# scores' inverse scales no longer loaded nor applied), then the benchmark of record on it
# (PART=bench). Carry out/dev/build-gpu and third_party_bench. Check logs come back as a tarball.
set -u
O=${OUT:?}; mkdir -p $O
W=/tmp/s35c2; mkdir -p $W
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh out/dev/build-gpu
(cd $W && tar czf $O/chk.tgz chk)
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
ls $O/bench
