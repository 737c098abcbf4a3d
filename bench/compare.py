#!/usr/bin/env python3
"""Side-by-side benchmark of the Mamba-2 SSD forward (DESIGN.md section 6).

One process, the same inputs for every contender:
  flashssd   flashssd.mamba_chunk_scan_combined (python module, imported lazily)
  triton     mamba_ssm's Triton mamba_chunk_scan_combined, chunk 256, from the sdist
             under third_party_bench/ (bench/triton_baseline.py)
  cudnn/FA2  torch SDPA causal attention, cuDNN and flash backends, bf16,
             q = k = v of shape (batch, heads, seqlen, 128); 16 heads for R1, 32 otherwise
and the device-to-device copy bandwidth, measured in the same run.

Protocol: fresh random inputs per row (never zeros; dt fp32 with dt_bias and
softplus; A negative; D per head), FlashSSD and Triton checked against each other
(rel_err_vs_triton) and both against a sequential fp32 scan on a prefix of batch
row 0, before timing; then warm-up and the median of --iters timed runs with CUDA
events around the call only, the L2 flushed (a write of twice its size) before each
run, outside the events, the runs taking in turn --placements copies of the inputs in
distinct allocations (a kernel's time depends on where its tensors lie). FlashSSD is
first probed in a child process on every planned shape, so that a faulting kernel
cannot take the baselines down with it.

    python3 bench/compare.py                 # the full run (< ~4 min on an H200)
    python3 bench/compare.py --fwd-bwd       # + Triton forward+backward rows on R1
    python3 bench/compare.py --quick         # a few rows, 20 iterations: smoke test
    python3 bench/compare.py --dry-run       # no GPU: plan, schema, writers (null timings)

Writes <out-dir>/<YYYY-MM-DD>-<gpu>.json (+ .md, .png); see bench/README.md.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)

DESIGN_COPY_TBPS = 4.27  # DESIGN.md section 5: H200 device-to-device copy, read + write
TRITON_CHUNK = 256
ATTN_HEADDIM = 128

# DESIGN.md section 5 reference configs.
CONFIGS = {
    "R1": dict(H=64, P=64, N=128, G=1, attn_heads=16),
    "R2": dict(H=128, P=64, N=128, G=8, attn_heads=32),
    "R3": dict(H=32, P=128, N=64, G=1, attn_heads=32),
    "R4": dict(H=64, P=64, N=128, G=1, attn_heads=32),
    # R1's layer on packed training rows: seq_idx with PACKED_SEQS documents per row, both
    # contenders given the same seq_idx (attention is not run: its analogue is varlen).
    "R1-packed": dict(H=64, P=64, N=128, G=1, attn_heads=16, packed_seqs=4),
    # R1 with the largest state the API takes (N = 256; attention as R1's).
    "R1-N256": dict(H=64, P=64, N=256, G=1, attn_heads=16),
    # R1 with dt in bf16, as models that keep it in the input type hand it over (2 bytes per
    # token and head less to read; the same values rounded).
    "R1-dtbf16": dict(H=64, P=64, N=128, G=1, attn_heads=16, dt_dtype="bf16"),
}
R1_SEQLENS = [512, 1024, 2048, 4096, 8192, 16384, 32768]
TOKENS = 65536

ROW_KEYS = ["config", "batch", "seqlen", "H", "P", "N", "G", "z", "pass",
            "flashssd_ms", "triton_ms", "cudnn_attn_ms", "flash_attn_ms", "floor_ms"]
CONTENDERS = ["flashssd", "triton", "cudnn_attn", "flash_attn"]
TOP_KEYS = ["device", "date", "commit", "memcpy_TBps", "rows"]
# Test hook only (bench/test_bench_tools.py runs the row logic on the CPU); always "cuda" for real runs.
DEVICE = os.environ.get("FLASHSSD_BENCH_DEVICE", "cuda")


_T0 = time.time()  # --time-limit counts from the process start
_children = []  # probe processes, killed if we are interrupted
_done_rows = set()  # indices of the rows whose measurement finished


def kill_children():
    for p in _children:
        if p.poll() is None:
            p.kill()


def log(msg: str) -> None:
    print(f"[compare {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- plan
def min_bytes(H, P, N, G, z, tokens, dt_bytes=4):
    """Minimum HBM bytes of the forward (DESIGN.md section 5), bf16 x/B/C/z/y, fp32 dt:
    per token 4HP + 4GN + 4H, + 2HP when gated (2H for dt in bf16)."""
    return tokens * (4 * H * P + 4 * G * N + dt_bytes * H + (2 * H * P if z else 0))


def make_row(config, batch, seqlen, z, pass_):
    c = CONFIGS[config]
    row = {"config": config, "batch": batch, "seqlen": seqlen, "H": c["H"], "P": c["P"],
           "N": c["N"], "G": c["G"], "z": bool(z), "pass": pass_,
           "flashssd_ms": None, "triton_ms": None, "cudnn_attn_ms": None, "flash_attn_ms": None,
           "floor_ms": None}
    mb = min_bytes(c["H"], c["P"], c["N"], c["G"], z, batch * seqlen, 2 if c.get("dt_dtype") == "bf16" else 4)
    if pass_ == "fwd":
        row["floor_ms"] = float(f"{mb / (DESIGN_COPY_TBPS * 1e12) * 1e3:.4g}")
    # Extra fields (beside the schema's).
    row.update({"min_bytes": mb if pass_ == "fwd" else None, "floor_memcpy_ms": None,
                "rel_err_vs_triton": None, "flashssd_rel_err_vs_ref": None,
                "triton_rel_err_vs_ref": None, "attn_heads": c["attn_heads"],
                "attn_headdim": ATTN_HEADDIM, "iters": {}, "errors": {}})
    if c.get("packed_seqs"):
        row["packed_seqs"] = c["packed_seqs"]
    if c.get("dt_dtype"):
        row["dt_dtype"] = c["dt_dtype"]
    return row


def build_plan(args):
    rows = []
    configs = set(args.configs)
    r1_seqlens = [512, 4096, 32768] if args.quick else R1_SEQLENS
    if "R1" in configs:
        for z in (False, True):
            for T in r1_seqlens:
                if args.quick and z and T != 4096:
                    continue
                rows.append(make_row("R1", TOKENS // T, T, z, "fwd"))
    for cfg in ("R2", "R3"):
        if cfg in configs:
            for z in ((False,) if args.quick else (False, True)):
                rows.append(make_row(cfg, TOKENS // 2048, 2048, z, "fwd"))
    if "R4" in configs:
        for T in ((131072,) if args.quick else (131072, 524288)):
            rows.append(make_row("R4", 1, T, False, "fwd"))
    for cfg in ("R1-packed", "R1-N256", "R1-dtbf16"):
        if cfg in configs:
            for z in ((False,) if args.quick else (False, True)):
                rows.append(make_row(cfg, TOKENS // 8192, 8192, z, "fwd"))
    if args.fwd_bwd and "R1" in configs:
        for z in (False, True):
            for T in r1_seqlens:
                if args.quick and (z or T != 4096):
                    continue
                row = make_row("R1", TOKENS // T, T, z, "fwd_bwd")
                row["errors"]["flashssd"] = "no backward yet"
                rows.append(row)
    return rows


# --------------------------------------------------------------------------- report
def check_schema(report) -> list[str]:
    """Problems with the report against DESIGN.md section 6 (empty list: fine)."""
    problems = []
    for k in TOP_KEYS:
        if k not in report:
            problems.append(f"missing top-level key {k!r}")
    if not isinstance(report.get("rows"), list):
        problems.append("rows is not a list")
        return problems
    if report.get("memcpy_TBps") is not None and not isinstance(report["memcpy_TBps"], (int, float)):
        problems.append("memcpy_TBps is not a number or null")
    seen = set()
    for i, r in enumerate(report["rows"]):
        for k in ROW_KEYS:
            if k not in r:
                problems.append(f"row {i}: missing {k!r}")
        if r.get("pass") not in ("fwd", "fwd_bwd", "decode"):
            problems.append(f"row {i}: pass {r.get('pass')!r} not fwd|fwd_bwd|decode")
        if not isinstance(r.get("z"), bool):
            problems.append(f"row {i}: z is not a bool")
        for k in ("batch", "seqlen", "H", "P", "N", "G"):
            if k in r and not isinstance(r[k], int):
                problems.append(f"row {i}: {k} is not an int")
        for k in ("flashssd_ms", "triton_ms", "cudnn_attn_ms", "flash_attn_ms", "floor_ms"):
            v = r.get(k)
            if v is not None and (not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0):
                problems.append(f"row {i}: {k}={v!r} is not a positive number or null")
        key = (r.get("config"), r.get("batch"), r.get("seqlen"), r.get("pass"), r.get("z"))
        if key in seen:
            problems.append(f"row {i}: duplicate row {key}")
        seen.add(key)
    return problems


def gpu_slug(device: str) -> str:
    s = device.lower().replace("nvidia", "")
    s = re.sub(r"[^a-z0-9]+", "-", s).strip("-")
    return s or "gpu"


def git_commit() -> str:
    if os.environ.get("FLASHSSD_COMMIT"):
        return os.environ["FLASHSSD_COMMIT"]
    try:
        sha = subprocess.run(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        if not sha:
            return "unknown"
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return sha + ("-dirty" if dirty else "")
    except Exception:  # noqa: BLE001
        return "unknown"


def fmt(v, nd=3):
    if v is None:
        return "—"
    if isinstance(v, float):
        if v >= 100:
            return f"{v:.0f}"
        if v >= 10:
            return f"{v:.1f}"
        return f"{v:.{nd}f}"
    return str(v)


def ratio(a, b, nd=2):
    if a is None or b is None or a <= 0:
        return "—"
    return f"{b / a:.{nd}f}x"


def placements_note(report) -> str:
    k = (report.get("protocol") or {}).get("placements", 1)
    return f", the runs rotating over {k} copies of the inputs in distinct allocations" if k > 1 else ""


def header_line(report) -> str:
    mc = report.get("memcpy_TBps")
    return (f"Commit `{report['commit']}`; device-to-device copy {fmt(mc, 2) if mc else '—'} TB/s "
            f"measured in this run (design anchor {DESIGN_COPY_TBPS} TB/s); bf16, fp32 dt, "
            f"Triton chunk {TRITON_CHUNK}; median of CUDA-event timings, L2 flushed before each run"
            f"{placements_note(report)}; floor = minimum bytes / {DESIGN_COPY_TBPS} TB/s. Times in ms.")


def render_tables(report, heading="##") -> list:
    """Markdown lines: the R1 forward table, the other rows, notes."""
    rows = report["rows"]
    L = []
    r1 = [r for r in rows if r["config"] == "R1" and r["pass"] == "fwd"]
    if r1:
        L.append(f"{heading} R1 forward (H=64 P=64 N=128 G=1, 65 536 tokens)")
        L.append("")
        L.append("| seqlen (batch) | z | floor | FlashSSD | Triton | FlashSSD vs Triton | % of floor | cuDNN attn | FA2 attn | rel err vs Triton |")
        L.append("|---|---|---|---|---|---|---|---|---|---|")
        for r in r1:
            pct = (f"{100 * r['floor_ms'] / r['flashssd_ms']:.0f}%"
                   if r.get("flashssd_ms") and r.get("floor_ms") else "—")
            err = f"{r['rel_err_vs_triton']:.1e}" if r.get("rel_err_vs_triton") is not None else "—"
            L.append(f"| {r['seqlen']} ({r['batch']}) | {'y' if r['z'] else 'n'} | {fmt(r['floor_ms'])} | "
                     f"{fmt(r['flashssd_ms'])} | {fmt(r['triton_ms'])} | {ratio(r['flashssd_ms'], r['triton_ms'])} | "
                     f"{pct} | {fmt(r['cudnn_attn_ms'])} | {fmt(r['flash_attn_ms'])} | {err} |")
        L.append("")
    other = [r for r in rows if not (r["config"] == "R1" and r["pass"] == "fwd")]
    if other:
        L.append(f"{heading} Other rows")
        L.append("")
        L.append("| config | pass | H P N G | batch x seqlen | z | floor | FlashSSD | Triton | FlashSSD vs Triton | cuDNN attn | FA2 attn |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in other:
            L.append(f"| {r['config']} | {r['pass']} | {r['H']} {r['P']} {r['N']} {r['G']} | "
                     f"{r['batch']} x {r['seqlen']} | {'y' if r['z'] else 'n'} | {fmt(r['floor_ms'])} | "
                     f"{fmt(r['flashssd_ms'])} | {fmt(r['triton_ms'])} | {ratio(r['flashssd_ms'], r['triton_ms'])} | "
                     f"{fmt(r['cudnn_attn_ms'])} | {fmt(r['flash_attn_ms'])} |")
        L.append("")
    notes = []
    for r in rows:
        for who, msg in (r.get("errors") or {}).items():
            if who == "flashssd" and r["pass"] == "fwd_bwd" and msg == "no backward yet":
                continue
            notes.append(f"- {r['config']} {r['pass']} b={r['batch']} T={r['seqlen']} z={r['z']}: "
                         f"{who}: {msg}")
    reduced = sorted({f"{who}={n}" for r in rows for who, n in (r.get("iters") or {}).items()
                      if n is not None and n < (report.get("protocol") or {}).get("iters", 0)})
    if reduced:
        notes.append(f"- fewer timed runs than the protocol's where one run is long: {', '.join(reduced)}")
    for k, v in (report.get("errors") or {}).items():
        notes.append(f"- {k}: {v}")
    if any(r["pass"] == "fwd_bwd" for r in rows):
        notes.append("- fwd_bwd rows: Triton forward + backward through autograd (FlashSSD has no backward yet); "
                     "no floor is defined for them.")
    if notes:
        L.append(f"{heading} Notes")
        L.append("")
        L.extend(notes)
        L.append("")
    return L


def render_placements(report, heading="##") -> list:
    """Markdown lines: each forward row's median per input copy (placement), FlashSSD and Triton,
    so that a move between records can be told from the spread within one run."""
    rows = [r for r in report["rows"] if r.get("flashssd_ms_by_placement") or r.get("triton_ms_by_placement")]
    if not rows:
        return []

    def spread(v):
        return " / ".join(fmt(t) for t in v) if v else "—"
    L = [f"{heading} Medians per placement", "",
         "The timed runs split by the input copy they used (protocol: placements).", "",
         "| config | batch x seqlen | z | FlashSSD | Triton |", "|---|---|---|---|---|"]
    for r in rows:
        L.append(f"| {r['config']} | {r['batch']} x {r['seqlen']} | {'y' if r['z'] else 'n'} | "
                 f"{spread(r.get('flashssd_ms_by_placement'))} | {spread(r.get('triton_ms_by_placement'))} |")
    L.append("")
    return L


def write_markdown(report, path):
    L = [f"# FlashSSD benchmark: {report['device']}, {report['date']}", "", header_line(report)]
    if report.get("dry_run"):
        L += ["", "**DRY RUN: no GPU, no timings.**"]
    if report.get("command"):
        L += ["", f"Command: `{report['command']}`"]
    L.append("")
    L += render_tables(report)
    L += render_placements(report)
    extra = [k for k in report if k not in TOP_KEYS + ["protocol", "env", "errors", "dry_run", "command"]]
    if extra:
        L.append(f"Other sections in the JSON: {', '.join(extra)}.")
        L.append("")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(L))


def write_plot(report, path) -> str | None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001
        return f"no plot: matplotlib unavailable ({e})"
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=120)
    series = [("flashssd_ms", "FlashSSD", "tab:red", "o"), ("triton_ms", "Triton (mamba_ssm)", "tab:blue", "s"),
              ("cudnn_attn_ms", "cuDNN attention (16x128)", "tab:green", "^"),
              ("flash_attn_ms", "FA2 attention (16x128)", "tab:olive", "v"),
              ("floor_ms", f"memory floor ({DESIGN_COPY_TBPS} TB/s)", "black", None)]
    plotted = 0
    for z, ls in ((False, "-"), (True, ":")):
        rows = sorted([r for r in report["rows"] if r["config"] == "R1" and r["pass"] == "fwd" and r["z"] == z],
                      key=lambda r: r["seqlen"])
        for key, label, color, marker in series:
            if z and key in ("cudnn_attn_ms", "flash_attn_ms"):
                continue  # attention does not depend on z
            pts = [(r["seqlen"], r[key]) for r in rows if r.get(key)]
            if not pts:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, ls if key != "floor_ms" else ("--" if not z else "-."), color=color,
                    marker=marker, label=label + (" (z)" if z else ""), alpha=1.0 if not z else 0.6)
            plotted += 1
    mc = report.get("memcpy_TBps")
    if mc:
        rows = sorted([r for r in report["rows"] if r["config"] == "R1" and r["pass"] == "fwd" and not r["z"]],
                      key=lambda r: r["seqlen"])
        pts = [(r["seqlen"], r["min_bytes"] / (mc * 1e12) * 1e3) for r in rows if r.get("min_bytes")]
        if pts:
            xs, ys = zip(*pts)
            ax.plot(xs, ys, "--", color="gray", label=f"memory floor (measured copy {mc:.2f} TB/s)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(R1_SEQLENS)
    ax.set_xticklabels([f"{t // 1024}k" if t >= 1024 else str(t) for t in R1_SEQLENS])
    ax.minorticks_off()
    ax.set_xlabel("sequence length (batch = 65536 / seqlen)")
    ax.set_ylabel("time (ms, median)")
    title = f"R1 forward (H=64 P=64 N=128 G=1, bf16): {report['device']}, {report['date']}"
    if report.get("dry_run"):
        title += " [DRY RUN]"
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    if plotted:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return None


def merge_json(report, path):
    with open(path, encoding="utf-8") as f:
        other = json.load(f)
    if not isinstance(other, dict):
        raise ValueError(f"{path}: not a JSON object")
    merged = []
    for k, v in other.items():
        if k in ("device", "date", "commit", "memcpy_TBps"):
            continue
        if k == "rows":
            have = {(r["config"], r["batch"], r["seqlen"], r["pass"], r["z"]) for r in report["rows"]}
            add = [r for r in v if (r.get("config"), r.get("batch"), r.get("seqlen"), r.get("pass"), r.get("z"))
                   not in have]
            report["rows"].extend(add)
            merged.append(f"rows(+{len(add)})")
        else:
            report[k] = v
            merged.append(k)
    return merged


def json_safe(v):
    """NaN/inf -> None (JSON has no NaN), recursively; other objects -> str."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {str(k): json_safe(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_safe(x) for x in v]
    if v is None or isinstance(v, (str, bool, int)):
        return v
    return str(v)


