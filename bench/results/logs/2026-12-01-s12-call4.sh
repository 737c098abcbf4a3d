#!/bin/bash
# Session 12 call 4: call 3's D fold reverted (it doubled y's error: R1 bf16 1.27e-3 -> 2.85e-3,
# fp16 1.85e-4 -> 3.61e-4), the inverse-scale fold kept. Probe A/B against a547341 (out/ab/old),
# the API's errors (bitwise the same products: the same error figures as a265cf7), then the
# benchmark of record (device_session.sh: suites, sanitizers, compare.py).
B=out/dev/build-gpu; O=$OUT
cp $B/bench/flashssd_sm90_forward_probe out/ab/new_probe
for args in "--N 128" "--N 128 --z 1" "--N 128 --seqlen 512 --batch 128" "--N 128" "--N 128 --z 1"; do
  for v in old new; do
    r=$(timeout 30 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe | $args | $v | $r"
  done
done
for cfg in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --dtype fp16" "--config R1 --seqlen 8192 --z"; do
  r=$(LD_LIBRARY_PATH=$PWD/$B timeout 60 $B/bench/flashssd_bench $cfg --iters 40 2>&1 | tail -2 | tr '\n' ' ' | grep -o "median [0-9.]* ms\|err[^,]*" | tr '\n' ' ')
  echo "api | $cfg | new | $r"
done
FLASHSSD_COMMIT=$1 OUT=$O/ds bash scripts/device_session.sh $B
