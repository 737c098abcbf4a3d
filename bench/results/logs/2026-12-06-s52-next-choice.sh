#!/usr/bin/env bash
# NOT RUN (session 52 had no device time left); for the next session (~60 s on a warm machine).
# Where the choice's ~26 us go. Session 52 call 1 (H100): with kFixupMinStateSteps 128 (branch
# s51-min128, staged s52min128) R1 32k pays the choice and then, where decays are slow (A x 0.7,
# A x 0.5: W / S 0.265 / 0.342, over the budget), runs the state pass anyway: +4.4% (0.6022 ->
# 0.6287 ms) against main, which takes the state pass outright; at the benchmark's decays the
# same branch gains 4.6% (the fix-up). Whether min128 can go to main depends on that cost:
# tile_log_decay, split_log_prefix, the boundary scan's second launch, the fix-up's early exit,
# the main pass writing each split's end state. Every kernel's duration, one forward call each:
#   main      R1 32k A x 0.7 (the state pass outright)
#   min128    R1 32k A x 0.7 (the choice, then the state pass)
#   min128    R1 32k         (the choice, then the fix-up)
# Builds: 2026-12-06-s52-next-prepare.sh (s52main, s52min128).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s52-next-choice.sh   (carry out/carry)
set -u
for n in s52main s52min128; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
run() {  # <tag> <staged folder> <flashssd_bench arguments>...
  local tag=$1 F=$2; shift 2
  LD_LIBRARY_PATH=$PWD/$F timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    "$F/bench/flashssd_bench" "$@" --iters 2 --warmup 1 --no-verify > "$OUT/ncu_choice_$tag.csv" 2>&1
  echo "== $tag rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_choice_$tag.csv"
}
run main_A07 out/dev/s52main --config R1 --seqlen 32768 --A-scale 0.7
run min128_A07 out/dev/s52min128 --config R1 --seqlen 32768 --A-scale 0.7
run min128_A1 out/dev/s52min128 --config R1 --seqlen 32768
(cd "$OUT" && tar -czf ncu_choice.tgz ncu_choice_*.csv && rm -f ncu_choice_*.csv)
