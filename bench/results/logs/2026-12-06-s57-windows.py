"""Session 57: the windowed state pass's windows for flashssd_bench's own inputs (the counter hash
of 2026-12-06-s52-windows_exact.py, whose functions this file reuses): per head pair and split
(splits 0 .. S - 2), the tiles whose end lies within tau nats of decay of the split's end, and a
makespan model of the state pass's runs (each run +8 tiles of overhead, the persistent grid's
static stride): static orders keep the makespan near the longest run, hence one CTA per run.
Run: python3 this_file (numpy). Output: 2026-12-06-s57-windows.log."""
src = open(__file__.replace("2026-12-06-s57-windows.py", "2026-12-06-s52-windows_exact.py")).read().split("with np.errstate")[0]
exec(src)
s = 1 * 0x100000001B3; H = 64
bias = fill_uniform(H, -4.0, -2.0, s + 6)
def pair_windows(batch, T, nsplits, tau=110):
    """Each head pair's window in tiles, W (batch, nsplits - 1, H / 2): its tiles whose end lies
    within tau nats of decay of the split's end (the longer of the pair's two heads), and the
    split's tiles."""
    dt_raw = fill_uniform(batch * T * H, -3.0, 0.0, s + 5).reshape(batch, T, H)
    dt = np.log1p(np.exp(dt_raw.astype(np.float64) + bias))
    A = fill_uniform(H, -8.0, -0.5, s + 7).astype(np.float64)
    split = T // nsplits; st = split // 64
    W = np.zeros((batch, nsplits - 1, H // 2), int)
    for sp in range(nsplits - 1):
        seg = dt[:, sp * split:(sp + 1) * split, :] * A
        tile = seg.reshape(batch, st, 64, H).sum(2)
        # suffix: log-decay from a tile's end to the split's end
        suf = np.cumsum(tile[:, ::-1], 1)[:, ::-1] - tile
        live = (suf >= -tau).sum(1)  # (batch, H) tiles whose end decays less than tau
        W[:, sp, :] = np.maximum(live[:, 0::2], live[:, 1::2])
    return W, st


def main():
    for name, batch, T, nsplits in [("R1 32k", 2, 32768, 2), ("R4 128k", 1, 131072, 4)]:
        for tau in (110, 193):
            need, st = pair_windows(batch, T, nsplits, tau)
            tot = need.sum(); full = need.size * st
            print(f"{name} tau {tau}: pair-window tiles {tot} of {full} ({100*tot/full:.1f}%), max {need.max()}, median {np.median(need)}, pairs with whole split {(need>=st).sum()} of {need.size}")

    print("--- makespan model: runs re-divided over each pair's window (tau 110), tiles per CTA (+8 per item)")
    import math
    for name, batch, T, nsplits in [("R1 32k", 2, 32768, 2), ("R4 128k", 1, 131072, 4)]:
        W, st = pair_windows(batch, T, nsplits)
        for R in (1, 2, 4, 8, 16):
            if st % R: continue
            items = []
            for b in range(batch):
                for sp in range(nsplits - 1):
                    for r in range(R):
                        for pset in range(H // 2):
                            w = W[b, sp, pset]; L = math.ceil(w / R)
                            items.append(max(0, min(L, w - r * L)))
            n = len(items); per = math.ceil(n / 132); grid = math.ceil(n / per)
            load = [0.0] * grid
            for i, L in enumerate(items): load[i % grid] += L + 8
            full = [0.0] * grid
            for i in range(n): full[i % grid] += st / R + 8
            print(f"{name} runs {R}: items {n}, grid {grid}, windowed makespan {max(load):.0f} tiles (mean {np.mean(load):.0f}); today's {max(full):.0f}")


if __name__ == "__main__":
    main()
