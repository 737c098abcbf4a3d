#!/usr/bin/env bash
# Session 37 call H: the factored tile's phases (tr probe, -tr.diff: clock64 stamps of consumer
# thread 0 in CTA 0 over tiles 16-79), R1 8k, 512 tokens, R1 8k z, R2's shape; the probe's
# median against head's, to see the stamps' own cost. Carry out/ab44.
# Call I ran it again with TRACE_PROBE=tr2 (the tr2 probe, 15 stamps: -tr2.diff).
set -u
O=${OUT:?}; mkdir -p $O
for a in "" "--batch 128 --seqlen 512" "--z 1" "--H 128 --G 8 --batch 32 --seqlen 2048"; do
  n=$(echo "x$a" | tr -d ' -')
  PHASE_TRACE=1 out/ab44/${TRACE_PROBE:-tr}_probe --softplus 1 --iters 20 --final-states 0 $a > $O/$n.jsonl 2>&1
  out/ab44/head_probe --softplus 1 --iters 20 --final-states 0 $a | tail -1 >> $O/$n.jsonl
done
for f in $O/*.jsonl; do echo $f; python3 bench/results/logs/2026-12-04-s37-trace.py $f; grep -o '"median_ms": [0-9.]*' $f; done
