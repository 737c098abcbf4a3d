#!/usr/bin/env bash
# Session 38 call C (-callC.py): R1 512 z from Python, host latency in or out of the window; and
# ncu's kernel list of one Python call of 512 z and 1k z. Carry out/dev/build-gpu.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
export PYTHONPATH=$PWD/$B/python LD_LIBRARY_PATH=$PWD/$B:${LD_LIBRARY_PATH:-}
timeout 300 python3 bench/results/logs/2026-12-04-s38-callC.py > $O/py.jsonl 2> $O/py.err
for i in 0 1; do
  ncu --clock-control none --metrics gpu__time_duration.sum --csv python3 bench/results/logs/2026-12-04-s38-callC.py --once $i > $O/once$i.ncu.csv 2> $O/once$i.ncu.err
  echo "== row $i"; python3 scripts/ncu_durations.py $O/once$i.ncu.csv 2>&1 | tail -15
done
cat $O/py.jsonl; tail -3 $O/py.err
