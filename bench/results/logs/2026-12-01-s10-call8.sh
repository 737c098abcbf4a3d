set -u
# Session 10 device call 8: main-kernel A/B (probe) base 677e5a3 vs this build; the state-run rule.
B=out/dev/build-gpu; BASE=out/dev/base; O=$OUT
export LD_LIBRARY_PATH=$PWD/$B
pm() { timeout 30 "$@" 2>/dev/null | python3 -c "import sys,json; print(json.loads(sys.stdin.read())['median_ms'])" 2>/dev/null || echo fail; }
for r in 1 2 3; do
  for a in "--N 128" "--N 64" "--N 128 --z 1" "--N 64 --z 1" "--N 128 --seqlen 512 --batch 128" "--N 256"; do
    echo "probe round $r [$a] base $(pm $BASE/flashssd_sm90_forward_probe $a) new $(pm $B/bench/flashssd_sm90_forward_probe $a)"
  done
done
ms() { timeout 60 "$@" --no-verify 2>/dev/null | python3 -c "import sys,json; print([json.loads(l)['median_ms'] for l in sys.stdin if l.startswith('{')][0])" 2>/dev/null || echo fail; }
for r in 1 2; do
  for cfg in "--config R4" "--config R4 --seqlen 524288" "--config R1 --seqlen 32768" "--config R1 --seqlen 32768 --z" "--config R4 --z" "--config R3 --seqlen 32768"; do
    a=$(LD_LIBRARY_PATH=$PWD/$BASE ms $BASE/flashssd_bench $cfg); b=$(ms $B/bench/flashssd_bench $cfg)
    echo "ab round $r [$cfg] base $a new $b"
  done
done
