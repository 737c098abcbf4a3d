"""Session 52: the fix-up's window tiles W and the state pass's tiles S for flashssd_bench's own
inputs, exactly: the benchmark fills dt, dt_bias and A with a counter hash (bench_forward.cu,
fill_uniform_kernel: splitmix64(seed ^ splitmix64(i)), seed = 1 * 0x100000001B3 + k), so the
values every run times can be drawn again here. (Session 48's windows_model.py drew other values
of the same distributions: its W is an expectation, ~0.03 in W / S from draw to draw.)
W: the tiles of splits 1 .. S - 1 whose log-decay from their split's start, sum of
softplus(dt + dt_bias) * A over the tokens before them, is >= -110 (split_fixup.cu's
kWindowFloor); splits as the plan takes them on 132 SMs (R1 32k: 2 of 16384 tokens, R4 128k:
4 of 32768). The kernels sum in fp32 with a fast softplus; a tile at the edge may count
otherwise. Run: python3 this_file (numpy)."""
import numpy as np

M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def splitmix64(x):
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def fill_uniform(n, lo, hi, seed):
    i = np.arange(n, dtype=np.uint64)
    r = splitmix64(np.uint64(seed) ^ splitmix64(i))
    u = (r >> np.uint64(40)).astype(np.float32) * np.float32(1.0 / 16777216.0)
    v = np.float32(lo) + (np.float32(hi) - np.float32(lo)) * u
    v[v == 0] = np.float32(1e-3)
    return v


with np.errstate(over="ignore"):
    s = 1 * 0x100000001B3
    H = 64
    bias = fill_uniform(H, -4.0, -2.0, s + 6)
    for name, batch, T, nsplits, scales in [("R1 32k", 2, 32768, 2, [1, 0.7, 0.5]),
                                              ("R4 128k", 1, 131072, 4, [1, 0.5, 0.35, 0.25])]:
        dt_raw = fill_uniform(batch * T * H, -3.0, 0.0, s + 5).reshape(batch, T, H)
        dt = np.log1p(np.exp(dt_raw.astype(np.float64) + bias))
        split = T // nsplits
        S = batch * H * (nsplits - 1) * split // 64
        for scale in scales:
            A = fill_uniform(H, -8.0 * np.float32(scale), -0.5 * np.float32(scale), s + 7).astype(np.float64)
            W = 0
            for sp in range(1, nsplits):
                seg = dt[:, sp * split:(sp + 1) * split, :] * A
                tile = seg.reshape(batch, split // 64, 64, H).sum(2)
                start = np.cumsum(tile, 1) - tile  # the log-decay before each tile
                W += int((start >= -110).sum())
            print(f"{name} A x {scale}: W {W}  S {S}  W/S {W / S:.3f}")
