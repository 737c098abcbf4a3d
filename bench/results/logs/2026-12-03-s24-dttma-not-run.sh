#!/bin/bash
# Prepared in session 24, not run (the session's device time was spent): the state pass's dt by TMA
# (-dttma-not-run.diff: a 4-head x 64-token fp32 box of dt from its (b, T, H) layout into the
# stage, in the 1 KB of the two heads' a / dt records, read and processed by the consumers;
# the producer loads no dt; K::set_dt_tma decides, else today's path). Compiles without spill or
# C75xx (ptxas -v on ssd_fwd_sm90_bf16_n128.cu, n256.cu; the probe). Bound (call 4): no dt loads
# at all = -7.8% on R4's state pass, -9.8% on R1 32k's.
# Builds (here): mkdir /tmp/t && cp -r src include bench tests /tmp/t && (cd /tmp/t && patch -p1 <
#   $PWD/bench/results/logs/2026-12-03-s24-dttma-not-run.diff); scripts/build_probe.sh /tmp/t
#   out/ab/dttma_probe; scripts/build_probe.sh out/ab/base_probe (HEAD). Carry out/ab.
# Then, if it pays: the library with the diff, scripts/device_session.sh PART=checks (the diff adds
# GpuForwardSplit.StatePassDtByTmaMatchesReference: H 6 G 2, odd item starts; H 4 P 128; the split
# suites at 3 splits run the new path on every fp32-dt shape with H >= 4) and the API's R4 / R1 32k.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128 --batch 1 --seqlen 131072 --state-pass 4" "--N 128 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttma" \
  "--N 128 --batch 2 --seqlen 32768 --state-pass 2" "--N 128 --batch 2 --seqlen 32768 --state-pass 2 --dt-tma 1 | dttma" \
  "--N 64 --batch 1 --seqlen 131072 --state-pass 4" "--N 64 --batch 1 --seqlen 131072 --state-pass 4 --dt-tma 1 | dttma" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base dttma" > $O/probe_ab.log 2>&1
tail -8 $O/probe_ab.log
