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
stage() { cmake --build build-gpu && bash scripts/stage_device_build.sh build-gpu "$1"; }
stage s52main
git rev-parse --short=12 HEAD > out/dev/s52main/COMMIT  # (the record names it)
bash scripts/carry.sh pack s52main dev/s52main
git apply bench/results/logs/2026-12-05-s51-patches/min128.patch
stage s52min128
git checkout -- src tests
bash scripts/carry.sh pack s52min128 dev/s52min128
git apply bench/results/logs/2026-12-06-s52-patches/scan-grid.patch
stage s52scan
git checkout -- src
bash scripts/carry.sh pack s52scan dev/s52scan
cmake --build build-gpu  # back to main's build
git diff --quiet -- src tests && echo "prepare: done (carry out/carry, and third_party_bench for the record)"
