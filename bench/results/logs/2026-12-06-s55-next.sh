#!/usr/bin/env bash
# For the next session, one call (~270 s for the record, then the suites and sanitizers where
# TOTAL_ALL leaves time): the record on main after session 55 (staged s55main by
# `bash scripts/prepare_record.sh s55main`; its commit in out/dev/s55main/COMMIT). Ask for an
# nvidia-h200: REQUIRE_GPU=H200 (the default here) stops in seconds on another card, so that an
# H100 start costs only the start (session 55: six asks, six H100s; a failed ask ~25-50 s). With
# REQUIRE_GPU= (empty) it records on any card. Main's kernels since the last H200 record
# (ad8e9d9, session 53): the float4 boundary scan (0da223a), the N = 256 warpgroup broadcast
# (0840a92), the N = 256 short item prologue (2db445e); their suites, sanitizers and GPU
# pytest ran on H100s (session 54 calls 1-2, 4, 7-8; session 55 calls 1-2, 7-9).
#   device: [REQUIRE_GPU=] [TOTAL_ALL=<s>] OUT=$OUT bash bench/results/logs/2026-12-06-s55-next.sh   (carry out/carry third_party_bench)
REQUIRE_GPU=${REQUIRE_GPU-H200} exec bash scripts/device_record.sh s55main
