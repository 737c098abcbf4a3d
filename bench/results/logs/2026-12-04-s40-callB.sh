#!/usr/bin/env bash
# Session 40 call B: the chunk scores pass as a persistent grid (one CTA of 8 warps per SM, each
# tile's C and B fetched kStages - 1 tiles ahead by cp.async) instead of one 4-warp CTA per tile.
# (1) the pass alone in the probe (--scores-only 1), head (HEAD's kernel) against cs, 3 rounds;
# (2) flashssd_bench through the API, head (out/headlib, HEAD's library) against cs (out/dev/cs);
# (3) the chunk-scores tests under memcheck and racecheck; (4) PART=checks on cs's library.
# Carry out/ab51, out/dev/cs (without python/), out/headlib.
set -u
O=${OUT:?}; mkdir -p $O
printf "%s\n" "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1" "--batch 1 --seqlen 131072 --scores-only 1" \
  "--N 256 --scores-only 1" \
  | bash scripts/probe_ab.sh --dir out/ab51 --rounds 3 --variants "head cs" > $O/probe_ab.log 2>&1
tail -6 $O/probe_ab.log
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 8192" "--config R1 --seqlen 512 --z" \
  "--config R1 --seqlen 8192 --z" "--config R2" "--config R2 --z" "--config R4 --seqlen 131072" \
  | bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib cs=out/dev/cs > $O/api_ab.log 2>&1
tail -8 $O/api_ab.log
T=out/dev/cs/tests/gpu/flashssd_sm90_gpu_tests
timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='Sm90ChunkScores*' > $O/scores_memcheck.log 2>&1
echo "scores memcheck rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" $O/scores_memcheck.log | tail -3
timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard $T --gtest_filter='Sm90ChunkScores*' > $O/scores_racecheck.log 2>&1
echo "scores racecheck rc=$?"; grep -E "RACECHECK SUMMARY|PASSED|FAILED" $O/scores_racecheck.log | tail -3
W=/tmp/s40b; mkdir -p $W
FLASHSSD_COMMIT=$(cat out/dev/cs/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh out/dev/cs | tail -25
(cd $W && tar czf $O/chk.tgz chk)
