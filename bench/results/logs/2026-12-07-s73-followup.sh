#!/usr/bin/env bash
# Session 73: the follow-up on the warm H200 after 2026-12-07-s73-call-next.sh (~350 s).
# NAME = the variant call-next chose (both, d2n128, gnofm2) or none.
#  - NAME set: the checks on its build before a merge (variant_quick_checks: the GPU suite by
#    default and with the fix-up at 3 splits, the Hopper suite, memcheck and racecheck on small
#    shapes; its state pass is main's), packed as $OUT/checks.tgz;
#  - then session 70's ncu reading (scripts/device_ncu.sh) on that build's probe, or on main's
#    (s72main) where none was chosen, into $OUT/ncu.tar.
# Carry out/carry/s73<NAME>.tar.xz (or s72main.tar.xz for none).
#   device: NAME=both OUT=$OUT bash bench/results/logs/2026-12-07-s73-followup.sh > $OUT/call.txt 2>&1
set -u
build=s72main
if [ "${NAME:?}" != none ]; then
  build=s73$NAME
  bash scripts/carry.sh unpack $build > /dev/null || exit 1
  mkdir -p "$OUT/chk"
  OUT=$OUT/chk timeout 230 bash -c '. scripts/device_variant.sh; variant_quick_checks "$0" "$1"; variant_pack checks' \
    "$NAME" "out/dev/$build"
  echo "checks rc=$? at ${SECONDS} s"
  mv "$OUT/chk/checks.tgz" "$OUT/" 2>/dev/null; rm -rf "$OUT/chk"
else
  bash scripts/carry.sh unpack $build > /dev/null || exit 1
fi
mkdir -p "$OUT/ncu"
OUT=$OUT/ncu timeout $((585 - SECONDS)) bash scripts/device_ncu.sh out/dev/$build/bench/flashssd_sm90_forward_probe
echo "ncu rc=$? at ${SECONDS} s"
(cd "$OUT" && tar -cf ncu.tar ncu && rm -rf ncu)
