#!/usr/bin/env bash
# Run in session 42 as call B (PART=B only; -s42-calls.sh, results in -s42-callB/): every form passed
# its Hopper suite (30/30), and every form's main pass was 12-61% slower than head's in the probe
# (whose pre-pass alone takes 0.022 ms at R1, 0.106 at R2): not kept, PART=A not run.
# Prepared in session 42 (no device was lent that session, nor in sessions 40-41), not run.
# Supersedes 2026-12-04-s41-ps-not-run.sh: the same checks and timings, plus two forms (ps3,
# ps4), with all four forms' libraries built and carried packed (scripts/carry.sh). The factored
# kernels' (bf16, N = 128, two head slices per CTA: R1, R2 and their z rows) S = C B^T computed
# per stage by the main pass's producer warpgroup instead of by the chunk scores pre-pass
# (src/kernels/sm90/ssd_fwd_sm90.cuh, K::kProducerScores; compiled in by
# -DFLASHSSD_PRODUCER_SCORES=1 to 4; off by default, and off the library's SASS is main's).
#   ps   (=1): after the tile's decay the producer waits for the tile's B and C (bc_full), computes
#              S, then arrives on full (the consumers' full wait covers S).
#   ps16 (=1, FLASHSSD_PRODUCER_SCORE_COLS=16): the same by 16-column blocks.
#   ps2  (=2): S signalled on scores_full, waited for by the consumers right before they read it.
#   ps3  (=3, 16-column blocks: at 32 it spills 16 bytes): S one tile behind. The producer
#              computes the previous tile's S right after issuing this tile's loads, so it never
#              waits for loads it has just issued; B and C back on full; S on scores_full (ps2's).
#   ps4  (=4, 16-column blocks): ps3 in the kernels of three stages (ungated), ps2 in those of two
#              (the z kernel, where S one tile behind would start only as its consumers begin
#              the tile). Library only: its probe rows would be ps3's ungated and ps2's with z
#              (but at 16 columns); it is there for PART=A if the probe splits that way.
# Why: the pre-pass is ~3% of R1 (~14-16 us) and ~10% of R2 (~94 us) plus a launch gap, and R1 z
# (target 0.506 ms, record 0.505-0.523) and R2 z (target 1.073, record 1.144) are within a few
# percent. Risk: the producer is near the main pass's pace (session 30: its decay costs 2-6%).
#
# Here, before the calls, from main's checkout with its setup done (README): PART=build (15 min
# on 2 cores in session 42, mostly the four library builds) applies -s42-ps.diff in a
# worktree (W, default ../ps; sessions' checkouts hold main only, so the branch is the diff),
# commits it there, builds and stages the four forms' libraries (out/dev/ps, ps2, ps3, ps4),
# main's (out/headlib, from build-gpu) and the five probes (out/ab54), and packs them into out/carry/s42.tar.xz (105 MB into 9.3 MB in session 42).
# Carry out/carry (the tree is ~16 MB of the 64 MiB). Two calls, each unpacking the carry:
#   PART=B first (~5 min): the Hopper suite of ps, ps2, ps3 and ps4, the probe of five;
#   then PART=A V=<the probe's best of ps, ps2, ps3, ps4> (~5 min): that library's GPU suites and
#   sanitizers, the float64 check at R1 8k and R2 scale, the API A/B against main's library.
# If V passes and wins through the API: ps on by default (FLASHSSD_PRODUCER_SCORES's default
# 1 to 4, and 16 columns for 3 and 4) with the README's and the launcher's text (the pre-pass then
# serves fp16 N = 128 and N = 256 only), then the GPU pytest and the benchmark of record on it.
set -u
PART=${PART:-B} V=${V:-ps}
if [[ $PART == build ]]; then
  set -e
  W=${W:-../ps}
  if [ ! -d "$W" ]; then
    git worktree add "$W" -b s42-ps HEAD
    git -C "$W" apply "$PWD/bench/results/logs/2026-12-05-s42-ps.diff"
    git -C "$W" commit -qam "The producer's S in four forms (session 42's -s42-ps.diff)"
  fi
  ln -sfn "$PWD/.deps" "$W/.deps"
  for v in "ps 1" "ps2 2" "ps3 3 -DFLASHSSD_PRODUCER_SCORE_COLS=16" "ps4 4 -DFLASHSSD_PRODUCER_SCORE_COLS=16"; do
    set -- $v
    cmake -S "$W" -B "$W/build-$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a-real \
      -DFLASHSSD_BUILD_PYTHON=OFF "-DCMAKE_CUDA_FLAGS=-DFLASHSSD_PRODUCER_SCORES=$2 ${3:-}" > /dev/null
    cmake --build "$W/build-$1" -j2 --target flashssd flashssd_bench flashssd_sm90_gpu_tests flashssd_gpu_tests flashssd_segsum_gpu_tests
    bash scripts/stage_device_build.sh "$W/build-$1" $1
    git -C "$W" rev-parse --short=12 HEAD > out/dev/$1/COMMIT
    rm -rf out/dev/$1/tests/stability out/dev/$1/bench/flashssd_sm90_forward_probe
  done
  bash scripts/build_probe.sh out/ab54/head_probe
  NVCC_FLAGS=-DFLASHSSD_PRODUCER_SCORES=1 bash scripts/build_probe.sh "$W" out/ab54/ps_probe
  NVCC_FLAGS="-DFLASHSSD_PRODUCER_SCORES=1 -DFLASHSSD_PRODUCER_SCORE_COLS=16" bash scripts/build_probe.sh "$W" out/ab54/ps16_probe
  NVCC_FLAGS=-DFLASHSSD_PRODUCER_SCORES=2 bash scripts/build_probe.sh "$W" out/ab54/ps2_probe
  NVCC_FLAGS="-DFLASHSSD_PRODUCER_SCORES=3 -DFLASHSSD_PRODUCER_SCORE_COLS=16" bash scripts/build_probe.sh "$W" out/ab54/ps3_probe
  [ -f build-gpu/libflashssd.so ] || { echo "build main's library into build-gpu first (README)" >&2; exit 1; }
  rm -rf out/headlib; mkdir -p out/headlib/bench
  cp -P build-gpu/libflashssd.so* out/headlib/; cp build-gpu/bench/flashssd_bench out/headlib/bench/
  git rev-parse --short=12 HEAD > out/headlib/COMMIT
  bash scripts/carry.sh pack s42 dev/ps dev/ps2 dev/ps3 dev/ps4 headlib ab54
  exit 0
