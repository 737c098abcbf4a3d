#!/bin/bash
# Session 18 call 3: the checks on ffc3d6a (device_session.sh PART=checks); what holds the
# passes now: ncu's breakdown of the main pass's L1/TEX and SM throughput (R1 8k), the state
# pass's sections (R4, pairs of tiles), and the state pass's I/O alone (consumers wait and
# release only: a timing probe, wrong results) under ncu durations.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
F=out/dev/build-gpu; P=out/ab/iolib
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
FLASHSSD_COMMIT=ffc3d6a PART=checks OUT=$O/ds timeout 200 bash scripts/device_session.sh $F > $O/checks.log 2>&1; echo "checks rc=$?"; tail -25 $O/checks.log
B=$F/bench/flashssd_bench
M="breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"
LD_LIBRARY_PATH=$PWD/$F timeout 120 ncu --metrics $M -k regex:"ssd_fwd_sm90_kernel" --launch-skip 1 --launch-count 1 $B --config R1 --seqlen 8192 --iters 1 --warmup 1 --no-verify > $O/ncu_main_breakdown.txt 2>&1; echo "ncu main rc=$?"
grep -E "^\s+(l1tex|sm__|gpu__|smsp)" $O/ncu_main_breakdown.txt | sort -k3 -n -r | head -60
LD_LIBRARY_PATH=$PWD/$F timeout 150 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --metrics $M \
  -k regex:ssd_fwd --launch-count 1 $B --config R4 --iters 1 --warmup 0 --no-verify > $O/ncu_state_pass.txt 2>&1; echo "ncu state rc=$?"
grep -E "Duration|Throughput|Busy|Eligible|Issued|Warp Cycles|l1tex|sm__|Stall|Hit Rate" $O/ncu_state_pass.txt | head -60
for v in new io; do
  L=$F; bin=$B; [ $v = io ] && { L=$P; bin=$P/flashssd_bench; }
  for cfg in "--config R4" "--config R1 --seqlen 32768"; do
  LD_LIBRARY_PATH=$PWD/$L timeout 60 ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed --csv -k regex:"ssd_fwd" $bin $cfg --iters 1 --warmup 1 --no-verify > $O/ncu_${v}_${cfg//[ -]/}.csv 2>/dev/null
  echo "ncu $v $cfg rc=$?"; grep '^"[0-9]' $O/ncu_${v}_${cfg//[ -]/}.csv | awk -F'","' '{n=$5; sub(/\(.*/,"",n); print substr(n,length(n)-10), $(NF-2), $NF}'
  done
done