def write_outputs(report, out_dir, stem, final=True):
    os.makedirs(out_dir, exist_ok=True)
    jpath = os.path.join(out_dir, stem + ".json")
    tmp = jpath + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(json_safe(report), f, indent=1, allow_nan=False)
        f.write("\n")
    os.replace(tmp, jpath)
    if not final:
        return jpath, None, None
    mpath = os.path.join(out_dir, stem + ".md")
    write_markdown(report, mpath)
    ppath = os.path.join(out_dir, stem + ".png")
    err = write_plot(report, ppath)
    if err:
        log(err)
        ppath = None
    return jpath, mpath, ppath


# --------------------------------------------------------------------------- GPU side
class Timer:
    """CUDA-event timing, L2 flushed before each run (outside the events)."""

    def __init__(self, torch, iters, warmup, min_iters, budget_s):
        self.torch = torch
        self.iters, self.warmup, self.min_iters, self.budget_s = iters, warmup, min_iters, budget_s
        props = torch.cuda.get_device_properties(0)
        l2 = int(getattr(props, "L2_cache_size", 0) or 0) or (128 << 20)
        self.l2_bytes = l2
        self.flush_buf = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
        self.last_times = None  # the last call's timed runs, in run order (placement_medians)

    def flush(self):
        self.flush_buf.zero_()

    def one(self, fn):
        torch = self.torch
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        self.flush()
        s.record()
        fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e)

    def __call__(self, fn):
        """Returns (median ms, number of timed runs)."""
        torch = self.torch
        fn()  # first call: compilation / autotuning
        torch.cuda.synchronize()
        est = max(self.one(fn), 1e-3)
        n_warm = min(self.warmup, max(1, int(0.5e3 / est)))
        n_iter = min(self.iters, max(self.min_iters, int(self.budget_s * 1e3 / est)))
        for _ in range(n_warm):
            fn()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_iter)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_iter)]
        for i in range(n_iter):
            self.flush()
            starts[i].record()
            fn()
            ends[i].record()
        torch.cuda.synchronize()
        self.last_times = [s.elapsed_time(e) for s, e in zip(starts, ends)]  # in run order
        return median(self.last_times), n_iter


