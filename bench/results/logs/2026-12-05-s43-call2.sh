#!/usr/bin/env bash
# Session 43, call 2 (H200). Carry: out/carry (s43b.tar.xz = dev/build-gpu: 3154aa2, balanced grids + the chunk
# scores pass at two CTAs of 3 stages per SM; dev/bg: ec1ad3c, balanced grids alone; headlib: main at 257ca28).
#   1. PART=checks on 3154aa2's library: the GPU suites at 1 and 3 splits, Hopper, segsum, memcheck, racecheck;
#   2. flashssd_bench's float64 check on a few shapes of it;
#   3. the API A/B head / bg / bgcs2 on the benchmark's rows, 3 rounds, order rotated;
#   4. the GPU pytest (carry third_party_bench too).
set -u
O=${OUT:?}; mkdir -p $O
bash scripts/carry.sh unpack s43b > /dev/null || exit 1
B=out/dev/build-gpu
FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=checks OUT=$O/chk bash scripts/device_session.sh $B 2>&1 | tail -16
(cd $O && tar czf chk.tgz chk && rm -rf chk)
for a in "--config R1 --seqlen 512" "--config R2 --z" "--config R1 --seqlen 8192 --N 256 --z" "--config R1 --seqlen 8192 --dtype fp16 --z" \
         "--config R1 --seqlen 200 --batch 3" "--config R3 --z" "--config R1 --seqlen 32768"; do
  LD_LIBRARY_PATH=$B timeout 60 $B/bench/flashssd_bench $a --iters 3 --warmup 1 --verify-tokens 4096 2>/dev/null | grep -o '"verify_rel_err": *[^,]*' | sed "s|^|$a: |"
done | tee $O/verify.log
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 512 --z" "--config R1 --seqlen 1024 --z" "--config R1 --seqlen 2048 --z" \
  "--config R1 --seqlen 4096 --z" "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 16384 --z" \
  "--config R1 --seqlen 32768" "--config R2" "--config R2 --z" "--config R3" "--config R3 --z" "--config R4 --seqlen 131072" \
  "--config R1 --seqlen 8192 --N 256" "--config R1 --seqlen 8192 --dtype fp16" |
  bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib bg=out/dev/bg --lib bgcs2=$B > $O/api_ab.log 2>&1
tail -17 $O/api_ab.log
# 4. the GPU pytest on 3154aa2's library (needs third_party_bench in the carry too)
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json timeout 420 python3 -m pytest tests/python/test_gpu.py \
  -v -rs -p no:cacheprovider --durations=15 > $O/pytest_gpu.log 2>&1
echo "pytest rc=$?"; tail -3 $O/pytest_gpu.log
