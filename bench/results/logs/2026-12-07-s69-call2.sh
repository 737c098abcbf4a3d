#!/usr/bin/env bash
# Session 69, from ask 9 on. On an H200: 2026-12-07-s69-h200.sh (main / xs / xi at the SM's own
# rate and on the full grid, then the record and the checks). On an H100:
#  1. xs and xi against main through the probe, 3 rounds (2026-12-07-s69-call.sh says what they are);
#  2. where xi reads >= 1% faster than main on 11 CTAs and at R1 8k (medians over the rounds), the
#     library with xi (s69xi: `2026-12-07-s69-xi-lib.patch`, SASS identical to the probe's xi):
#     the Hopper suite, the GPU suite (default and fix-up at 3 splits), memcheck and racecheck on
#     the Hopper suite's small shapes, then an API A/B against main's code (s65path), 3 rounds.
# Carry out/carry/s65path.tar.xz out/carry/s69xi.tar.xz third_party_bench out/ab/{main,xs,xi}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s69-call2.sh > $OUT/call.txt 2>&1   (~450 s on an H100)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
if [[ "$card" == *H200* ]]; then
  exec bash bench/results/logs/2026-12-07-s69-h200.sh
fi
timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "main xs xi" > $OUT/probe_ab_xs_xi.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
--final-states 0 --batch 128 --seqlen 512
--final-states 0 --H 66 --batch 1 --grid 11 --a-scale 4
CFG
echo "probe_ab rc=$?"; tail -24 $OUT/probe_ab_xs_xi.log
# xi's median over main's on the first two configurations (11 CTAs, R1 8k): both <= 0.99 to go on.
go=$(python3 - "$OUT/probe_ab_xs_xi.log" <<'PY'
import re, sys, statistics as st
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"round=\d+ (\S+) \[(.*)\] ([0-9.]+)$", line.strip())
    if m: runs.setdefault((m.group(2), m.group(1)), []).append(float(m.group(3)))
cfgs = ["--final-states 0 --H 66 --batch 1 --grid 11", "--final-states 0"]
try:
    r = [st.median(runs[(c, "xi")]) / st.median(runs[(c, "main")]) for c in cfgs]
    print("yes" if all(x <= 0.99 for x in r) else "no", " ".join(f"{x:.4f}" for x in r))
except KeyError:
    print("no missing")
PY
)
echo "xi / main (11 CTAs, R1 8k): $go at ${SECONDS} s"
[[ $go == yes* ]] || { echo "xi not verified: stop"; exit 3; }
for v in s65path s69xi; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
F=out/dev/s69xi
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/xi_sm90.log 2>&1
echo "xi Hopper suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/xi_sm90.log
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_gpu_tests > $OUT/xi_gpu.log 2>&1
echo "xi GPU suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/xi_gpu.log
LD_LIBRARY_PATH=$PWD/$F FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $F/tests/gpu/flashssd_gpu_tests > $OUT/xi_gpu_fixup3.log 2>&1
echo "xi GPU suite, fix-up at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/xi_gpu_fixup3.log
for tool in memcheck racecheck; do
  LD_LIBRARY_PATH=$PWD/$F timeout 100 compute-sanitizer --tool $tool $F/tests/gpu/flashssd_sm90_gpu_tests \
    --gtest_filter='*Small*' > $OUT/xi_sm90_$tool.log 2>&1
  echo "xi sm90 $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/xi_sm90_$tool.log
done
(cd $OUT && tar -czf xi_checks.tgz xi_*.log && rm -f xi_*.log)
echo "checks done at ${SECONDS} s"
printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 32768" \
  "--config R2 --seqlen 2048" "--config R4 --seqlen 131072" \
  | timeout 200 bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/s65path --lib xi=$F > $OUT/api_ab_xi.log 2>&1
echo "api_ab rc=$?"; tail -8 $OUT/api_ab_xi.log
echo "done at ${SECONDS} s"
