#!/usr/bin/env bash
# Prepared in session 57 for the next session (ask for an nvidia-h200). s57main = main with the
# windowed state pass and its defaults (runs of 64 tiles; "auto" takes it instead of the fix-up;
# windowed from 128 tiles per SM of the whole-split pass on, 5917b60): the SASS of s57final
# (f83805b), which session 57's calls 8-10 checked on an H100; session 57's H200 record ran on
# 206bf97 (runs of 32 tiles, R4 still on the fix-up).
# - On an H200: the record on s57main with its checks (TOTAL_ALL 430), then the quick GPU pytest.
# - On another card: the whole GPU pytest file (its 14 mamba_ssm comparisons included, ~5.5 min).
#   here:   bash scripts/prepare_record.sh s57main   (if out/carry lacks s57main.tar.xz)
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s57-next.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=430 bash scripts/device_record.sh s57main; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick out/dev/s57main "not mamba_ssm_triton"
else
  bash scripts/carry.sh unpack s57main > /dev/null || exit 1
  PYTEST_LIMIT=540 variant_pytest pytest_gpu out/dev/s57main
fi
echo "all done at ${SECONDS} s"
