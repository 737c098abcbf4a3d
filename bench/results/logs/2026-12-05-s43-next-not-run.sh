#!/usr/bin/env bash
# Prepared in session 43, not run (the device time was spent): does the chunk scores pass at two CTAs per
# SM (3154aa2) cost the split rows? compare.py read R1 32k z +2.6% (call 4, rounds overlapping) where
# neither pass's grid changed. A sustained flashssd_bench A/B of 257ca28's library (head) against main's.
#   here (~9 min on 2 cores): PART=build bash bench/results/logs/2026-12-05-s43-next-not-run.sh
#     builds both libraries (a worktree of 257ca28 in /tmp/s43-head), stages them into out/headlib and
#     out/dev/build-gpu, and packs out/carry/s43next.tar.xz (carry out/carry).
#   device (~2 min): OUT=$OUT PART=run bash bench/results/logs/2026-12-05-s43-next-not-run.sh
set -euo pipefail
case ${PART:?PART=build or PART=run} in
  build)
    py=$PWD/.deps/pyenv-3.12/bin/python
    flags=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a-real -DPython_EXECUTABLE="$py")
    rm -rf /tmp/s43-head && git worktree add -f /tmp/s43-head 257ca28 >/dev/null
    ln -sfn "$PWD/.deps" /tmp/s43-head/.deps
    # (head: the library and flashssd_bench only)
    cmake -S /tmp/s43-head -B /tmp/s43-head/build "${flags[@]}" -DFLASHSSD_BUILD_PYTHON=OFF -DFLASHSSD_BUILD_TESTS=OFF >/dev/null
    cmake --build /tmp/s43-head/build -j2 --target flashssd flashssd_bench >/dev/null
    cmake -S . -B build-gpu "${flags[@]}" -DFLASHSSD_BUILD_PYTHON=ON >/dev/null && cmake --build build-gpu -j2 >/dev/null
    rm -rf out/headlib && mkdir -p out/headlib/bench
    cp -a /tmp/s43-head/build/libflashssd.so* out/headlib/ && cp /tmp/s43-head/build/bench/flashssd_bench out/headlib/bench/
    bash scripts/stage_device_build.sh build-gpu build-gpu >/dev/null
    git rev-parse --short=12 HEAD > out/dev/build-gpu/COMMIT
    rm -f out/dev/build-gpu/bench/flashssd_sm90_forward_probe; rm -rf out/dev/build-gpu/tests/stability
    bash scripts/carry.sh pack s43next dev/build-gpu headlib
    git worktree remove --force /tmp/s43-head ;;
  run)
    O=${OUT:?}; mkdir -p "$O"
    bash scripts/carry.sh unpack s43next >/dev/null
    printf "%s\n" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768" "--config R1 --seqlen 2048 --z" \
      "--config R1 --seqlen 4096 --z" "--config R4 --seqlen 131072" |
      bash scripts/api_ab.sh --rounds 3 --common "--iters 1500 --warmup 50 --no-verify" \
        --lib head=out/headlib --lib main=out/dev/build-gpu > "$O/api_ab_sustained.log" 2>&1
    tail -6 "$O/api_ab_sustained.log" ;;
  *) echo "PART=build or PART=run" >&2; exit 2 ;;
esac
