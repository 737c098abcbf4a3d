#!/usr/bin/env bash
# Session 37 call O: the GPU pytest in full (with the 14 mamba_ssm comparisons) on ee986d0's
# library (zp), as session 36's -callAB.sh PART=B. Carry out/dev/build-gpu and third_party_bench.
PART=B exec bash "$(dirname "${BASH_SOURCE[0]}")/2026-12-04-s36-callAB.sh" "$@"
