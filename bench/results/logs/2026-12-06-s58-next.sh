#!/usr/bin/env bash
# Prepared in session 58 for the next session (ask for an nvidia-h200). s58main = main at 69c0e31
# (the SASS of s57main in all 58 kernels: the windowed state pass in runs of 64 tiles, "auto"
# taking it; host clean-ups). Session 57's H200 record ran on 206bf97 (runs of 32, R4 on the
# fix-up); sessions 57-58 ran main's defaults on H100s only.
# - On an H200: the record on s58main with its checks (TOTAL_ALL 430), then the quick GPU pytest.
# - On another card: the state-store and live-run-list branches' A/B and checks
#   (2026-12-06-s58-next-split.sh; it needs s58store and s58queue staged too).
#   here:   bash scripts/stage_variant.sh s58main (and, for another card, the stages that
#           2026-12-06-s58-next-split.sh names), if out/carry lacks them
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-next.sh   (carry out/carry third_party_bench)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=430 bash scripts/device_record.sh s58main; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick out/dev/s58main "not mamba_ssm_triton"
else
  bash bench/results/logs/2026-12-06-s58-next-split.sh
fi
echo "all done at ${SECONDS} s"
