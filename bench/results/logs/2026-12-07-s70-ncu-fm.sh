#!/usr/bin/env bash
# Session 70, call 4 (any H100 / H200; ~60 s): why fm (2026-12-07-s70-fm.diff: the producer skips
# the mask's fields of factored tiles, ~12% of its instructions and ~10% of the shared
# wavefronts) reads +6.7% at the SM's own rate (+13.5% with z; ask 16). ncu as call 1
# (2026-12-07-s70-ncu.sh) on main and fm, 11 CTAs, ungated and gated: raw and source pages.
# Carry out/ab/main_probe out/ab/fm_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s70-ncu-fm.sh > $OUT/call.txt 2>&1
set -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
for v in main fm; do
  for z in 0 1; do
    name=${v}_z$z
    timeout 60 ncu --clock-control none --set full --import-source no -k regex:ssd_fwd_sm90_kernel \
      --launch-skip 3 --launch-count 1 -f -o "$OUT/$name" out/ab/${v}_probe --softplus 1 --iters 5 --final-states 0 \
      --H 66 --batch 1 --grid 11 --z $z > "$OUT/$name.log" 2>&1
    echo "$name rc=$? at ${SECONDS} s"
    ncu -i "$OUT/$name.ncu-rep" --page raw --csv > "$OUT/$name.raw.csv" 2>&1
    ncu -i "$OUT/$name.ncu-rep" --page source --csv --print-source sass > "$OUT/$name.sass.csv" 2>&1
    grep -E "Duration|SM Frequency" <(ncu -i "$OUT/$name.ncu-rep" --page details 2>&1) | head -2
  done
done
(cd "$OUT" && tar -cJf ncu_fm.tar.xz *.csv *.log && rm -f *.csv *.log *.ncu-rep; ls -la)
echo "done at ${SECONDS} s"
