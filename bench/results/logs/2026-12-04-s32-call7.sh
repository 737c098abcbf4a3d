#!/usr/bin/env bash
# Session 32, device call 7: PART=checks on the library with fz4 (the factored intra-tile term,
# exact form for tiles past its range), then the probe over decay rates: head2 (71f6f6f's
# kernels = HEAD before this session's change, with the probe's new --a-scale) against fz4
# (the library's kernel) at the default decays and at 4x / 8x faster ones (most tiles take
# the exact form there: fz4's worst case). Carry: out/dev/build-gpu, out/ab39.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "^\[  FAILED|StrongDecay" $O/checks/sm90_tests.log | head
tar czf $O/sm90_tests_log.tgz -C $O/checks sm90_tests.log
printf "%s\n" "--final-states 0" "--z 1 --final-states 0" "--final-states 0 --a-scale 4" "--z 1 --final-states 0 --a-scale 4" \
  "--final-states 0 --a-scale 8" "--batch 128 --seqlen 512 --final-states 0 --a-scale 4" |
  timeout 200 bash scripts/probe_ab.sh --dir out/ab39 --rounds 3 --variants "head2 fz4" > "$O/probe_ab.log" 2>&1
grep -A7 "^summary" "$O/probe_ab.log"
