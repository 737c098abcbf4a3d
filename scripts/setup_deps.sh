#!/usr/bin/env bash
# Installs what the FlashSSD build needs, idempotently (a second run does
# nothing but check):
#   - CUTLASS/CuTe C++ headers from the pinned nvidia-cutlass wheel, into the
#     ignored folder .deps/cutlass (CMake's CUTLASS_DIR default points there);
#   - GoogleTest (Debian's libgtest-dev), cmake and ninja, when missing;
#   - cuobjdump + nvdisasm from NVIDIA's pinned wheels into .deps/cuda-tools, only when the
#     CUDA toolkit has no cuobjdump (the SASS check, scripts/check_sm90_sass.py; optional).
# Nothing else is fetched, and nothing at build time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

CUTLASS_VERSION=4.2.0.0
CUTLASS_INCLUDE=.deps/cutlass/cutlass_library/source/include

apt_updated=0
apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup_deps: please install $* (no apt-get here)" >&2
    return 1
  fi
  if [ "$apt_updated" = 0 ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# ---- cmake (>= 3.24) and ninja ----------------------------------------------
if ! command -v cmake >/dev/null 2>&1; then
  apt_install cmake
fi
if ! command -v ninja >/dev/null 2>&1; then
  apt_install ninja-build || echo "setup_deps: ninja not installed, the build uses make" >&2
fi

# ---- GoogleTest from the system ----------------------------------------------
if [ ! -e /usr/include/gtest/gtest.h ] && [ ! -e /usr/local/include/gtest/gtest.h ]; then
  apt_install libgtest-dev
fi

# ---- CUTLASS headers from the pinned wheel -----------------------------------
stamp=.deps/cutlass/.flashssd-cutlass-${CUTLASS_VERSION}
if [ ! -e "$stamp" ] || [ ! -e "$CUTLASS_INCLUDE/cute/tensor.hpp" ]; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    apt_install python3-pip
  fi
  rm -rf .deps/cutlass
  mkdir -p .deps
  python3 -m pip install --quiet --no-deps --disable-pip-version-check --root-user-action=ignore \
    --target .deps/cutlass "nvidia-cutlass==${CUTLASS_VERSION}"
  if [ ! -e "$CUTLASS_INCLUDE/cute/tensor.hpp" ]; then
    echo "setup_deps: nvidia-cutlass==${CUTLASS_VERSION} installed but $CUTLASS_INCLUDE/cute/tensor.hpp is missing" >&2
    exit 1
  fi
  touch "$stamp"
fi

# ---- cuobjdump + nvdisasm, for the SASS check (scripts/check_sm90_sass.py) ------
# Only where the CUDA toolkit has none (nvcc installs without them exist): NVIDIA's
# pinned wheels into .deps/cuda-tools. Optional: without them that one test skips.
CUDA_TOOLS_VERSION=13.5.37
CUDA_TOOLS_BIN=.deps/cuda-tools/nvidia/cu13/bin
if ! command -v cuobjdump >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/cuobjdump ] && [ ! -x "$CUDA_TOOLS_BIN/nvdisasm" ]; then
  rm -rf .deps/cuda-tools
  if python3 -m pip install --quiet --no-deps --disable-pip-version-check --root-user-action=ignore \
      --target .deps/cuda-tools "nvidia-cuda-cuobjdump==${CUDA_TOOLS_VERSION}" "nvidia-cuda-nvdisasm==${CUDA_TOOLS_VERSION}"; then
    chmod +x "$CUDA_TOOLS_BIN"/* || true
  else
    echo "setup_deps: cuobjdump / nvdisasm not installed; the SASS check (sm90_sass_check) will skip" >&2
  fi
fi
echo "setup_deps: ok (CUTLASS ${CUTLASS_VERSION} headers in $CUTLASS_INCLUDE)"
