"""Session 37: reads a phase-trace probe's output (clock64 of consumer thread 0, CTA 0, tiles
16-79; -tr.diff with 10 stamps, -tr2.diff with 15) and prints each phase's median cycles per
tile. Usage: python3 trace.py out.jsonl"""
import json, sys, statistics
NAMES = {
    10: ["load x, h C^T issue, barrier + y store", "scale operand, h C^T wait", "factored GEMM + wait",
         "decay, y store wait", "wait_turn", "update issue, pass_turn", "readout, x, epilogue",
         "next stage wait", "update wait"],
    15: ["load x (ldmatrix)", "h C^T half 0: convert + issue", "h C^T half 1: convert + issue",
         "barrier + y store issue", "scale operand, h C^T wait", "factored GEMM + wait",
         "decay, y store wait", "wait_turn", "update issue, pass_turn", "apply readout",
         "load x again", "epilogue", "next stage wait", "update wait"],
}
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith('{"phase_trace"'):
        continue
    rows = json.loads(line)["phase_trace"]
    n = len(rows[0]) - 2
    names = NAMES[n] + ["(to next tile start)"]
    for c in (0, 1):
        tiles = [r[2:] for r in rows if r[0] == c]
        per = [[] for _ in names]
        for i, t in enumerate(tiles):
            for k in range(n - 1):
                per[k].append(t[k + 1] - t[k])
            if i + 1 < len(tiles):
                per[n - 1].append(tiles[i + 1][0] - t[n - 1])
        total = [tiles[i + 1][0] - tiles[i][0] for i in range(len(tiles) - 1)]
        print(f"consumer {c}: tile {statistics.median(total):.0f} cycles (median)")
        for name, v in zip(names, per):
            v = sorted(v)
            print(f"  {name:40s} {statistics.median(v):7.0f}  (p10 {v[len(v) // 10]:.0f}, p90 {v[len(v) * 9 // 10]:.0f})")
