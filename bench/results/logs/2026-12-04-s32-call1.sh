#!/usr/bin/env bash
# Prepared in session 31, not run (device time spent). Timing only: the factored intra-tile term
# with a refold tile's readout relative to its end (HOPPER_PLAN session 31, "Next").
# `-next-fe-not-run.diff` applies to b40deed (git worktree add /tmp/w_fe b40deed && cd /tmp/w_fe &&
# git apply <diff>); its switches:
#   FLASHSSD_FS_TIMING=0|1 (the ungated N = 128 kernel | and the z kernel), FLASHSSD_FS_ORDER=2,
#   FLASHSSD_FE (producer: a refold tile's readout divided by what it carries),
#   FLASHSSD_FE3 (consumers: the state converted for h C^T times total_decay; acc_h decayed after
#   the GEMMs' wait, before the update, as HEAD does), FLASHSSD_NOD (D's two registers dropped:
#   timing only; without it ptxas serialises the N = 128 WGMMAs, C7511, as with FE / FE2).
# Builds (here): NVCC_FLAGS="-DFLASHSSD_FS_TIMING=0 -DFLASHSSD_FS_ORDER=2 -DFLASHSSD_FE
#   -DFLASHSSD_FE3 -DFLASHSSD_NOD" scripts/build_probe.sh /tmp/w_fe out/ab33/fe3nod_probe
#   (ptxas -v: the N = 128 kernels clean; the N = 256 z kernel spills 8 bytes under NOD, not
#   timed here); head_probe = out/ab32/head_probe (62434d0's kernels), fw_probe = call 3's.
# What it tells: whether the end-relative refold keeps fw's gain (-4.7% R1 8k, -10% z) where
# fq's post multiply lost it. If it does, free two consumer registers for real (D's pair read
# from shared memory in the epilogue, say) and build the fix-up pass.
# Carry: out/ab33 (with head_probe and fw_probe copied in).
set -uo pipefail
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" |
  timeout 150 bash scripts/probe_ab.sh --dir out/ab33 --rounds 3 --variants "head fw fe3nod" > "$O/probe_ab.log" 2>&1
tail -4 "$O/probe_ab.log"
