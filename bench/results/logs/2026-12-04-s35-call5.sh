#!/usr/bin/env bash
# Session 35, device call 5: where R1 512 tokens' per-step overhead goes. At balance (call 4:
# batch 124 -> 0.4235 ms for 248 tile-steps per SM) a 512-token step costs ~5% more than an 8k
# one (H = 62: 0.4078), i.e. ~0.4 tile-times per 8-tile item. ncu SASS stall tables (HEAD's
# kernels, out/ab35/head_probe = is) of batch 124 x 512 against 8k, to compare item starts and
# ends (the producer's per-item loads, the consumers' last y, the first stage's wait).
# Carry out/ab35.
set -u
O=${OUT:?}; mkdir -p $O
W=/tmp/s35c5; mkdir -p $W
TOP=30 bash scripts/ncu_stall_table.sh b124s512 $W out/ab35/head_probe --batch 124 --seqlen 512 --final-states 0 --iters 2
TOP=30 bash scripts/ncu_stall_table.sh r1_8k $W out/ab35/head_probe --final-states 0 --iters 2
(cd $W && tar czf $O/ncu.tgz .)
