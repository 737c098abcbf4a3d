#!/bin/bash
# Session 21 call 2: call 1 found hfold 1-2% faster except packed (+2.7%: the packed producer
# paces the kernel) and dfold 4-15% slower. Now:
#   base     c426a6f (as call 1);
#   hfold2   the fold off in the packed producer loop (the tree at this call's commit,
#            NVCC_FLAGS=-DFLASHSSD_PROBE_FOLD_D=0);
#   dfoldct  D folded with no run-time per-channel branch in the epilogue (D per head assumed:
#            timing only; -DFLASHSSD_PROBE_FOLD_DECAY=0 -DFLASHSSD_PROBE_D_PER_HEAD_ONLY): is it
#            the fold or the branch that costs?
#   bothct   both folds, D per head assumed (-DFLASHSSD_PROBE_D_PER_HEAD_ONLY).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ab
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --packed 4" \
  | timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "base hfold2 dfoldct bothct" > $O/ab/probe_ab.log 2>&1
cat $O/ab/probe_ab.log
# Static instruction counts of the N = 128 ungated main kernel per variant (whole kernel).
k=_ZN8flashssd4sm9019ssd_fwd_sm90_kernelINS0_10SsdFwdSm90ILi64ELi128ELi2EN7cutlass10bfloat16_tEEELb0ELb0EEEvNT_6ParamsE
for v in base hfold2 dfoldct bothct; do
  cuobjdump -sass -fun $k out/ab/${v}_probe > $O/ab/sass_$v.txt 2>&1
  echo "$v instr=$(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $O/ab/sass_$v.txt) FMUL=$(grep -c ' FMUL' $O/ab/sass_$v.txt)" \
    "FFMA=$(grep -c ' FFMA' $O/ab/sass_$v.txt) BRA=$(grep -c ' BRA' $O/ab/sass_$v.txt) HGMMA=$(grep -c HGMMA $O/ab/sass_$v.txt)"
done
gzip $O/ab/sass_*.txt