def measure_memcpy(torch, nbytes=1 << 30, iters=30):
    src = torch.empty(nbytes, dtype=torch.uint8, device="cuda").random_(0, 255)
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for i in range(iters):
        starts[i].record()
        dst.copy_(src)
        ends[i].record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    med = times[len(times) // 2]
    if not torch.equal(src[:4096], dst[:4096]):
        raise RuntimeError("device-to-device copy produced wrong data")
    del src, dst
    return 2 * nbytes / (med * 1e-3) / 1e12


def sync(torch):
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def make_inputs(torch, row, seed, requires_grad=False):
    g = torch.Generator(device=DEVICE)
    g.manual_seed(seed)
    b, T, H, P, N, G = row["batch"], row["seqlen"], row["H"], row["P"], row["N"], row["G"]
    dev, bf = DEVICE, torch.bfloat16

    def randn(*shape):
        return torch.randn(*shape, device=dev, dtype=bf, generator=g)

    def unif(lo, hi, *shape):
        return torch.rand(*shape, device=dev, dtype=torch.float32, generator=g) * (hi - lo) + lo

    inp = dict(x=randn(b, T, H, P), dt=unif(-3.0, 0.0, b, T, H), A=-unif(0.5, 8.0, H),
               B=randn(b, T, G, N), C=randn(b, T, G, N), D=unif(0.5, 1.5, H),
               dt_bias=unif(-4.0, -2.0, H), z=randn(b, T, H, P) if row["z"] else None)
    if row.get("packed_seqs"):
        inp["seq_idx"] = packed_seq_idx(torch, b, T, row["packed_seqs"], g)
    if row.get("dt_dtype") == "bf16":
        inp["dt"] = inp["dt"].to(bf)
    if requires_grad:
        for k, v in inp.items():
            if v is not None:
                v.requires_grad_(True)
    return inp


def packed_seq_idx(torch, b, T, seqs, g):
    """(b, T) int32 seq_idx of `seqs` documents per row at random lengths; row 0's first
    document ends inside the prefix that prefix_reference checks (a reset it sees)."""
    idx = torch.zeros(b, T, dtype=torch.int32, device=DEVICE)
    for r in range(b):
        cuts = torch.randperm(T - 1, generator=g, device=DEVICE)[: seqs - 1].sort().values + 1
        if r == 0:
            cuts[0] = min(int(cuts[0].item()), 77)
            cuts = cuts.unique()
        for c in cuts.tolist():
            idx[r, c:] += 1
    return idx


def call_ssd(fn, inp):
    extra = {"seq_idx": inp["seq_idx"]} if inp.get("seq_idx") is not None else {}
    return fn(inp["x"], inp["dt"], inp["A"], inp["B"], inp["C"], TRITON_CHUNK, D=inp["D"], z=inp["z"],
              dt_bias=inp["dt_bias"], dt_softplus=True, **extra)


def input_copies(torch, inp, k):
    """[inp] and k - 1 copies of its tensors, each in its own allocation and all alive together,
    so that they lie in distinct physical memory. A kernel's time depends on where its tensors
    lie: FlashSSD's forward moved by up to 10% between fresh allocations of the same values
    (R1 8k 0.457-0.505 ms, R3 z 0.469-0.509, bench/results/logs/2026-12-03-s30-call7-gaps.*)."""
    copies = [inp]
    for _ in range(k - 1):
        copies.append({key: (v.clone() if isinstance(v, torch.Tensor) else v) for key, v in inp.items()})
    return copies


def rotating(calls):
    """One callable that runs calls[0], calls[1], ... in turn: a timer's runs then spread evenly
    over the input copies (input_copies), and its median is taken over all of them."""
    turn = [0]

    def run():
        i = turn[0]
        turn[0] = (i + 1) % len(calls)
        return calls[i]()
    return run


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def placement_medians(times, order, k):
    """The median time of each of k input copies: times[i] is the timed run that used copy
    order[i] (both in run order). None where the timer kept no runs or they do not match."""
    if k < 2 or not times or len(times) != len(order):
        return None
    by = [[t for t, c in zip(times, order) if c == j] for j in range(k)]
    return [round(median(ts), 4) if ts else None for ts in by]


def rel_err(torch, a, b):
    a, b = a.float(), b.float()
    den = b.norm().item()
    return (a - b).norm().item() / max(den, 1e-30)


def prefix_reference(torch, inp, tokens=128):
    """Sequential fp32 scan over the first tokens of batch row 0 (causal: an exact prefix)."""
    from triton_baseline import ssd_reference
    t = min(tokens, inp["x"].shape[1])
    sl = {k: (v[:1, :t].detach() if (v is not None and v.dim() >= 3) else (v.detach() if v is not None else None))
          for k, v in inp.items()}
    seq_idx = inp["seq_idx"][:1, :t] if inp.get("seq_idx") is not None else None
    return ssd_reference(sl["x"], sl["dt"], sl["A"], sl["B"], sl["C"], D=sl["D"], z=sl["z"],
                         dt_bias=sl["dt_bias"], dt_softplus=True, seq_idx=seq_idx), t


def load_flashssd():
    try:
        import flashssd  # noqa: F401
        fn = getattr(flashssd, "mamba_chunk_scan_combined")
        return fn, None, getattr(flashssd, "__version__", None), getattr(flashssd, "__file__", None)
    except Exception as e:  # noqa: BLE001
        return None, f"import flashssd failed: {type(e).__name__}: {e}", None, None


def probe_flashssd(rows_json: str) -> int:
    """Child process: run FlashSSD once per shape; print one JSON line per shape.
    Exits 3 right after a shape that left the CUDA context unusable."""
    import torch
    shapes = json.loads(rows_json)
    fn, err, _, _ = load_flashssd()
    if fn is None:
        print(json.dumps({"key": None, "ok": False, "error": err}), flush=True)
        return 1
    for row in shapes:
        key = shape_key(row)
        try:
            inp = make_inputs(torch, row, 12345)
            y = call_ssd(fn, inp)
            sync(torch)
            finite = bool(torch.isfinite(y).all().item())
            res = {"key": key, "ok": finite, "error": None if finite else "non-finite values in y"}
            del y, inp
        except Exception as e:  # noqa: BLE001
            res = {"key": key, "ok": False, "error": f"{type(e).__name__}: {e}"[:2000]}
        print(json.dumps(res), flush=True)
        try:
            sync(torch)
            if DEVICE == "cuda":
                torch.cuda.empty_cache()
        except Exception:  # noqa: BLE001 - sticky CUDA error: the parent relaunches us
            return 3
    return 0


def shape_key(row):
    return f"{row['config']}-b{row['batch']}-T{row['seqlen']}-z{int(row['z'])}"


def run_probe(rows, timeout_s, shape_timeout_s=45.0, max_launches=5):
    """Runs FlashSSD once on every forward shape in child processes. A child that dies
    or hangs (> shape_timeout_s on one shape) is blamed on the shape it was running,
    and relaunched for the shapes left. Returns ({shape_key: error or None}, global_error)."""
    import queue
    import threading
    uniq = list({shape_key(r): r for r in rows if r["pass"] == "fwd"}.values())
    result = {}
    remaining = uniq
    deadline = time.time() + timeout_s
    launches = 0
    fruitless = 0
    while remaining and launches < max_launches and deadline - time.time() > 5:
        launches += 1
        cmd = [sys.executable, os.path.abspath(__file__), "--_probe", json.dumps(remaining)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _children.append(proc)
        lines: "queue.Queue[str | None]" = queue.Queue()
        err_chunks = []

        def pump_out():
            for ln in proc.stdout:
                lines.put(ln)
            lines.put(None)

        def pump_err():
            for ln in proc.stderr:
                err_chunks.append(ln)
                del err_chunks[:-40]

        threading.Thread(target=pump_out, daemon=True).start()
        threading.Thread(target=pump_err, daemon=True).start()
        note = None
        shape_deadline = time.time() + shape_timeout_s + 40  # the first shape also imports torch
        while True:
            wait = min(shape_deadline, deadline) - time.time()
            try:
                ln = lines.get(timeout=max(wait, 0.01))
            except queue.Empty:
                note = (f"hung: no result after {shape_timeout_s:.0f} s" if time.time() >= shape_deadline
                        else f"probe time limit {timeout_s:.0f} s reached")
                proc.kill()
                break
            if ln is None:
                break
            try:
                d = json.loads(ln)
            except ValueError:
                continue
            if not isinstance(d, dict) or "key" not in d:
                continue
            if d["key"] is None:
                proc.wait()
                return {shape_key(r): d.get("error") for r in uniq}, d.get("error")
            result[d["key"]] = None if d.get("ok") else (d.get("error") or "failed")
            shape_deadline = time.time() + shape_timeout_s
        rc = proc.wait()
        if note is None and rc:
            note = f"exit code {rc}"
        before = len(remaining)
        remaining = [r for r in remaining if shape_key(r) not in result]
        fruitless = fruitless + 1 if len(remaining) == before else 0
        if fruitless >= 2 and remaining:
            tail = " | ".join(x.strip() for x in err_chunks[-6:])[-1200:]
            msg = f"FlashSSD probe produced no result twice in a row ({note}): {tail}"
            log(msg)
            for r in remaining:
                result[shape_key(r)] = msg
            return result, None
        if remaining and note:
            first = shape_key(remaining[0])
            tail = " | ".join(x.strip() for x in err_chunks[-6:])[-1200:]
            result[first] = f"probe process died on this shape ({note}): {tail}"
            log(f"FlashSSD probe failed on {first} ({note}); {len(remaining) - 1} shapes left")
            remaining = remaining[1:]
        elif remaining:
            break
    for r in remaining:
        result[shape_key(r)] = "not probed (earlier probe crashes or probe time limit)"
    return result, None


def attention_times(torch, timer, batch, heads, seqlen, errors, iters, placements=1):
    """(cudnn_ms, flash_ms) of causal SDPA, q=k=v (batch, heads, seqlen, 128) bf16, timed over
    `placements` copies of q, k, v (input_copies)."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    g = torch.Generator(device=DEVICE)
    g.manual_seed(seqlen * 7 + heads)
    q = torch.randn(batch, heads, seqlen, ATTN_HEADDIM, device=DEVICE, dtype=torch.bfloat16, generator=g)
    k = torch.randn_like(q)
    v = torch.randn_like(q)
    out = {}
    outs = {}
    for name, backend in (("cudnn_attn", SDPBackend.CUDNN_ATTENTION), ("flash_attn", SDPBackend.FLASH_ATTENTION)):
        try:
            with sdpa_kernel([backend]):
                o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                sync(torch)
                if not bool(torch.isfinite(o).all().item()):
                    raise RuntimeError("non-finite attention output")
                outs[name] = o[:, :, :256].float()
                del o
                copies = input_copies(torch, {"q": q, "k": k, "v": v}, placements)
                ms, n = timer(rotating([lambda c=c: F.scaled_dot_product_attention(c["q"], c["k"], c["v"], is_causal=True)
                                        for c in copies]))
                del copies
            out[name] = round(ms, 4)
            iters[name] = n
        except Exception as e:  # noqa: BLE001
            out[name] = None
            errors[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
    if len(outs) == 2:
        err = rel_err(torch, outs["cudnn_attn"], outs["flash_attn"])
        if err > 2e-2:
            errors["attn_check"] = f"cuDNN and flash outputs differ: rel err {err:.2e}"
    return out.get("cudnn_attn"), out.get("flash_attn")


def run_gpu(args, report, rows, write_partial):
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("no CUDA device visible to torch (use --dry-run to test without a GPU)")
    props = torch.cuda.get_device_properties(0)
    report["device"] = torch.cuda.get_device_name(0)
    def safe(f):
        try:
            return f()
        except Exception as e:  # noqa: BLE001
            return f"? ({type(e).__name__})"

    report["env"] = {"torch": torch.__version__, "cuda": torch.version.cuda,
                     "cudnn": safe(torch.backends.cudnn.version), "sm_count": props.multi_processor_count,
                     "capability": f"{props.major}.{props.minor}",
                     "l2_bytes": int(getattr(props, "L2_cache_size", 0) or 0),
                     "memory_GiB": round(props.total_memory / 2**30, 1), "python": sys.version.split()[0]}
    torch.backends.cuda.matmul.allow_tf32 = False

    # ---- baselines and the module under test
    triton_fn, triton_err = None, None
    try:
        import triton_baseline
        base = triton_baseline.load()
        triton_fn = base.mamba_chunk_scan_combined
        import triton
        report["env"]["triton"] = triton.__version__
        report["env"]["mamba_ssm"] = base.version
    except Exception as e:  # noqa: BLE001
        triton_err = f"{type(e).__name__}: {e}"
        report["errors"]["triton"] = triton_err
        log(f"Triton baseline unavailable: {triton_err}")

    probe = {}
    if args.skip_flashssd:
        fl_fn, fl_err = None, "skipped (--skip-flashssd)"
    else:
        log("probing FlashSSD in a child process on every planned shape ...")
        probe, fl_err = run_probe(rows, args.probe_timeout, args.probe_shape_timeout)
        fl_fn = None
        if fl_err is None:
            fl_fn, fl_err, ver, path = load_flashssd()
            report["env"]["flashssd"] = ver
            report["env"]["flashssd_module"] = path
        bad = {k: v for k, v in probe.items() if v}
        log(f"probe: {len(probe) - len(bad)}/{len(probe)} shapes ok" + (f"; first failure: {next(iter(bad.items()))}" if bad else ""))
    if fl_err:
        report["errors"]["flashssd"] = fl_err
        log(f"FlashSSD unavailable: {fl_err}")

    timer = Timer(torch, args.iters, args.warmup, args.min_iters, args.budget_per_measure)
    report["env"]["l2_flush_bytes"] = timer.flush_buf.numel()

    log("measuring device-to-device copy bandwidth ...")
    try:
        report["memcpy_TBps"] = round(measure_memcpy(torch), 4)
        log(f"memcpy {report['memcpy_TBps']:.3f} TB/s")
    except Exception as e:  # noqa: BLE001
        report["errors"]["memcpy"] = f"{type(e).__name__}: {e}"
    mc = report.get("memcpy_TBps")

    attn_cache = {}
    fwd_bwd_started = False
    for idx, row in enumerate(rows):
        elapsed = time.time() - _T0
        if elapsed > args.time_limit:
            row["errors"]["skipped"] = f"time limit {args.time_limit:.0f} s reached"
            continue
        if row["pass"] == "fwd_bwd" and not fwd_bwd_started:
            # the first backward compiles and autotunes a dozen Triton kernels
            if elapsed > args.time_limit - args.fwd_bwd_headroom:
                row["errors"]["skipped"] = (f"time limit: fewer than {args.fwd_bwd_headroom:.0f} s left "
                                            "for the first backward (Triton compilation)")
                continue
            fwd_bwd_started = True
        label = f"{row['config']} {row['pass']} b={row['batch']} T={row['seqlen']} z={row['z']}"
        log(f"[{idx + 1}/{len(rows)}] {label} ({elapsed:.0f} s elapsed)")
        if mc and row.get("min_bytes"):
            row["floor_memcpy_ms"] = float(f"{row['min_bytes'] / (mc * 1e12) * 1e3:.4g}")
        seed = 1000 + idx
        try:
            if row["pass"] == "fwd":
                run_fwd_row(torch, args, row, seed, timer, triton_fn, fl_fn, probe)
                key = (row["batch"], row["attn_heads"], row["seqlen"])
                if row.get("packed_seqs"):
                    row["errors"]["attention"] = "not run on packed rows (its analogue is varlen attention)"
                elif not args.no_attention:
                    if row["seqlen"] > args.attn_max_seqlen:
                        row["errors"]["attention"] = f"skipped: seqlen > --attn-max-seqlen {args.attn_max_seqlen}"
                    else:
                        if key not in attn_cache:
                            errs, its = {}, {}
                            times = attention_times(torch, timer, *key, errs, its, args.placements)
                            attn_cache[key] = (times, errs, its)
                        times, errs, its = attn_cache[key]
                        row["cudnn_attn_ms"], row["flash_attn_ms"] = times
                        row["errors"].update(errs)
                        row["iters"].update(its)
            else:
                run_fwd_bwd_row(torch, args, row, seed, timer, triton_fn)
        except Exception as e:  # noqa: BLE001
            row["errors"]["row"] = f"{type(e).__name__}: {e}"[:500]
            log(f"row failed: {traceback.format_exc()}")
            try:
                torch.cuda.synchronize()
            except Exception as e2:  # noqa: BLE001 - the CUDA context is gone: stop here
                report["errors"]["fatal"] = f"CUDA context unusable after {label}: {e2}"
                log(report["errors"]["fatal"])
                break
        finally:
            torch.cuda.empty_cache()
        log("   " + "  ".join(f"{c}={fmt(row[c + '_ms'])}" for c in CONTENDERS) + f"  floor={fmt(row['floor_ms'])}"
            + (f"  rel_err_vs_triton={row['rel_err_vs_triton']:.1e}" if row["rel_err_vs_triton"] is not None else "")
            + (f"  errors={row['errors']}" if row["errors"] else ""))
        try:
            write_partial()
        except Exception as e:  # noqa: BLE001
            log(f"could not write the partial results: {e}")
        _done_rows.add(idx)
    report["env"]["wall_s"] = round(time.time() - _T0, 1)


def run_fwd_row(torch, args, row, seed, timer, triton_fn, fl_fn, probe):
    inp = make_inputs(torch, row, seed)
    tol = args.tolerance
    ref, t = prefix_reference(torch, inp)
    y_tr = y_fl = None
    if triton_fn is not None:
        try:
            y_tr = call_ssd(triton_fn, inp)
            sync(torch)
            row["triton_rel_err_vs_ref"] = float(f"{rel_err(torch, y_tr[:1, :t], ref):.3e}")
            if not bool(torch.isfinite(y_tr).all().item()):
                row["errors"]["triton_check"] = "non-finite values in y"
            elif not row["triton_rel_err_vs_ref"] <= tol:
                row["errors"]["triton_check"] = f"rel err vs fp32 scan {row['triton_rel_err_vs_ref']:.2e} > {tol}"
        except Exception as e:  # noqa: BLE001
            row["errors"]["triton"] = f"{type(e).__name__}: {e}"[:500]
            y_tr = None
    fl_ok = False
    pk = probe.get(shape_key(row))
    if fl_fn is not None and pk:
        row["errors"]["flashssd"] = f"probe: {pk}"[:500]
    elif fl_fn is not None:
        try:
            y_fl = call_ssd(fl_fn, inp)
            sync(torch)
            row["flashssd_rel_err_vs_ref"] = float(f"{rel_err(torch, y_fl[:1, :t], ref):.3e}")
            if y_tr is not None:
                row["rel_err_vs_triton"] = float(f"{rel_err(torch, y_fl, y_tr):.3e}")
            if not bool(torch.isfinite(y_fl).all().item()):
                row["errors"]["flashssd"] = "non-finite values in y"
            elif not row["flashssd_rel_err_vs_ref"] <= tol:
                row["errors"]["flashssd"] = f"wrong result: rel err vs fp32 scan {row['flashssd_rel_err_vs_ref']:.2e} > {tol}"
            elif row["rel_err_vs_triton"] is not None and not row["rel_err_vs_triton"] <= args.tolerance_vs_triton:
                row["errors"]["flashssd"] = (f"wrong result: rel err vs Triton {row['rel_err_vs_triton']:.2e} > "
                                             f"{args.tolerance_vs_triton}")
            else:
                fl_ok = True
        except Exception as e:  # noqa: BLE001
            row["errors"]["flashssd"] = f"{type(e).__name__}: {e}"[:500]
    del y_tr, y_fl, ref
    copies = input_copies(torch, inp, args.placements)

    def timed(fn):
        # Which copy each call used, so that the timed runs (the last n calls) can be split by
        # placement: one allocation's time is a draw from a spread of up to 10%.
        used = []

        def call(i, c):
            used.append(i)
            return call_ssd(fn, c)
        ms, n = timer(rotating([lambda i=i, c=c: call(i, c) for i, c in enumerate(copies)]))
        return ms, n, placement_medians(getattr(timer, "last_times", None), used[len(used) - n:], len(copies))

    if fl_ok:
        ms, n, by = timed(fl_fn)
        row["flashssd_ms"], row["iters"]["flashssd"] = round(ms, 4), n
        if by:
            row["flashssd_ms_by_placement"] = by
    elif fl_fn is not None and "flashssd" in row["errors"] and args.time_wrong:
        ms, n, _ = timed(fl_fn)
        row["flashssd_ms_unverified"] = round(ms, 4)
    if triton_fn is not None and "triton" not in row["errors"]:
        ms, n, by = timed(triton_fn)
        row["triton_ms"], row["iters"]["triton"] = round(ms, 4), n
        if by:
            row["triton_ms_by_placement"] = by


def run_fwd_bwd_row(torch, args, row, seed, timer, triton_fn):
    if triton_fn is None:
        row["errors"]["triton"] = "baseline unavailable"
        return
    inp = make_inputs(torch, row, seed, requires_grad=True)
    leaves = [v for v in inp.values() if v is not None]
    y = call_ssd(triton_fn, inp)
    dy = torch.randn_like(y)
    grads = torch.autograd.grad(y, leaves, dy)
    sync(torch)
    if not all(bool(torch.isfinite(g).all().item()) for g in grads):
        row["errors"]["triton_check"] = "non-finite gradients"
    del y, grads

    def step():
        out = call_ssd(triton_fn, inp)
        torch.autograd.grad(out, leaves, dy)

    ms, n = timer(step)
    row["triton_ms"], row["iters"]["triton"] = round(ms, 4), n


# --------------------------------------------------------------------------- main
def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default=None, help="default bench/results (dry run: /tmp/flashssd-compare-dryrun)")
    ap.add_argument("--quick", action="store_true", help="a few rows, 20 iterations (smoke test)")
    ap.add_argument("--dry-run", action="store_true", help="no GPU: plan, schema check and writers, null timings")
    ap.add_argument("--fwd-bwd", action="store_true", help="also Triton forward+backward rows on R1")
    ap.add_argument("--configs", default="R1,R2,R3,R4,R1-packed,R1-N256,R1-dtbf16",
                    help="comma-separated subset of R1,R2,R3,R4,R1-packed,R1-N256,R1-dtbf16 (any case)")
    ap.add_argument("--iters", type=int, default=None, help="timed runs per measurement (default 100, quick 20)")
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--placements", type=int, default=3,
                    help="copies of each row's inputs, in distinct allocations; the timed runs take them "
                         "in turn and the median is over all (forward rows and attention; 1 = one set)")
    ap.add_argument("--min-iters", type=int, default=5,
                    help="floor on timed runs when one run is long (see --budget-per-measure)")
    ap.add_argument("--budget-per-measure", type=float, default=4.0,
                    help="seconds one measurement may take; longer runs get fewer iterations (>= --min-iters)")
    ap.add_argument("--attn-max-seqlen", type=int, default=131072,
                    help="skip attention above this seqlen (512k causal attention takes seconds per call)")
    ap.add_argument("--no-attention", action="store_true")
    ap.add_argument("--skip-flashssd", action="store_true")
    ap.add_argument("--time-wrong", action="store_true",
                    help="time FlashSSD even when its output is wrong (as flashssd_ms_unverified)")
    ap.add_argument("--tolerance", type=float, default=2e-2,
                    help="relative norm error allowed vs the fp32 scan on a prefix (bf16)")
    ap.add_argument("--tolerance-vs-triton", type=float, default=3e-2,
                    help="relative norm error allowed between FlashSSD and Triton over the whole output "
                         "(both round to bf16; Triton also keeps chunk states in bf16)")
    ap.add_argument("--time-limit", type=float, default=420.0,
                    help="stop starting new rows after this many seconds (rows left get null)")
    ap.add_argument("--fwd-bwd-headroom", type=float, default=60.0,
                    help="seconds before --time-limit after which the fwd_bwd rows are not started")
    ap.add_argument("--probe-timeout", type=float, default=150.0, help="seconds for the whole FlashSSD probe")
    ap.add_argument("--probe-shape-timeout", type=float, default=45.0, help="seconds for one probe shape (hang detection)")
    ap.add_argument("--merge-json", action="append", default=[], metavar="FILE",
                    help="merge sections (e.g. segsum) and extra rows from another JSON file")
    ap.add_argument("--date", default=None, help="override the date (YYYY-MM-DD)")
    ap.add_argument("--_probe", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    by_name = {k.upper(): k for k in CONFIGS}
    a.configs = [by_name.get(c.strip().upper(), c.strip()) for c in a.configs.split(",") if c.strip()]
    for c in a.configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c} ({', '.join(CONFIGS)})")
    if a.placements < 1:
        ap.error(f"--placements must be >= 1, got {a.placements}")
    if a.iters is None:
        a.iters = 20 if a.quick else 100
    if a.out_dir is None:
        a.out_dir = "/tmp/flashssd-compare-dryrun" if a.dry_run else os.path.join(REPO, "bench", "results")
    return a


def main(argv=None) -> int:
    args = parse_args(argv)
    if args._probe is not None:
        return probe_flashssd(args._probe)

    date = args.date or _dt.date.today().isoformat()
    report = {"device": "dry-run" if args.dry_run else "unknown", "date": date, "commit": git_commit(),
              "memcpy_TBps": None, "rows": build_plan(args)}
    report["protocol"] = {"iters": args.iters, "warmup": args.warmup, "min_iters": args.min_iters,
                          "budget_per_measure_s": args.budget_per_measure, "statistic": "median",
                          "placements": args.placements,
                          "placement": "forward rows and attention: timed runs rotate over this many copies of "
                                       "the inputs in distinct allocations (the median is over all runs)",
                          "l2_flush": "write of 2x L2 before each timed run, outside the events",
                          "dtype": "bf16 x/B/C/z/y, fp32 dt/A/D/dt_bias, dt_softplus", "triton_chunk": TRITON_CHUNK,
                          "attention": "torch SDPA causal, q=k=v (batch, heads, seqlen, 128) bf16",
                          "floor_ms": f"min bytes / {DESIGN_COPY_TBPS} TB/s", "quick": args.quick}
    report["command"] = "python3 bench/compare.py " + " ".join(sys.argv[1:] if argv is None else argv)
    report["errors"] = {}
    if args.dry_run:
        report["dry_run"] = True
    for path in args.merge_json:
        try:
            merged = merge_json(report, path)
            log(f"merged from {path}: {', '.join(merged) or 'nothing'}")
        except Exception as e:  # noqa: BLE001
            report["errors"][f"merge {path}"] = f"{type(e).__name__}: {e}"
            log(f"--merge-json {path} failed: {e}")

    stem = [None]

    def current_stem():
        return f"{date}-{gpu_slug(report['device'])}"

    def write_partial():
        write_outputs(report, args.out_dir, current_stem(), final=False)

    def on_term(signum, frame):
        raise SystemExit(f"terminated by signal {signum}")

    signal.signal(signal.SIGTERM, on_term)
    rc = 0
    try:
        if not args.dry_run:
            run_gpu(args, report, report["rows"], write_partial)
    except BaseException as e:  # noqa: BLE001 - always write what we have
        fwd_idx = {i for i, r in enumerate(report["rows"]) if r["pass"] == "fwd"}
        if isinstance(e, SystemExit) and fwd_idx <= _done_rows:
            # interrupted (time limit) in the optional rows: the required ones are complete
            report["errors"]["interrupted"] = f"{e} (every forward row had finished)"
            for i, r in enumerate(report["rows"]):
                if i not in _done_rows and not r["errors"].get("skipped"):
                    r["errors"]["skipped"] = f"interrupted: {e}"
            log(f"interrupted after the forward rows: {e}")
        else:
            report["errors"]["fatal"] = f"{type(e).__name__}: {e}"
            log(f"FATAL: {traceback.format_exc()}")
            rc = 1
    finally:
        kill_children()
        problems = check_schema(report)
        if problems:
            report["errors"]["schema"] = problems[:20]
            rc = 1
        stem[0] = current_stem()
        j, m, p = write_outputs(report, args.out_dir, stem[0])
        log(f"wrote {j}, {m}, {p or '(no plot)'}")
    for prob in problems:
        log(f"SCHEMA: {prob}")
    # A short table on stdout.
    with open(os.path.join(args.out_dir, stem[0] + ".md"), encoding="utf-8") as f:
        print(f.read())
    if report["errors"].get("fatal"):
        rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
