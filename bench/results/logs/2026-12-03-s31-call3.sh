#!/usr/bin/env bash
# Session 31, device call 3 (timing only; `-call3-fs.diff` = call 2's diff plus the switches
# below, on HEAD). Call 2: fs took 5.4% off the ungated N = 128 kernel at R1 8k and 11.3% off the
# z kernel. What a robust form would keep:
#   fw   = fo2z plus the structure a run-time exact fallback needs (FLASHSSD_FS_WAIT=1: h C^T
#          retired and acc_y multiplied, by 1, before the intra GEMM is issued);
#   ff16 = fo2z with the fold's floor at 2^-16 (refolds every tile or two: the factored path's
#          weights stay small enough for larger in-tile decays);
#   h16  = HEAD's kernels with the floor at 2^-16 (the refolds' own cost).
# ptxas -v: no spill, no C75xx in any. Then the R2 ncu durations again (call 1's R2 files did
# not come back: too many files; scripts/ncu_durations.py now parses them on the device).
# Carry: out/ab32, out/dev/build-gpu.
set -uo pipefail
OUT=${OUT:-/tmp/fs3}; mkdir -p "$OUT"
printf "%s\n" \
  "--final-states 0" \
  "--batch 128 --seqlen 512 --final-states 0" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  "--final-states 0 --z 1" |
  bash scripts/probe_ab.sh --dir out/ab32 --rounds 3 --variants "head fo2z fw ff16 h16" > "$OUT/probe_ab.log" 2>&1
tail -5 "$OUT/probe_ab.log"
OUT=$OUT/ncu_r2 bash bench/results/logs/2026-12-03-s30-next-ncu-r2-not-run.sh > "$OUT/ncu_r2.log" 2>&1
rm -f "$OUT"/ncu_r2/*.csv.gz; grep -E "^==|rc=|ssd_fwd|chunk_scores|scan|state" "$OUT/ncu_r2.log" | cut -c1-160
tar czf "$OUT/ncu_r2_csv.tgz" -C "$OUT" ncu_r2 && rm -rf "$OUT/ncu_r2"
