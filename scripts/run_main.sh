#!/usr/bin/env bash
# THE main-job command: install dependencies, build, run build/apps/flashssd
# (R1 on a GPU; the CPU reference on a small problem without one).
# Extra arguments go to flashssd (e.g. --iters 100, --cpu).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup_deps.sh

build_dir=${BUILD_DIR:-build}
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ -f "$build_dir/CMakeCache.txt" ]; then generator=(); fi

cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build_dir" --parallel "$(nproc)" --target flashssd_main
"$build_dir/apps/flashssd" "$@"
