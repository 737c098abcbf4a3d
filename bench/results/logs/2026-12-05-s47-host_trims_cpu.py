#!/usr/bin/env python3
"""Session 47: two host trims of the operator's body, timed on a CPU (no GPU needed).

  fit        the layout check of _fit_gpu_layout as it was (every stride tested; run here on a
             CPU tensor with the CUDA test replaced by a CPU one, so that the whole check runs)
  fit_fast   with the contiguous case first (what python/flashssd/_ops.py now does)
  empty / empty0 / empty0_clone   torch.empty of y's shape, of the empty output, and its clone (as before)
  new_empty / new_empty0          Tensor.new_empty of the same (as now)

    python3 bench/results/logs/2026-12-05-s47-host_trims_cpu.py
Best of 5 rounds of 20000 calls, under torch.inference_mode()."""
import time

import torch


def best_us(fn, n=20000, rounds=5):
    for _ in range(1000):
        fn()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n * 1e6)
    return best


t = torch.randn(1, 64, 4, 64).bfloat16()


def fit(t):
    if t is None or t.device.type != "cpu" or t.numel() == 0 or t.dim() == 0:
        return t
    unit = max(1, 16 // t.element_size())
    ok = (t.shape[-1] <= 1 or t.stride(-1) == 1) and t.data_ptr() % 16 == 0
    ok = ok and all(n <= 1 or s % unit == 0 for n, s in zip(t.shape[:-1], t.stride()[:-1]))
    return t if ok else t.clone(memory_format=torch.contiguous_format)


def fit_fast(t):
    if t is None or t.dim() == 0:
        return t
    unit = max(1, 16 // t.element_size())
    if t.is_contiguous() and t.shape[-1] % unit == 0 and t.data_ptr() % 16 == 0:
        return t
    return fit(t)


with torch.inference_mode():
    rows = [
        ("fit", lambda: fit(t)),
        ("fit_fast", lambda: fit_fast(t)),
        ("empty", lambda: torch.empty(t.shape, dtype=t.dtype)),
        ("new_empty", lambda: t.new_empty(t.shape)),
        ("empty0", lambda: torch.empty((0,), dtype=torch.float32)),
        ("empty0_clone", lambda: torch.empty((0,), dtype=torch.float32).clone()),
        ("new_empty0", lambda: t.new_empty((0,), dtype=torch.float32)),
    ]
    for name, fn in rows:
        print(f"{name:12s} {best_us(fn):6.2f} us per call")
