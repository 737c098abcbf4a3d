#!/usr/bin/env bash
# Session 36, device call D: L2 eviction hints on the main pass's TMA loads (never tried before).
# eh1: x and z EVICT_FIRST (read once), B, C and the chunk scores EVICT_LAST (every head pair
# of the group reads them); eh2: x and z EVICT_FIRST only. The hints are compile-time macros in
# the variant tree (FLASHSSD_HINT_STREAM / _REUSE, /tmp/v_eh; diff -call D-eh.diff). Probe A/B,
# 3 rounds, against head (HEAD's kernels = out/ab36/fd2_probe); then ncu's DRAM bytes and L2
# hit rate of one R1 8k main-pass launch per variant (clocks not locked). Carry out/ab41.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" "--final-states 0 --z 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --packed 4" "--batch 2 --seqlen 32768 --state-pass 2 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab41 --rounds 3 --variants "head eh1 eh2" > $O/ab.log 2>&1
tail -9 $O/ab.log
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
for v in head eh1 eh2; do
  for args in "--final-states 0" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0"; do
    timeout 60 ncu --clock-control none -k regex:ssd_fwd_sm90_kernel -s 3 -c 1 --metrics $M \
      out/ab41/${v}_probe $args --softplus 1 --iters 5 > $O/ncu_${v}.log 2>&1
    echo "== $v [$args]"; grep -E "gpu__time|dram__bytes|lts__t_sector_hit" $O/ncu_${v}.log
  done
done
