#!/usr/bin/env bash
# Session 58, call 5 (any card): the state pass's fixed cost per CTA (call 4's timeline: a run
# takes ~10-18 us beyond its tiles). s58tl2 = call 4's diagnostic + consumer 1's stamps per CTA:
# item start, first pair's operands ready (its first stages waited for), tile loop end, state
# stored (2026-12-06-s58-timeline.patch). R1 32k at runs of 64 / 16 tiles and whole splits, R4 128k.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s58-call5.sh   (carry out/carry)
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
bash scripts/carry.sh unpack s58tl2 > /dev/null || exit 1
TL=out/dev/s58tl2 B=out/dev/s58tl2/bench/flashssd_bench
tl() {  # <tag> <env...> -- <bench args>
  local tag=$1; shift
  env LD_LIBRARY_PATH=$PWD/$TL FLASHSSD_TIMELINE=1 "$@" --iters 1 --warmup 1 --no-verify > "$OUT/tl2_$tag.txt" 2>&1
  echo "timeline $tag rc=$?"
}
tl r1_32k_r64 $B --config R1 --seqlen 32768
tl r1_32k_r16 FLASHSSD_STATE_RUNS=16 $B --config R1 --seqlen 32768
tl r1_32k_whole FLASHSSD_STATE_WINDOW=0 $B --config R1 --seqlen 32768
tl r4_128k $B --config R4 --seqlen 131072
(cd "$OUT" && tar -czf timeline2.tgz tl2_*.txt && rm -f tl2_*.txt)
echo "all done at ${SECONDS} s"
