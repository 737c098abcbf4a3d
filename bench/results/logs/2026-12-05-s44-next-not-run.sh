#!/usr/bin/env bash
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
  build)
    set -e
    branch=$(git rev-parse --abbrev-ref HEAD)
    main=$(git rev-parse main)
    rm -rf /tmp/s44-main && git worktree add -f /tmp/s44-main "$main" >/dev/null
    ln -sfn "$PWD/.deps" /tmp/s44-main/.deps
    # main's library and 257ca28's (session 43's PART=build, in main's tree: a fresh build there, ~9 min),
    # unless this checkout already holds them (session 44 packed them from main at 4aeae59).
    if [ ! -s out/carry/s43next.tar.xz ]; then
      (cd /tmp/s44-main && PART=build bash bench/results/logs/2026-12-05-s43-next-not-run.sh)
      mkdir -p out/carry && cp /tmp/s44-main/out/carry/s43next.tar.xz out/carry/
    fi
    scripts/build_probe.sh /tmp/s44-main out/ab56/main_probe
    git worktree remove --force /tmp/s44-main
    # the branch's library (build-gpu of this checkout, configured here if it is not) and probe
    if [ ! -f build-gpu/build.ninja ]; then
      cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a-real \
        -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PWD/.deps/pyenv-3.12/bin/python" >/dev/null
    fi
    cmake --build build-gpu -j2 >/dev/null
    bash scripts/stage_device_build.sh build-gpu cstma >/dev/null
    echo "$branch $(git rev-parse --short=12 HEAD)" > out/dev/cstma/COMMIT
    rm -f out/dev/cstma/bench/flashssd_sm90_forward_probe; rm -rf out/dev/cstma/tests/stability
    scripts/build_probe.sh out/ab56/cstma_probe
    rm -rf /tmp/v1x6 && mkdir /tmp/v1x6 && cp -r src include bench /tmp/v1x6/
    patch -s -p1 -d /tmp/v1x6 < bench/results/logs/2026-12-05-s44-cstma-1x6.diff
    scripts/build_probe.sh /tmp/v1x6 out/ab56/cstma1x6_probe
    bash scripts/carry.sh pack s44cstma dev/cstma ab56 ;;
  plan)
    # session 43's question and the split plan (unpacks s43next: out/dev/build-gpu = main, out/headlib)
    O=${OUT:?}; mkdir -p "$O"
    OUT=$O/plan bash bench/results/logs/2026-12-05-s44-plan-not-run.sh ;;
  branch)
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s43next > /dev/null || exit 1  # (main's library: the A/B's baseline)
    bash scripts/carry.sh unpack s44cstma > /dev/null || exit 1
    M=out/dev/build-gpu C=out/dev/cstma
    FLASHSSD_COMMIT=$(cut -d' ' -f2 $C/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh $C
    export LD_LIBRARY_PATH=$PWD/$C
    timeout 120 compute-sanitizer --tool memcheck $C/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*ChunkScores*' > $O/cs_memcheck.log 2>&1
    echo "chunk scores memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/cs_memcheck.log
    timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard $C/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*ChunkScores*' > $O/cs_racecheck.log 2>&1
    echo "chunk scores racecheck rc=$?"; grep -E "RACECHECK SUMMARY" $O/cs_racecheck.log
    timeout 120 compute-sanitizer --tool synccheck $C/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*ChunkScores*' > $O/cs_synccheck.log 2>&1
    echo "chunk scores synccheck rc=$?"; grep -E "ERROR SUMMARY" $O/cs_synccheck.log
    for a in "--config R1 --seqlen 8192" "--config R1 --seqlen 512 --z" "--config R2 --z" "--config R1 --seqlen 8192 --N 256 --z" \
             "--config R1 --seqlen 8192 --dtype fp16 --z" "--config R1 --seqlen 200 --batch 3" "--config R1 --seqlen 32768"; do
      timeout 60 $C/bench/flashssd_bench $a --iters 3 --warmup 1 --verify-tokens 4096 | grep -o '"verify_rel_err": *[^,]*' | sed "s|^|$a: |"
    done | tee $O/verify.log
    unset LD_LIBRARY_PATH
    printf "%s\n" "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" \
      "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1" "--batch 1 --seqlen 131072 --scores-only 1" \
      "--N 256 --scores-only 1" \
      | bash scripts/probe_ab.sh --dir out/ab56 --rounds 3 --variants "main cstma cstma1x6" > $O/probe_ab.log 2>&1
    tail -8 $O/probe_ab.log
    printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 512 --z" \
      "--config R1 --seqlen 16384 --z" "--config R2" "--config R2 --z" "--config R1 --seqlen 8192 --N 256" \
      "--config R1 --seqlen 8192 --dtype fp16" "--config R4 --seqlen 131072" |
      bash scripts/api_ab.sh --rounds 3 --lib main=$M --lib cstma=$C > $O/api_ab.log 2>&1
    tail -11 $O/api_ab.log ;;
  *) echo "PART=build, branch or plan" >&2; exit 2 ;;
esac
