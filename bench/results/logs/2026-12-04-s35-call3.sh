#!/usr/bin/env bash
# Session 35, device call 3: (1) probe A/B (3 rounds) of HEAD's kernels (head = is) against
#   fsd: a factored tile's state decay takes factored_scale (equal to the record's total_decay
#   there: carried where it refolds, else 1) instead of reloading total_decay after the GEMMs;
#   fse: fsd with the decay moved ahead, under h C^T (after the intra operand's scaling), off
#   the chain between the GEMMs' retirement and the update's issue.
# (2) the GPU pytest file in full (the 14 mamba_ssm comparisons too) on HEAD's library
#   (134fbc386a0d). Carry out/dev/build-gpu, out/ab35, third_party_bench.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --z 1" "--final-states 0 --a-scale 4" "--final-states 0 --packed 4" \
  | bash scripts/probe_ab.sh --dir out/ab35 --rounds 3 --variants "head fsd fse" > $O/ab.log 2>&1
tail -8 $O/ab.log
B=out/dev/build-gpu; export LD_LIBRARY_PATH=$PWD/$B
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 440 \
  python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -5 $O/pytest_gpu.log
