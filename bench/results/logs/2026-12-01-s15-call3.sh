#!/bin/bash
# Session 15 call 3: the benchmark of record on b9b70c2afe57 (device_session.sh: suites,
# sanitizers, segsum section, compare.py with the attention baselines and the new R1-dtbf16
# rows), the sm80 suite, and flashssd_bench with dt in fp32 / bf16.
B=out/dev/build-gpu; O=$OUT
FLASHSSD_COMMIT=$1 OUT=/tmp/ds bash scripts/device_session.sh $B > $O/session.log 2>&1
tail -70 $O/session.log
tar czf $O/ds.tgz -C /tmp ds
export LD_LIBRARY_PATH=$PWD/$B
FLASHSSD_DISABLE_SM90=1 timeout 120 $B/tests/gpu/flashssd_gpu_tests > $O/sm80_tests.log 2>&1; echo "sm80 gpu_tests rc=$?"; grep -E "^\[  PASSED|^\[  FAILED" $O/sm80_tests.log | tail -3
for dtt in fp32 bf16; do for z in "" "--z"; do
  timeout 60 $B/bench/flashssd_bench --config R1 --seqlen 8192 --dt-dtype $dtt $z 2>&1 | tail -1
done; done
timeout 60 $B/bench/flashssd_bench --config R1 --seqlen 512 --dt-dtype bf16 2>&1 | tail -1
