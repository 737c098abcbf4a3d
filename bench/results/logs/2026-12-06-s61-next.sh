#!/usr/bin/env bash
# Prepared in session 61 for the next session. Stage main first (~14 s where build-gpu is current,
# ~8 min on a fresh checkout):
#   [bash scripts/setup_build_gpu.sh &&] bash scripts/stage_variant.sh s62main
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s61-next.sh   (carry out/carry third_party_bench)
# - On an H200: the benchmark of record on s62main with its checks (scripts/device_record.sh; the
#   newest H200 record is still session 57's, before the 8-byte store, the side stream and the
#   window search's loads), then the quick GPU pytest. After it: copy $OUT's json / md / png to
#   bench/results/, commit, python3 scripts/update_readme_perf.py, and update README's record paragraph.
# - Elsewhere (~360 s on an H100): the whole pre-merge list on main's exact build (variant_checks:
#   session 61 merged the window search's loads, 2249662, after its forced-window suite and memcheck
#   only; the default suite was cut by a 60-s timeout after 21 tests OK), then the quick GPU pytest.
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
F=out/dev/s62main
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=480 bash scripts/device_record.sh s62main; echo "record + checks rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick $F "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
bash scripts/carry.sh unpack s62main > /dev/null || exit 1
variant_checks main $F
echo "checks at ${SECONDS} s"
variant_pytest pytest_quick $F "not mamba_ssm_triton"
echo "all done at ${SECONDS} s"
