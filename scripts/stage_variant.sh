#!/usr/bin/env bash
# Builds build-gpu/ with a patch applied to the tree (or as it is, without one), stages it as
# out/dev/<name> (scripts/stage_device_build.sh), packs it into out/carry/<name>.tar.xz
# (scripts/carry.sh) and takes the patch back out: one library variant for a device call.
# The tree's src/, include/ and tests/ must have no other changes, and nothing may be committed with
# `git commit -a` while it builds: the patch is in the tree until the build ends.
#   scripts/stage_variant.sh <name> [patch]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name=${1:?stage_variant: name the stage}
patch=${2:-}
git diff --quiet -- src include tests || { echo "stage_variant: src/, include/ or tests/ has changes" >&2; exit 1; }
if [ -n "$patch" ]; then
  # A patch made with `git diff main <branch>` against an older main also carries main's newer
  # commits, reverted: outside the library's sources that once reverted and deleted logs (session 59).
  outside=$(git apply --numstat "$patch" | awk '{print $3}' | grep -Ev '^(src|include|tests)/' || true)
  [ -z "$outside" ] || { echo "stage_variant: the patch touches files outside src/, include/ and tests/: $outside" >&2; exit 1; }
  git apply "$patch"
fi
restore() { [ -z "$patch" ] || git apply -R "$patch"; }  # (also removes the files the patch adds)
trap restore EXIT
cmake --build build-gpu
bash scripts/stage_device_build.sh build-gpu "$name"
[ -n "$patch" ] || git rev-parse --short=12 HEAD > "out/dev/$name/COMMIT"  # (a record names it)
bash scripts/carry.sh pack "$name" "dev/$name"
