"""Session 51: the fix-up's balance against its work-list chunk (kChunkTiles, 4 on main), by
the window model of 2026-12-05-s48-windows_model.py (flashssd_bench's decays: dt_raw ~ U[-3, 0],
dt_bias ~ U[-4, -2], A ~ U[-8, -0.5] x A-scale per head, 64 heads, tiles of 64 tokens; a window
is the prefix of a split whose tiles start at a log-decay >= -110). The kernel (split_fixup.cu,
since 64bd228): the list holds each window's chunks contiguously, the windows in the order of
split_log_prefix's atomics (random here), and CTA i of the grid (5 CTAs x 132 SMs) takes entries
[i per_cta, (i + 1) per_cta), per_cta = ceil(entries / grid). The fix-up is latency-bound (session
49: 0.42 instructions issued per scheduler cycle), so a CTA's time is about its tiles (plus an h_in
load per window it enters) and the kernel's is the longest CTA's. Prints, per chunk: the entries,
the most tiles of a CTA against the mean (W / grid), and the most windows a CTA enters.
Run: python3 this_file (numpy). Model expectations, not device counts."""
import numpy as np

GRID = 5 * 132
rng = np.random.default_rng(0)
for name, split, nsplits, batch, scales in [("R1 32k", 16384, 2, 2, [1, 0.7]), ("R4 128k", 32768, 4, 1, [1, 0.5, 0.35])]:
    for scale in scales:
        A = rng.uniform(-8, -0.5, 64) * scale
        bias = rng.uniform(-4, -2, 64)
        windows = []
        for s in range(1, nsplits):
            for b in range(batch):
                dt = np.log1p(np.exp(rng.uniform(-3, 0, (split, 64)) + bias))
                cs = np.cumsum(dt * A, 0)
                tile_start = np.concatenate([np.zeros((1, 64)), cs[63::64][:-1]])
                windows += [int(w) for w in (tile_start >= -110).sum(0) if w > 0]
        W = sum(windows)
        for ck in [1, 2, 4, 8]:
            worst_tiles, worst_windows = [], []
            for draw in range(20):
                order = rng.permutation(len(windows))
                entries = []  # (window id, tiles)
                for w in order:
                    n = windows[w]
                    entries += [(w, min(ck, n - c * ck)) for c in range((n + ck - 1) // ck)]
                per_cta = -(-len(entries) // GRID)
                tiles = [sum(t for _, t in entries[i:i + per_cta]) for i in range(0, len(entries), per_cta)]
                wins = [len({w for w, _ in entries[i:i + per_cta]}) for i in range(0, len(entries), per_cta)]
                worst_tiles.append(max(tiles))
                worst_windows.append(max(wins))
            print(f"{name} A x {scale}: W {W} in {len(windows)} windows; chunk {ck}: {len(entries)} entries, "
                  f"most tiles a CTA {np.mean(worst_tiles):.1f} (mean {W / GRID:.1f}, x{np.mean(worst_tiles) / (W / GRID):.2f}), "
                  f"most windows a CTA {np.mean(worst_windows):.1f}")
