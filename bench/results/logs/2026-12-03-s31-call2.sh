#!/usr/bin/env bash
# Session 31, device call 2 (timing only): fs = the intra-tile term factored through the
# decay's fold, Y^T = (h C^T + (X diag(w))^T S^T) diag(readout): the producer's weights
# w_j = dt_j exp(cs_start - cs_j) / G and readout factors G exp(cs_i - cs_start) multiply to the
# mask's dt_j exp(cs_i - cs_j), so the chunk scores (already causal) are the B operand as they
# are and the consumers run no mask, no S' store, no S' barrier. Timing only: the stage's fp16
# scores are read as bf16 and refold tiles are not corrected (`-call2-fs.diff`, on HEAD).
# fo2: the ungated N = 128 kernel (FLASHSSD_FS_TIMING=0, FLASHSSD_FS_ORDER=2: both GEMMs retired,
# then the state's refold multiply, the update under the epilogue; ORDER 0 / 1 serialised the
# WGMMAs, C7511); fo2z: the N = 128 z kernel too. ptxas -v: no spill, no C75xx.
# Builds (here): out/ab32/head_probe = out/ab31/head_probe (HEAD's kernels);
#   NVCC_FLAGS="-DFLASHSSD_FS_TIMING=0|1 -DFLASHSSD_FS_ORDER=2" scripts/build_probe.sh /tmp/w_fs out/ab32/fo2[z]_probe
# Carry: out/ab32.
set -uo pipefail
OUT=${OUT:-/tmp/fs}; mkdir -p "$OUT"
printf "%s\n" \
  "--final-states 0" \
  "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --z 1" |
  bash scripts/probe_ab.sh --dir out/ab32 --rounds 3 --variants "head fo2 fo2z" > "$OUT/probe_ab.log" 2>&1
tail -6 "$OUT/probe_ab.log"
