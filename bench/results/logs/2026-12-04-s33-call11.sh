#!/usr/bin/env bash
# Session 33, device call 11: checks on the library with the reset flag held as loaded and
# prefetched in the ungated kernels (out/dev/build-gpu), then pfold (packed sequences fold their
# state too: kFoldState without !kPacked; session 21 measured it +2.8% while the flag's load
# paced the producer) against the same kernels (cur). Carry: out/dev/build-gpu, out/ab44.
set -u
O=${OUT:?}; mkdir -p $O out/ab
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
cp out/ab44/cur_probe out/ab44/pfold_probe out/ab/
printf "%s\n" "--final-states 0 --packed 4" "--final-states 0 --packed 16" \
  "--batch 128 --seqlen 512 --final-states 0 --packed 2" "--final-states 0 --packed 4 --z 1" \
  "--N 64 --final-states 0 --packed 4" "--final-states 0" |
  bash scripts/probe_ab.sh --dir out/ab --rounds 3 --variants "cur pfold" > $O/probe_ab.log 2>&1
grep -A8 summary $O/probe_ab.log
