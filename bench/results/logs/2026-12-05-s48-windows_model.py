"""Session 48: the fix-up's window tiles W (the tiles of splits 1 .. S - 1 whose log-decay from
their split's start is >= -110) and the state pass's tiles S, for flashssd_bench's decays
(bench_forward.cu: dt_raw ~ U[-3, 0] per token and head, dt_bias ~ U[-4, -2] and
A ~ U[-8, -0.5] x A-scale per head, dt = softplus(dt_raw + dt_bias)), by simulation: the
benchmark draws its own values on the GPU, so these are the model's expectations, not its
counts. 10 draws of the heads per row; R1 32k: batch 2, 2 splits of 16384 tokens; R4 128k:
batch 1, 4 splits of 32768 (the split plan's). Run: python3 this_file (numpy)."""
import numpy as np

rng = np.random.default_rng(0)
for name, split, nsplits, batch in [("R1 32k", 16384, 2, 2), ("R4 128k", 32768, 4, 1)]:
    for scale in [1, 0.5, 0.25, 0.1]:
        counts = []
        for draw in range(10):
            A = rng.uniform(-8, -0.5, 64) * scale
            bias = rng.uniform(-4, -2, 64)
            for s in range(1, nsplits):
                for b in range(batch):
                    dt = np.log1p(np.exp(rng.uniform(-3, 0, (split, 64)) + bias))
                    cs = np.cumsum(dt * A, 0)
                    tile_start = np.concatenate([np.zeros((1, 64)), cs[63::64][:-1]])
                    counts.append((tile_start >= -110).sum())
        W = np.sum(counts) / 10
        S = 64 * batch * (nsplits - 1) * split / 64
        print(f"{name} A x {scale}: W {W:.0f}  S {S:.0f}  W/S {W / S:.3f}")
