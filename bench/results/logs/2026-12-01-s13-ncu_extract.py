"""Keeps the per-instruction columns of an ncu source-page CSV that the phase breakdown needs."""
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
hi = next(i for i, r in enumerate(rows) if any("Source" == c for c in r))
head = rows[hi]
want = [i for i, c in enumerate(head) if c in ("Address", "Source", "Instructions Executed") or "Warp Stall Sampling" in c]
w = csv.writer(open(sys.argv[2], "w", newline=""))
w.writerow([head[i] for i in want])
for r in rows[hi + 1:]:
    if len(r) > max(want): w.writerow([r[i] for i in want])
