#!/usr/bin/env bash
# Session 31, device call 4: checks on 86fffe7 (the factored intra-tile term in the bf16 N = 128
# kernels, the exact form in refold tiles; bf16 chunk scores there), then the probe A/B against
# HEAD~'s kernels: head (out/ab31's, session 30's kernels = 62434d0's), fw (call 3's timing-only
# bound of this structure), fx (86fffe7's kernels, scripts/build_probe.sh).
# Carry: out/dev/build-gpu (staged from 86fffe7), out/ab32.
set -uo pipefail
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "rel err|FAILED" $O/checks/sm90_tests.log | head -40
printf "%s\n" \
  "--final-states 0" \
  "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --z 1" \
  "--final-states 0 --packed 4" \
  "--final-states 0 --N 64" |
  bash scripts/probe_ab.sh --dir out/ab32 --rounds 3 --variants "head fw fx" > "$O/probe_ab.log" 2>&1
tail -7 "$O/probe_ab.log"
