#!/usr/bin/env bash
# Session 62, call 1 (carry out/carry third_party_bench): main's exact build (s62main = 2dad1d7,
# SASS as s61wl) and s62ev (main + the side stream's events made once per thread and device,
# 2026-12-06-s62-events.patch; host code only).
# - On an H200: the benchmark of record on s62main with its checks (the newest H200 record is
#   session 57's), then the quick GPU pytest on s62ev (graph capture, streams, the split path).
# - Both, last: host time of a split call (bench/host_overhead.py at T = 256, two splits forced)
#   on s62main and s62ev.
# - Elsewhere: the whole pre-merge list on s62main (variant_checks: the window search's loads,
#   2249662, were merged after their forced-window suite and memcheck only), then the quick GPU
#   pytest on s62ev.
set -u
host_pair() {  # host time of a split call (fork and join included), main's build then s62ev's
  local lib
  for lib in s62main s62ev; do
    LD_LIBRARY_PATH=$PWD/out/dev/$lib PYTHONPATH=$PWD/out/dev/$lib/python FLASHSSD_NUM_SPLITS=2 timeout 60 \
      python3 bench/host_overhead.py --seqlen 256 --layers extension,api --iters 1000 --rounds 5 > "$OUT/host_$lib.log" 2>&1
    echo "host_overhead $lib rc=$?"; cat "$OUT/host_$lib.log"
  done
}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
bash scripts/carry.sh unpack s62ev > /dev/null || exit 1
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=420 bash scripts/device_record.sh s62main; echo "record + checks rc=$? at ${SECONDS} s"
  PYTEST_LIMIT=130 variant_pytest pytest_quick_ev out/dev/s62ev "not mamba_ssm_triton"
  host_pair
  echo "all done at ${SECONDS} s"; exit 0
fi
bash scripts/carry.sh unpack s62main > /dev/null || exit 1
variant_checks main out/dev/s62main
echo "checks at ${SECONDS} s"
PYTEST_LIMIT=130 variant_pytest pytest_quick_ev out/dev/s62ev "not mamba_ssm_triton"
host_pair
echo "all done at ${SECONDS} s"
