#!/usr/bin/env bash
# Session 33, device call 7: the benchmark of record on 7644e32's library (the factored form's
# range per tile, x's ldmatrix earlier). PART=bench of scripts/device_session.sh (compare.py,
# placements 3). Carry: out/dev/build-gpu (staged from 7644e32), third_party_bench.
set -u
O=${OUT:?}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
ls $O/bench
# Then the GPU pytest file without the 14 mamba_ssm Triton comparisons (their autotuning needs ~6 min).
PYTHONPATH=out/dev/build-gpu/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 230 \
  python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider -k "not triton" > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -3 $O/pytest_gpu.log
