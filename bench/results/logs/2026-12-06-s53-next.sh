#!/usr/bin/env bash
# For the next session, one call (~330 s; an H100 serves): branch s53-scan-any-n (staged
# s53anyn) against main (s52main). The boundary scan a float4 per thread where N is a multiple
# of 4 (the vector width a template parameter), element by element otherwise. Session 53
# verified the float4 form alone (calls 5-6, H100: suites, sanitizers, pytest; R1 32k -0.7%
# through the API) and took it back off main: its host check refused the sm80 path's splits
# where N is not a multiple of 4. Here: the suites (default, each scheme forced at 3 splits;
# the new GpuForwardSplit.StateSizesOffTheHopperKernelsMatchReference runs N = 48, 50, 13 at 3
# splits), memcheck / racecheck with each scheme, the GPU pytest without the mamba_ssm
# comparisons, the scan under ncu and the API A/B. If all pass: merge s53-scan-any-n, then
# 2026-12-06-s53-next-record.sh with the merge's commit.
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s53-next.sh   (carry out/carry)
set -u
for n in s52main s53anyn; do bash scripts/carry.sh unpack $n > /dev/null || exit 1; done
nvidia-smi --query-gpu=name --format=csv,noheader
. scripts/device_variant.sh
M=out/dev/s52main V=out/dev/s53anyn
VARIANT_SCHEMES="state fixup" variant_suites anyn $V
LD_LIBRARY_PATH=$PWD/$V timeout 60 compute-sanitizer --tool memcheck "$V/tests/gpu/flashssd_gpu_tests" \
  --gtest_filter='*OffTheHopper*' > "$OUT/anyn_memcheck_offhopper.log" 2>&1
echo "anyn memcheck (N = 48, 50, 13 at 3 splits) rc=$?"; grep -E "ERROR SUMMARY" "$OUT/anyn_memcheck_offhopper.log"
VARIANT_SCHEMES="state fixup" variant_sanitize anyn $V memcheck racecheck
PYTHONPATH=$V/python LD_LIBRARY_PATH=$PWD/$V timeout 120 python3 -m pytest tests/python/test_gpu.py -k "not mamba_ssm_triton" \
  -q -rs -p no:cacheprovider > "$OUT/anyn_pytest.log" 2>&1
echo "anyn pytest rc=$?"; tail -3 "$OUT/anyn_pytest.log"
variant_pack anyn_checks
printf "%s\n" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R1 --seqlen 32768 --A-scale 0.5" \
  "--config R4 --seqlen 131072" "--config R4 --seqlen 524288" |
  timeout 150 bash scripts/api_ab.sh --rounds 2 --lib "main=$M" --lib "anyn=$V" > "$OUT/api_ab_anyn.log" 2>&1
echo "api_ab rc=$?"; tail -6 "$OUT/api_ab_anyn.log"
for lib in "main:$M" "anyn:$V"; do
  VARIANT_SCHEMES="state fixup" variant_ncu "${lib%%:*}" "${lib#*:}" split_boundary_scan \
    "R1_32k --config R1 --seqlen 32768" "R4_128k --config R4 --seqlen 131072"
done
variant_pack anyn_ab
