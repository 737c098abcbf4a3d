#!/bin/bash
# Session 13 call 7: the benchmark of record on the session's final kernels (device_session.sh:
# suites, sanitizers, segsum section, compare.py with the attention baselines).
B=out/dev/build-gpu; O=$OUT
FLASHSSD_COMMIT=$1 OUT=/tmp/ds bash scripts/device_session.sh $B > $O/session.log 2>&1
tail -70 $O/session.log
tar czf $O/ds.tgz -C /tmp ds; ls -la $O
