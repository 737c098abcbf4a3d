#!/usr/bin/env bash
# Here (not on the device), before a record call: builds main as it is and stages it as
# out/dev/<name> (with COMMIT, which the record names), packed into out/carry, and fetches the
# Triton baseline into third_party_bench. ~4 min on a built build-gpu, 6-9 min from nothing
# (setup_deps, setup_python --no-torch with Python 3.12, configure). The sessions' prepare
# scripts (bench/results/logs/*-next-prepare.sh) each repeated these three steps.
#   here: bash scripts/prepare_record.sh <name>     then, on the device: scripts/device_record.sh <name>
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name=${1:?prepare_record: name the stage, e.g. s55main}
git diff --quiet -- src tests || { echo "prepare_record: src/ or tests/ has changes" >&2; exit 1; }
bash scripts/setup_build_gpu.sh
bash scripts/stage_variant.sh "$name"
bash scripts/fetch_triton_baseline.sh  # (a no-op when present)
echo "prepare_record: done (carry out/carry, and third_party_bench for the record)"
