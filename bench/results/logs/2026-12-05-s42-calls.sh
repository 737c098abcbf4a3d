#!/usr/bin/env bash
# Session 42's device calls, as run (the device was lent late in the session; H200). Each line is
# one call's command, run in the repository root on the device with the carry named.
#
# call B (carry out/carry: s42.tar.xz, packed by `PART=build bash bench/results/logs/2026-12-05-s42-ps-not-run.sh`;
#         the libraries built from the ps branch at 9604b34's kernels): the four forms' Hopper suites, the probe
#         -> bench/results/logs/2026-12-05-s42-callB/
OUT=$OUT PART=B bash bench/results/logs/2026-12-05-s42-ps-not-run.sh
#
# call C (carry out/dev/build-gpu = main at 9737621, the persistent chunk scores pass, staged;
#         third_party_bench): the Hopper suite with the ring's wrap-around test, memcheck / racecheck of
#         the chunk scores tests, the benchmark of record -> -callC/, bench/results/2026-12-05-h200.*
OUT=$OUT bash bench/results/logs/2026-12-04-s40-callC.sh
#
# call D (carry out/carry: s42cs.tar.xz = out/dev/build-gpu above and out/headlib, main's library at
#         bc1e8b8, eb0afec's kernels): the API A/B, 3 rounds -> -callD/api_ab.log
bash scripts/carry.sh unpack s42cs >/dev/null && printf "%s\n" "--config R2" "--config R2 --z" "--config R1 --seqlen 8192" \
  "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072" |
  bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib cs=out/dev/build-gpu > $OUT/api_ab.log 2>&1
#
# call E (carry out/carry, third_party_bench): the GPU pytest on 9737621's library -> -callE/
bash scripts/carry.sh unpack s42cs >/dev/null; B=out/dev/build-gpu; PYTHONPATH=$B/python:third_party_bench \
  FLASHSSD_PYTEST_REPORT=$OUT/pytest_gpu.json timeout 500 python3 -m pytest tests/python/test_gpu.py -v -rs \
  -p no:cacheprovider --durations=15 > $OUT/pytest_gpu.log 2>&1
#
# call F (carry out/carry; one attempt before it was refused, no machine): the suites and sanitizers on
#         9737621's library -> -callF/chk.tgz
bash scripts/carry.sh unpack s42cs >/dev/null && FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$OUT/chk \
  bash scripts/device_session.sh out/dev/build-gpu 2>&1 | tail -16; cd $OUT && tar czf chk.tgz chk && rm -rf chk
