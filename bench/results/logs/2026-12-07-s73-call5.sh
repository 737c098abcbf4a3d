#!/usr/bin/env bash
# Session 73, ask 5 (status showed machines lent again after ask 4's pause; any H100 / H200):
#  - on an H200: 2026-12-07-s73-call-next.sh (session 72's call 4's A/B, scripts/ab_choose.py,
#    and the H200 record of the variant it chooses; ~190 s + ~300 s);
#  - on an H100: session 70's ncu reading on main's kernels since fm2 / d2 (the probe of
#    s72main, 719f9b9's build, whose kernels are main's: SASS-identical), scripts/device_ncu.sh,
#    ~150 s; then the same API A/B as on an H200 (the H100's side of d2n128 / gnofm2 / both), no
#    record.
# Carry out/carry/{s72main,s65path,s73d2n128,s73gnofm2,s73both}.tar.xz third_party_bench.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s73-call5.sh > $OUT/call.txt 2>&1
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [[ "$card" == *H200* ]]; then
  OUT=$OUT bash bench/results/logs/2026-12-07-s73-call-next.sh
  exit $?
fi
bash scripts/carry.sh unpack s72main > /dev/null || exit 1
mkdir -p "$OUT/ncu"
OUT=$OUT/ncu timeout 240 bash scripts/device_ncu.sh out/dev/s72main/bench/flashssd_sm90_forward_probe
echo "ncu rc=$? at ${SECONDS} s"
(cd "$OUT" && tar -cf ncu.tar ncu && rm -rf ncu)
for v in s65path s73d2n128 s73gnofm2 s73both; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
printf "%s\n" "--config R3 --seqlen 2048" "--config R3 --seqlen 2048 --z" "--config R1 --seqlen 512" \
  "--config R1 --seqlen 8192" "--config R1 --seqlen 32768" "--config R1 --seqlen 512 --z" \
  "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 32768 --z" "--config R1 --N 256 --seqlen 8192" \
  "--config R2 --seqlen 2048" "--config R4 --seqlen 131072" \
  | timeout $((580 - SECONDS)) bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/s72main --lib main69=out/dev/s65path \
      --lib d2n128=out/dev/s73d2n128 --lib gnofm2=out/dev/s73gnofm2 --lib both=out/dev/s73both > $OUT/api_ab.log 2>&1
echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/api_ab.log
