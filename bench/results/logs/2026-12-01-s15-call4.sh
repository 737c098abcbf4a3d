#!/bin/bash
# Session 15 call 4: API A/B of main (b1429d2, out/ab/mainlib) against b9b70c2 (out/dev/build-gpu)
# on the rows that read slower in call 3's record (R4, R1 32k, N = 256; fp32 dt), two rounds;
# then the GPU pytest file on b9b70c2.
B=out/dev/build-gpu; M=out/ab/mainlib; O=$OUT
for round in 1 2; do
  for args in "--config R4 --seqlen 131072" "--config R1 --seqlen 8192" "--config R1 --seqlen 32768" "--config R1 --seqlen 8192 --N 256"; do
    r=$(LD_LIBRARY_PATH=$PWD/$M timeout 60 $M/flashssd_bench $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | $args | main | $r"
    r=$(LD_LIBRARY_PATH=$PWD/$B timeout 60 $B/bench/flashssd_bench $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | $args | new | $r"
  done
done 2>&1 | tee $O/api_ab.log
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 480 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -30 $O/pytest_gpu.log
