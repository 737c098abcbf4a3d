#!/usr/bin/env bash
# Builds bench/sm90_forward_probe.cu from a source tree (a variant's copy of src/, include/ and
# bench/, or the checkout itself) into one sm_90a binary, ~40 s on 2 cores: the cheap way to
# A/B a kernel change on the device (scripts/probe_ab.sh) before building the library.
#
#   scripts/build_probe.sh [source-tree] out/ab/<name>_probe      # tree default: this checkout
#
# A variant tree: mkdir /tmp/v && cp -r src include bench /tmp/v && <edit /tmp/v>.
# NVCC_FLAGS adds compile flags (the -D switches of a timing variant's diff, say).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -eq 1 ]; then src=$repo; out=$1; else src=$1; out=$2; fi
cutlass=$repo/.deps/cutlass/cutlass_library/source/include
[ -d "$cutlass" ] || { echo "build_probe: no CUTLASS headers; run scripts/setup_deps.sh" >&2; exit 1; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$out")"
"$nvcc" -O3 -DNDEBUG --generate-code=arch=compute_90a,code=[sm_90a] -Xcompiler=-fPIE --expt-relaxed-constexpr \
  -lineinfo -std=c++17 ${NVCC_FLAGS:-} -I"$src/src" -I"$src/include" -isystem="$cutlass" -I"$src/bench" \
  -c "$src/bench/sm90_forward_probe.cu" -o "$work/probe.o"
"$nvcc" --generate-code=arch=compute_90a,code=[sm_90a] "$work/probe.o" -o "$out" -lcudart_static -lrt -lpthread -ldl
echo "build_probe: $out"
