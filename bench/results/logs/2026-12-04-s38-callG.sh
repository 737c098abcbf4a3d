#!/usr/bin/env bash
# Session 38 call G: the GPU pytest in full (with the mamba_ssm comparisons) on the library of
# call F (zr). Carry out/dev/build-gpu and third_party_bench.
exec env PART=B bash "$(dirname "${BASH_SOURCE[0]}")/2026-12-04-s35-next-not-run.sh" "$@"
