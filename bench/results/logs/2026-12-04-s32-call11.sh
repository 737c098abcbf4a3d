#!/usr/bin/env bash
# Session 32, device call 11 (probe, timing only): f32 = fz6 with the fold floor at 2^-32 for
# N = 128 and the factored range down to a tile decay of 2^-88 (~61 nats, from 2^-56 / ~39:
# G >= 2^-32 keeps carried >= 2^-120), so that fewer fast-decay tiles take the exact schedule,
# at the price of more refolds (`-call11-f32.diff`; its accuracy not tested). Against head2
# (71f6f6f's kernels) and fz6 (e9f1eaf, the record's). Carry: out/ab41.
set -u
O=${OUT:?}
printf "%s\n" "--final-states 0" "--z 1 --final-states 0" "--final-states 0 --a-scale 4" \
  "--z 1 --final-states 0 --a-scale 4" "--final-states 0 --a-scale 8" |
  timeout 200 bash scripts/probe_ab.sh --dir out/ab41 --rounds 3 --variants "head2 fz6 f32" > "$O/probe_ab.log" 2>&1
grep -A6 "^summary" "$O/probe_ab.log"
