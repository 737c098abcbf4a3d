#!/usr/bin/env bash
# Session 26 call 3 (device): PDL on / off through the API at R4 and R1 8k, five rounds
# (calls 1-2 left R4's difference inside its spread), then the benchmark of record
# (device_session.sh PART=bench) on the staged library of FLASHSSD_COMMIT.
# Carry: out/dev/build-gpu (with python), third_party_bench.
set -uo pipefail
OUT=${OUT:-/tmp/s26call3}; mkdir -p "$OUT"
lib=out/dev/build-gpu
for round in 1 2 3 4 5; do
  for args in "--config R4" "--config R1 --batch 2 --seqlen 32768" "--config R1 --batch 8 --seqlen 8192"; do
    for v in pdl nopdl; do
      env=(); [ $v = nopdl ] && env=(FLASHSSD_DISABLE_PDL=1)
      # shellcheck disable=SC2086
      r=$(env "${env[@]}" LD_LIBRARY_PATH=$PWD/$lib timeout 90 $lib/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 |
          grep -o "\"median_ms\": *[0-9.]*" | head -1 | grep . || echo failed)
      echo "round=$round | $args | $v | $r" >> "$OUT/pdl_ab.log"
    done
  done
done
FLASHSSD_COMMIT=${FLASHSSD_COMMIT:-unknown} PART=bench OUT="$OUT/bench" bash scripts/device_session.sh $lib
