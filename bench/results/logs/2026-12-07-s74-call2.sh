#!/usr/bin/env bash
# Session 74's last call (~440 s of device time left after ask 14), for whichever card comes:
#  - on an H200: session 73's call-next without the record (RECORD=0, NO_MAIN69=1: the API A/B of
#    s72main, s73d2n128, s73gnofm2, s73both and ab_choose's pick; ~100 s);
#  - on any card: branch s74-cuclamp (3f6dc7f: cu_seqlens_at clamps device offsets to [0, T]; 40
#    of 68 kernels differ from main's: every sm80 forward kernel, the Hopper state passes, the
#    empty-sequence kernel; the Hopper main kernels are identical): its GPU suite, the Hopper
#    suite, the cu_seqlens tests under memcheck, then an API A/B against main's HEAD build
#    (s74main) on the rows whose kernels changed (R4 128k and R1 32k: the state pass; fp32 R1 8k:
#    the sm80 kernel) and bench/varlen_time.py (the Hopper path and FLASHSSD_DISABLE_SM90=1),
#    each build three times in turn.
# Carry out/carry/{s72main,s65path,s73d2n128,s73gnofm2,s73both,s74main,s74cuclamp}.tar.xz third_party_bench.
# LIMIT (seconds, default 330): each step after the first starts only with the time it needs left.
# (Call 17 ran it at LIMIT=320 on an H100: the GPU suite was cut at its then 100 s limit. For the
# next session the suite has 200 s; run it at LIMIT=560.)
# NO_CALL_NEXT=1 (session 75): no call-next on an H200 either (its caller ran it).
#   device: LIMIT=560 OUT=$OUT bash bench/results/logs/2026-12-07-s74-call2.sh > $OUT/call.txt 2>&1
set -u
left() { echo $(( ${LIMIT:-330} - SECONDS )); }
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$card"
if [[ "$card" == *H200* ]] && [ -z "${NO_CALL_NEXT:-}" ]; then
  RECORD=0 NO_MAIN69=1 OUT=$OUT timeout 180 bash bench/results/logs/2026-12-07-s73-call-next.sh > "$OUT/call_next.txt" 2>&1
  echo "call-next rc=$? at ${SECONDS} s"; grep -E "^summary|chosen|^  " "$OUT/call_next.txt" | head -30
fi
for v in s74main s74cuclamp; do bash scripts/carry.sh unpack $v > /dev/null || exit 1; done
F=out/dev/s74cuclamp M=out/dev/s74main
cat $F/COMMIT
mkdir -p "$OUT/c"
(
  [ "$(left)" -ge 60 ] || { echo "no time left for the checks"; exit 0; }
  LD_LIBRARY_PATH=$PWD/$F timeout $(( $(left) < 200 ? $(left) : 200 )) $F/tests/gpu/flashssd_gpu_tests > $OUT/c/gpu_default.log 2>&1
  echo "GPU suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/c/gpu_default.log | head -5
  [ "$(left)" -ge 60 ] || { echo "no time left for the sm90 suite"; exit 0; }
  LD_LIBRARY_PATH=$PWD/$F timeout 60 $F/tests/gpu/flashssd_sm90_gpu_tests > $OUT/c/sm90.log 2>&1
  echo "sm90 suite rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/c/sm90.log | head -5
  [ "$(left)" -ge 50 ] || { echo "no time left for memcheck"; exit 0; }
  LD_LIBRARY_PATH=$PWD/$F timeout $(( $(left) - 10 < 90 ? $(left) - 10 : 90 )) compute-sanitizer --tool memcheck $F/tests/gpu/flashssd_gpu_tests \
    --gtest_filter="*CuSeqlens*" > $OUT/c/cuseqlens_memcheck.log 2>&1
  echo "cu_seqlens tests under memcheck rc=$?"; grep -E "ERROR SUMMARY|^\[  (PASSED|FAILED)" $OUT/c/cuseqlens_memcheck.log | head -4
  [ "$(left)" -ge 60 ] || { echo "no time left for the A/B"; exit 0; }
  printf "%s\n" "--config R4 --seqlen 131072" "--config R1 --seqlen 32768" "--config R1 --seqlen 8192 --dtype fp32" \
    | timeout $(( $(left) - 10 < 120 ? $(left) - 10 : 120 )) bash scripts/api_ab.sh --rounds 3 --lib main=$M --lib cuclamp=$F > $OUT/c/api_ab.log 2>&1
  echo "api_ab rc=$? at ${SECONDS} s"; sed -n '/^summary/,$p' $OUT/c/api_ab.log
  [ "$(left)" -ge 80 ] || { echo "no time left for varlen_time"; exit 0; }
  for r in 1 2 3; do
    for v in main:$M cuclamp:$F; do
      for off in 0 1; do
        echo "round $r ${v%%:*} disable_sm90=$off $(FLASHSSD_DISABLE_SM90=$off LD_LIBRARY_PATH=$PWD/${v#*:} PYTHONPATH=$PWD/${v#*:}/python \
          timeout 60 python3 bench/varlen_time.py $OUT/c/v_${v%%:*}_$off.pt 2>&1 | tail -1)"
      done
    done
  done > $OUT/c/varlen.log
  cat $OUT/c/varlen.log
  python3 -c "
import torch
for off in (0, 1):
    a, b = torch.load('$OUT/c/v_main_%d.pt' % off), torch.load('$OUT/c/v_cuclamp_%d.pt' % off)
    print('disable_sm90=%d: y equal %s, varlen states equal %s' % (off, torch.equal(a['y'], b['y']), torch.equal(a['vs'], b['vs'])))
"
  rm -f $OUT/c/*.pt
) 2>&1
(cd "$OUT" && tar -czf cuclamp_checks.tgz c && rm -rf c)
echo "done at ${SECONDS} s"
