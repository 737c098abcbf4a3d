#!/usr/bin/env bash
# Superseded by 2026-12-05-s42-ps-not-run.sh (session 42: the branch is now -s42-ps.diff, with ps3 and ps4).
# Prepared in session 41 (no device was lent that session), not run. Branch s41-producer-scores.
# ps: the factored kernels' (bf16, N = 128, two head slices per CTA: R1, R2 and their z rows)
# S = C B^T computed per stage by the main pass's producer warpgroup instead of by the chunk
# scores pre-pass (src/kernels/sm90/ssd_fwd_sm90.cuh, K::kProducerScores, compiled in with
# -DFLASHSSD_PRODUCER_SCORES=1; off by default, and off the library's SASS is main's line for
# line). Why: the pre-pass is ~3% of R1 (~14-16 us) and ~10% of R2 (~94 us), and R1 z (target
# 0.506 ms, record 0.505-0.523) and R2 z (target 1.073, record 1.144) are within a few percent.
# Risk: the producer is near the main pass's pace (session 30: its decay costs 2-6%), and it now
# waits for B and C and runs two m64n32k128 WGMMAs, their conversion and stores per tile.
#
# Here, before the call (build ~10 min on 2 cores; the probes ~40 s each):
#   git checkout s41-producer-scores
#   cmake -S . -B build-ps -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a-real \
#     -DFLASHSSD_BUILD_PYTHON=OFF "-DCMAKE_CUDA_FLAGS=-DFLASHSSD_PRODUCER_SCORES=1"
#   cmake --build build-ps -j2 --target flashssd flashssd_bench flashssd_sm90_gpu_tests flashssd_gpu_tests flashssd_segsum_gpu_tests
#   bash scripts/stage_device_build.sh build-ps ps; git rev-parse --short=12 HEAD > out/dev/ps/COMMIT
#   NVCC_FLAGS=-DFLASHSSD_PRODUCER_SCORES=1 bash scripts/build_probe.sh out/ab53/ps_probe
#   NVCC_FLAGS="-DFLASHSSD_PRODUCER_SCORES=1 -DFLASHSSD_PRODUCER_SCORE_COLS=16" bash scripts/build_probe.sh out/ab53/ps16_probe
#   NVCC_FLAGS=-DFLASHSSD_PRODUCER_SCORES=2 bash scripts/build_probe.sh out/ab53/ps2_probe
#   bash scripts/build_probe.sh out/ab53/head_probe      # (or main's: the same kernels)
#   out/headlib: main's library and flashssd_bench (session 40 left it: eb0afec's SASS).
# Carry out/dev/ps, out/headlib, out/ab53 (session 41 left all three built: 47 MB, 63 MB with the
# tree). Two calls of ~5 and ~3 minutes: PART=A (checks, verification at scale, the API A/B),
# PART=B (the probe); one call without PART runs both (~8 minutes: close to the 10-minute limit).
set -u
O=${OUT:?}; mkdir -p $O
PART=${PART:-AB}
if [[ $PART == *A* ]]; then
# (1) Correctness on ps's library: the GPU suites at 1 and 3 splits, the Hopper suite (its bf16
# N = 128 tests run the producer's S: partial tiles, groups, z, many tiles per CTA, strong decays
# whose tiles take the exact schedule, which reads S by ldmatrix), memcheck and racecheck.
FLASHSSD_COMMIT=$(cat out/dev/ps/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh out/dev/ps | tail -14
# The same at R1's and R2's scale: flashssd_bench's check (the first --verify-tokens tokens of
# batch row 0 against float64; non-finite values counted over all of y).
for a in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R2" "--config R2 --z"; do
  LD_LIBRARY_PATH=$PWD/out/dev/ps timeout 60 out/dev/ps/bench/flashssd_bench $a --iters 3 --warmup 1 --verify-tokens 1024
done > $O/verify.log 2>&1
grep -o '"status": *"[a-z_]*"\|"verify_rel_err": *[0-9.e+-]*\|"nonfinite": *[0-9]*' $O/verify.log | paste - - - | head
# (2) Through the API: main's library (the pre-pass) against ps, 3 rounds.
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 8192" "--config R1 --seqlen 512 --z" \
  "--config R1 --seqlen 2048 --z" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 16384 --z" \
  "--config R2" "--config R2 --z" "--config R4 --seqlen 131072" \
  | bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib ps=out/dev/ps > $O/api_ab.log 2>&1
tail -11 $O/api_ab.log
fi
[[ $PART == *B* ]] || exit 0
# (3) The main pass alone (probe; head's pre-pass is outside its timing, ps has none): what the
# producer's S costs the tile loop; the pre-pass alone (head --scores-only) for the same rows.
# ps16: S by 16-column blocks; ps2: S on a barrier of its own, which the consumers wait on right
# before they read S (timing only: its library is not built; if it beats ps here, build it
# with -DFLASHSSD_PRODUCER_SCORES=2 and run PART=A on it).
printf "%s\n" "--final-states 0 --softplus 1" "--batch 128 --seqlen 512 --final-states 0 --softplus 1" \
  "--z 1 --final-states 0 --softplus 1" "--batch 128 --seqlen 512 --z 1 --final-states 0 --softplus 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0 --softplus 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0 --softplus 1" \
  "--a-scale 4 --z 1 --final-states 0 --softplus 1" "--packed 4 --final-states 0 --softplus 1" \
  | bash scripts/probe_ab.sh --dir out/ab53 --rounds 3 --variants "head ps ps16 ps2" > $O/probe_ab.log 2>&1
tail -10 $O/probe_ab.log
for r in "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1"; do
  echo "$r"; out/ab53/head_probe $r
done > $O/scores_only.log 2>&1
grep -o '"median_ms": *[0-9.]*' $O/scores_only.log
