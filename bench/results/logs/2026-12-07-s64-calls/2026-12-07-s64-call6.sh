#!/usr/bin/env bash
# Session 64 call 6 (H100 kept warm after the record; carry out/carry/s64.tar.xz): the split timing
# (scripts/device_split_timing.sh: the H100 control for session 62's question), then the portable
# kernel's half head-dim block against its default block on the same GPU (Hopper kernel off;
# flashssd_bench's own timing, 2 rounds; the GPUs that need the half block have none here).
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s64-call6.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
bash scripts/carry.sh unpack s64 > /dev/null || exit 1
F=out/dev/s64
bash scripts/device_split_timing.sh $F; echo "split timing rc=$? at ${SECONDS} s"
for round in 1 2; do
  for row in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 2048 --dtype fp32"; do
    for half in 0 1; do
      # shellcheck disable=SC2086
      echo "round $round half=$half $row: $(FLASHSSD_DISABLE_SM90=1 FLASHSSD_SM80_HALF_HEAD_BLOCK=$half LD_LIBRARY_PATH=$PWD/$F \
        timeout 60 $F/bench/flashssd_bench $row --iters 100 --warmup 10 2>&1 | tail -2 | tr '\n' ' ')"
    done
  done
done | tee "$OUT/sm80_half_block.txt"
echo "all done at ${SECONDS} s"
