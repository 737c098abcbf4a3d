#!/usr/bin/env bash
# On the device: times probe binaries (scripts/build_probe.sh) against each other, each
# configuration's variants back to back and the rounds repeated, so that a machine's drift
# falls on all of them alike. One line per run: round, variant, probe arguments, median ms.
#
#   scripts/probe_ab.sh [--rounds 2] [--dir out/ab] [--common "--softplus 1 --iters 50"] \
#       --variants "base new" < configs.txt
#
# configs.txt: one configuration per line, the probe's own arguments ("--N 64 --z 1"); a line
# "args | v1 v2" runs only those variants there (the others lack the change). The probe's
# defaults are R1 8k; --softplus 1 gives it the API's dt (bias, softplus).
# A run of 50 launches (~25 ms) sees mostly the top SM clock; back to back for seconds the
# kernels hit the 700 W cap and run at ~1.6-1.8 GHz (docs/HOPPER_PLAN.md, session 25): for the
# sustained figure give a configuration many more launches (--common "--softplus 1 --iters 8000").
set -uo pipefail
rounds=2 dir=out/ab variants="" common="--softplus 1 --iters 50"
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2;; --dir) dir=$2; shift 2;;
    --variants) variants=$2; shift 2;; --common) common=$2; shift 2;;
    *) echo "probe_ab: unknown option $1" >&2; exit 2;;
  esac
done
[ -n "$variants" ] || { echo "probe_ab: --variants is required" >&2; exit 2; }
mapfile -t configs
log=$(mktemp); trap 'rm -f "$log"' EXIT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>/dev/null
for round in $(seq "$rounds"); do
  for line in "${configs[@]}"; do
    [ -z "${line// }" ] && continue
    args=${line%%|*}; vs=$variants
    [[ $line == *"|"* ]] && vs=${line#*|}
    for v in $vs; do
      # shellcheck disable=SC2086  # the arguments are word lists
      ms=$(timeout 60 "$dir/${v}_probe" $common $args 2>/dev/null |
           python3 -c "import json,sys; print(json.loads(sys.stdin.read())['median_ms'])" 2>/dev/null || echo failed)
      echo "round=$round $v [$(echo $args)] $ms" | tee -a "$log"
    done
  done
done
# Medians per configuration and variant, and each variant against the first (scripts/probe_ab_summary.py).
echo "summary (median over rounds, range, vs $(echo $variants | cut -d' ' -f1)):"
python3 "$(dirname "${BASH_SOURCE[0]}")/probe_ab_summary.py" "$log"
