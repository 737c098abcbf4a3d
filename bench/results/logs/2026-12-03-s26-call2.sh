#!/usr/bin/env bash
# Session 26 call 2 (device): where call 1's R4 / 32k slowdown through the API comes from.
# base = HEAD's library; A = call 1's (all workspaces allocated, and the chunk scores'
# descriptor encoded, before the first kernel is queued); B = the same kernels with the
# original order (the scores' workspace after the state pass is queued). Each with PDL and
# without (FLASHSSD_DISABLE_PDL=1). Then the checks (device_session.sh PART=checks) on B.
# Carry: out/ab (baselib, libA: library + flashssd_bench), out/dev/build-gpu (B, no python).
set -uo pipefail
OUT=${OUT:-/tmp/s26call2}; mkdir -p "$OUT"
configs=("--config R4" "--config R1 --batch 2 --seqlen 32768" "--config R1 --batch 8 --seqlen 8192"
         "--config R1 --batch 128 --seqlen 512" "--config R1 --batch 8 --seqlen 8192 --z")
for round in 1 2 3; do
  for args in "${configs[@]}"; do
    for v in base A A_nopdl B B_nopdl; do
      case $v in
        base) lib=out/ab/baselib; env=();;
        A) lib=out/ab/libA; env=();;
        A_nopdl) lib=out/ab/libA; env=(FLASHSSD_DISABLE_PDL=1);;
        B) lib=out/dev/build-gpu; env=();;
        B_nopdl) lib=out/dev/build-gpu; env=(FLASHSSD_DISABLE_PDL=1);;
      esac
      # shellcheck disable=SC2086
      r=$(env "${env[@]}" LD_LIBRARY_PATH=$PWD/$lib timeout 90 $lib/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 |
          grep -o "\"median_ms\": *[0-9.]*" | head -1 | grep . || echo failed)
      echo "round=$round | $args | $v | $r" >> "$OUT/api_ab.log"
    done
  done
done
python3 - "$OUT/api_ab.log" > "$OUT/api_ab_summary.txt" <<'PY'
import re, sys, statistics
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"round=\d+ \| (.*?) \| (\S+) \| \"median_ms\": *([0-9.]+)", line)
    if m: rows.setdefault(m[1], {}).setdefault(m[2], []).append(float(m[3]))
for cfg, vs in rows.items():
    base = statistics.median(vs["base"])
    print(cfg + "  " + "  ".join(f"{v} {statistics.median(t):.4f} ({min(t):.4f}-{max(t):.4f}) {100*(statistics.median(t)/base-1):+.1f}%" for v, t in vs.items()))
PY
cat "$OUT/api_ab_summary.txt"
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT="$OUT/checks" bash scripts/device_session.sh out/dev/build-gpu
