#!/usr/bin/env python3
"""Builds the "segsum" section of a results file (DESIGN.md section 6, issue 4).

Runs, on the GPU machine, in one process tree:
  * build*/tests/gpu/segsum_gpu_report  -> stability figures of the three decay-mask
    variants on the device (worst over the adversarial cases, mask alone and end to end);
  * build*/flashssd_bench --segsum V    -> the R1 forward (65 536 tokens, seqlen 8192)
    with each variant inside the same forward kernel, interleaved `--rounds` times
    (the median of the per-round medians is reported).
and writes {"segsum": {"diff": {...}, "direct": {...}, "hierarchical": {...}}} for
`bench/compare.py --merge-json`.

    python3 bench/segsum_section.py --build build-gpu --out segsum.json
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

VARIANTS = ("diff", "direct", "hierarchical")


def run(cmd: list[str], timeout: float) -> str:
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if res.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (rc={res.returncode}): {res.stderr[-2000:]}")
    return res.stdout


def last_json_line(text: str) -> dict:
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in output")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build-gpu", help="build folder with the GPU binaries")
    ap.add_argument("--out", required=True, help="where the section JSON goes")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved timing rounds per variant")
    ap.add_argument("--iters", type=int, default=100)
    args = ap.parse_args()
    build = Path(args.build)

    stability = json.loads(run([str(build / "tests/gpu/segsum_gpu_report")], timeout=300))
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for _ in range(args.rounds):
        for v in VARIANTS:
            iters = args.iters if v != "direct" else max(20, args.iters // 4)
            out = run([str(build / "bench/flashssd_bench"), "--config", "R1", "--seqlen", "8192",
                       "--segsum", v, "--iters", str(iters)], timeout=300)
            times[v].append(float(last_json_line(out)["median_ms"]))

    section = {}
    for v in VARIANTS:
        entry = dict(stability[v])
        entry["fwd_ms"] = statistics.median(times[v])
        entry["fwd_ms_rounds"] = times[v]
        section[v] = entry
    hier, diff, direct = (section[v]["fwd_ms"] for v in ("hierarchical", "diff", "direct"))
    section["summary"] = {
        "config": "R1 batch 8 seqlen 8192 bf16, same forward kernel, variant as template parameter",
        "hierarchical_over_diff": hier / diff,
        "direct_over_hierarchical": direct / hier,
        "command": "python3 bench/segsum_section.py --build " + args.build,
    }
    Path(args.out).write_text(json.dumps({"segsum": section}, indent=1))
    print(json.dumps(section["summary"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
