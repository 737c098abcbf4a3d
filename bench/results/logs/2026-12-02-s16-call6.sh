#!/bin/bash
# Session 16 call 6: the benchmark of record on the final kernels, lean (the device time left
# holds no more): device_session.sh's segsum section and compare.py with the attention
# baselines, without its suites and sanitizers (calls 4-5 ran those on 9fbb8cb, whose kernels
# differ from these only in the ungated N = 128 / 256 stage's unused z tile, back to 7960b1c's
# tested layout).
B=out/dev/build-gpu; O=$OUT/ds; mkdir -p $O
export LD_LIBRARY_PATH=$PWD/$B
export FLASHSSD_COMMIT=$1
timeout 60 python3 bench/segsum_section.py --build "$B" --out "$O/segsum_section.json" --rounds 2 > $O/segsum_section.log 2>&1; echo "segsum_section rc=$?"
PYTHONPATH=$B/python:third_party_bench timeout 350 python3 bench/compare.py --out-dir "$O" \
  --time-limit 325 --probe-timeout 70 --merge-json "$O/segsum_section.json" > "$O/bench.log" 2>&1
echo "bench rc=$?"; tail -45 "$O/bench.log"
