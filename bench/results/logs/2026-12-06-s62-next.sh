#!/usr/bin/env bash
# Prepared in session 62 for the next session (carry out/carry third_party_bench). main's build is
# staged as s62ev (out/carry/s62ev.tar.xz; COMMIT a10d851, whose src is main's since the merge of
# the side stream's events). Where out/ is gone:
#   [bash scripts/setup_build_gpu.sh &&] bash scripts/stage_variant.sh s62ev   (and edit nothing else)
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s62-next.sh > $OUT/next.txt 2>&1
# (name the call's own log *.txt: variant_pack removes $OUT/*.log, session 62 call 1.)
# - On an H200: the benchmark of record on main with its checks (the newest H200 record is session
#   57's, before the 8-byte store, the side stream, the window search's loads and the events), then
#   scripts/device_split_timing.sh (where R1 32k z's extra time over 16k z goes on the H200: its
#   records show ~0.04-0.05 ms more than the ungated row's, the H100's do not), then the quick
#   pytest. After it: copy $OUT's json / md / png to bench/results/, commit,
#   python3 scripts/update_readme_perf.py, and update README's record paragraph.
# - Elsewhere (~70 s on an H100): scripts/device_split_timing.sh alone, the control for the H200's
#   (the build's checks all passed in session 62: calls 1 and 3).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
F=out/dev/s62ev
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=440 bash scripts/device_record.sh s62ev; echo "record + checks rc=$? at ${SECONDS} s"
  bash scripts/device_split_timing.sh $F; echo "split timing rc=$? at ${SECONDS} s"
  variant_pytest pytest_quick $F "not mamba_ssm_triton"
  echo "all done at ${SECONDS} s"; exit 0
fi
bash scripts/carry.sh unpack s62ev > /dev/null || exit 1
bash scripts/device_split_timing.sh $F; echo "split timing rc=$? at ${SECONDS} s"
echo "all done at ${SECONDS} s"
