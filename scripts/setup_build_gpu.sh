#!/usr/bin/env bash
# Makes build-gpu/, the sm_90a build whose stages go to the device (scripts/stage_device_build.sh,
# scripts/carry.sh), on a fresh checkout or an existing one: the pinned dependencies, the
# Python 3.12 environment without torch (the device has its own: its Python is 3.12), the Ninja
# configure with the Python module, and the Triton baseline's source for the benchmark
# (third_party_bench, never committed). A session's prepare script runs it before its builds.
#   scripts/setup_build_gpu.sh        (PYTHON312=<path> to name the interpreter)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup_deps.sh
py312=${PYTHON312:-$(ls /root/.pyenv/versions/3.12*/bin/python3.12 2>/dev/null | head -1)}
py=$(PYTHON=${py312:-python3.12} scripts/setup_python.sh --no-torch)
cmake -S . -B build-gpu -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a-real -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py"
[ -d third_party_bench ] || scripts/fetch_triton_baseline.sh
