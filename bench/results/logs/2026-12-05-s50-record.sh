#!/usr/bin/env bash
# Session 50: the record on an H200 (owed since session 49), on main 37201c6's build (build-gpu
# made in this session's fresh checkout: scripts/setup_deps.sh; python 3.12 venv by
# scripts/setup_python.sh --no-torch; cmake -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90a-real
# -DFLASHSSD_BUILD_PYTHON=ON; staged: scripts/stage_device_build.sh build-gpu s50main; packed:
# scripts/carry.sh pack s50main dev/s50main). Its kernels are session 49's calls 6-7 library's
# (the later commits change comments and one helper whose SASS is identical).
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s50-record.sh   (carry out/carry third_party_bench; kind nvidia-h200)
# Then $OUT's json / md / png go to bench/results/ (DESIGN.md section 6) and
# scripts/update_readme_perf.py regenerates README's table.
set -u
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader
bash scripts/carry.sh unpack s50main > /dev/null || exit 1
FLASHSSD_COMMIT=37201c67c540 OUT=${OUT:?} PART=bench bash scripts/device_session.sh out/dev/s50main
