#!/usr/bin/env bash
# Session 54, call 3 (~350 s on an H200, ~130 s on an H100). Calls 1-2 ran on an H100, so
#   - on an H200: the record on main (s53main = 0da223a: the float4 boundary scan, which session
#     53's H200 record predates), then kFixupMinStateSteps 128 against main (s53min128), never
#     measured on an H200;
#   - on an H100: the min128 A/B only (sessions 52-53 measured it there before the float4 scan).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s54-h200-or-min128.sh   (carry out/carry third_party_bench)
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $gpu"
if [[ "$gpu" == *H200* ]]; then
  bash scripts/carry.sh unpack s53main > /dev/null || exit 1
  FLASHSSD_COMMIT=$(cat out/dev/s53main/COMMIT) OUT=$OUT PART=bench bash scripts/device_session.sh out/dev/s53main
  echo "record done at ${SECONDS} s"
fi
bash bench/results/logs/2026-12-06-s53-next-min128.sh
echo "all done at ${SECONDS} s"
