#!/usr/bin/env bash
# On the device: times flashssd_bench of several library builds against each other (the
# API's whole path: pre-pass, split plan, workspaces), the order of the builds rotated from
# round to round. A build is a folder holding libflashssd.so* and flashssd_bench (a staged
# build folder, scripts/stage_device_build.sh, has the latter under bench/).
#
#   scripts/api_ab.sh [--rounds 3] --lib main=out/ab/mainlib --lib new=out/dev/build-gpu < args.txt
#
# args.txt: one flashssd_bench argument list per line ("--config R1 --seqlen 8192 --z").
set -uo pipefail
rounds=3 names=() dirs=()
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) rounds=$2; shift 2;;
    --lib) names+=("${2%%=*}"); dirs+=("${2#*=}"); shift 2;;
    *) echo "api_ab: unknown option $1" >&2; exit 2;;
  esac
done
[ ${#names[@]} -ge 1 ] || { echo "api_ab: at least one --lib name=folder" >&2; exit 2; }
mapfile -t arglines
n=${#names[@]}
for round in $(seq "$rounds"); do
  for args in "${arglines[@]}"; do
    [ -z "${args// }" ] && continue
    for k in $(seq 0 $((n - 1))); do
      i=$(( (k + round - 1) % n )); d=${dirs[$i]}
      bin=$d/flashssd_bench; [ -x "$bin" ] || bin=$d/bench/flashssd_bench
      # shellcheck disable=SC2086
      r=$(LD_LIBRARY_PATH=$PWD/$d timeout 60 "$bin" $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms" || echo failed)
      echo "round=$round | $args | ${names[$i]} | $r"
    done
  done
done
