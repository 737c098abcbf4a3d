#!/usr/bin/env bash
# Session 35, device call 1: (1) PART=checks on HEAD's library (4894a51; its kernels are the zfd
# library's, checked in session 34 call 6, plus the two gated packed test cases that have not run
# on a GPU); (2) session 34's PART=B: probe A/B of head / zb1 / zb2 / is (zb2's z errors are
# measured only if it is worth keeping, with its library); (3) session 34's PART=C: ncu stall tables, packed
# (4 documents) against unpacked, N = 128 ungated. Carry out/dev/build-gpu and out/abzb.
# Logs come back as tarballs (8 files per call).
set -u
O=${OUT:?}; mkdir -p $O
W=/tmp/s35; mkdir -p $W
FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=checks OUT=$W/chk bash scripts/device_session.sh out/dev/build-gpu
grep -E "PackedSequencesAndDPerChannel" $W/chk/sm90_tests.log | head -4
(cd $W && tar czf $O/chk.tgz chk)
printf "%s\n" "--final-states 0" "--final-states 0 --z 1" "--batch 128 --seqlen 512 --final-states 0 --z 1" "--final-states 0 --z 1 --N 64" \
  "--final-states 0 --z 1 --N 256" "--final-states 0 --packed 4 --z 1" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
  "--batch 128 --seqlen 512 --final-states 0" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0" \
  | bash scripts/probe_ab.sh --dir out/abzb --rounds 3 --variants "head zb1 zb2 is" > $O/ab.log 2>&1
tail -12 $O/ab.log
TOP=25 bash scripts/ncu_stall_table.sh packed4 $W/ncu out/abzb/head_probe --final-states 0 --packed 4 --iters 2
TOP=25 bash scripts/ncu_stall_table.sh unpacked $W/ncu out/abzb/head_probe --final-states 0 --iters 2
(cd $W && tar czf $O/ncu.tgz ncu)
ls -la $O
