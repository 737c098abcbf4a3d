#!/usr/bin/env bash
# Session 58, call 4 (any card). Where the windowed state pass's time goes (calls 2-3: neither
# cheaper dead runs nor shorter runs nor split 0 beside the chain paid).
# 1. s58tl (diagnostic, not for main: 2026-12-06-s58-timeline.patch): each state-pass CTA's
#    start, go (after the PDL wait; the timeline launches without PDL), end (globaltimer), SM and
#    tiles, printed by the launcher; R1 32k at runs of 64 (default), 32 and 16 tiles, with decays
#    10x slower, and R4 128k. flashssd_bench --iters 1 --warmup 1 (the last call's lines count).
# 2. ncu on s57main (main's SASS): the split kernels' durations at R1 32k, runs of 64 / 32 / 16.
# 3. s58final (main + host clean-ups; SASS identical to s57main in all 58 kernels): the GPU suite
#    by default and the split tests with the window forced, the Hopper suite.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-call4.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
for n in s57main s58tl s58final; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
M=out/dev/s57main TL=out/dev/s58tl F=out/dev/s58final
tl() {  # <tag> <env...> -- <bench args>
  local tag=$1; shift
  env LD_LIBRARY_PATH=$PWD/$TL FLASHSSD_TIMELINE=1 "$@" --iters 1 --warmup 1 --no-verify > "$OUT/tl_$tag.txt" 2>&1
  echo "timeline $tag rc=$?"
}
B=$TL/bench/flashssd_bench
tl r1_32k_r64 $B --config R1 --seqlen 32768
tl r1_32k_r32 FLASHSSD_STATE_RUNS=8 $B --config R1 --seqlen 32768
tl r1_32k_r16 FLASHSSD_STATE_RUNS=16 $B --config R1 --seqlen 32768
tl r1_32k_a01 $B --config R1 --seqlen 32768 --A-scale 0.1
tl r4_128k $B --config R4 --seqlen 131072
tl r1_32k_whole FLASHSSD_STATE_WINDOW=0 $B --config R1 --seqlen 32768
(cd "$OUT" && tar -czf timeline.tgz tl_*.txt && rm -f tl_*.txt)
echo "timelines done at ${SECONDS} s"
for r in 4 8 16; do
  FLASHSSD_STATE_RUNS=$r LD_LIBRARY_PATH=$PWD/$M timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k "regex:ssd_fwd_sm90_kernel|split_boundary|tile_log|state_window|chunk_scores" --csv $M/bench/flashssd_bench \
    --config R1 --seqlen 32768 --iters 2 --warmup 1 --no-verify > "$OUT/ncu_r1_32k_runs$r.csv" 2>&1
  echo "ncu runs $r rc=$?"; python3 scripts/ncu_durations.py "$OUT/ncu_r1_32k_runs$r.csv" | cut -c1-160
done
variant_pack ncu
LD_LIBRARY_PATH=$PWD/$F timeout 100 $F/tests/gpu/flashssd_gpu_tests > "$OUT/final_gpu_default.log" 2>&1
echo "final default rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/final_gpu_default.log"
LD_LIBRARY_PATH=$PWD/$F FLASHSSD_STATE_WINDOW=1 FLASHSSD_SPLIT_SCHEME=state FLASHSSD_NUM_SPLITS=3 timeout 100 \
  $F/tests/gpu/flashssd_gpu_tests --gtest_filter='GpuForwardSplit.*' > "$OUT/final_split_win3.log" 2>&1
echo "final split tests, window forced at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/final_split_win3.log"
LD_LIBRARY_PATH=$PWD/$F timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > "$OUT/final_sm90.log" 2>&1
echo "final sm90 rc=$?"; grep -E "^\[  (PASSED|FAILED)" "$OUT/final_sm90.log"
variant_pack final_checks
echo "all done at ${SECONDS} s"
