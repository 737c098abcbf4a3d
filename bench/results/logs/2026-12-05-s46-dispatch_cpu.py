"""Session 46: torch's dispatch cost of a Python custom operator, on a CPU.
  noop custom_op / Library.impl: a no-op (returns empty_like) registered both ways, outside and inside inference_mode;
  flashssd op / body: torch.ops.flashssd.ssd_forward against its Python body called directly
  (flashssd._ops._ssd_forward_body, branch s46-dlpack), each call rejected by the validator (chunk_size = -1).
    PYTHONPATH=<s46-dlpack build>/python python3 bench/results/logs/2026-12-05-s46-dispatch_cpu.py"""
import os, sys, time
import torch
import flashssd
from flashssd import _ops
sys.path.insert(0, os.environ.get("FLASHSSD_BENCH_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
from host_overhead import inputs  # noqa: E402

def best_us(fn, n=5000, rounds=5):
    for _ in range(500): fn()
    best = float("inf")
    for _ in range(rounds):
        s = time.perf_counter()
        for _ in range(n): fn()
        best = min(best, (time.perf_counter() - s) / n * 1e6)
    return best

x = torch.randn(1, 64, 4, 64).bfloat16()
@torch.library.custom_op("s46probe::noop", mutates_args=())
def noop(a: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(a)
lib = torch.library.Library("s46probe2", "DEF")
lib.define("noop(Tensor a) -> Tensor")
lib.impl("noop", lambda a: torch.empty_like(a), "CompositeExplicitAutograd")

d = inputs("cpu")
args = (d["x"], d["dt"], d["A"], d["B"], d["C"], d["D"], d["z"], d["dt_bias"], None, None, None)
tail = (True, 0.0, float("inf"), -1, 0, True, False)
def rejected(fn):
    def call():
        try: fn()
        except flashssd.Error: return
        raise AssertionError("not rejected")
    return call
rows = [("noop custom_op", lambda: torch.ops.s46probe.noop(x)), ("noop Library.impl", lambda: torch.ops.s46probe2.noop(x)),
        ("flashssd op", rejected(lambda: torch.ops.flashssd.ssd_forward(*args, *tail))),
        ("flashssd body", rejected(lambda: _ops._ssd_forward_body(*args, *tail)))]
for mode in ("outside inference_mode", "inference_mode"):
    ctx = torch.inference_mode() if mode == "inference_mode" else torch.no_grad()
    with ctx:
        for name, fn in rows:
            print(f"{mode:23s} {name:18s} {best_us(fn):6.2f} us per call")
