#!/usr/bin/env python3
"""Session 46: the DLPack hand-over's host cost on a CPU (no GPU needed), main's package against
branch s46-dlpack's. Every call is rejected by the validator (chunk_size = -1) after the
extension has imported every tensor, so the float64 reference never runs:

  op          torch.ops.flashssd.ssd_forward: dispatch, the Python body, the import, the error path
  tensors     flashssd._C.ssd_forward given the tensors (nanobind calls Tensor.__dlpack__)
  capsules    the same given torch.utils.dlpack.to_dlpack capsules (how s46-dlpack's body hands over)
  __dlpack__ / to_dlpack   one bf16 tensor exported each way

    PYTHONPATH=<build>/python python3 bench/results/logs/2026-12-05-s46-dlpack_cpu.py
Best of 5 rounds of 5000 calls, under torch.inference_mode() as bench/host_overhead.py."""
import os
import sys
import time

import torch
from torch.utils.dlpack import to_dlpack

import flashssd
from flashssd import _C

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from host_overhead import inputs  # noqa: E402


def best_us(fn, n=5000, rounds=5):
    for _ in range(500):
        fn()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n * 1e6)
    return best


def rejected(fn):
    def call():
        try:
            fn()
        except flashssd.Error:
            return
        raise AssertionError("chunk_size = -1 was not rejected")
    return call


d = inputs("cpu")
args = (d["x"], d["dt"], d["A"], d["B"], d["C"], d["D"], d["z"], d["dt_bias"], None, None, None)
x = d["x"]
y = torch.empty_like(x)
final = torch.empty(x.shape[0], x.shape[2], x.shape[3], d["B"].shape[3])
kw = dict(varlen_states=None, dt_softplus=True, dt_limit_lo=0.0, dt_limit_hi=float("inf"), chunk_size=-1, segsum=0,
          stream=0)


def capsules():
    _C.ssd_forward(*(None if a is None else to_dlpack(a) for a in args), y=to_dlpack(y), final_states=to_dlpack(final),
                   **kw)


rows = [
    ("op", rejected(lambda: torch.ops.flashssd.ssd_forward(*args, True, 0.0, float("inf"), -1, 0, True, False))),
    ("tensors", rejected(lambda: _C.ssd_forward(*args, y=y, final_states=final, **kw))),
    ("capsules", rejected(capsules)),
    ("__dlpack__", lambda: x.__dlpack__()),
    ("to_dlpack", lambda: to_dlpack(x)),
]
with torch.inference_mode():
    for name, fn in rows:
        print(f"{name:10s} {best_us(fn):6.2f} us per call")
