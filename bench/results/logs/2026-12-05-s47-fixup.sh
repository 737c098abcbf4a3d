#!/usr/bin/env bash
# Session 47, branch s47-fixup: the split scheme without a state pass (src/kernels/sm90/split_fixup.h).
# One device call: the split tests (the new FixupSchemeMatchesReference among them) on the
# branch's library, its whole GPU suite with FLASHSSD_SPLIT_SCHEME=fixup at 3 splits, memcheck and
# racecheck on the small shapes that way, then the API A/B: main's library (out/dev/cstma),
# the branch's with the state pass (its default) and with the fix-up.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s47-fixup.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s47fixup > /dev/null || exit 1
bash scripts/carry.sh unpack s45next > /dev/null || exit 1
F=out/dev/fixup M=out/dev/cstma
T=$F/tests/gpu/flashssd_gpu_tests
(
  export LD_LIBRARY_PATH=$PWD/$F
  timeout 200 $T --gtest_filter='GpuForwardSplit.*' > $O/split_tests.log 2>&1
  echo "split tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|Failure|rel err" $O/split_tests.log | head -20
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 200 $T > $O/gpu_fixup3.log 2>&1
  echo "GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)|^\[  FAILED" $O/gpu_fixup3.log | head -20
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool memcheck $T --gtest_filter='*Small*' > $O/memcheck_fixup3.log 2>&1
  echo "memcheck (fixup, 3 splits) rc=$?"; grep -E "ERROR SUMMARY" $O/memcheck_fixup3.log
  FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard $T --gtest_filter='*Small*' > $O/racecheck_fixup3.log 2>&1
  echo "racecheck (fixup, 3 splits) rc=$?"; grep -E "RACECHECK SUMMARY" $O/racecheck_fixup3.log
)
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" \
  "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 8192" "--config R3 --seqlen 2048" |
  timeout 300 bash scripts/api_ab.sh --rounds 2 --lib main=$M --lib new=$F --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -14 $O/api_ab.log
# Slow decays (A scaled by 0.01: every window a whole split), the fix-up's worst case; main's
# flashssd_bench has no --A-scale.
printf "%s\n" "--config R4 --seqlen 131072 --A-scale 0.01" "--config R1 --seqlen 32768 --z --A-scale 0.01" |
  timeout 80 bash scripts/api_ab.sh --rounds 2 --lib new=$F --lib fixup=$F,FLASHSSD_SPLIT_SCHEME=fixup > $O/api_ab_slow.log 2>&1
echo "api_ab slow rc=$?"; tail -6 $O/api_ab_slow.log
(cd $O && tar -czf fixup_logs.tgz *.log && rm -f *.log)
ls $O
