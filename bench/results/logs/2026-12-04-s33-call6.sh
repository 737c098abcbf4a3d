#!/usr/bin/env bash
# Session 33, device call 6: the factored form's range per tile (r: total >= 2^-96 and carried >=
# 2^-120 instead of total >= 2^-56), x's ldmatrix before the state's conversion (xe), both (rg =
# the library staged in out/dev/build-gpu), against HEAD's kernels (ref); then the checks on rg's
# library. Carry: out/dev/build-gpu, out/ab43, out/ab44.
set -u
O=${OUT:?}; mkdir -p $O out/ab
cp out/ab43/ref_probe out/ab44/xe_probe out/ab44/r_probe out/ab44/rg_probe out/ab/
printf "%s\n" "--final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--final-states 0 --z 1" \
  "--final-states 0 --a-scale 4" "--final-states 0 --a-scale 4 --z 1" "--final-states 0 --a-scale 8" \
  "--final-states 0 --a-scale 8 --z 1" "--final-states 0 --packed 4" |
  bash scripts/probe_ab.sh --dir out/ab --rounds 3 --variants "ref xe r rg" > $O/probe_ab.log 2>&1
grep -A20 summary $O/probe_ab.log
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "StrongDecay|LargeStates" -A0 $O/checks/sm90_tests.log | head; grep -E "sm90 forward b=(1|2) T=(2048|1000) H=(8|6)" $O/checks/sm90_tests.log | head -8
