#!/bin/bash
# Session 23 call 1 (trimmed after the device refused five starts: cpasync left out, cpf supersedes it): (a) session 22's prepared cp.async dt (-s22-call5-cpasync.diff) against
# HEAD's kernel by the probe (three rounds; the 512-token row without final states, as the
# benchmark times it, and with them, to size the probe's 268 MB of states); (b) where the split
# rows' time goes: every kernel's duration at the GPU's own clocks (ncu --clock-control none)
# for R4 128k / 512k and R1 32k / 16k through the API (library = out/dev/build-gpu, HEAD).
# Builds: out/ab/base_probe = scripts/build_probe.sh out/ab/base_probe (HEAD);
# out/ab/cpasync_probe = scripts/build_probe.sh /tmp/cpa out/ab/cpasync_probe (/tmp/cpa = cp -r
# src include bench + the diff); out/ab/cpf_probe from /tmp/cpf = HEAD + -call1-cpf.diff: the ring
# runs across items (a cursor walks the CTA's (item, tile) sequence 4 producer steps ahead, so
# an item's first dt were asked for during the previous item: the 512-token row's per-item
# start) and takes 16-bit dt too (the aligned 4-byte word around the element); out/ab/sw1_probe
# from HEAD + -call1-sw1.diff: an item's first tile waits for the store of two tiles back only
# (tma_store_wait<1>), not for the previous item's last y, stored just before. Carry out/ab, out/dev.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512 --final-states 0" "--N 128 --batch 128 --seqlen 512 | base" \
  "--N 128 --z 1" "--N 64" "--N 128 --dt-bf16 1 | base cpf" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base cpf sw1" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log | tail -30
B=out/dev/build-gpu
for args in "--config R4" "--config R1 --batch 2 --seqlen 32768"; do
  echo "== $args"
  LD_LIBRARY_PATH=$PWD/$B timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    $B/bench/flashssd_bench $args --iters 2 --warmup 1 --no-verify > "$O/ncu_${args//[ -]/_}.csv" 2>&1
  echo "rc=$?"
  python3 - "$O/ncu_${args//[ -]/_}.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print(open(sys.argv[1]).read()[-2000:]); sys.exit()
h = rows[0]; k = h.index("Kernel Name"); v = h.index("Metric Value"); u = h.index("Metric Unit"); i = h.index("ID")
per = collections.OrderedDict()
for r in rows[1:]:
    per.setdefault(r[k][:60], []).append((float(r[v].replace(",", "")), r[u]))
for name, vals in per.items():
    print(f"  {name:60s} n={len(vals)} " + " ".join(f"{x:.1f}{un}" for x, un in vals))
PY
done
