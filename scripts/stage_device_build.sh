#!/usr/bin/env bash
# Copies what a device run needs from a build folder (binaries, the shared library, the
# Python package; no object files) into out/dev/<name>, to be named in the device call's
# carry list: the device tool carries at most 64 MiB, and build-gpu/ is mostly objects.
#
#   scripts/stage_device_build.sh [build-folder] [name]     # default build-gpu build-gpu
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=${1:-build-gpu}
dst=out/dev/${2:-$(basename "$src")}
rm -rf "$dst"
mkdir -p "$dst"
# Everything but objects, static archives, CMake's own bookkeeping and the CPU tests (they
# run here; their packaging test alone holds two copies of the library); links kept as links.
(cd "$src" && find . \( -name CMakeFiles -prune \) -o \( -path ./tests/cpu -prune \) -o \( -type f -o -type l \) \
   ! -name '*.o' ! -name '*.a' ! -name '*.ninja' ! -name '.ninja_*' ! -name CMakeCache.txt -print) |
  while read -r f; do
    mkdir -p "$dst/$(dirname "$f")"
    cp -P "$src/$f" "$dst/$f"
  done
du -sh "$dst"
