set -u
O=$OUT; R=out/dev/state_pass.ncu-rep
ncu -i $R --page source --print-source sass --csv > $O/sass.csv 2>/dev/null; echo "rc=$? $(wc -l < $O/sass.csv)"
head -c 1500 $O/sass.csv; echo
python3 - "$O/sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hi = next(i for i, r in enumerate(rows) if any(c.strip() in ("Source", "Address") for c in r))
hdr = [c.strip() for c in rows[hi]]
print(hdr)
src = hdr.index("Source")
cand = [i for i, h in enumerate(hdr) if "Stall Sampling" in h or "Samples" in h]
print("sample cols", [hdr[i] for i in cand])
samp = cand[0]
data = []
for r in rows[hi + 1:]:
    try: data.append((float(r[samp].replace(",", "") or 0), r[0], r[src]))
    except Exception: pass
tot = sum(d[0] for d in data) or 1
for v, a, s in sorted(data, reverse=True)[:40]: print(f"{100*v/tot:5.1f}% {a} {s[:110]}")
PY
rm -f $O/sass.csv
