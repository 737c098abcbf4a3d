#!/usr/bin/env bash
# Session 63's device call (carry out/carry third_party_bench; out/carry holds s62ev, main's build
# since a10d851, and s63tidy2, branch s63-tidy: launch_util.h's StreamFork flag renamed and an
# unused include dropped; validation refuses device dims the kernels do not serve with
# NotSupported before the alignment rule; host code only, SASS of the 58 kernels identical).
#   device: OUT=$OUT bash bench/results/logs/2026-12-06-s63-call.sh > $OUT/call.txt 2>&1
# - On an H200: the benchmark of record on main with its checks, then scripts/device_split_timing.sh
#   (where R1 32k z's extra time over 16k z goes on the H200), then s63tidy2's C++ suites where time
#   is left (the rest of its checks go in a second call). TOTAL_ALL (330: the record's checks only
#   where 100 s are left after it; session 63 had little device time left) as device_record.sh.
# - Elsewhere: the split timing on s62ev (the H100 control), then s63tidy2's C++ suites and quick
#   GPU pytest (graph capture of the split path included).
set -u
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $card"
. scripts/device_variant.sh
tidy_checks() {
  bash scripts/carry.sh unpack s63tidy2 > /dev/null || return 1
  variant_suites tidy out/dev/s63tidy2
  variant_pack tidy_suites
  [ "${1:-}" = suites ] && return 0
  variant_pytest pytest_quick_tidy out/dev/s63tidy2 "not mamba_ssm_triton"
  variant_pack tidy_pytest
}
if [[ "$card" == *H200* ]]; then
  TOTAL_ALL=${TOTAL_ALL:-330} bash scripts/device_record.sh s62ev; echo "record + checks rc=$? at ${SECONDS} s"
  [ -z "${SKIP_SPLIT:-}" ] && { bash scripts/device_split_timing.sh out/dev/s62ev; echo "split timing rc=$? at ${SECONDS} s"; }
  # (the device returns at most 8 files: the record's logs and the split timing in one archive)
  (cd "$OUT" && tar -czf record_logs.tgz ./*.log ./*_split.txt ./checks_logs.tgz 2>/dev/null
   rm -f ./*.log ./*_split.txt ./checks_logs.tgz)
  [ $SECONDS -lt "${TIDY_BEFORE:-500}" ] && tidy_checks suites
  echo "all done at ${SECONDS} s"; exit 0
fi
if [ -z "${SKIP_SPLIT:-}" ]; then  # (SKIP_SPLIT=1: the tidy branch's checks alone)
  bash scripts/carry.sh unpack s62ev > /dev/null || exit 1
  bash scripts/device_split_timing.sh out/dev/s62ev; echo "split timing rc=$? at ${SECONDS} s"
fi
tidy_checks
echo "all done at ${SECONDS} s"
