#!/usr/bin/env bash
# Makes, on the CPU machine (a fresh checkout of main included), the staged builds that session
# 51's prepared calls carry: s51main (main), s51min128 (main + 2026-12-05-s51-patches/min128.patch),
# s51ck1 / s51ck2 (main with split_fixup.cu's kChunkTiles 1 / 2), s51ck1p (patch ck1p.patch),
# packed as out/carry/s51main, s51min128, s51ck (.tar.xz), and third_party_bench/ (the Triton baseline for the record).
# Needs a clean src/ and tests/. ~5-8 min on 2 cores from nothing; seconds on a built build-gpu.
#   here: bash bench/results/logs/2026-12-05-s51-next-prepare.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
git diff --quiet -- src tests || { echo "prepare: src/ or tests/ has changes" >&2; exit 1; }
bash scripts/setup_deps.sh
# The device's Python is 3.12 (pyenv's shim for python3.12 may not resolve: its path is taken).
py312=${PYTHON312:-$(ls /root/.pyenv/versions/3.12*/bin/python3.12 2>/dev/null | head -1)}
py=$(PYTHON=${py312:-python3.12} scripts/setup_python.sh --no-torch)
cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a-real -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py"
[ -d third_party_bench ] || scripts/fetch_triton_baseline.sh
stage() { cmake --build build-gpu && bash scripts/stage_device_build.sh build-gpu "$1"; }
stage s51main
git rev-parse --short=12 HEAD > out/dev/s51main/COMMIT  # (the record names it)
bash scripts/carry.sh pack s51main dev/s51main
git apply bench/results/logs/2026-12-05-s51-patches/min128.patch
stage s51min128
git checkout -- src tests
bash scripts/carry.sh pack s51min128 dev/s51min128
for ck in 1 2; do
  sed -i "s/^constexpr int kChunkTiles = [0-9]*;/constexpr int kChunkTiles = $ck;/" src/kernels/sm90/split_fixup.cu
  stage s51ck$ck
done
git checkout -- src/kernels/sm90/split_fixup.cu
# kChunkTiles 1 with the next entry loaded ahead and the head's A / dt_bias once per window
# (branch s51-ck1p; its chain per entry would otherwise start each tile's at chunk 1)
git apply bench/results/logs/2026-12-05-s51-patches/ck1p.patch
stage s51ck1p
git checkout -- src
bash scripts/carry.sh pack s51ck dev/s51ck1p dev/s51ck1 dev/s51ck2
cmake --build build-gpu  # back to main's build
git diff --quiet -- src tests && echo "prepare: done (carry out/carry, and third_party_bench for the record)"
