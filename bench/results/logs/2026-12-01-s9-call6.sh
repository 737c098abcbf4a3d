set -u
B=out/dev/build-gpu; export LD_LIBRARY_PATH=$PWD/$B
timeout 40 $B/tests/gpu/flashssd_sm90_gpu_tests --gtest_filter='*256*' > $OUT/quick.log 2>&1; rc=$?
echo "quick sm90 N256 rc=$rc"; grep -E "rel err|OK|FAILED|Failure" $OUT/quick.log | head -20
if [ $rc -ne 0 ]; then tail -30 $OUT/quick.log; exit 1; fi
for a in "--N 256" "--N 256 --z 1" "--N 256 --seqlen 512 --batch 128" "--N 128"; do echo "probe [$a] $(timeout 30 $B/bench/flashssd_sm90_forward_probe $a | python3 -c "import sys,json; print(json.loads(sys.stdin.read())['median_ms'])")"; done
mkdir -p $OUT/ds
FLASHSSD_COMMIT=8eb949d297de OUT=$OUT/ds bash scripts/device_session.sh $B > $OUT/session.log 2>&1
echo "session rc=$?"
grep -E "rc=|PASSED|FAILED|SUMMARY" $OUT/session.log | head -30
tail -22 $OUT/session.log
cd $OUT/ds && tar czf ../logs.tgz *.log && rm -f *.log
