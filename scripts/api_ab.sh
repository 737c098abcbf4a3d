#!/usr/bin/env bash
# On the device: times flashssd_bench of several library builds (or one build under several
# environments) against each other (the API's whole path: pre-pass, split plan, workspaces),
# the order of the variants rotated from round to round. A build is a folder holding
# libflashssd.so* and flashssd_bench (a staged build folder, scripts/stage_device_build.sh,
# has the latter under bench/).
#
#   scripts/api_ab.sh [--rounds 3] [--common "--iters 30 --warmup 3 --no-verify"] \
#       --lib main=out/ab/mainlib --lib new=out/dev/build-gpu \
#       --lib new_nopdl=out/dev/build-gpu,FLASHSSD_DISABLE_PDL=1 < args.txt
#
# --lib name=folder[,VAR=value ...]: a variant; the VAR=value pairs are set for its runs only.
# args.txt: one flashssd_bench argument list per line ("--config R1 --seqlen 8192 --z").
# One line per run (round, variant, arguments, median ms: probe_ab.sh's form), then the
# medians per configuration against the first variant (scripts/probe_ab_summary.py).
set -uo pipefail
rounds=3 common="--iters 30 --warmup 3 --no-verify" names=() specs=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2;;
    --common) common=$2; shift 2;;
    --lib) names+=("${2%%=*}"); specs+=("${2#*=}"); shift 2;;
    *) echo "api_ab: unknown option $1" >&2; exit 2;;
  esac
done
[ ${#names[@]} -ge 1 ] || { echo "api_ab: at least one --lib name=folder" >&2; exit 2; }
mapfile -t arglines
log=$(mktemp); trap 'rm -f "$log"' EXIT
n=${#names[@]}
for round in $(seq "$rounds"); do
  for args in "${arglines[@]}"; do
    [ -z "${args// }" ] && continue
    for k in $(seq 0 $((n - 1))); do
      i=$(( (k + round - 1) % n ))
      IFS=, read -r -a parts <<< "${specs[$i]}"
      d=${parts[0]} env_pairs=("${parts[@]:1}")
      bin=$d/flashssd_bench; [ -x "$bin" ] || bin=$d/bench/flashssd_bench
      # shellcheck disable=SC2086  # the arguments are word lists
      ms=$(env "${env_pairs[@]}" LD_LIBRARY_PATH=$PWD/$d timeout 90 "$bin" $args $common 2>/dev/null |
           grep -o '"median_ms": *[0-9.]*' | head -1 | grep -o '[0-9.]*$' || echo failed)
      echo "round=$round ${names[$i]} [$(echo $args)] $ms" | tee -a "$log"
    done
  done
done
echo "summary (median over rounds, range, vs ${names[0]}):"
python3 "$(dirname "${BASH_SOURCE[0]}")/probe_ab_summary.py" "$log"
