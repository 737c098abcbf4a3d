#!/usr/bin/env bash
# Prepared in session 30, not run (no device time left). Timing variant hs
# (`-next-hs-not-run.diff`): in the ungated N = 64 kernel, a P = 128 pair's decay (one head in
# both slots) is computed once, by threads 0-63 in the pair form, and stored into both slots'
# records and weights; threads 64-127 compute nothing; the consumers keep their compile-time
# record index. Why: skp (call 1) says the producer's decay is worth 5.6% at R3's shape, but
# call 6's hq1 (computed once, consumers reading slot 0's record by a run-time index) was 2.5%
# slower; hs separates the two. The producer at 56 registers (as call 6's r56, the control:
# equal to HEAD within 0.7%), since at 48 hs spills 16 bytes; -Xptxas -v: no spill.
# Correctness is not checked by the probe (it times only); if hs pays, the library build runs
# the GPU suites (P = 128 cases at N = 64 cover it).
# Builds (here): out/ab31/{head,r56}_probe = session 30's out/ab30 ones (HEAD b67cbb9's kernels;
#   r56: kProducerRegs 56); hs: git worktree add /tmp/w_hs <rev> && (cd /tmp/w_hs && git apply
#   <diff>) && scripts/build_probe.sh /tmp/w_hs out/ab31/hs_probe
# Carry: out/ab31.
set -uo pipefail
OUT=${OUT:-/tmp/hs}; mkdir -p "$OUT"
printf "%s\n" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 128 --seqlen 512 --final-states 0" \
  "--N 64 --final-states 0" \
  "--P 128 --N 64 --H 32 --batch 32 --seqlen 2048 --final-states 0 --z 1" |
  bash scripts/probe_ab.sh --dir out/ab31 --rounds 5 --variants "head r56 hs" > "$OUT/probe_ab.log" 2>&1
tail -5 "$OUT/probe_ab.log"
