#!/usr/bin/env bash
# Session 43, call 1 (H200). Carry: out/carry (s43.tar.xz = dev/build-gpu: branch s43-cst's library, the
# chunk scores pass fetching its rows by bulk copies; headlib: main's library at 257ca28 = 9737621's kernels;
# ab55: probes head / cst (the branch) / cs2 / cst2 (-s40-next-cs2.diff on head and on the branch)).
#   1. the cst library's Hopper suite, memcheck and racecheck on the chunk scores tests;
#   2. the chunk scores pass alone in the probe, four variants, five shapes, 3 rounds;
#   3. the API A/B head vs cst on the rows the pass feeds (N = 128 and 256), 3 rounds;
#   4. session 40's left-overs: --gate-bw / --copy-bw / --read-bw, the main pass on 128 vs 132 CTAs.
set -u
O=${OUT:?}; mkdir -p $O
bash scripts/carry.sh unpack s43 > /dev/null || exit 1
B=out/dev/build-gpu
timeout 120 $B/tests/gpu/flashssd_sm90_gpu_tests > $O/sm90_tests.log 2>&1; echo "sm90_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm90_tests.log
timeout 120 compute-sanitizer --tool memcheck $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*ChunkScores*' > $O/cs_memcheck.log 2>&1
echo "memcheck rc=$?"; grep -E "ERROR SUMMARY" $O/cs_memcheck.log
timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*ChunkScores*' > $O/cs_racecheck.log 2>&1
echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY" $O/cs_racecheck.log
for a in "--config R1 --seqlen 8192" "--config R2 --z" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --dtype fp16 --z" "--config R1 --seqlen 200 --batch 3"; do
  LD_LIBRARY_PATH=$B timeout 60 $B/bench/flashssd_bench $a --iters 3 --warmup 1 --verify-tokens 4096 | grep -o '"verify_rel_err": *[^,]*' | sed "s|^|$a: |"
done
printf "%s\n" "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1" "--batch 1 --seqlen 131072 --scores-only 1" \
  "--N 256 --scores-only 1" \
  | bash scripts/probe_ab.sh --dir out/ab55 --rounds 3 --variants "head cst cs2 cst2" > $O/probe_ab.log 2>&1
tail -7 $O/probe_ab.log
printf "%s\n" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512 --z" \
  "--config R1 --seqlen 16384 --z" "--config R2" "--config R2 --z" "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --dtype fp16" |
  bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib cst=$B > $O/api_ab.log 2>&1
tail -9 $O/api_ab.log
for m in "--gate-bw 1024" "--copy-bw 1024" "--read-bw 1024" "--gate-bw 1024"; do out/ab55/head_probe $m; done > $O/bw.log 2>&1
cat $O/bw.log
for r in "--batch 128 --seqlen 512 --z 1" "--batch 64 --seqlen 1024 --z 1" "--z 1" "--batch 128 --seqlen 512" ""; do
  echo "$r --final-states 0 --grid 132"; echo "$r --final-states 0 --grid 128"
done | bash scripts/probe_ab.sh --dir out/ab55 --rounds 3 --variants "head" > $O/grid_ab.log 2>&1
tail -11 $O/grid_ab.log
