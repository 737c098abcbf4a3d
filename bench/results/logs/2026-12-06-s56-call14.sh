#!/usr/bin/env bash
# Session 56, call 14 (any card), after call 13 found the first form wrong (a cached limit kept after a smaller one was set: "split fix-up launch: invalid argument" in two split tests): the launchers' per-device caches (s56host2,
# 2026-12-06-s56-patches/launch_cache2.patch: the SM count queried and each kernel's dynamic
# shared-memory limit set once per device and process, not on every call; host code only, every
# kernel's SASS main's by scripts/sass_diff.py). The eager host time per call by layer
# (bench/host_overhead.py: 1 x 64 tokens), main (s56main) and s56host alternated over three
# rounds; then s56host's forward suite and the GPU pytest without the mamba_ssm comparisons
# (the first call of a process sets the attributes, CUDA graph capture included).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s56-call14.sh   (carry out/carry)
set -u
for n in s56main s56host2; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
for round in 1 2 3; do
  for n in s56main s56host2; do
    LD_LIBRARY_PATH=$PWD/out/dev/$n PYTHONPATH=$PWD/out/dev/$n/python timeout 60 python3 bench/host_overhead.py \
      --json $OUT/host_${n}_$round.json > $OUT/host_${n}_$round.log 2>&1
    echo "$n round $round rc=$?"; head -8 $OUT/host_${n}_$round.log
  done
done
M=out/dev/s56host2
. scripts/device_variant.sh
VARIANT_SCHEMES="fixup state" variant_suites host2 $M   # default, each scheme forced at 3 splits, Hopper suite
LD_LIBRARY_PATH=$PWD/$M PYTHONPATH=$PWD/$M/python timeout 120 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > $OUT/host_pytest_quick.log 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -2 $OUT/host_pytest_quick.log
(cd $OUT && tar -czf host_logs.tgz host*.log host_*.json && rm -f host*.log host_*.json)
echo "all done at ${SECONDS} s"
