#!/usr/bin/env bash
# Fetch the Triton baseline of the benchmark (DESIGN.md section 6): the python
# sources of mamba_ssm's chunked SSD kernels, from the `mamba-ssm` sdist on the
# package registry, into third_party_bench/ (git-ignored, never committed).
#
#   scripts/fetch_triton_baseline.sh            # idempotent: a no-op when present
#   FORCE=1 scripts/fetch_triton_baseline.sh    # fetch again
#
# Result: third_party_bench/mamba_ssm-<ver>/mamba_ssm/{ops/triton,utils}/*.py plus
# LICENSE and PKG-INFO (well under 1 MB), which bench/triton_baseline.py loads
# without importing mamba_ssm's compiled extensions. Carry third_party_bench/ to
# the GPU machine (it has no network).
#
# Why not just `pip download`: pip prepares the sdist's metadata after the
# download, and mamba-ssm's setup.py imports torch, so on a machine without torch
# `pip download` fails *after* it has unpacked the sdist. We therefore run pip
# with --no-clean in a private TMPDIR and take the unpacked sdist from there when
# pip did not leave the .tar.gz (it does leave it when torch is installed).
set -euo pipefail

VERSION="${MAMBA_SSM_VERSION:-2.3.2.post1}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST_ROOT="${ROOT}/third_party_bench"
DEST="${DEST_ROOT}/mamba_ssm-${VERSION}"
PIP="${PIP:-python3 -m pip}"

report() {
  echo "fetch_triton_baseline: ${DEST} ($(du -sh "${DEST}" | cut -f1), $(find "${DEST}" -type f | wc -l) files)"
  echo "fetch_triton_baseline: carry third_party_bench/ ($(du -sh "${DEST_ROOT}" | cut -f1) in all)"
}

if [[ -f "${DEST}/mamba_ssm/ops/triton/ssd_combined.py" && -f "${DEST}/.complete" && "${FORCE:-0}" != 1 ]]; then
  echo "fetch_triton_baseline: already present"
  report
  exit 0
fi

mkdir -p "${DEST_ROOT}"
WORK="$(mktemp -d "${DEST_ROOT}/.fetch.XXXXXX")"
trap 'rm -rf "${WORK}"' EXIT
mkdir -p "${WORK}/dl" "${WORK}/tmp"

echo "fetch_triton_baseline: pip download mamba-ssm==${VERSION} (sdist, no deps)"
set +e
TMPDIR="${WORK}/tmp" ${PIP} download --no-deps --no-binary :all: --no-clean \
  "mamba-ssm==${VERSION}" -d "${WORK}/dl" >"${WORK}/pip.log" 2>&1
PIP_RC=$?
set -e

SRC=""
TARBALL="$(find "${WORK}/dl" -maxdepth 1 -name 'mamba[-_]ssm-*.tar.gz' | head -n1)"
if [[ -n "${TARBALL}" ]]; then
  echo "fetch_triton_baseline: got $(basename "${TARBALL}"), unpacking"
  mkdir -p "${WORK}/unpack"
  tar -xzf "${TARBALL}" -C "${WORK}/unpack"
  SRC="$(find "${WORK}/unpack" -mindepth 1 -maxdepth 1 -type d | head -n1)"
else
  # pip exits non-zero at metadata preparation (setup.py imports torch); the
  # sdist it downloaded is unpacked under our TMPDIR (kept by --no-clean).
  PKG="$(find "${WORK}/tmp" -maxdepth 3 -name PKG-INFO -path '*mamba*' | head -n1 || true)"
  if [[ -n "${PKG}" ]]; then
    SRC="$(dirname "${PKG}")"
    echo "fetch_triton_baseline: pip exited ${PIP_RC} at metadata preparation (expected without torch); using the unpacked sdist"
  fi
fi

if [[ -z "${SRC}" || ! -f "${SRC}/mamba_ssm/ops/triton/ssd_combined.py" ]]; then
  echo "fetch_triton_baseline: FAILED to obtain the mamba-ssm ${VERSION} sdist; pip log:" >&2
  tail -n 40 "${WORK}/pip.log" >&2
  exit 1
fi
if ! grep -q "^Version: ${VERSION}\$" "${SRC}/PKG-INFO"; then
  echo "fetch_triton_baseline: FAILED: PKG-INFO of the sdist is not version ${VERSION}" >&2
  grep '^Version:' "${SRC}/PKG-INFO" >&2 || true
  exit 1
fi

# Keep only the python sources the baseline needs.
rm -rf "${DEST}"
mkdir -p "${DEST}/mamba_ssm/ops/triton" "${DEST}/mamba_ssm/utils"
cp "${SRC}/LICENSE" "${SRC}/PKG-INFO" "${DEST}/"
cp "${SRC}/mamba_ssm/__init__.py" "${DEST}/mamba_ssm/"        # kept for reference; never imported
cp "${SRC}/mamba_ssm/ops/__init__.py" "${DEST}/mamba_ssm/ops/"
cp "${SRC}"/mamba_ssm/ops/triton/*.py "${DEST}/mamba_ssm/ops/triton/"
cp "${SRC}"/mamba_ssm/utils/__init__.py "${SRC}"/mamba_ssm/utils/torch.py \
   "${SRC}"/mamba_ssm/utils/determinism.py "${DEST}/mamba_ssm/utils/"
(cd "${DEST}" && find . -type f -name '*.py' | sort | xargs sha256sum > SHA256SUMS)
touch "${DEST}/.complete"
rm -rf "${WORK}"
report
