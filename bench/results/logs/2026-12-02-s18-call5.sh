#!/bin/bash
# Session 18 call 5: TileDecay's pad rows (the producer's diagonal-column stores without the
# 4-way bank conflict) against ffc3d6a: API A/B; checks (PART=checks, and the sm80 suite with
# the Hopper path disabled, whose kernels share TileDecay); ncu SourceCounters of the main pass
# per SASS line (R1 8k: where the shared-memory wavefronts come from).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
F=out/dev/build-gpu; A=out/ab/ffclib; B=$F/bench/flashssd_bench
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s --no-verify\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 512" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 8192 --N 64" \
  "--config R1 --seqlen 8192 --N 256" "--config R2" "--config R3" \
  | timeout 200 bash scripts/api_ab.sh --rounds 2 --lib ffc=$A --lib pad=$F > $O/api_ab.log 2>&1
cat $O/api_ab.log
FLASHSSD_COMMIT=pad PART=checks OUT=$O/ds timeout 200 bash scripts/device_session.sh $F > $O/checks.log 2>&1; echo "checks rc=$?"; grep -E "rc=|PASSED|FAILED|SUMMARY" $O/checks.log
FLASHSSD_DISABLE_SM90=1 LD_LIBRARY_PATH=$PWD/$F timeout 120 $F/tests/gpu/flashssd_gpu_tests > $O/sm80_tests.log 2>&1; echo "sm80 gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm80_tests.log | tail -3
LD_LIBRARY_PATH=$PWD/$F timeout 150 ncu --section SourceCounters --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --import-source no \
  -k regex:ssd_fwd_sm90_kernel --launch-count 1 -o /tmp/mp $B --config R1 --seqlen 8192 --iters 1 --warmup 0 --no-verify > /tmp/ncu_mp.log 2>&1; echo "ncu rc=$?"; tail -2 /tmp/ncu_mp.log
ncu -i /tmp/mp.ncu-rep --page details > $O/ncu_mp_details.txt 2>&1
ncu -i /tmp/mp.ncu-rep --page source --csv --print-source sass > /tmp/sass_mp.csv 2>&1
python3 - /tmp/sass_mp.csv $O/ncu_mp_sass.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
hi = next(i for i, r in enumerate(rows) if any('Source' == c for c in r))
head = rows[hi]
print("columns:", head)
want = [i for i, c in enumerate(head) if c in ('Address', 'Source', 'Instructions Executed') or 'Warp Stall Sampling' in c or 'Wavefronts' in c or 'Shared' in c or 'Bank' in c]
w = csv.writer(open(sys.argv[2], 'w', newline=''))
w.writerow([head[i] for i in want])
for r in rows[hi + 1:]:
    if len(r) > max(want): w.writerow([r[i] for i in want])
PY
gzip -9 $O/ncu_mp_sass.csv; ls -la $O
