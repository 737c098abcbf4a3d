#!/usr/bin/env bash
# Session 36 calls A (the record on HEAD 76f3be1), B (the GPU pytest on its library) and H (the
# GPU pytest on 6cfa101's library): session 35's prepared script, run as it was written
# (PART=A / PART=B; OUT=<dir>; carry out/dev/build-gpu and third_party_bench).
exec bash "$(dirname "${BASH_SOURCE[0]}")/2026-12-04-s35-next-not-run.sh" "$@"
