#!/usr/bin/env bash
# Session 32, device call 10 (run inline): GPU pytest on e9f1eaf's library and module, without
# the 14 mamba_ssm Triton comparisons (their autotuning needs ~6 min, more than the session's
# device time left). Carry: out/dev/build-gpu, third_party_bench.
mkdir -p $OUT && PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json \
  timeout 230 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider -k "not triton" > $OUT/pytest_gpu.log 2>&1
echo rc=$?; tail -25 $OUT/pytest_gpu.log
