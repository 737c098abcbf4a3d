#!/usr/bin/env bash
# Session 70, from ask 9 on (any H100 / H200; ~350 s from ask 14 on):
#  1. fm and xt against main through the probe, 3 rounds (2026-12-07-s70-xt-call.sh says what
#     they are; fm also at faster decays, where more tiles are exact; ask 14 on: fewer
#     configurations, xtz dropped, API A/B 2 rounds, the device time being short);
#  2. where fm reads >= 1% faster than main on 11 CTAs and at R1 8k (medians over the rounds), the
#     library with fm (s70fm: `2026-12-07-s70-fm-lib.patch`, SASS identical to the probe's fm):
#     the Hopper suite, the GPU suite (default and fix-up at 3 splits), memcheck and racecheck on
#     the Hopper suite's small shapes, then an API A/B against main's code (s65path), 2 rounds.
# Carry out/carry/s65path.tar.xz out/carry/s70fm.tar.xz out/ab/{main,xt,fm}_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s70-call3.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
timeout 150 bash scripts/probe_ab.sh --rounds 3 --variants "main fm xt" > $OUT/probe_ab.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
--final-states 0 --H 66 --batch 12 | main fm
--final-states 0 --batch 128 --seqlen 512 | main fm
--final-states 0 --H 66 --batch 1 --grid 11 --z 1 | main fm
--final-states 0 --z 1 | main fm
--final-states 0 --H 66 --batch 1 --grid 11 --a-scale 4 | main fm
CFG
echo "probe_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab.log
go=$(python3 - "$OUT/probe_ab.log" <<'PY'
import re, sys, statistics as st
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"round=\d+ (\S+) \[(.*)\] ([0-9.]+)$", line.strip())
    if m: runs.setdefault((m.group(2), m.group(1)), []).append(float(m.group(3)))
cfgs = ["--final-states 0 --H 66 --batch 1 --grid 11", "--final-states 0"]
try:
    r = [st.median(runs[(c, "fm")]) / st.median(runs[(c, "main")]) for c in cfgs]
    print("yes" if all(x <= 0.99 for x in r) else "no", " ".join(f"{x:.4f}" for x in r))
except KeyError:
    print("no missing")
PY
)
echo "fm / main (11 CTAs, R1 8k): $go at ${SECONDS} s"
[[ $go == yes* ]] || { echo "fm not verified: stop"; exit 3; }
for v in s65path s70fm; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
F=out/dev/s70fm
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/fm_sm90.log 2>&1
echo "fm Hopper suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/fm_sm90.log
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_gpu_tests > $OUT/fm_gpu.log 2>&1
echo "fm GPU suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/fm_gpu.log
LD_LIBRARY_PATH=$PWD/$F FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $F/tests/gpu/flashssd_gpu_tests > $OUT/fm_gpu_fixup3.log 2>&1
echo "fm GPU suite, fix-up at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/fm_gpu_fixup3.log
for tool in memcheck racecheck; do
  LD_LIBRARY_PATH=$PWD/$F timeout 100 compute-sanitizer --tool $tool $F/tests/gpu/flashssd_sm90_gpu_tests \
    --gtest_filter='*Small*' > $OUT/fm_sm90_$tool.log 2>&1
  echo "fm sm90 $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/fm_sm90_$tool.log
done
(cd $OUT && tar -czf fm_checks.tgz fm_*.log && rm -f fm_*.log)
echo "checks done at ${SECONDS} s"
printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 32768" \
  "--config R2 --seqlen 2048" "--config R4 --seqlen 131072" \
  | timeout $((590 - SECONDS)) bash scripts/api_ab.sh --rounds 2 --lib main=out/dev/s65path --lib fm=$F > $OUT/api_ab_fm.log 2>&1
echo "api_ab rc=$?"; sed -n '/^summary/,$p' $OUT/api_ab_fm.log
echo "done at ${SECONDS} s"
