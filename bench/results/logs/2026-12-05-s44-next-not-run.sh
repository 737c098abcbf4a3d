#!/usr/bin/env bash
# SUPERSEDED in session 45 by 2026-12-05-s45-next-not-run.sh (PART=build and branch now point there; PART=plan kept).
# Prepared in session 44, not run: no device was lent all session (the first call was refused with
# "no new device machine is lent at present"). Two device calls (each under the 10-minute limit):
#   1. PART=plan (~5 min): session 43's prepared sustained A/B (R1 32k z, 32k, 2k z, 4k z, R4 128k: 257ca28's library against
#      main's, 1500 iterations, 3 rounds) and the split plan's choices against their neighbours
#      (bench/results/logs/2026-12-05-s44-plan-not-run.sh, the call that was refused);
#   2. PART=branch (~6-7 min): branch s44-cstma, the chunk scores pass by TMA + WGMMA (chunk_scores_sm90.cuh): its library's suites
#      and sanitizers (PART=checks, and memcheck / racecheck on every chunk scores test), flashssd_bench's
#      float64 check on the rows that read the pass's output, the pass alone in the probe (main's pass
#      against the branch's at 2 CTAs x 3 stages per SM and at 1 CTA x 6 stages, -s44-cstma-1x6.diff;
#      five shapes, 3 rounds) and the API A/B main vs cstma.
#
#   here (branch s44-cstma checked out, or where branches were not carried, a branch made from main with
#   `git checkout -b s44-cstma && git apply bench/results/logs/2026-12-05-s44-cstma.diff && git add -A src tests && git commit -m s44-cstma`,
#   the branch's whole change; a bare checkout first runs scripts/setup_deps.sh and
#   PYTHON=python3.12 scripts/setup_python.sh --no-torch; ~3 min, ~20 without build-gpu and out/carry/s43next.tar.xz):
#     PART=build bash bench/results/logs/2026-12-05-s44-next-not-run.sh
#       packs main's library and 257ca28's (session 43's PART=build in a worktree of main, unless
#       out/carry/s43next.tar.xz exists), the branch's library (out/dev/cstma) and the two probes
#       (out/ab56/{main,cstma}_probe) into out/carry/{s43next,s44cstma}.tar.xz (carry out/carry).
#   device: OUT=$OUT PART=branch bash bench/results/logs/2026-12-05-s44-next-not-run.sh   (first: it decides the merge)
#           OUT=$OUT PART=plan bash bench/results/logs/2026-12-05-s44-next-not-run.sh
set -u
case ${PART:?PART=build, branch or plan} in
  build|branch)
    # Superseded by -s45-next-not-run.sh (session 45): the same checks of the chunk scores pass,
    # on branch s45-cstma (s44-cstma rebased on the role-split layout), with their carry
    # out/carry/s45next.tar.xz; this file's own carry (s44cstma.tar.xz) is gone.
    echo "superseded: PART=$PART of bench/results/logs/2026-12-05-s45-next-not-run.sh" >&2; exit 2 ;;
  plan)
    # session 43's question and the split plan (unpacks s43next: out/dev/build-gpu = main, out/headlib)
    O=${OUT:?}; mkdir -p "$O"
    OUT=$O/plan bash bench/results/logs/2026-12-05-s44-plan-not-run.sh ;;
  *) echo "PART=build, branch or plan" >&2; exit 2 ;;
esac
