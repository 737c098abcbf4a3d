#!/usr/bin/env bash
# Session 31, device call 8 (timing only): fq = 99c9ad8's kernels (fy) with the exact form taken
# out (FLASHSSD_FQ, `-call8-fq.diff` on 99c9ad8): every tile factored, refold tiles with their
# weights relative to the tile's start and the state's decay after the update (post_decay),
# fold floor 2^-32; no run-time form choice, no selects. The main loop a fix-up design would run
# (tiles that cannot be factored redone by another pass; here simply wrong: none occur in the
# probe's decays). ptxas -v: no spill, no C75xx. Against head (62434d0's kernels), fw, fy.
# Carry: out/ab32.
set -uo pipefail
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--final-states 0 --z 1" |
  timeout 150 bash scripts/probe_ab.sh --dir out/ab32 --rounds 3 --variants "head fw fy fq" > "$O/probe_ab.log" 2>&1
tail -5 "$O/probe_ab.log"
