"""Session 45: how much of x the split path's state pass would still read if each split's boundary
state took only the tokens within tau nats of decay of the split's end (the rest of the split
contributes decay(window) * h(window start), below 2^-150 in magnitude, half the smallest fp32
denormal, whenever the fp32 state is finite, |h| < 2^128, for tau = 193 nats = 278 ln 2). compare.py's input distributions
(make_inputs: dt = softplus(U(-3, 0) + dt_bias), dt_bias ~ U(-4, -2) per head, A = -U(0.5, 8)),
H = 64; a state-pass CTA holds two heads, so an item's window is the longer of its two.
CPU, numpy:  python3 bench/results/logs/2026-12-05-s45-state_window.py
"""
import numpy as np

rng = np.random.default_rng(0)
H = 64
A = rng.uniform(0.5, 8.0, H)
bias = rng.uniform(-4, -2, H)
u = rng.uniform(-3, 0, (4000, 64, H))
dt = np.log1p(np.exp(u + bias))
per_tile = (dt.sum(1) * A).mean(0)  # mean nats per 64-token tile, per head
print("per-head nats per tile: min %.2f, median %.2f, max %.2f" % (per_tile.min(), np.median(per_tile), per_tile.max()))
for tau in (87.3, 193.0, 300.0):
    need = np.ceil(tau / per_tile)  # tiles before a split's end that still matter, per head
    pair = np.maximum(need[0::2], need[1::2])
    for name, split_tiles in (("R1 32k (2 splits of 256 tiles)", 256), ("R4 128k (4 splits of 512)", 512),
                              ("R4 512k (4 splits of 2048)", 2048)):
        frac = np.minimum(pair, split_tiles).mean() / split_tiles
        print(f"tau {tau:5.1f} nats, {name}: the state pass reads {100 * frac:5.1f}% of the x it reads now")
