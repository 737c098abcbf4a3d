#!/usr/bin/env bash
# Prepared in session 28, not run (its device time was spent): a third stage for the N = 64 z kernel
# (R3 z: 0.549 ms against its 0.498 target; the ungated N = 64 kernel gained ~3% from its third,
# session 16). `-next-st3z-not-run.diff` (on 380823d):
#   - TileDecay<kQ, kAllFields = false> drops to_end (read by the sm80 probe only) and cs (the diff
#     variant's): 504 bytes per record; the sm90 kernels use it at N = 64 only (MainDecay);
#   - the stage's chunk-scores tile is a zero-length array where the main pass has none (N = 64;
#     nvcc's extension), where the 16-byte placeholder cost 1 KB through z's 1024-byte alignment;
#   - kMainStages<kGate> = 3 wherever three stages fit: the N = 64 z kernel's stage is 60 416 bytes
#     (was 62 464), 3 stages + 2 consumers = 231 424 + 1024 <= 232 448.
# Here: CPU tests pass (flashssd_cpu_tests 67/67, flashssd_sm90_layout_tests 23/23 with the
# expectation of 3 gated stages at N = 64); ptxas -v: no spill, no C75xx in any entry; SASS
# (cuobjdump of the probes): only the two N = 64 main kernels differ from HEAD's (the ungated one
# by its 2 KB smaller stage; it keeps 3 stages, though 4 would now fit: 4 x 44 032 + 49 152).
# Builds (here, before the call):
#   scripts/build_probe.sh out/ab/head_probe
#   rm -rf /tmp/st && git worktree add /tmp/st HEAD && (cd /tmp/st && git apply <this diff>) &&
#     scripts/build_probe.sh /tmp/st out/ab/st3z_probe
# st4 (`-next-st4-not-run.diff`, the same on HEAD plus kMainStages = as many as fit, at most 4:
# the ungated N = 64 kernel takes 4 stages, 226 304 bytes; ptxas -v clean; its CPU test expects 4):
#   git worktree add /tmp/st4 HEAD && (cd /tmp/st4 && git apply <st4 diff>) && scripts/build_probe.sh /tmp/st4 out/ab/st4_probe
# Carry: out/ab. If st3z wins: build the library from the diff, PART=checks, the API A/B
# (R3 z, R3, R1 8k N = 64) and the benchmark of record.
set -uo pipefail
OUT=${OUT:-/tmp/st3z}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0 --z 1" \
  "--N 64 --final-states 0 --z 1" \
  "--N 64 --final-states 0 --z 1 --packed 4" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--N 64 --final-states 0" |
  bash scripts/probe_ab.sh --rounds 3 --variants "head st3z st4" > "$OUT/probe_ab.log" 2>&1
tail -8 "$OUT/probe_ab.log"
