set -u
O=$OUT; B=out/dev/build-gpu
# A/B: the split-sequence rows (state pass + boundary scan) on the base build (c7fe8e3) and this one, alternating.
for r in 1 2 3; do
  for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768"; do
    a=$(LD_LIBRARY_PATH=$PWD/out/dev/base timeout 60 out/dev/base/flashssd_bench $cfg --no-verify 2>/dev/null | python3 -c "import sys,json; print([json.loads(l)['median_ms'] for l in sys.stdin if l.startswith('{')][0])")
    b=$(LD_LIBRARY_PATH=$PWD/$B timeout 60 $B/bench/flashssd_bench $cfg --no-verify 2>/dev/null | python3 -c "import sys,json; print([json.loads(l)['median_ms'] for l in sys.stdin if l.startswith('{')][0])")
    echo "round $r [$cfg] base $a new $b"
  done
done
export LD_LIBRARY_PATH=$PWD/$B
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 450 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -25 $O/pytest_gpu.log
