#!/usr/bin/env bash
# Session 71, call 2 (any H100 / H200; ~350 s): fm2d2 (session 70's fm2 producer + the main
# pass's dt two rounds ahead, kMainDtDepth 2 but in the fp16 N = 128 two-head kernels, which
# spill at two; branch s71-fm2d2, `2026-12-07-s71-fm2d2-lib.patch`, staged as s71fm2d2), which
# call 1 (H100 probe) read at R1 8k -7.1%, H = 66 x 12 -6.0%, 11 CTAs -0.9%:
#  1. the probe, 3 rounds: main, fm2, d2, fm2d2 on more shapes (512 and 32k tokens, z, decays
#     4x, packed; d2 alone at N = 64 and 256, where the library form also takes two rounds);
#  2. the API against main's code (s65path), 3 rounds, twelve rows (fp16 R1 8k: a control whose
#     kernel did not change);
#  3. the checks (scripts/device_variant.sh): GPU suite by default and with the fix-up at 3 splits,
#     Hopper suite; memcheck and racecheck on small shapes (both suites).
# Carry out/carry/{s71probes,s65path,s71fm2d2}.tar.xz.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s71-call2.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
for v in s71probes s65path s71fm2d2; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
timeout 120 bash scripts/probe_ab.sh --dir out/s71ab --rounds 3 --variants "main fm2 d2 fm2d2" > $OUT/probe_ab.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0
--final-states 0 --batch 128 --seqlen 512
--final-states 0 --batch 2 --seqlen 32768
--final-states 0 --z 1
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --a-scale 4
--final-states 0 --packed 4
--final-states 0 --N 64 | main d2
--final-states 0 --N 256 | main d2
CFG
echo "probe_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/probe_ab.log
F=out/dev/s71fm2d2
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 2048" "--config R1 --seqlen 8192" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 512 --z" "--config R1 --seqlen 8192 --z" "--config R2 --seqlen 2048" "--config R2 --seqlen 2048 --z" \
  "--config R3 --seqlen 2048" "--config R3 --seqlen 2048 --z" "--config R4 --seqlen 131072" "--config R1 --N 256 --seqlen 8192" \
  "--config R1 --seqlen 8192 --dtype fp16" \
  | timeout 200 bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/s65path --lib fm2d2=$F > $OUT/api_ab.log 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/api_ab.log
. scripts/device_variant.sh
VARIANT_SCHEMES=fixup variant_suites fm2d2 "$F"
VARIANT_SCHEMES=fixup variant_sanitize fm2d2 "$F" memcheck racecheck
variant_pack fm2d2_checks
echo "done at ${SECONDS} s"
