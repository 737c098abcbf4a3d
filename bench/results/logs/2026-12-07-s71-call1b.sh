#!/usr/bin/env bash
# Session 71, call 1 from ask 3 on (any H100 / H200; ~60 s of probe, ~400 s with the checks):
#  1. session 70's prepared A/B (`2026-12-07-s70-fmd2-call.sh`: main against fm, fm2, d2, fmd2,
#     fm2d2, 3 rounds; its header says how they were built) and xtz (session 70's `-xt.diff`
#     with -DXT_RELOAD_BEFORE_TURN -DXT_Z_BEFORE_TURN, built then, never run) on the gated rows;
#  2. if fm2 (the one with a library form: s70fm2 = branch s70-fm2,
#     `2026-12-07-s70-fm2-lib.patch`; d2's, `2026-12-07-s71-d2-lib.patch`, spills 4 / 8 bytes in
#     the fp16 N = 128 main kernels, so ptxas_guard stops its build) is >= 1% faster than main
#     on 11 CTAs and at R1 8k (medians over the rounds) gets scripts/device_variant.sh's suites
#     (GPU suite default and fix-up at 3 splits, Hopper suite) and sanitizers (memcheck and
#     racecheck on small shapes, both suites), then an API A/B against main's code (s65path), 2 rounds.
# Carry out/carry/{s71probes,s65path,s70fm2}.tar.xz (s71probes = out/s71ab: the probes
# main, fm, fm2, d2, fmd2, fm2d2, xtz of out/ab).
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s71-call1b.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
bash scripts/carry.sh unpack s71probes > /dev/null || exit 1
timeout 150 bash scripts/probe_ab.sh --dir out/s71ab --rounds 3 --variants "main fm fm2 d2 fmd2 fm2d2" > $OUT/probe_ab_fmd2.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
--final-states 0 --H 66 --batch 12
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
CFG
echo "probe_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab_fmd2.log
timeout 60 bash scripts/probe_ab.sh --dir out/s71ab --rounds 3 --variants "main xtz" > $OUT/probe_ab_xtz.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --z 1
CFG
echo "probe_ab xtz rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab_xtz.log
pick=$(python3 - "$OUT/probe_ab_fmd2.log" <<'PY'
import re, sys, statistics as st
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"round=\d+ (\S+) \[(.*)\] ([0-9.]+)$", line.strip())
    if m: runs.setdefault((m.group(2), m.group(1)), []).append(float(m.group(3)))
cfgs = ["--final-states 0 --H 66 --batch 1 --grid 11", "--final-states 0"]
best = None
for v, lib in (("fm2", "s70fm2"),):
    try:
        r = [st.median(runs[(c, v)]) / st.median(runs[(c, "main")]) for c in cfgs]
    except KeyError:
        continue
    print(f"{v}: 11 CTAs {r[0]:.4f}, R1 8k {r[1]:.4f}", file=sys.stderr)
    if all(x <= 0.99 for x in r) and (best is None or r[1] < best[1]): best = (lib, r[1])
print(best[0] if best else "none")
PY
)
echo "picked for the checks: $pick at ${SECONDS} s"
[ "$pick" != none ] || { echo "no variant verified: stop"; exit 3; }
for v in s65path $pick; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
. scripts/device_variant.sh
F=out/dev/$pick
VARIANT_SCHEMES=fixup variant_suites "$pick" "$F"
VARIANT_SCHEMES=fixup variant_sanitize "$pick" "$F" memcheck racecheck
variant_pack "${pick}_checks"
echo "checks done at ${SECONDS} s"
printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 32768" \
  "--config R2 --seqlen 2048" "--config R4 --seqlen 131072" \
  | timeout $((590 - SECONDS)) bash scripts/api_ab.sh --rounds 2 --lib main=out/dev/s65path --lib $pick=$F > $OUT/api_ab.log 2>&1
echo "api_ab rc=$?"; sed -n '/^summary/,$p' $OUT/api_ab.log
echo "done at ${SECONDS} s"
