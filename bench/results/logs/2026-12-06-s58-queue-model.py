"""Session 58: a model of the windowed state pass's span under three ways to deal out its runs
(the pairs' windows of 2026-12-06-s57-windows.py, flashssd_bench's own decays), with call 5's
per-CTA costs (H100): a CTA's start 9 us (to its first pair), 0.8 us per tile, a store per live
run of 4.5 us (4-byte stores) or 1.5 (8-byte, branch s58-store), 0.1 us per dead run walked.
  static stride over all runs: a persistent grid (session 45's form);
  compact list static: live_runs_kernel's list walked with the grid's stride (branch s58-queue);
  dynamic: each run to the least-loaded CTA (a device-side queue).
The measured pass (one CTA per run, each paying its start): R1 32k ~61 us, R4 128k ~89 us.
Run: python3 this_file. Output: 2026-12-06-s58-queue-model.log."""
import importlib.util
import os

import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("w", os.path.join(_here, "2026-12-06-s57-windows.py"))
w = importlib.util.module_from_spec(spec)
spec.loader.exec_module(w)
for name, batch, T, ns in [("R1 32k", 2, 32768, 2), ("R4 128k", 1, 131072, 4)]:
    W, st = w.pair_windows(batch, T, ns)
    for L in (16, 32, 64):
        R = st // L
        # items in from_end-major order: from_end, b, split, pair (scheduler order)
        items = []
        for fe in range(R):
            for b in range(batch):
                for sp in range(ns-1):
                    for pr in range(W.shape[2]):
                        items.append(max(0, min(L, W[b, sp, pr] - fe * L)))
        items = np.array(items)
        for store in (4.5, 1.5):
            def cta_time(lst): return 9 + sum(0.8 * t + store for t in lst if t > 0) + 0.1 * sum(1 for t in lst if t == 0)
            G = 132
            static = max(cta_time(items[c::G]) for c in range(G))
            live = sorted(items[items > 0], reverse=True)
            comp = max(cta_time(live[c::G]) for c in range(G))
            # greedy (dynamic queue) over live sorted
            loads = [9.0] * G
            for t in live:
                i = int(np.argmin(loads)); loads[i] += 0.8 * t + store
            print(f"{name} runs {L} store {store}: static stride over all {static:.1f} us, compact list static {comp:.1f}, dynamic {max(loads):.1f}")
