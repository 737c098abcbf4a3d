#!/bin/bash
# Session 25 call 5. Call 2's faulting CTAs all had an odd head pair (first head 2 mod 4: the
# box's innermost start 8 bytes past a 16-byte boundary), and call 4's standalone loads all
# started at head 6 (24 bytes). (a) the standalone check from 16-byte aligned heads (modes 4-6);
# (b) dttmac = the diff with the box from the multiple of 4 at or below the item's first head
# (set_dt_tma: only where an item's heads share such a box): the A/B of call 1; (c) if dttmac
# ran: PART=checks on its library (out/dev) and R4 / R1 32k through the API, base vs dev.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
for m in 0 4 5 6; do timeout 30 out/ab/tma_dt_box_check $m 2>&1 | tail -1; done | tee $O/tma_modes.log
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 | base" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttmac" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2 | base" "--N 128 --batch 2 --seqlen 32768 --state-pass 2 --dt-tma 1 | dttmac" \
  "--N 64 --batch 1 --seqlen 131072 --state-pass 4 | base" "--N 64 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttmac" \
  | timeout 120 bash scripts/probe_ab.sh --rounds 3 --variants "base dttmac" > $O/probe_ab.log 2>&1
tail -7 $O/probe_ab.log
grep -q "dttmac failed" $O/probe_ab.log && { echo "dttmac failed: no checks"; exit 0; }
C=/tmp/checks_dttmac; mkdir -p $C
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=$C timeout 200 bash scripts/device_session.sh out/dev/build-gpu > $O/checks_summary.log 2>&1
cat $O/checks_summary.log
grep -h "StatePassDtByTma" $C/gpu_tests.log $C/gpu_tests_splits3.log | head -6
tar -czf $O/checks_dttmac_logs.tgz -C /tmp checks_dttmac
for r in 1 2 3; do for v in base dev; do for args in "--config R4" "--config R1 --batch 2 --seqlen 32768"; do
  printf "round %s %s %s: " $r $v "$args"
  LD_LIBRARY_PATH=$PWD/out/$v/build-gpu timeout 40 out/$v/build-gpu/bench/flashssd_bench $args --iters 30 --warmup 3 --no-verify 2>&1 \
    | grep -o "\"median_ms\": *[0-9.e-]*" | head -1
done; done; done | tee $O/api_ab.log
