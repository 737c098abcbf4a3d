#!/usr/bin/env bash
# Session 31, device call 1: session 30's two prepared timing calls, then the first benchmark of
# record with placements (compare.py --placements 3, its default).
#  1. hs (`2026-12-03-s30-next-hs-not-run.{sh,diff}`): a P = 128 pair's decay computed once,
#     stored in both records, compile-time consumer indices; probes in out/ab31 (head, r56, hs).
#  2. `2026-12-03-s30-next-ncu-r2-not-run.sh`: every kernel's ncu duration for R2, R2 z, R1 8k, R3.
#  3. PART=bench of scripts/device_session.sh on out/dev/build-gpu (staged from HEAD).
# Carry: out/dev/build-gpu, out/ab31, third_party_bench.
set -u
O=${OUT:?}
OUT=$O/hs bash bench/results/logs/2026-12-03-s30-next-hs-not-run.sh
OUT=$O/ncu_r2 bash bench/results/logs/2026-12-03-s30-next-ncu-r2-not-run.sh > "$O/ncu_r2.log" 2>&1
grep -E "^==|rc=|us|total" "$O/ncu_r2.log" | head -60
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
