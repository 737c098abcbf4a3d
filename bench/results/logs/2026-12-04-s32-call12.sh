#!/usr/bin/env bash
# Session 32, device call 12: ncu's SASS stall table of fz6 (e9f1eaf's kernels, the record's),
# R1 8k ungated main pass, for the next session's question: with the mask gone from most tiles,
# what holds the N = 128 main pass (session 20's table for the masked kernel: consumers 67.5%
# of samples, an instruction-latency chain). Carry: out/ab42.
set -u
O=${OUT:?}
bash scripts/ncu_stall_table.sh fz6 $O out/ab42/fz6_probe --final-states 0 --iters 2
