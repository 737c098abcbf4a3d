#!/bin/bash
# Session 23 call 1b (the device came late: call 1's probe A/B and ncu, plus the checks of a
# library built with both candidates, in one call). out/dev/build-gpu = HEAD + -call1-cpf.diff
# + -call1-sw1.diff (/tmp/wcpf, a worktree); the checks' logs are tarred (OUT's file count).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
C=/tmp/checks; mkdir -p $C
FLASHSSD_COMMIT=$(cat out/dev/COMMIT) PART=checks OUT=$C timeout 200 bash scripts/device_session.sh out/dev/build-gpu > $O/checks_summary.log 2>&1
cat $O/checks_summary.log
tar -czf $O/checks_logs.tgz -C /tmp checks
bash bench/results/logs/2026-12-03-s23-call1.sh
