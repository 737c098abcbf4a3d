"""Session 58: live and dead runs of the windowed state pass (flashssd_bench's own decays, the
windows of 2026-12-06-s57-windows.py) for runs of 16, 32 and 64 tiles. Run: python3 this_file."""
src = open(__file__.replace("2026-12-06-s58-dead.py", "2026-12-06-s52-windows_exact.py")).read().split("with np.errstate")[0]
exec(src)
import math
s = 1 * 0x100000001B3; H = 64
bias = fill_uniform(H, -4.0, -2.0, s + 6)
for name, batch, T, nsplits in [("R1 32k", 2, 32768, 2), ("R4 128k", 1, 131072, 4)]:
    dt_raw = fill_uniform(batch * T * H, -3.0, 0.0, s + 5).reshape(batch, T, H)
    dt = np.log1p(np.exp(dt_raw.astype(np.float64) + bias))
    A = fill_uniform(H, -8.0, -0.5, s + 7).astype(np.float64)
    split = T // nsplits; st = split // 64
    W = np.zeros((batch, nsplits - 1, H // 2), int)
    for sp in range(nsplits - 1):
        seg = dt[:, sp * split:(sp + 1) * split, :] * A
        tile = seg.reshape(batch, st, 64, H).sum(2)
        suf = np.cumsum(tile[:, ::-1], 1)[:, ::-1] - tile
        live = (suf >= -110).sum(1)
        W[:, sp, :] = np.maximum(live[:, 0::2], live[:, 1::2])
    for L in (16, 32, 64):
        R = st // L
        lens = []
        for w in W.flatten():
            for r in range(R):  # r from end
                lens.append(max(0, min(L, w - r * L)))
        lens = np.array(lens); live = lens[lens > 0]
        print(f"{name} runs of {L}: CTAs {len(lens)}, live {len(live)} ({100*len(live)/len(lens):.0f}%), full {int((live==L).sum())}, live tiles {lens.sum()} ({lens.sum()/132:.1f}/SM)")
