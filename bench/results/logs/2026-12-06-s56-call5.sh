#!/usr/bin/env bash
# Session 56, call 5 (ask for an nvidia-h200). On any card first the two-device test's body on
# one GPU (DEVICE_PAIRS = ((0, 0),): its code, not the two devices; no two-GPU machine is lent,
# call 4 was refused), then the record on main (s56main, f38406e: the N = 256 prologue and the
# sets_per_group cleanup since the last H200 record, ad8e9d9). On an H200 also the checks and
# scripts/device_split_timing.sh (R1 32k z's H200-only spread); on another card the record alone
# (main's checks ran in calls 2-3 on an H100).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call5.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s56main > /dev/null || exit 1
M=out/dev/s56main
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$PWD/$M/python:$PWD/tests/python timeout 60 python3 -c "
import test_gpu as t
t.DEVICE_PAIRS = ((0, 0),)
for name in ('r1_like', 'everything', 'long_32k_few_heads'):
    t.test_tensors_on_a_non_current_device(name); print('two-device test body, one device:', name, 'ok')
" 2>&1 | tail -4
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=440 bash scripts/device_record.sh s56main; echo "record + checks rc=$? at ${SECONDS} s"
  bash scripts/device_split_timing.sh $M
else
  TOTAL_ALL=0 bash scripts/device_record.sh s56main; echo "record rc=$? at ${SECONDS} s"
fi
echo "all done at ${SECONDS} s"
