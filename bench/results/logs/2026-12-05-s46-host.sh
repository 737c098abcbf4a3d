#!/usr/bin/env bash
# Session 46, branch s46-dlpack: the op's body hands tensors over as to_dlpack capsules.
# One device call (~2 min): the GPU pytest without its mamba_ssm comparisons (the same
# operator path: float64 comparisons, CUDA graph capture, torch.compile, strided inputs,
# errors), then the eager host time by layer, main's Python package (old) and the branch's
# (new) alternated twice, each with its own host_overhead.py, on main's library (out/dev/cstma).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s46-host.sh   (carry out/carry out/s46old)
#   out/s46old holds main's _ops.py and host_overhead.py (git show main:...).
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s45next > /dev/null || exit 1
L=out/dev/cstma
rm -rf /tmp/pk_old /tmp/pk_new && mkdir -p /tmp/pk_old /tmp/pk_new
cp -r $L/python/flashssd /tmp/pk_old/ && cp -r $L/python/flashssd /tmp/pk_new/
cp out/s46old/_ops.py /tmp/pk_old/flashssd/_ops.py
cp python/flashssd/*.py /tmp/pk_new/flashssd/
export LD_LIBRARY_PATH=$PWD/$L
PYTHONPATH=/tmp/pk_new:third_party_bench timeout 240 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > $O/pytest_gpu_quick.log 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -3 $O/pytest_gpu_quick.log
for round in 1 2; do
  PYTHONPATH=/tmp/pk_old timeout 120 python3 out/s46old/host_overhead.py --json $O/host_old_$round.json > $O/host_old_$round.log 2>&1
  echo "old round $round rc=$?"; cat $O/host_old_$round.log | head -5
  PYTHONPATH=/tmp/pk_new timeout 120 python3 bench/host_overhead.py --json $O/host_new_$round.json > $O/host_new_$round.log 2>&1
  echo "new round $round rc=$?"; cat $O/host_new_$round.log | head -7
done
# The device returns at most 8 files from $OUT: pack the nine logs into one.
(cd $O && tar -czf host_logs.tgz pytest_gpu_quick.log host_*.log host_*.json && rm -f pytest_gpu_quick.log host_*.log host_*.json)
ls $O
