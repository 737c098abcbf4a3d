#!/usr/bin/env bash
# Session 32, device call 9: the benchmark of record on e9f1eaf's library (fz6: the factored
# intra-tile term at N = 128 bf16). PART=bench of scripts/device_session.sh (compare.py,
# placements 3). Carry: out/dev/build-gpu (staged from e9f1eaf), third_party_bench.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
ls $O/bench
