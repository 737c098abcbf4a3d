#!/usr/bin/env bash
# AS OF a8f5219: its patches were merged into main afterwards (64bd228), so it applies only to a
# checkout of a8f5219 or earlier; call 5 ran the builds it made here.
# Session 50: makes, on the CPU machine of a fresh checkout of main, the staged builds that
# 2026-12-05-s50-next-call-not-run.sh carries (session 50's checkout came without out/ and
# without session 49's branches, so the builds and the branches' code are kept as the commands
# and patches that make them again). 5.3-6.9 min on 2 cores on a fresh clone (session 50; its
# builds' fix-up SASS equal to those this session staged: s50main, s50vec, s50range, s50vr, ck8).
#   here: bash bench/results/logs/2026-12-05-s50-next-prepare.sh
# Makes out/carry/{s50main,s50vec,s50range,s50vr,ck}.tar.xz and third_party_bench/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
base=$(git rev-parse HEAD)
bash scripts/setup_deps.sh
# The device's Python is 3.12 (pyenv's shim for python3.12 may not resolve: its path is taken).
py312=${PYTHON312:-$(ls /root/.pyenv/versions/3.12*/bin/python3.12 2>/dev/null | head -1)}
py=$(PYTHON=${py312:-python3.12} scripts/setup_python.sh --no-torch)
cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a-real -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py"
scripts/fetch_triton_baseline.sh
stage() {  # <name>: build-gpu as it stands, staged and packed
  cmake --build build-gpu
  bash scripts/stage_device_build.sh build-gpu "$1"
}
# main's kernels (any main commit of session 50 has the kernels of 37201c6)
stage s50main
bash scripts/carry.sh pack s50main dev/s50main
# the fix-up's 16-byte y / z (branch s50-fixup-vec 909e4d2, here as a patch on main's source)
git apply bench/results/logs/2026-12-05-s50-patches/fixup-vec.patch
stage s50vec
bash scripts/carry.sh pack s50vec dev/s50vec
git checkout -- src tests && git clean -fdq src tests
# each fix-up CTA a contiguous run of the work list, h_in kept per window (branch s50-fixup-range)
git apply bench/results/logs/2026-12-05-s50-patches/fixup-range.patch
stage s50range
bash scripts/carry.sh pack s50range dev/s50range
git checkout -- src tests
# both together (branch s50-fixup-vr)
git apply bench/results/logs/2026-12-05-s50-patches/fixup-vr.patch
stage s50vr
bash scripts/carry.sh pack s50vr dev/s50vr
git checkout -- src tests && git clean -fdq src tests
# the fix-up's work-list chunk, kChunkTiles 4 on main
for ck in 8 16 2; do
  sed -i "s/^constexpr int kChunkTiles = [0-9]*;/constexpr int kChunkTiles = $ck;/" src/kernels/sm90/split_fixup.cu
  stage ck$ck
done
git checkout -- src/kernels/sm90/split_fixup.cu
bash scripts/carry.sh pack ck dev/ck8 dev/ck16 dev/ck2
cmake --build build-gpu  # back to main's build
[ "$(git rev-parse HEAD)" = "$base" ] && git diff --quiet -- src tests && echo "prepare: done (carry out/carry third_party_bench)"
