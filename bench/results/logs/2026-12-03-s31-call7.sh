#!/usr/bin/env bash
# Session 31, device call 7: PART=checks on HEAD (the factored form reverted; mask_scores' row
# map for the SS probe kept: Sm90ScoresSmall must pass again, as on 99c9ad8 in call 5).
# Carry: out/dev/build-gpu (staged from HEAD).
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "^\[  FAILED|sm90 scores" $O/checks/sm90_tests.log | head
