#!/bin/bash
# Session 19 call 9 (the session's last ~4.5 minutes of device time): what does the N = 128
# main pass's skeleton wait for? ncu of skc3 (3 stages, no SSD arithmetic; see
# 2026-12-02-s19-skeleton-builds.md) beside the real kernel (base), both probe binaries built
# here first:
#   for v in base skc3; do rm -rf /tmp/$v && mkdir /tmp/$v && cp -r src include bench /tmp/$v; done
#   (cd /tmp/skc3 && patch -p1 < $OLDPWD/bench/results/logs/2026-12-02-s19-call7-skeleton-syncs.diff)
#   NVCC_FLAGS="-DSKEL_C=1 -DSKEL_P=1 -DSKEL_SMALL=1" scripts/build_probe.sh /tmp/skc3 out/ab/skc3_probe
#   scripts/build_probe.sh /tmp/base out/ab/base_probe
# then carry out/ab. Questions: the tensor pipe's, L2's and DRAM's throughput in each, the
# consumers' stall reasons (WGMMA waits vs mbarrier waits vs TMA), and each HGMMA group's
# issue-to-retire time (the SASS stall table, scripts/ncu_sass_table.py).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
for v in skc3 base; do
  timeout 80 ncu --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
    -k regex:ssd_fwd_sm90_kernel -c 1 -o $O/ncu_$v out/ab/${v}_probe --softplus 1 --iters 2 > $O/ncu_$v.log 2>&1
  echo "ncu $v rc=$?"
  ncu --import $O/ncu_$v.ncu-rep --page details --csv > $O/ncu_${v}_details.csv 2>/dev/null
  grep -E 'Duration|Throughput|Issue Slots|Stall|Pipe|Warp Cycles|Eligible|Active' $O/ncu_${v}_details.csv | awk -F'","' '{print $(NF-2), $NF}' | head -40
done
