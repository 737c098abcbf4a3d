#!/bin/bash
# Session 15 call 1: is the main pass bound by L2 -> SM traffic? (B, C and S are read from
# L2 by every CTA, 40 KB per step, against x's 16 KB and y's 16 KB.) L2-hit read ceiling
# (l2bw), the probe's time, ncu's L2 / DRAM / shared-memory throughput of the probe and
# of the I/O skeleton.
O=$OUT; A=out/ab
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
timeout 40 $A/l2bw   # out/ab/l2bw.cu, kept as bench/results/logs/2026-12-01-s15-l2bw.cu
for i in 1 2; do
  timeout 40 $A/main_probe --N 128 --softplus 1 --iters 50
  timeout 40 $A/mc_probe --N 128 --softplus 1 --iters 50 --cluster 1
  timeout 40 $A/mc_probe --N 128 --softplus 1 --iters 50 --cluster 2
done
for c in 1 2; do timeout 40 $A/mc_probe --N 128 --softplus 1 --iters 50 --cluster $c --z 1; timeout 40 $A/mc_probe --N 128 --softplus 1 --iters 50 --cluster $c --seqlen 512 --batch 128; done
timeout 40 $A/main_probe --N 128 --softplus 1 --iters 50 --z 1; timeout 40 $A/main_probe --N 128 --softplus 1 --iters 50 --seqlen 512 --batch 128
timeout 40 $A/tile_stream --stages 4 --dt-in-pipeline 1
M=gpu__time_duration.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum.per_second,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__d_sectors_fill_sysmem.sum,lts__t_requests_srcunit_tex_op_read.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
timeout 120 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics $M -k regex:ssd_fwd --launch-skip 1 --launch-count 1 $A/main_probe --N 128 --softplus 1 --iters 2 > $O/ncu_probe.txt 2>&1; echo "ncu probe rc=$?"
timeout 120 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics $M -k regex:ssd_fwd --launch-skip 1 --launch-count 1 $A/mc_probe --N 128 --softplus 1 --iters 2 --cluster 2 > $O/ncu_mc.txt 2>&1; echo "ncu mc rc=$?"
timeout 120 ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --metrics $M -k regex:tile_stream --launch-skip 1 --launch-count 1 $A/tile_stream --stages 4 --dt-in-pipeline 1 --iters 2 > $O/ncu_stream.txt 2>&1; echo "ncu stream rc=$?"
timeout 60 ncu --metrics $M --launch-skip 2 --launch-count 1 $A/l2bw > $O/ncu_l2bw.txt 2>&1; echo "ncu l2bw rc=$?"
grep -E "Duration|L2 Cache Throughput|DRAM Throughput|Memory Throughput|lts__|dram__|l1tex__|sm__|gpu__" $O/ncu_probe.txt $O/ncu_mc.txt $O/ncu_stream.txt $O/ncu_l2bw.txt
