#!/usr/bin/env bash
# Session 32, device call 3: fz, the factored intra-tile term in its correct form with a refold
# tile's readout relative to its end (the producer divides it by what the tile carries; h C^T's
# accumulator times carried before the intra GEMM; the state decays before its update as in
# the exact form), the exact masked form for tiles whose own decay is under 2^-56 or where a
# sequence starts (run-time branch, as session 31's fy). Working tree on 71f6f6f.
#  1. probe A/B, 3 rounds: head (62434d0's kernels = HEAD's), fw (session 31's timing-only
#     bound), fz (this tree's probe); R1 8k, 512 tokens, R2's shape, R1 8k z, 512 z.
#  2. PART=checks on the library built from this tree (GPU suites at 1 and 3 splits, Hopper
#     suite with the new strong-decay test, segsum, memcheck, racecheck).
# Carry: out/ab35, out/dev/build-gpu.
set -u
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--z 1 --final-states 0" \
  "--z 1 --batch 128 --seqlen 512 --final-states 0" |
  timeout 200 bash scripts/probe_ab.sh --dir out/ab35 --rounds 3 --variants "head fw fz" > "$O/probe_ab.log" 2>&1
grep -A6 "^summary" "$O/probe_ab.log"
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "^\[  FAILED|StrongDecay|rel err" $O/checks/sm90_tests.log | head -30
