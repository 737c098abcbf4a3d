#!/bin/bash
# Session 19 call 1: (a) probe A/B of the early state update (e2: the whole state to bf16 and
# h C^T issued, then x loaded, scaled and the state update issued, both GEMMs under the
# mask; x re-read after the mask) against HEAD's kernel; (b) PART=checks and PART=bench of
# scripts/device_session.sh on HEAD's library (669b16a: the pair-form state pass, not yet in
# the benchmark of record).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ds
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --z 1" "--N 128 --batch 128 --seqlen 512" "--N 128 --packed 4" \
  | timeout 150 bash scripts/probe_ab.sh --rounds 2 --variants "base e2" > $O/ds/probe_ab.log 2>&1
cat $O/ds/probe_ab.log
FLASHSSD_COMMIT=669b16a21379 PART=checks OUT=$O/ds timeout 200 bash scripts/device_session.sh out/dev/build-gpu
FLASHSSD_COMMIT=669b16a21379 PART=bench OUT=$O/ds timeout 420 bash scripts/device_session.sh out/dev/build-gpu
tar czf $O/ds.tgz -C $O ds
