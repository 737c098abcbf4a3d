#!/usr/bin/env bash
# For the next session (run here, not on the device): builds main, branch s51-min128 and branch
# s52-scan-grid (their patches applied to main) for 2026-12-06-s52-next.sh and -next-scan.sh,
# staged as out/dev/s52main (with COMMIT, for the record), s52min128 and s52scan, packed into
# out/carry. ~1 min on a built build-gpu, 5-8 min from
# nothing (setup_deps, setup_python --no-torch with Python 3.12, configure).
#   here: bash bench/results/logs/2026-12-06-s52-next-prepare.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
git diff --quiet -- src tests || { echo "prepare: src/ or tests/ has changes" >&2; exit 1; }
bash scripts/setup_build_gpu.sh
bash scripts/stage_variant.sh s52main
bash scripts/stage_variant.sh s52min128 bench/results/logs/2026-12-05-s51-patches/min128.patch
bash scripts/stage_variant.sh s52scan bench/results/logs/2026-12-06-s52-patches/scan-grid.patch
cmake --build build-gpu  # back to main's build
git diff --quiet -- src tests && echo "prepare: done (carry out/carry, and third_party_bench for the record)"
