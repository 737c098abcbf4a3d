#!/bin/bash
# Prepared for the next session, not run (session 19's device time was spent). Is the main
# pass's memory side the group's B, C and S tiles that every CTA reads from L2 (40 of the 56 KB
# per step of two tile-heads; call 9: the skeleton follows the memory system, L2 72% busy)?
# Timing only, results wrong: the skeleton and the real kernel with those loads skipped
# (`-call10-skeleton-loads.diff`, cumulative on main: SKEL_NOB / SKEL_NOC / SKEL_NOS drop the
# B / C / S TMA loads and their expected bytes; the GEMMs read stale shared memory).
# Build here first (about 1 minute each, two at a time on 2 cores):
#   rm -rf /tmp/v && mkdir /tmp/v && cp -r src include bench /tmp/v
#   (cd /tmp/v && patch -p1 < $OLDPWD/bench/results/logs/2026-12-02-s19-call10-skeleton-loads.diff)
#   S="-DSKEL_C=1 -DSKEL_P=1 -DSKEL_SMALL=1"
#   scripts/build_probe.sh out/ab/base_probe                      # main, unpatched
#   NVCC_FLAGS="$S" scripts/build_probe.sh /tmp/v out/ab/skc3_probe
#   NVCC_FLAGS="$S -DSKEL_NOC=1 -DSKEL_NOS=1" scripts/build_probe.sh /tmp/v out/ab/nocs_probe
#   NVCC_FLAGS="$S -DSKEL_NOB=1 -DSKEL_NOC=1 -DSKEL_NOS=1" scripts/build_probe.sh /tmp/v out/ab/xonly_probe
#   NVCC_FLAGS="-DSKEL_NOC=1 -DSKEL_NOS=1" scripts/build_probe.sh /tmp/v out/ab/basenocs_probe
# and carry out/ab. Reading: if nocs / xonly fall well below skc3 (0.392-0.398 ms), the group
# tiles' L2 -> SM traffic paces the skeleton and a cluster multicast of B, C and S (or more
# heads per CTA) is the next build; basenocs says how much of it the real kernel would keep.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" \
  | timeout 200 bash scripts/probe_ab.sh --rounds 3 --variants "base skc3 nocs xonly basenocs" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
