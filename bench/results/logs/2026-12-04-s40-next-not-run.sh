#!/usr/bin/env bash
# Session 42: its pass is on main now (9737621, verified); what is left to run here is the probe part (cst, cs2, --gate-bw, --grid).
# Prepared in session 40, not run (no device was lent after call B). The persistent chunk scores
# pass (3dc063a; branch s40-chunk-scores, an ancestor of main, whose e002eeb took it back out)
# brought back and verified before it stays:
#   here:  git apply bench/results/logs/2026-12-04-s41-cs.diff   (session 41: the branch's pass and test
#          as of 413e8e8, whose test also asks the capped grid's output to equal the default grid's
#          bit for bit; on top of s41-ps-default the header comment of chunk_scores_sm90.cuh
#          conflicts: keep the branch's file and ps-default's note on the bf16 output)
#          git commit (the record names the commit it ran on); cmake --build build-gpu; bash scripts/stage_device_build.sh build-gpu build-gpu
#          git rev-parse --short=12 HEAD > out/dev/build-gpu/COMMIT
#          rm -f out/dev/build-gpu/bench/flashssd_sm90_forward_probe; rm -rf out/dev/build-gpu/tests/stability  (carry < 64 MiB)
#   call 1 (~510 s): bench/results/logs/2026-12-04-s40-callC.sh (the Hopper suite with
#          Sm90ChunkScores.ManyTilesPerCtaSmall, the stage ring's wrap-around that call B never
#          checked; memcheck / racecheck on the chunk-scores tests; the benchmark of record).
#          Carry out/dev/build-gpu and third_party_bench.
#   call 2 (this script, ~400 s, right after call 1 while the machine is warm): the GPU pytest on
#          that library, then the pass alone in the probe: head (main's kernel), cs (the branch's),
#          cst (-next-cst.diff: the branch's pass with each tile's rows fetched by cp.async.bulk
#          on an mbarrier by warp 0 instead of 16-byte cp.async by every thread; timing only, never
#          run) and cs2 (-next-cs2.diff: two CTAs of 3 stages per SM at N = 128, 5 at N = 64; one
#          CTA at N = 256; never run). Build the probes here: scripts/build_probe.sh <tree> out/ab51/<name>_probe for a
#          tree of main (head), of 3dc063a (cs), of 3dc063a with -next-cst.diff applied (cst) and with
#          -next-cs2.diff applied (cs2); session 40 left all four built in out/ab51.
#          Carry out/dev/build-gpu/python (the pytest needs only it: the whole folder and out/ab51
#          together are over 64 MiB with the tree), third_party_bench and out/ab51.
set -u
O=${OUT:?}; mkdir -p $O
B=out/dev/build-gpu
PYTHONPATH=$B/python:third_party_bench FLASHSSD_PYTEST_REPORT=$O/pytest_gpu.json \
  timeout 420 python3 -m pytest tests/python/test_gpu.py -v -rs -p no:cacheprovider --durations=15 > $O/pytest.log 2>&1
echo "pytest rc=$?"; tail -3 $O/pytest.log
printf "%s\n" "--scores-only 1" "--batch 128 --seqlen 512 --scores-only 1" \
  "--H 128 --G 8 --batch 32 --seqlen 2048 --scores-only 1" "--batch 1 --seqlen 131072 --scores-only 1" \
  "--N 256 --scores-only 1" \
  | bash scripts/probe_ab.sh --dir out/ab51 --rounds 3 --variants "head cs cst cs2" > $O/probe_ab.log 2>&1
tail -6 $O/probe_ab.log
# The DRAM ceiling for the gated main pass's mix (two streams read, one written; new in session 40)
# beside the copy and the read stream: is the R1 z main pass's 3.43 TB/s (81% of the copy) near it?
for m in "--gate-bw 1024" "--copy-bw 1024" "--read-bw 1024" "--gate-bw 1024"; do out/ab51/head_probe $m; done > $O/bw.log 2>&1
cat $O/bw.log
# The main pass on 128 CTAs against 132 at R1's shapes (as many waves, no partial last wave; the
# gated kernel, near its bytes, may run faster on fewer SMs): probe --grid (new in session 40).
# Each configuration line twice, one per grid (probe_ab.sh's rows), the head probe only.
for r in "--batch 128 --seqlen 512 --z 1" "--batch 64 --seqlen 1024 --z 1" "--z 1" "--batch 128 --seqlen 512" ""; do
  echo "$r --final-states 0 --grid 132"; echo "$r --final-states 0 --grid 128"
done | bash scripts/probe_ab.sh --dir out/ab51 --rounds 3 --variants "head" > $O/grid_ab.log 2>&1
tail -11 $O/grid_ab.log
