#!/usr/bin/env bash
# Session 34, device call 6: PART=checks on the library with zfd (call 5): the gated kernels load
# the reset flag a tile ahead, and the gated N = 64 / 256 packed kernels ask L2 for dt three
# tiles ahead. Carry out/dev/build-gpu.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh out/dev/build-gpu
