#!/usr/bin/env bash
# For the next session (run here, not on the device): builds main (staged s52main: main's src is
# ad8e9d9's, the session 53 record's) and branch s53-scan-any-n (patch
# 2026-12-06-s53-patches/scan-any-n.patch on main, staged s53anyn), packed into out/carry, for
# 2026-12-06-s53-next.sh and -next-record.sh. ~3 min on a built build-gpu, 6-9 min from nothing
# (setup_deps, setup_python --no-torch with Python 3.12, configure).
#   here: bash bench/results/logs/2026-12-06-s53-next-prepare.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
git diff --quiet -- src tests || { echo "prepare: src/ or tests/ has changes" >&2; exit 1; }
bash scripts/setup_build_gpu.sh
bash scripts/stage_variant.sh s52main
bash scripts/stage_variant.sh s53anyn bench/results/logs/2026-12-06-s53-patches/scan-any-n.patch
cmake --build build-gpu  # back to main's build
bash scripts/fetch_triton_baseline.sh  # (a no-op when present)
echo "prepare: done (carry out/carry, and third_party_bench for the record)"
