#!/bin/bash
# Session 21 call 1: two cuts of the consumers' arithmetic, A/B on the probe (R1 8k unless
# noted, API's dt), three rounds:
#   base   HEAD~ (git archive of c426a6f: the record's kernels);
#   dfold  D per head folded into S' (S'_ii += D): no D x in the epilogue
#          (NVCC_FLAGS=-DFLASHSSD_PROBE_FOLD_DECAY=0);
#   hfold  the state carried as h / G: no decay multiply of the accumulator except at a refold
#          (NVCC_FLAGS=-DFLASHSSD_PROBE_FOLD_D=0);
#   both   the working tree as committed.
# Built by scripts/build_probe.sh <tree> out/ab/<v>_probe. Then the checks
# (scripts/device_session.sh PART=checks) on the library built from the same tree
# (out/dev/build-gpu).
set -u
O=${OUT:-/tmp/o}; mkdir -p $O/ab $O/ds
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 256" "--N 128 --packed 4" \
  | timeout 330 bash scripts/probe_ab.sh --rounds 3 --variants "base dfold hfold both" > $O/ab/probe_ab.log 2>&1
cat $O/ab/probe_ab.log
# Static instruction counts of the N = 128 ungated main kernel per variant (whole kernel).
k=_ZN8flashssd4sm9019ssd_fwd_sm90_kernelINS0_10SsdFwdSm90ILi64ELi128ELi2EN7cutlass10bfloat16_tEEELb0ELb0EEEvNT_6ParamsE
for v in base dfold hfold both; do
  cuobjdump -sass -fun $k out/ab/${v}_probe > $O/ab/sass_$v.txt 2>&1
  echo "$v instr=$(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $O/ab/sass_$v.txt) FMUL=$(grep -c ' FMUL' $O/ab/sass_$v.txt)" \
    "FFMA=$(grep -c ' FFMA' $O/ab/sass_$v.txt) BRA=$(grep -c ' BRA' $O/ab/sass_$v.txt) HGMMA=$(grep -c HGMMA $O/ab/sass_$v.txt)"
done
gzip $O/ab/sass_*.txt
FLASHSSD_COMMIT=${COMMIT:-unknown} PART=checks OUT=$O/ds timeout 200 bash scripts/device_session.sh out/dev/build-gpu > $O/checks.log 2>&1
echo "checks rc=$?"; tail -25 $O/checks.log
cd $O && tar czf ds.tgz ds && rm -rf ds
