# Magnitudes the folded state reaches on Sm90Forward.LargeStatesWithRefolds-like inputs (float64 emulation
# of the producer's fold rule; numpy's RNG, the same distributions as ref::make_random). Output, session 21:
#   floor 2^-100: max |g C^T| = 1.48e+40, max |g| = 2.07e+36, fp32 max 3.4e38
#   floor 2^-64: max |g C^T| = 2.57e+29, max |g| = 3.81e+25, fp32 max 3.4e38
import numpy as np
rng = np.random.default_rng(43)
T, H, P, N, Q = 4096, 8, 64, 128, 64
s = 1000.0
x = rng.uniform(-1, 1, (T, H, P)) * s
B = rng.uniform(-1, 1, (T, N)) * s
C = rng.uniform(-1, 1, (T, N)) * s
A = rng.uniform(-1.5, -0.05, H) * 0.1
dt = np.maximum(0, rng.uniform(-0.1, 0.8, (T, H)))
for floor_exp in (100, 64):
    floor = 2.0 ** -floor_exp
    worst_read, worst_g = 0.0, 0.0
    for h_ in range(H):
        h = np.zeros((P, N)); G = 1.0
        for t in range(T // Q):
            sl = slice(t * Q, (t + 1) * Q)
            a = dt[sl, h_] * A[h_]
            read = np.abs(h @ C[sl].T).max() / G   # g C^T of the tile's readout
            worst_read = max(worst_read, read)
            total = np.exp(a.sum())
            carried = G * total
            cs = np.cumsum(a)
            w = dt[sl, h_] * np.exp(cs[-1] - cs)
            h = total * h + (x[sl, h_, :] * w[:, None]).T @ B[sl]
            if carried < floor or t == T // Q - 1: G = 1.0
            else: G = carried
            worst_g = max(worst_g, np.abs(h).max() / G)
    print(f"floor 2^-{floor_exp}: max |g C^T| = {worst_read:.3g}, max |g| = {worst_g:.3g}, fp32 max 3.4e38")
