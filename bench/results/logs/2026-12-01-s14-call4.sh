#!/bin/bash
# Session 14 call 4: the benchmark of record on 8741570 (device_session.sh: suites, sanitizers,
# segsum section, compare.py with the attention baselines), then a probe A/B of the final build
# (new) against b41314d's (basefull).
B=out/dev/build-gpu; O=$OUT
FLASHSSD_COMMIT=$1 OUT=/tmp/ds bash scripts/device_session.sh $B > $O/session.log 2>&1
tail -62 $O/session.log
tar czf $O/ds.tgz -C /tmp ds
cp $B/bench/flashssd_sm90_forward_probe out/ab/new_probe
for round in 1 2; do
for args in "--N 128 --softplus 1" "--N 128 --packed 4 --softplus 1" "--N 256 --softplus 1"; do
  for v in basefull new; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done 2>&1 | tee $O/probe.log
