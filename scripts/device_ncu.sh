#!/usr/bin/env bash
# On the device: where the Hopper main pass's SM time goes (session 70's reading, any probe).
# ncu (--set full, clocks left alone as the device notes ask) on one launch of the ungated and
# gated bf16 N = 128 main kernels through a probe binary (bench/sm90_forward_probe.cu; a staged
# build has it under bench/), at the SM's own rate (11 CTAs: one row of H = 66) and on the full
# grid (H = 66 x 12 rows; R1 8k). Per launch: the raw metrics (CSV), the details page, and for the
# 11-CTA launches the per-SASS-line source counters (shared wavefronts, stalls); then plain timings
# of the same launches (CUDA events, 3 rounds). Readers: bench/results/logs/
# 2026-12-07-s70-ncu-units.py (the units per tile-slice), -s70-ncu-sass.py (per opcode and role).
# ~150 s; the text comes back in $OUT/ncu_text.tar.xz, the reports in $OUT/ncu_reps.tar.xz.
#   device: OUT=$OUT bash scripts/device_ncu.sh out/dev/s72main/bench/flashssd_sm90_forward_probe
set -u
: "${OUT:?device_ncu: set OUT}"
P=${1:?device_ncu: name the probe binary}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader
ncu --version | tail -1
run() {  # name, probe args
  local name=$1; shift
  timeout 120 ncu --clock-control none --set full --import-source no -k regex:ssd_fwd_sm90_kernel \
    --launch-skip 3 --launch-count 1 -f -o "$OUT/$name" "$P" --softplus 1 --iters 5 --final-states 0 "$@" \
    > "$OUT/$name.log" 2>&1
  echo "$name rc=$? at ${SECONDS} s"
  ncu -i "$OUT/$name.ncu-rep" --page raw --csv > "$OUT/$name.raw.csv" 2>&1
  ncu -i "$OUT/$name.ncu-rep" --page details > "$OUT/$name.details.txt" 2>&1
  grep -E "Duration|SM Frequency|Elapsed Cycles|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Cache Throughput|Issue Slots Busy|Executed Ipc Active|Shared Memory|Bank" "$OUT/$name.details.txt" | head -24
}
src() {  # name: per-SASS-line counters of that report
  ncu -i "$OUT/$1.ncu-rep" --page source --csv --print-source sass > "$OUT/$1.sass.csv" 2>&1
  echo "$1 source page: $(wc -l < "$OUT/$1.sass.csv") lines"
}
run sm11 --H 66 --batch 1 --grid 11
src sm11
run full --H 66 --batch 12
run r1_8k
run sm11_z --H 66 --batch 1 --grid 11 --z 1
src sm11_z
run full_z --H 66 --batch 12 --z 1
# Plain timing of the same launches beside it (CUDA events, 50 launches, 3 rounds; probe_ab.sh
# finds a variant v at <dir>/v_probe).
dir=$(mktemp -d); ln -s "$(realpath "$P")" "$dir/main_probe"
timeout 60 bash scripts/probe_ab.sh --rounds 3 --dir "$dir" --variants "main" > $OUT/probe_times.log 2>&1 <<'CFG'
--final-states 0 --H 66 --batch 1 --grid 11
--final-states 0 --H 66 --batch 12
--final-states 0
--final-states 0 --H 66 --batch 1 --grid 11 --z 1
--final-states 0 --H 66 --batch 12 --z 1
CFG
tail -7 $OUT/probe_times.log
# At most 8 files come back: the text in one archive, the reports in another (if under 16 MiB).
(cd "$OUT" && tar -cJf ncu_text.tar.xz *.csv *.details.txt *.log && rm -f *.csv *.details.txt *.log &&
  tar -cJf ncu_reps.tar.xz *.ncu-rep && rm -f *.ncu-rep; ls -la)
echo "done at ${SECONDS} s"
