#!/usr/bin/env bash
# THE test command: install dependencies, configure (Release), build with all
# cores, run every test. GPU tests skip (visibly) on a machine without a GPU.
# BUILD_DIR overrides the build folder (default: build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup_deps.sh
# Python side: a venv under .deps with nanobind, pytest, numpy and torch (PyPI's
# CUDA build of torch, ~2.7 GB, runs on CPU). If torch cannot be installed the
# torch tests skip with their reason and the numpy/DLPack tests still run.
if ! py=$(bash scripts/setup_python.sh); then
  echo "test.sh: WARNING: torch could not be installed; torch tests will skip" >&2
  py=$(bash scripts/setup_python.sh --no-torch)
fi

build_dir=${BUILD_DIR:-build}
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
# Keep the generator of an existing build folder (cmake refuses to switch).
if [ -f "$build_dir/CMakeCache.txt" ]; then generator=(); fi

cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py"
cmake --build "$build_dir" --parallel "$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)"
