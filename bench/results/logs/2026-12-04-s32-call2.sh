#!/usr/bin/env bash
# Session 32 call 2 (timing only, probe). FE3 (end-relative refold readout, session 31) with
# D read per tile in the epilogue (FLASHSSD_DLATE: a volatile load, so D's two registers do
# not live across the tile loop): ptxas clean where FE3 with D kept across the loop
# serialised the WGMMAs (C7511) even at 232 / 240 consumer registers, so the wall is the
# loop-carried live range, not the count. headdl = HEAD's kernels with DLATE only; r40 =
# HEAD with producer 40 / consumers 232 registers (ptxas clean, consumers still at R213).
# Builds: /tmp/w_fe = b40deed + 2026-12-04-s32-fe3dl.diff (s31 fe diff + FLASHSSD_XEPI + FLASHSSD_DLATE);
#   NVCC_FLAGS="-DFLASHSSD_FS_TIMING=0|1 -DFLASHSSD_FS_ORDER=2 -DFLASHSSD_FE -DFLASHSSD_FE3
#   -DFLASHSSD_DLATE" scripts/build_probe.sh /tmp/w_fe out/ab34/fe3dl[z]_probe
# Carry: out/ab34.
set -uo pipefail
O=${OUT:?}
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" |
  timeout 200 bash scripts/probe_ab.sh --dir out/ab34 --rounds 3 --variants "head fw fe3nod fe3dl fe3dlz headdl r40" > "$O/probe_ab.log" 2>&1
printf "%s\n" "--z 1 --final-states 0" "--z 1 --batch 128 --seqlen 512 --final-states 0" |
  timeout 120 bash scripts/probe_ab.sh --dir out/ab34 --rounds 3 --variants "head fw fe3dlz headdl" > "$O/probe_ab_z.log" 2>&1
grep -A4 "^summary" "$O/probe_ab.log" "$O/probe_ab_z.log"
