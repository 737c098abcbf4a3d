#!/bin/bash
# Session 14 call 1: (a) what holds the N = 128 main pass: probe (R1 8k, N = 128 only) of HEAD
# and of diagnostic variants that drop one piece of work each (timing only, wrong results):
#   nodecay  the producer's decay factors (scan, token factors, diagonal rows) skipped
#   nomask   the consumers' chunk-score mask skipped
#   nohdecay the consumers' state decay h *= exp(total) skipped
#   leanall  all three
#   tma4     (a candidate, correct) the stage's TMA loads issued by lane 0 of each producer warp
# (b) the benchmark of record on HEAD (device_session.sh: suites, sanitizers, compare.py).
O=$OUT
for round in 1 2; do
for args in "--N 128 --softplus 1" "--N 128" "--N 128 --z 1 --softplus 1" "--N 128 --seqlen 512 --batch 128 --softplus 1"; do
  for v in base128 nodecay nomask nohdecay leanall tma4; do
    r=$(timeout 20 out/ab/${v}_probe $args --iters 30 | python3 -c "import json,sys; d=json.loads(sys.stdin.read()); print(d['median_ms'])")
    echo "probe $round | $args | $v | $r"
  done
done
done 2>&1 | tee $O/probe.log
B=out/dev/build-gpu
FLASHSSD_COMMIT=$1 OUT=/tmp/ds bash scripts/device_session.sh $B > $O/session.log 2>&1
tail -60 $O/session.log
tar czf $O/ds.tgz -C /tmp ds; ls -la $O
