#!/usr/bin/env bash
# Session 63, with too little device time left for the record (carry out/carry): the s63-tidy
# branch's checks on whatever card comes. s63tidy2 = main's src + 2026-12-06-s63-tidy.patch (host
# code only: StreamFork's flag, validation's NotSupported for device dims the kernels do not
# serve; the 58 kernels' SASS identical to s62ev's). The C++ GPU suites (default, fix-up at 3
# splits, Hopper suite), then the quick GPU pytest (test_gpu_errors: N = 264 -> NotSupported;
# graph capture of the split path's first call).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s63-tidy-call.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
. scripts/device_variant.sh
bash scripts/carry.sh unpack s63tidy2 > /dev/null || exit 1
variant_suites tidy out/dev/s63tidy2
variant_pack tidy_suites
variant_pytest pytest_quick_tidy out/dev/s63tidy2 "not mamba_ssm_triton"
variant_pack tidy_pytest
echo "all done at ${SECONDS} s"
