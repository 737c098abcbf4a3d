#!/usr/bin/env bash
# Session 34, device call 3: probe A/B (3 rounds) of cur (c09c56e's kernels), fb (the producer's
# two reset-flag loads as one helper, flag_byte: only the gated kernels' SASS changes, register
# names and order) and npd (fb + no L2 prefetch of dt three tiles ahead in the packed ungated
# kernels: session 21 added it while the flag's load paced the producer; session 33 took that
# load off its path); then PART=checks on the library built with fb + npd. Carry out/ab34 and
# out/dev/build-gpu.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--final-states 0 --packed 4" "--final-states 0 --packed 4 --N 64" "--final-states 0 --packed 4 --N 256" \
  "--final-states 0 --packed 4 --z 1" "--final-states 0 --packed 4 --z 1 --N 64" "--final-states 0 --packed 16" \
  "--final-states 0 --z 1" "--final-states 0" \
  | bash scripts/probe_ab.sh --dir out/ab34 --rounds 3 --variants "cur fb npd" > $O/ab.log 2>&1
tail -40 $O/ab.log
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh out/dev/build-gpu > $O/checks.txt 2>&1
cat $O/checks.txt
