#!/usr/bin/env bash
# Session 26 call 6 (device): R4 and R1 32k through the API with more rounds (calls 1-2 read
# the new library +1-2% at R4 with ranges of +-1.5% between identical kernels): base = HEAD~'s
# library (31e7214's kernels), new = 68bff54's with PDL and without; and the state pass alone
# in the probe (base_probe = 31e7214, new_probe = 68bff54's kernels), interleaved.
# Carry: out/ab (baselib, base_probe, new_probe), out/dev/build-gpu (no python).
set -uo pipefail
OUT=${OUT:-/tmp/s26call6}; mkdir -p "$OUT"
for round in 1 2 3 4 5 6 7 8; do
  for args in "--config R4" "--config R1 --batch 2 --seqlen 32768"; do
    for v in base new new_nopdl; do
      case $v in
        base) lib=out/ab/baselib; env=();;
        new) lib=out/dev/build-gpu; env=();;
        new_nopdl) lib=out/dev/build-gpu; env=(FLASHSSD_DISABLE_PDL=1);;
      esac
      # shellcheck disable=SC2086
      r=$(env "${env[@]}" LD_LIBRARY_PATH=$PWD/$lib timeout 90 $lib/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 |
          grep -o "\"median_ms\": *[0-9.]*" | head -1 | grep . || echo failed)
      echo "round=$round | $args | $v | $r" >> "$OUT/api_ab.log"
    done
  done
  for v in base new; do
    ms=$(timeout 60 out/ab/${v}_probe --softplus 1 --iters 50 --N 128 --batch 1 --seqlen 131072 --state-pass 4 2>/dev/null |
         python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])" 2>/dev/null || echo failed)
    echo "round=$round | probe R4 state pass | $v | \"median_ms\": $ms" >> "$OUT/api_ab.log"
  done
done
python3 - "$OUT/api_ab.log" <<'PY' | tee "$OUT/summary.txt"
import re, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"round=\d+ \| (.*?) \| (\S+) \| \"median_ms\": *([0-9.]+)", line)
    if m: rows.setdefault(m[1], {}).setdefault(m[2], []).append(float(m[3]))
for cfg, vs in rows.items():
    base = statistics.median(vs["base"])
    print(cfg + "  " + "  ".join(f"{v} {statistics.median(t):.4f} ({min(t):.4f}-{max(t):.4f}) {100*(statistics.median(t)/base-1):+.1f}%" for v, t in vs.items()))
PY
