"""Top stalled SASS instructions of an ncu source-page CSV (ncu -i rep --page source --csv
--print-source sass): the columns with 'Sampling' in their name, sorted by the all-samples one."""
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head_i = next(i for i, r in enumerate(rows) if any("Source" == c or "Address" in c for c in r))
head, body = rows[head_i], rows[head_i + 1:]
print("columns:", head)
def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0
samp = [i for i, c in enumerate(head) if "Sampling" in c]
allc = next((i for i in samp if "All" in head[i]), samp[0] if samp else None)
src = next(i for i, c in enumerate(head) if c == "Source")
total = sum(num(r[allc]) for r in body if len(r) > allc)
print("total samples", total)
for r in sorted((r for r in body if len(r) > allc), key=lambda r: -num(r[allc]))[: int(sys.argv[2]) if len(sys.argv) > 2 else 60]:
    addr = r[0]
    print(f"{num(r[allc]) / total * 100:5.2f}% {addr:>8} {r[src][:90]}")
