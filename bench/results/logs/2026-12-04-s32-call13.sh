#!/usr/bin/env bash
# Session 32, device call 13 (run inline): call 12's stall table for the z kernel (R1 8k z).
# Carry: out/ab42.
bash scripts/ncu_stall_table.sh fz6z $OUT out/ab42/fz6_probe --final-states 0 --iters 2 --z 1
