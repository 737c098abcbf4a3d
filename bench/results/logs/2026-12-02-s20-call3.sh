#!/bin/bash
# Session 20 call 3: call 2 showed skc3 without the score-scale load (skc3f) 0.393 -> 0.374 ms
# but its producer then waiting on dt, loaded one round ahead (IMAD.MOV long_sb, 12.6% of all
# samples; consumers on the stage 13.5%). The producer now loads dt, the flags and the score
# scale kProducerAheadRounds rounds ahead (HEAD's change); A/B of 1, 2 and 3 rounds on the real
# kernel (a1..a3: /tmp/aN = copy of src include bench with the constant edited) and on the
# skeleton (sk1..sk3: the same trees + -call2-skeleton-noinv.diff, its hunk 7 rejected,
# NVCC_FLAGS="-DSKEL_C=1 -DSKEL_P=1 -DSKEL_SMALL=1"). Built by scripts/build_probe.sh <tree> out/ab/<v>_probe.
set -u
O=${OUT:-/tmp/o}; mkdir -p $O
printf "%s\n" "--N 128" "--N 128 --batch 128 --seqlen 512" "--N 128 --z 1" "--N 64" "--N 128 --packed 4|a1 a2 a3" \
  | timeout 300 bash scripts/probe_ab.sh --rounds 3 --variants "a1 a2 a3 sk1 sk2 sk3" > $O/probe_ab.log 2>&1
cat $O/probe_ab.log
v=sk3
timeout 100 ncu --section SourceCounters --section WarpStateStats --section SpeedOfLight \
  -k regex:ssd_fwd_sm90_kernel -c 1 -o $O/ncu_$v out/ab/${v}_probe --softplus 1 --iters 2 > $O/ncu_$v.log 2>&1
echo "ncu $v rc=$?"
ncu -i $O/ncu_$v.ncu-rep --page source --csv --print-source sass > $O/raw_$v.csv 2>/dev/null
python3 scripts/ncu_sass_table.py $O/raw_$v.csv --out $O/sass_$v.csv --top 20 > $O/sass_${v}_top.txt 2>&1
head -24 $O/sass_${v}_top.txt
ncu -i $O/ncu_$v.ncu-rep --page details --csv > $O/ncu_${v}_details.csv 2>/dev/null
grep -E 'Duration|Throughput|Frequency' $O/ncu_${v}_details.csv | awk -F'","' '{print $(NF-2), $NF}' | head -12
gzip -f $O/sass_$v.csv; rm -f $O/raw_$v.csv $O/ncu_$v.ncu-rep
