#!/usr/bin/env bash
# Prepared in session 45, not run: no device was lent (status "paused" from the session's start).
# Supersedes -s44-next-not-run.sh (whose PART=plan it keeps). Five device calls, each under the
# 10-minute limit; PART=branch, PART=ab, PART=window, PART=window_ab, PART=plan (the window's two
# before the plan's when time is short: they carry the largest expected gain):
#   branch (~5 min): branch s45-cstma (= s45-layout + session 44's chunk scores pass by TMA + WGMMA):
#          PART=checks (the GPU suites, memcheck and racecheck on small shapes), memcheck /
#          racecheck / synccheck on every chunk scores test, flashssd_bench's float64 check on
#          seven rows, the pass alone in the probe (main's pass, cstma's at 2 CTAs x 3 stages per
#          SM and at 1 CTA x 6 stages: -s44-cstma-1x6.diff), five shapes, 3 rounds.
#          s45-layout's forward kernels have the same SASS as s45-cstma's (checked here, all 18),
#          so these suites verify both branches' forward kernels.
#   ab     (~5 min): the API A/B main / layout / cstma on twelve rows, 3 rounds, order rotated.
#          s45-layout (the forward split by role: traits, scheduler, producer, consumer) is a
#          move of code, but its SASS is not byte-identical to main's (integer scheduling in
#          every kernel; the N = 64 main kernels' tile loop +18 instructions): merge it if no row
#          reads slower than main beyond the rounds' spread; merge cstma on top if no row reads
#          slower than layout. Then the GPU pytest and a record (scripts/device_session.sh).
#   window (~5 min): branch s45-window (off main: the state pass over each split's decay window,
#          src/kernels/common/decay_window.h): PART=checks (its new GPU test
#          GpuForwardSplit.DecayWindowMatchesReference among the suites) and memcheck on every
#          GpuForwardSplit test (the two new kernels run only through the API).
#   window_ab (~5 min): the API A/B main / window / window with FLASHSSD_DECAY_WINDOW=0 on the split
#          rows (R4 128k, 512k, R1 32k, 32k z), the same with slow decays (--A-scale 0.01: every
#          window the whole split, so only the window's cost shows) and fast ones (--A-scale 10),
#          and R1 8k (no split: the same kernels). Merge s45-window if the suites and memcheck pass,
#          the split rows read faster and the slow rows no slower beyond the rounds' spread.
#   plan   (~5-6 min): -s44-plan-not-run.sh (session 43's sustained A/B and the split-plan sweep), then
#          bench/host_overhead.py: an eager call's host time by layer (api, op, extension, import, outputs).
#
#   here: PART=build bash bench/results/logs/2026-12-05-s45-next-not-run.sh   (~10 min incremental)
#     needs branches s45-layout, s45-cstma and s45-window; where branches were not carried, make them from main:
#       git checkout -b s45-layout main && git apply bench/results/logs/2026-12-05-s45-layout.diff &&
#         git add -A src tests README.md docs && git commit -m s45-layout &&
#       git checkout -b s45-cstma && git apply bench/results/logs/2026-12-05-s45-cstma.diff &&
#         git add -A src tests && git commit -m s45-cstma &&
#       git checkout -b s45-window main && git apply bench/results/logs/2026-12-05-s45-window.diff &&
#         git add -A src tests bench && git commit -m s45-window
#     and out/carry/s43next.tar.xz (main's library and 257ca28's: -s44-next-not-run.sh PART=build
#     makes it in a worktree of main). Packs out/carry/s45next.tar.xz and s45window.tar.xz (carry out/carry).
#   device: OUT=$OUT PART=branch bash bench/results/logs/2026-12-05-s45-next-not-run.sh, then PART=ab, PART=plan
set -u
case ${PART:?PART=build, branch, ab, window, window_quick, window_ab or plan} in
  build)
    set -e
    here=$(git rev-parse --abbrev-ref HEAD)
    [ -s out/carry/s43next.tar.xz ] || { echo "out/carry/s43next.tar.xz missing: run -s44-next-not-run.sh PART=build first" >&2; exit 1; }
    git diff --quiet && git diff --cached --quiet || { echo "commit or stash first: this switches branches" >&2; exit 1; }
    # main's probe (the pass alone), from a worktree of main
    rm -rf /tmp/s45-main && git worktree add -f /tmp/s45-main main >/dev/null
    scripts/build_probe.sh /tmp/s45-main out/ab57/main_probe
    git worktree remove --force /tmp/s45-main
    # s45-layout's library (build-main: no Python module, it is not A/B'd through Python)
    git checkout -q s45-layout
    [ -f build-main/build.ninja ] || cmake -S . -B build-main -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=90a-real -DFLASHSSD_BUILD_PYTHON=OFF >/dev/null
    cmake --build build-main -j2 >/dev/null
    bash scripts/stage_device_build.sh build-main layout >/dev/null
    echo "s45-layout $(git rev-parse --short=12 HEAD)" > out/dev/layout/COMMIT
    rm -rf out/dev/layout/bench/flashssd_sm90_forward_probe out/dev/layout/tests out/dev/layout/python
    # s45-window's library and suites (build-main again)
    git checkout -q s45-window
    cmake --build build-main -j2 >/dev/null
    bash scripts/stage_device_build.sh build-main window >/dev/null
    echo "s45-window $(git rev-parse --short=12 HEAD)" > out/dev/window/COMMIT
    rm -rf out/dev/window/bench/flashssd_sm90_forward_probe out/dev/window/tests/stability out/dev/window/python
    bash scripts/carry.sh pack s45window dev/window
    # s45-cstma's library (build-gpu, with the Python module) and probes
    git checkout -q s45-cstma
    [ -f build-gpu/build.ninja ] || cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=90a-real -DFLASHSSD_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PWD/.deps/pyenv-3.12/bin/python" >/dev/null
    cmake --build build-gpu -j2 >/dev/null
    bash scripts/stage_device_build.sh build-gpu cstma >/dev/null
    echo "s45-cstma $(git rev-parse --short=12 HEAD)" > out/dev/cstma/COMMIT
    rm -f out/dev/cstma/bench/flashssd_sm90_forward_probe; rm -rf out/dev/cstma/tests/stability
    scripts/build_probe.sh out/ab57/cstma_probe
    rm -rf /tmp/v1x6 && mkdir /tmp/v1x6 && cp -r src include bench /tmp/v1x6/
    patch -s -p1 -d /tmp/v1x6 < bench/results/logs/2026-12-05-s44-cstma-1x6.diff
    scripts/build_probe.sh /tmp/v1x6 out/ab57/cstma1x6_probe
    git checkout -q "$here"
    bash scripts/carry.sh pack s45next dev/layout dev/cstma ab57 ;;
  branch)
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s45next > /dev/null || exit 1
    C=out/dev/cstma
    FLASHSSD_COMMIT=$(cut -d' ' -f2 $C/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh $C
    export LD_LIBRARY_PATH=$PWD/$C
    for tool in memcheck racecheck synccheck; do
      extra=(); [ $tool = racecheck ] && extra=(--racecheck-report hazard)
      timeout 120 compute-sanitizer --tool $tool "${extra[@]}" $C/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*ChunkScores*' > $O/cs_$tool.log 2>&1
      echo "chunk scores $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $O/cs_$tool.log
    done
    for a in "--config R1 --seqlen 8192" "--config R1 --seqlen 512 --z" "--config R2 --z" "--config R1 --seqlen 8192 --N 256 --z" \
             "--config R1 --seqlen 8192 --dtype fp16 --z" "--config R1 --seqlen 200 --batch 3" "--config R1 --seqlen 32768"; do
      timeout 60 $C/bench/flashssd_bench $a --iters 3 --warmup 1 --verify-tokens 4096 | grep -o '"verify_rel_err": *[^,]*' | sed "s|^|$a: |"
    done | tee $O/verify.log
    unset LD_LIBRARY_PATH
    printf "%s\n" "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" \
      "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1" "--batch 1 --seqlen 131072 --scores-only 1" \
      "--N 256 --scores-only 1" \
      | bash scripts/probe_ab.sh --dir out/ab57 --rounds 3 --variants "main cstma cstma1x6" > $O/probe_ab.log 2>&1
    tail -8 $O/probe_ab.log ;;
  ab)
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s43next > /dev/null || exit 1  # out/dev/build-gpu: main's library (4aeae59 = 3154aa2's SASS)
    bash scripts/carry.sh unpack s45next > /dev/null || exit 1
    printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512" "--config R1 --seqlen 512 --z" \
      "--config R1 --seqlen 16384 --z" "--config R2" "--config R2 --z" "--config R3" "--config R3 --z" \
      "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --dtype fp16" "--config R4 --seqlen 131072" |
      bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/build-gpu --lib layout=out/dev/layout --lib cstma=out/dev/cstma > $O/api_ab.log 2>&1
    tail -14 $O/api_ab.log ;;
  window)
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s45window > /dev/null || exit 1
    W=out/dev/window
    FLASHSSD_COMMIT=$(cut -d' ' -f2 $W/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh $W
    LD_LIBRARY_PATH=$PWD/$W timeout 300 compute-sanitizer --tool memcheck $W/tests/gpu/flashssd_gpu_tests \
      --gtest_filter='GpuForwardSplit.*' > $O/split_memcheck.log 2>&1
    echo "split tests memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $O/split_memcheck.log | tail -3 ;;
  window_quick)
    # One short call when little time is left: the GPU suite (DecayWindowMatchesReference in it),
    # memcheck on that test, and a 2-round A/B of four rows (main / window).
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s43next > /dev/null || exit 1
    bash scripts/carry.sh unpack s45window > /dev/null || exit 1
    W=out/dev/window
    LD_LIBRARY_PATH=$PWD/$W timeout 150 $W/tests/gpu/flashssd_gpu_tests > $O/gpu_tests.log 2>&1
    echo "gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|DecayWindow" $O/gpu_tests.log | tail -6
    LD_LIBRARY_PATH=$PWD/$W timeout 150 compute-sanitizer --tool memcheck $W/tests/gpu/flashssd_gpu_tests \
      --gtest_filter='GpuForwardSplit.DecayWindow*' > $O/window_memcheck.log 2>&1
    echo "window memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $O/window_memcheck.log | tail -3
    mkdir -p out/dev/main_wb && ln -sf "$PWD"/out/dev/build-gpu/libflashssd.so* out/dev/main_wb/ &&
      cp "$W/bench/flashssd_bench" out/dev/main_wb/flashssd_bench
    printf "%s\n" "--config R4 --seqlen 131072" "--config R1 --seqlen 32768" "--config R4 --seqlen 131072 --A-scale 0.01" \
      "--config R1 --seqlen 8192" | bash scripts/api_ab.sh --rounds 2 --lib main=out/dev/main_wb --lib window=$W > $O/window_ab.log 2>&1
    tail -6 $O/window_ab.log ;;
  window_ab)
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s43next > /dev/null || exit 1  # out/dev/build-gpu: main's library
    bash scripts/carry.sh unpack s45window > /dev/null || exit 1
    W=out/dev/window
    # main's library under the branch's flashssd_bench (which has --A-scale; the public API is the same)
    mkdir -p out/dev/main_wb && ln -sf "$PWD"/out/dev/build-gpu/libflashssd.so* out/dev/main_wb/ &&
      cp "$W/bench/flashssd_bench" out/dev/main_wb/flashssd_bench
    printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
      "--config R1 --seqlen 32768 --z" "--config R4 --seqlen 131072 --A-scale 0.01" "--config R1 --seqlen 32768 --A-scale 0.01" \
      "--config R1 --seqlen 32768 --A-scale 10" "--config R1 --seqlen 8192" |
      bash scripts/api_ab.sh --rounds 3 --lib main=out/dev/main_wb --lib window=$W --lib window_off=$W,FLASHSSD_DECAY_WINDOW=0 \
        > $O/window_ab.log 2>&1
    tail -10 $O/window_ab.log ;;
  plan)
    O=${OUT:?}; mkdir -p "$O"
    OUT=$O/plan bash bench/results/logs/2026-12-05-s44-plan-not-run.sh
    # The eager call's host time by layer (bench/host_overhead.py, ~30 s; main's library and module).
    LD_LIBRARY_PATH=$PWD/out/dev/build-gpu PYTHONPATH=$PWD/out/dev/build-gpu/python \
      timeout 300 python3 bench/host_overhead.py --json $O/host_overhead.json | tee $O/host_overhead.log ;;
  *) echo "PART=build, branch, ab, window, window_quick, window_ab or plan" >&2; exit 2 ;;
esac
