#!/bin/bash
# Session 12 call 2: ncu (full set, source counters) of the main pass at R1 8k (probe, N = 128),
# then the GPU pytest file on a265cf7's build.
B=out/dev/build-gpu; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
timeout 150 ncu --set full --import-source no -k regex:ssd_fwd --launch-skip 1 --launch-count 1 -o /tmp/main $B/bench/flashssd_sm90_forward_probe --N 128 --iters 2 > /tmp/ncu_run.log 2>&1; echo "ncu rc=$?"; tail -2 /tmp/ncu_run.log
ncu -i /tmp/main.ncu-rep --page details > $O/ncu_main_details.txt 2>&1
ncu -i /tmp/main.ncu-rep --page source --csv --print-source sass > /tmp/sass.csv 2>&1; echo "source csv rc=$? $(wc -l < /tmp/sass.csv) lines"
python3 bench/results/logs/2026-12-01-s12-ncu_top.py /tmp/sass.csv 80 > $O/ncu_main_top.txt 2>&1; head -c 600 $O/ncu_main_top.txt
cp /tmp/main.ncu-rep $O/ 2>/dev/null; ls -la $O
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 420 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -4 $O/pytest_gpu.log
