#!/usr/bin/env bash
# For the next session (run here, not on the device): builds main and stages it as out/dev/s54main
# (with COMMIT, for the record), packed into out/carry, for 2026-12-06-s54-next.sh. ~4 min on a
# built build-gpu, 6-9 min from nothing (setup_deps, setup_python --no-torch with Python 3.12,
# configure).
#   here: bash bench/results/logs/2026-12-06-s54-next-prepare.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
git diff --quiet -- src tests || { echo "prepare: src/ or tests/ has changes" >&2; exit 1; }
bash scripts/setup_build_gpu.sh
bash scripts/stage_variant.sh s54main
bash scripts/fetch_triton_baseline.sh  # (a no-op when present)
echo "prepare: done (carry out/carry, and third_party_bench for the record)"
