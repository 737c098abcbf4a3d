#!/usr/bin/env bash
# Session 32, device call 8: fz6 = the factored schedule for factored tiles and the exact
# schedule whole (a branch per tile) for the rest, instead of fz4's exact form inside the
# factored schedule (+11.5% / +22% at 4x / 8x decay rates, call 7). PART=checks on the library
# built from it, then the probe: head2 (71f6f6f's kernels), fz4, fz6 at the default decays,
# 4x and 8x, with z, 512 tokens and R2's shape. Carry: out/dev/build-gpu, out/ab40.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "^\[  FAILED|StrongDecay" $O/checks/sm90_tests.log | head
tar czf $O/checks_big_logs.tgz -C $O/checks sm90_tests.log sm90_racecheck.log
printf "%s\n" "--final-states 0" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--final-states 0 --a-scale 4" \
  "--z 1 --final-states 0 --a-scale 4" "--final-states 0 --a-scale 8" |
  timeout 240 bash scripts/probe_ab.sh --dir out/ab40 --rounds 3 --variants "head2 fz4 fz6" > "$O/probe_ab.log" 2>&1
grep -A8 "^summary" "$O/probe_ab.log"
