#!/usr/bin/env bash
# Sets up the Python side of FlashSSD, idempotently (a second run only checks):
# a virtual environment in the ignored folder .deps/pyenv-<X.Y> holding what the
# Python bindings need to build (nanobind, scikit-build-core) and to be tested
# (pytest, numpy, and the CPU-capable torch wheel from PyPI).
#
#   scripts/setup_python.sh [--no-torch]
#
# Environment:
#   PYTHON          interpreter the environment is made from (default: python3);
#                   the module is built for this interpreter's version
#   FLASHSSD_VENV   where the environment goes (default: .deps/pyenv-<X.Y>)
#
# torch: PyPI's Linux x86_64 torch wheel is the CUDA build; it runs on a machine
# without a GPU (CPU tensors, torch.compile on CPU) but imports only with its
# CUDA runtime packages beside it, so the full dependency set is installed:
# about 2.7 GB downloaded, 4.7 GB on disk, about 2 minutes on a fast link.
# --no-torch skips it (the torch tests then skip, the numpy/DLPack tests run).
#
# stdout is only the path of the environment's python, so that
#   py=$(scripts/setup_python.sh)
#   cmake -S . -B build -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py"
# works; progress and errors go to stderr.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TORCH_SPEC="torch==2.11.0"
BUILD_SPECS=("nanobind==2.9.2" "scikit-build-core==0.11.6")
TEST_SPECS=("pytest>=8" "numpy>=1.24")

with_torch=1
for arg in "$@"; do
  case "$arg" in
    --no-torch) with_torch=0 ;;
    -h|--help) sed -n "2,24p" "$0"; exit 0 ;;
    *) echo "setup_python: unknown argument $arg" >&2; exit 2 ;;
  esac
done

PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "setup_python: interpreter '$PYTHON' not found (set PYTHON=...)" >&2
  exit 1
fi
pyver=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv=${FLASHSSD_VENV:-.deps/pyenv-$pyver}
py="$venv/bin/python"

specs=("${BUILD_SPECS[@]}" "${TEST_SPECS[@]}")
[ "$with_torch" = 1 ] && specs+=("$TORCH_SPEC")
stamp="$venv/.flashssd-setup"
want="${specs[*]}"

if [ -x "$py" ] && [ -e "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup_python: ok ($venv: ${specs[*]})" >&2
  echo "$(cd "$venv/bin" && pwd)/python"
  exit 0
fi

start=$(date +%s)
if [ ! -x "$py" ]; then
  mkdir -p "$(dirname "$venv")"
  "$PYTHON" -m venv "$venv" >&2 || {
    echo "setup_python: '$PYTHON -m venv' failed (Debian: apt-get install python3-venv)" >&2
    exit 1
  }
fi
echo "setup_python: installing ${specs[*]} into $venv" >&2
"$py" -m pip install --quiet --disable-pip-version-check --progress-bar off "${specs[@]}" >&2
if [ "$with_torch" = 1 ]; then
  "$py" -c 'import torch; torch.ones(2) @ torch.ones(2)' >&2 || {
    echo "setup_python: torch installed but does not import" >&2
    exit 1
  }
fi
echo "$want" > "$stamp"
echo "setup_python: installed ${specs[*]} in $venv ($(($(date +%s) - start)) s, $(du -sh "$venv" | cut -f1))" >&2
echo "$(cd "$venv/bin" && pwd)/python"
