#!/usr/bin/env bash
# Session 48, call 5: main after the merge of s48-fixup (the split schemes chosen on the device,
# tile_log_decay's softplus from fast intrinsics), staged as out/dev/s48m. One call:
#   1. scripts/device_session.sh PART=checks (GPU suite, at 3 splits, Hopper suite, segsum
#      suite, memcheck and racecheck on the small shapes, racecheck at 3 splits);
#   2. the GPU suite and racecheck on the small shapes at 3 splits with the fix-up forced;
#   3. the GPU pytest without its mamba_ssm comparisons;
#   4. ncu of R4 128k under the default; the API A/B of call 4's library (out/dev/s48b, the
#      exact softplus) against this one where the choice's kernels run.
#   device: OUT=$OUT bash bench/results/logs/2026-12-05-s48-merged.sh   (carry out/carry)
set -u
O=${OUT:?}; mkdir -p "$O"
bash scripts/carry.sh unpack s48m > /dev/null || exit 1
F=out/dev/s48m P=out/dev/s48b
T=$F/tests/gpu/flashssd_gpu_tests
nvidia-smi --query-gpu=name --format=csv,noheader
OUT=$O/checks PART=checks timeout 330 bash scripts/device_session.sh $F
(
export LD_LIBRARY_PATH=$PWD/$F
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 $T > $O/gpu_fixup3.log 2>&1
echo "GPU suite, fixup at 3 splits rc=$?"; grep -E "^\[  (PASSED|FAILED)" $O/gpu_fixup3.log | head -10
FLASHSSD_SPLIT_SCHEME=fixup FLASHSSD_NUM_SPLITS=3 timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard \
  $T --gtest_filter='*Small*' > $O/racecheck_fixup3.log 2>&1
echo "racecheck (fixup, 3 splits) rc=$?"; grep -E "RACECHECK SUMMARY" $O/racecheck_fixup3.log
PYTHONPATH=$F/python timeout 200 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > $O/pytest_gpu_quick.log 2>&1
echo "pytest (no Triton comparisons) rc=$?"; tail -3 $O/pytest_gpu_quick.log
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  $F/bench/flashssd_bench --config R4 --seqlen 131072 --iters 2 --warmup 1 --no-verify > $O/ncu_R4_128k.csv 2>&1
echo "ncu R4 128k rc=$?"; python3 scripts/ncu_durations.py $O/ncu_R4_128k.csv | grep -v -e fill_uniform -e count_nonfinite
)
printf "%s\n" "--config R4 --seqlen 131072" "--config R4 --seqlen 131072 --A-scale 0.01" \
  "--config R4 --seqlen 524288 --A-scale 0.01" "--config R1 --seqlen 32768" |
  timeout 120 bash scripts/api_ab.sh --rounds 2 --lib call4=$P --lib merged=$F > $O/api_ab.log 2>&1
echo "api_ab rc=$?"; tail -5 $O/api_ab.log
(cd $O && tar -czf merged_logs.tgz *.log *.csv checks && rm -rf *.log *.csv checks)
ls $O
