#!/usr/bin/env bash
# Session 43, call 4 (H200). Carry: out/carry (s43c.tar.xz = dev/build-gpu: 3154aa2; headpy: its Python package with
# main's library at 257ca28 in place of its own). The record of call 3 read R1 2k z +7.5%, 4k z
# +10.7%, 32k z +18.7% against the previous record while call 2's flashssd_bench A/B read those rows' code faster:
# compare.py's R1 rows (no attention; no Triton: third_party_bench left off the path, to fit the device time
# left), head and 3154aa2 alternated. As run: `ROUNDS=1 OUT=$OUT bash <this>` then, on the warm machine,
# `ROUNDS="2 3" OUT=$OUT timeout 150 bash <this>` (the summary's glob then missed round 3; -call4/summary.txt has
# all three rounds, read from the logs' per-row lines).
set -u
O=${OUT:?}; mkdir -p $O
bash scripts/carry.sh unpack s43c > /dev/null || exit 1
for round in ${ROUNDS:-1 2}; do
  for v in head new; do
    if [ $v = head ]; then P=out/headpy/python; else P=out/dev/build-gpu/python; fi
    PYTHONPATH=$P timeout 100 python3 bench/compare.py --configs R1 --no-attention --out-dir $O/${v}_$round \
      --time-limit 80 --probe-timeout 60 > $O/${v}_$round.log 2>&1
    echo "$v round $round rc=$?"
  done
done
python3 - "$O" <<'PY'
import json, glob, sys, os
o = sys.argv[1]
runs = {}
for f in sorted(glob.glob(o + '/*_[0-9]/*.json')):
    v = os.path.basename(os.path.dirname(f))
    for r in json.load(open(f))['rows']:
        runs.setdefault((r['seqlen'], r['z']), {})[v] = r['flashssd_ms']
for k in sorted(runs):
    print(k, ' '.join('%s %.4f' % (v, t) for v, t in sorted(runs[k].items()) if t))
PY
