#!/usr/bin/env bash
# Session 29, call 6 (the session's last device time): the N = 64 z kernel with the consumers'
# ping-pong turns and S's balanced rows (call 5's ppbal, as a library: HEAD's kPingPong and
# kBalancedScores), in order of need: the checks (GPU suites at 1 and 3 splits, Hopper suite,
# segsum, compute-sanitizer memcheck / racecheck), the API A/B against 9f60805's library
# (out/dev/st3z: the third stage alone), 3 rounds, then the benchmark of record.
# Carry: out/dev/build-gpu (staged, with python/), out/dev/st3z, third_party_bench.
set -uo pipefail
OUT=${OUT:-/tmp/s29c6}; mkdir -p "$OUT"
C=$(cat out/dev/build-gpu/COMMIT)
FLASHSSD_COMMIT=$C PART=checks OUT=$OUT/checks bash scripts/device_session.sh out/dev/build-gpu > "$OUT/checks.log" 2>&1
echo "checks rc=$?"; grep -E "rc=|PASSED|FAILED|SUMMARY" "$OUT/checks.log" | tail -30
printf "%s\n" "--config R3 --z" "--config R3 --z --batch 128 --seqlen 512" "--config R1 --N 64 --batch 8 --seqlen 8192 --z" |
  bash scripts/api_ab.sh --rounds 3 --lib st3z=out/dev/st3z --lib ppbal=out/dev/build-gpu > "$OUT/api_ab.log" 2>&1
tail -4 "$OUT/api_ab.log"
[ "${BENCH:-1}" = 1 ] || exit 0  # BENCH=0: the checks and the A/B only (too little device time left)
FLASHSSD_COMMIT=$C PART=bench OUT=$OUT/bench bash scripts/device_session.sh out/dev/build-gpu > "$OUT/bench_session.log" 2>&1
echo "bench rc=$?"; grep -E "^\| (R1|R2|R3|R4|512|8192|32768)" "$OUT/bench/bench.log" | head -30