fi
O=${OUT:?}; mkdir -p $O
[ -d out/ab54 ] || bash scripts/carry.sh unpack s42
if [[ $PART == *A* ]]; then
L=out/dev/$V
# (1) Correctness on V's library: the GPU suites at 1 and 3 splits, the Hopper suite (its bf16
# N = 128 tests run the producer's S: partial tiles, groups, z, many tiles per CTA, strong decays
# whose tiles take the exact schedule, which reads S by ldmatrix), memcheck and racecheck.
FLASHSSD_COMMIT=$(cat $L/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh $L | tail -14
# The same at R1's and R2's scale: flashssd_bench's check (the first --verify-tokens tokens of
# batch row 0 against float64; non-finite values counted over all of y).
for a in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R2" "--config R2 --z"; do
  LD_LIBRARY_PATH=$PWD/$L timeout 60 $L/bench/flashssd_bench $a --iters 3 --warmup 1 --verify-tokens 1024
done > $O/verify.log 2>&1
grep -o '"status": *"[a-z_]*"\|"verify_rel_err": *[0-9.e+-]*\|"nonfinite": *[0-9]*' $O/verify.log | paste - - - | head
# (2) Through the API: main's library (the pre-pass) against V, 3 rounds.
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 8192" "--config R1 --seqlen 512 --z" \
  "--config R1 --seqlen 2048 --z" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 16384 --z" \
  "--config R2" "--config R2 --z" "--config R4 --seqlen 131072" \
  | bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib $V=$L > $O/api_ab.log 2>&1
tail -11 $O/api_ab.log
fi
[[ $PART == *B* ]] || exit 0
# (3) The Hopper suite of each form's library (~5 s each; its bf16 N = 128 tests run the
# producer's S, exact and factored tiles); the sanitizers run in PART=A on the chosen V.
for v in ps ps2 ps3 ps4; do
  LD_LIBRARY_PATH=$PWD/out/dev/$v timeout 120 out/dev/$v/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests_$v.log 2>&1
  echo "$v Hopper suite rc=$? $(grep -h 'PASSED\|FAILED' $O/sm90_tests_$v.log | head -3 | tr '\n' ' ')"
done
# (4) The main pass alone (probe; head's pre-pass is outside its timing, the others have none):
# what the producer's S costs the tile loop; the pre-pass alone (head --scores-only) for the
# same rows. The best form whose suite passed is PART=A's V.
printf "%s\n" "--final-states 0 --softplus 1" "--batch 128 --seqlen 512 --final-states 0 --softplus 1" \
  "--z 1 --final-states 0 --softplus 1" "--batch 128 --seqlen 512 --z 1 --final-states 0 --softplus 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0 --softplus 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --z 1 --final-states 0 --softplus 1" \
  "--a-scale 4 --z 1 --final-states 0 --softplus 1" "--packed 4 --final-states 0 --softplus 1" \
  | bash scripts/probe_ab.sh --dir out/ab54 --rounds 3 --variants "head ps ps16 ps2 ps3" > $O/probe_ab.log 2>&1
python3 scripts/probe_ab_summary.py $O/probe_ab.log | tail -12
for r in "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1"; do
  echo "$r"; out/ab54/head_probe $r
done > $O/scores_only.log 2>&1
grep -o '"median_ms": *[0-9.]*' $O/scores_only.log
