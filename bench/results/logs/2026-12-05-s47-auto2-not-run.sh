#!/usr/bin/env bash
# Session 47, not run (too little device budget left): the call for branch s47-auto's third form of
# the fix-up (a work list of the windows' chunks, h_in's and dt's loads in flight together).
# It is -s47-auto.sh on that build: `scripts/stage_device_build.sh build-gpu auto2`,
# `scripts/carry.sh pack s47auto2 dev/auto2`, then from the branch
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s47-auto2-not-run.sh   (carry out/carry)
exec bash <(sed -e 's/s47auto/s47auto2/; s#F=out/dev/auto#F=out/dev/auto2#; s/auto_logs.tgz/auto2_logs.tgz/' \
  "$(dirname "${BASH_SOURCE[0]}")/2026-12-05-s47-auto.sh")
