"""Session 58: live and dead runs of the windowed state pass (flashssd_bench's own decays, the
pairs' windows of 2026-12-06-s57-windows.py) for runs of 16, 32 and 64 tiles: CTAs, live ones,
those live over the whole run, and the live tiles (per SM of 132).
Run: python3 this_file. Output: 2026-12-06-s58-dead.log."""
import importlib.util
import os

import numpy as np

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("s57_windows", os.path.join(_here, "2026-12-06-s57-windows.py"))
_windows = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_windows)

for name, batch, T, nsplits in [("R1 32k", 2, 32768, 2), ("R4 128k", 1, 131072, 4)]:
    W, st = _windows.pair_windows(batch, T, nsplits)
    for L in (16, 32, 64):
        R = st // L
        lens = np.array([max(0, min(L, w - r * L)) for w in W.flatten() for r in range(R)])  # r counted from the end
        live = lens[lens > 0]
        print(f"{name} runs of {L}: CTAs {len(lens)}, live {len(live)} ({100*len(live)/len(lens):.0f}%), full {int((live==L).sum())}, live tiles {lens.sum()} ({lens.sum()/132:.1f}/SM)")
