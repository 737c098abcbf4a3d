#!/usr/bin/env bash
# Session 31, device call 5: checks on the library with the factored refold tiles (fold floor
# 2^-32 at N = 128, a refold tile factored while it carries >= 2^-80, the state's decay after
# its update; exact form only below that or where a sequence starts), and the mask probe's row
# map mended (call 4: Sm90ScoresSmall failed since session 29's 2431ef0 made mask_scores assume
# the balanced rows; the probe's SS accumulator has the m16n8 rows). Then the probe A/B:
# head (62434d0's kernels), fw (call 3's timing-only bound), fy (this tree's kernels).
# Carry: out/dev/build-gpu (staged from this commit), out/ab32.
set -uo pipefail
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "FAILED|rel err 0\.0[1-9]|rel err [1-9]" $O/checks/sm90_tests.log | head -20
printf "%s\n" \
  "--final-states 0" \
  "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --z 1" \
  "--final-states 0 --packed 4" \
  "--P 128 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --N 64" |
  bash scripts/probe_ab.sh --dir out/ab32 --rounds 3 --variants "head fw fy" > "$O/probe_ab.log" 2>&1
tail -8 "$O/probe_ab.log"
