#!/bin/bash
# Session 67's register probes (compile only): ssd_fwd_sm90_bf16_n128.cu with kConsumerRegs set to
# <regs> and consumer_sm90.cuh edited by <edit.py> (python run on its text `s`, from the edits'
# folder: edits that start from another exec it by name), ptxas -v's C7512 / spill lines per kernel
# ([gate g state s]). Probe copies under /tmp/exp only; nothing here is built into the library.
#   bash pyvar.sh <tag> <regs> <edit.py>      (REPO=/work/main by default)
# Spill map of a probe: nvcc ... -lineinfo -cubin (the same flags) -> nvdisasm -g -c x.cubin > x.sass ->
#   python3 spillmap.py x.sass EEELb0ELb0EEE   (the ungated main pass; EEELb1ELb0EEE the gated)
tag=$1; r=$2; py=$(readlink -f "$3"); edits=$(dirname "$py"); REPO=${REPO:-/work/main}
d=/tmp/exp/$tag; rm -rf $d; mkdir -p $d; cp -r $REPO/src $REPO/include $d/
sed -i "s/kConsumerRegs = kHeadsPerCta == 2 ? 224 : 248;/kConsumerRegs = kHeadsPerCta == 2 ? $r : 248;/" $d/src/kernels/sm90/ssd_fwd_sm90_traits.cuh
(cd "$edits" && F=$d/src/kernels/sm90/consumer_sm90.cuh python3 -c "
import os
f=os.environ['F']; s=open(f).read(); o=s
exec(open('$py').read())
assert s!=o, 'no edit'
open(f,'w').write(s)") || exit 1
cd $d && /usr/local/cuda/bin/nvcc -I$d/include -I$d/src -isystem=$REPO/.deps/cutlass/cutlass_library/source/include -O3 -DNDEBUG --generate-code=arch=compute_90a,code=[sm_90a] --expt-relaxed-constexpr -Xptxas=-v -std=c++17 -x cu -c src/kernels/sm90/ssd_fwd_sm90_bf16_n128.cu -o $d.o > /tmp/exp/$tag.log 2>&1
grep -E "C751|spill|Used" /tmp/exp/$tag.log | sed 's/for the function.*EEELb\(.\)ELb\(.\).*/[gate \1 state \2]/' | head -12
