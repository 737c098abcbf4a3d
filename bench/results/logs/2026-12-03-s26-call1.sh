#!/usr/bin/env bash
# Session 26 call 1 (device): (1) the producers' dt ring two rounds deep, probe A/B
# (base = HEAD's kernels, d2 = the state pass's dt two rounds ahead, d2m = the main pass's
# too; timing only for d2m, whose packed producer spills 4 bytes); (2) programmatic dependent
# launch of the call's kernel chain through the API: the new library with PDL (new) and
# without (new_nopdl, FLASHSSD_DISABLE_PDL=1) against HEAD's library (base).
# Carry: out/ab (base_probe, d2_probe, d2m_probe, baselib), out/dev/build-gpu (new, no python).
set -uo pipefail
OUT=${OUT:-/tmp/s26call1}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
printf "%s\n" \
  "--N 128 --batch 1 --seqlen 131072 --state-pass 4" \
  "--batch 2 --seqlen 32768 --state-pass 2" \
  "--N 64 --batch 1 --seqlen 131072 --state-pass 4" \
  "--batch 8 --seqlen 8192 --final-states 0 | base d2m" \
  "--batch 8 --seqlen 8192 --final-states 0 --packed 4 | base d2m" \
  "--N 64 --final-states 0 | base d2m" |
  bash scripts/probe_ab.sh --rounds 3 --variants "base d2 d2m" > "$OUT/probe_ab.log" 2>&1
configs=("--config R1 --batch 8 --seqlen 8192" "--config R1 --batch 128 --seqlen 512" "--config R1 --batch 2 --seqlen 32768"
         "--config R4" "--config R2" "--config R1 --batch 8 --seqlen 8192 --z" "--config R3")
for round in 1 2 3; do
  for args in "${configs[@]}"; do
    for v in base new_nopdl new; do
      case $v in
        base) lib=out/ab/baselib; env=();;
        new_nopdl) lib=out/dev/build-gpu; env=(FLASHSSD_DISABLE_PDL=1);;
        new) lib=out/dev/build-gpu; env=();;
      esac
      # shellcheck disable=SC2086
      r=$(env "${env[@]}" LD_LIBRARY_PATH=$PWD/$lib timeout 90 $lib/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 |
          grep -o "\"median_ms\": *[0-9.]*" | head -1 | grep . || echo failed)
      echo "round=$round | $args | $v | $r" | tee -a "$OUT/api_ab.log"
    done
  done
done
# One verified run per config on the new library (reference check on, PDL on).
for args in "${configs[@]}"; do
  LD_LIBRARY_PATH=$PWD/out/dev/build-gpu timeout 90 out/dev/build-gpu/bench/flashssd_bench $args --iters 5 --warmup 1 > "$OUT/verify.txt.tmp" 2>&1
  echo "rc=$? | $args | $(tail -1 "$OUT/verify.txt.tmp" | cut -c1-300)" >> "$OUT/verify.log"
done
rm -f "$OUT/verify.txt.tmp"
