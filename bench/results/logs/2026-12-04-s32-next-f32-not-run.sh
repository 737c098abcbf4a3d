#!/usr/bin/env bash
# Prepared in session 32, not run. f32 (fold floor 2^-32 at N = 128, the factored range down to
# a tile decay of 2^-88) made correct-or-not: call 11 timed it (-2.0% / z -8.9% against the
# kernels without the factored form, fz6 -2.7 / -9.2%; at 4x decays z +2.0%, fz6 +6.2%).
# Here (build first):
#   patch src/kernels/sm90/ssd_fwd_sm90.cuh < bench/results/logs/2026-12-04-s32-call11-f32.diff
#   cmake --build build-gpu -j2 && rm -rf out/dev/build-gpu && bash scripts/stage_device_build.sh build-gpu build-gpu
#   git rev-parse --short=12 HEAD > out/dev/build-gpu/COMMIT   (commit the patch first)
#   NVCC_FLAGS="-Xptxas -v" scripts/build_probe.sh out/abNN/f32_probe; copy head2_probe and fz6_probe
#   (session 32's out/ab41) into out/abNN.
# Then this call (carry out/dev/build-gpu and out/abNN; ~3 min): PART=checks (the accuracy
# cases: Sm90Forward.LargeStatesWithRefolds, ManyTilesStrongDecay, ManyTilesStateRefolds), and
# the probe at 1x / 4x / 8x decays with and without z, 512 tokens and R2's shape.
set -u
O=${OUT:?}
D=${PROBES:?set PROBES=out/abNN}
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$O/checks bash scripts/device_session.sh out/dev/build-gpu
grep -E "^\[  FAILED|StrongDecay|LargeStates" $O/checks/sm90_tests.log | head
tar czf $O/checks_big_logs.tgz -C $O/checks sm90_tests.log sm90_racecheck.log
printf "%s\n" "--final-states 0" "--z 1 --final-states 0" "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" "--final-states 0 --a-scale 4" \
  "--z 1 --final-states 0 --a-scale 4" "--final-states 0 --a-scale 8" "--z 1 --final-states 0 --a-scale 8" |
  timeout 300 bash scripts/probe_ab.sh --dir $D --rounds 3 --variants "head2 fz6 f32" > "$O/probe_ab.log" 2>&1
grep -A9 "^summary" "$O/probe_ab.log"
