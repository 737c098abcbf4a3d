#!/usr/bin/env bash
# Session 36, device call F: os (call E: -2.6..-4.0% on the factored rows, but +6.3% where
# every tile is exact, --a-scale 8) against os3: the exact tile's previous-y store issued
# before the mask and waited for after it (the store's read under the mask). Carry out/ab42.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0 --a-scale 8" "--final-states 0 --a-scale 4" "--final-states 0" "--final-states 0 --packed 4" \
  "--final-states 0 --packed 16" "--batch 128 --seqlen 512 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab42 --rounds 3 --variants "head os os3" > $O/ab.log 2>&1
tail -7 $O/ab.log
