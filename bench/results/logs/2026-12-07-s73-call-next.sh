#!/usr/bin/env bash
# Session 73's prepared call (no H200 came in session 73: ten asks, one H100, call 5). Session
# 72's call 4 and the record it would lead to, in one call on an H200 (~80 s + ~290 s: the A/B of
# 5 libraries took 69 s on an H100 in call 5), so that a merge decided by the A/B does not wait
# for another machine:
#  1. the API, 3 rounds, 11 rows (R3, the gated rows, N = 256, R2, R4): main = s72main (719f9b9,
#     the build session 72 recorded), main69 = s65path (the build session 69 recorded), and the
#     session-73 builds of branches s73-d2n128, s73-gnofm2, s73-both (3e2cf9d + session 72's
#     patches rebased: `2026-12-07-s72-d2n128-lib.patch`, `2026-12-07-s73-gnofm2-lib.patch`,
#     `2026-12-07-s73-both-lib.patch`; each SASS-identical, 68 kernels, to session 72's staged
#     s72d2n128 / s72gnofm2 / s72both, whose kernels are each byte-identical to s65path's or
#     s72main's: every kernel here already passed the checks);
#  2. scripts/ab_choose.py: no row more than 0.5% slower than main, and both, else d2n128, R3
#     more than 5% faster (what they cost the H100's R3: session 73 call 5), else gnofm2, R1
#     512 z and R1 32k z more than 0.5% faster; else none;
#  3. if one qualifies, the H200 record of it (scripts/device_record.sh, checks left to the
#     follow-up call).
# Exits 3 at once on another card (the question is the H200's). RECORD=0: steps 1-2 only (~200 s).
# Carry out/carry/{s72main,s65path,s73d2n128,s73gnofm2,s73both}.tar.xz third_party_bench.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s73-call-next.sh > $OUT/call.txt 2>&1
# Follow-up on the same machine, warm: 2026-12-07-s73-followup.sh (the chosen build's checks,
# then the ncu reading), NAME=<chosen> (or none), carrying out/carry/s73<chosen>.tar.xz (or
# s72main's).
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
[[ "$card" == *H200* ]] || { echo "not an H200 ($card): nothing run"; exit 3; }
for v in s72main s65path s73d2n128 s73gnofm2 s73both; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
R3="--config R3 --seqlen 2048" Z512="--config R1 --seqlen 512 --z" Z32k="--config R1 --seqlen 32768 --z"
libs=(--lib main=out/dev/s72main)  # (NO_MAIN69=1: without session 69's build, ~40 s less)
[ -n "${NO_MAIN69:-}" ] || libs+=(--lib main69=out/dev/s65path)
libs+=(--lib d2n128=out/dev/s73d2n128 --lib gnofm2=out/dev/s73gnofm2 --lib both=out/dev/s73both)
printf "%s\n" "$R3" "--config R3 --seqlen 2048 --z" "--config R1 --seqlen 512" \
  "--config R1 --seqlen 8192" "--config R1 --seqlen 32768" "$Z512" \
  "--config R1 --seqlen 8192 --z" "$Z32k" "--config R1 --N 256 --seqlen 8192" \
  "--config R2 --seqlen 2048" "--config R4 --seqlen 131072" \
  | timeout 220 bash scripts/api_ab.sh --rounds 3 "${libs[@]}" > $OUT/api_ab.log 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/api_ab.log
# (d2n128 costs the H100 R3 +5.0%, both +5.1%: session 73 call 5; so on the H200 they must gain
# more than that on R3 to be chosen, gnofm2 (-0.3..+0.1% on the H100's gated rows) 0.5%.)
chosen=$(python3 scripts/ab_choose.py $OUT/api_ab.log --base main --gain 5 --loss 0.5 --explain \
  --candidate "both=$R3" --candidate "d2n128=$R3")
[ "$chosen" != none ] || chosen=$(python3 scripts/ab_choose.py $OUT/api_ab.log --base main --gain 0.5 --loss 0.5 \
  --explain --candidate "gnofm2=$Z512;$Z32k")
echo "chosen: $chosen"
[ "$chosen" != none ] || exit 0
[ "${RECORD:-1}" = 1 ] || { echo "RECORD=0: no record"; exit 0; }
# (CALL_LIMIT: the call's own limit where the device budget makes it shorter than 600 s; the
# record takes ~290 s)
[ $(( ${CALL_LIMIT:-600} - SECONDS )) -ge 310 ] || { echo "no record: $(( ${CALL_LIMIT:-600} - SECONDS )) s left"; exit 0; }
REQUIRE_GPU=H200 TOTAL_ALL=$(( ${CALL_LIMIT:-600} - 15 - SECONDS )) OUT=$OUT bash scripts/device_record.sh s73$chosen
echo "record rc=$? at ${SECONDS} s"
