"""A float64 torch reference of the SSD forward: the sequential recurrence, written
from the definition (docs/API.md, DESIGN.md section 1), independent of the C++
library. Runs on whatever device its inputs are on; vectorised over batch and
heads. ssd_reference steps token by token (the ground truth); ssd_reference_chunked
computes the same in chunks of 64 tokens (10-20x faster; the GPU suite uses it) and is
checked against it by test_ssd_reference.py."""

from __future__ import annotations

import math
from typing import Optional

import torch
from torch import Tensor


class _Problem:
    """What both references share: float64 inputs, processed dt, heads' B and C,
    the reset flags, the starting state and the varlen-state bookkeeping.
    reset[bi, t]: the state restarts from zero before token t (a seq_idx change, or
    the start of a cu_seqlens sequence, row 0). initial_states are the state before
    token 0 (with cu_seqlens: of sequence 0 only, and only if it is not empty).
    ends[e]: the sequences whose last token is e - 1; varlen starts with the states of
    empty sequences (initial_states[0] for an empty sequence 0, else zeros)."""

    def __init__(self, x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens, dt_softplus, dt_limit):
        f64 = torch.float64

        def cast(t: Optional[Tensor]) -> Optional[Tensor]:
            return None if t is None else t.to(f64)

        x, dt, A, B, C, D, z, dt_bias, h0 = map(cast, (x, dt, A, B, C, D, z, dt_bias, initial_states))
        b, T, H, P = x.shape
        G, N = B.shape[2], B.shape[3]
        self.x, self.A, self.D, self.z = x, A, D, z
        self.Bh = B.repeat_interleave(H // G, dim=2)  # (b, T, H, N)
        self.Ch = C.repeat_interleave(H // G, dim=2)
        if dt_bias is not None:
            dt = dt + dt_bias
        if dt_softplus:
            dt = torch.where(dt > 20.0, dt, torch.log1p(torch.exp(torch.clamp(dt, max=20.0))))
        self.dt = torch.clamp(dt, min=dt_limit[0], max=dt_limit[1])

        self.reset = torch.zeros(b, T, dtype=torch.bool, device=x.device)
        if seq_idx is not None and T > 1:
            self.reset[:, 1:] |= seq_idx[:, 1:] != seq_idx[:, :-1]
        self.cu = cu = [int(v) for v in cu_seqlens.tolist()] if cu_seqlens is not None else None
        if cu is not None:
            for start in cu[:-1]:
                if 0 < start < T:
                    self.reset[0, start] = True

        self.h = torch.zeros(b, H, P, N, dtype=f64, device=x.device)
        if h0 is not None and (cu is None or cu[1] > 0 or T == 0):
            self.h = h0.clone()
        self.varlen = None
        self.ends: dict[int, list[int]] = {}
        if cu is not None:
            self.varlen = torch.zeros(len(cu) - 1, H, P, N, dtype=f64, device=x.device)
            for k in range(len(cu) - 1):
                if cu[k + 1] > cu[k]:
                    if cu[k + 1] <= T:
                        self.ends.setdefault(cu[k + 1], []).append(k)
                elif k == 0 and h0 is not None:
                    self.varlen[k] = h0[0]

    def finish(self, y: Tensor) -> Tensor:
        """y + D x, gated by silu(z)."""
        if self.D is not None:
            y = y + (self.D[:, None] if self.D.dim() == 1 else self.D) * self.x
        if self.z is not None:
            y = y * self.z * torch.sigmoid(self.z)
        return y


def ssd_reference(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    *,
    D: Optional[Tensor] = None,
    z: Optional[Tensor] = None,
    dt_bias: Optional[Tensor] = None,
    initial_states: Optional[Tensor] = None,
    seq_idx: Optional[Tensor] = None,
    cu_seqlens: Optional[Tensor] = None,
    dt_softplus: bool = False,
    dt_limit: tuple[float, float] = (0.0, math.inf),
) -> tuple[Tensor, Tensor, Optional[Tensor]]:
    """Returns (y, final_states, varlen_states) in float64; varlen_states is None without cu_seqlens.

    State restarts from zero where seq_idx changes and where a cu_seqlens sequence
    starts. initial_states are the state before token 0 (with cu_seqlens: of
    sequence 0 only). varlen_states[k] is the state after sequence k's last token,
    or, for an empty sequence, the state it starts from."""
    pr = _Problem(x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens, dt_softplus, dt_limit)
    x, Bh, Ch, h, varlen, reset = pr.x, pr.Bh, pr.Ch, pr.h, pr.varlen, pr.reset
    b, T, H, P = x.shape
    decay = torch.exp(pr.dt * pr.A)  # (b, T, H)
    reset_any = reset.any(dim=0).tolist()
    ys = []
    for t in range(T):
        if reset_any[t]:
            h = torch.where(reset[:, t, None, None, None], torch.zeros((), dtype=torch.float64, device=x.device), h)
        u = (pr.dt[:, t, :, None] * x[:, t])[..., None] * Bh[:, t, :, None, :]  # (b, H, P, N)
        h = decay[:, t, :, None, None] * h + u
        ys.append(torch.einsum("bhpn,bhn->bhp", h, Ch[:, t]))
        for k in pr.ends.get(t + 1, ()):
            varlen[k] = h[0]

    y = torch.stack(ys, dim=1) if ys else torch.zeros(b, 0, H, P, dtype=torch.float64, device=x.device)
    return pr.finish(y), h, varlen


def ssd_reference_chunked(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    *,
    D: Optional[Tensor] = None,
    z: Optional[Tensor] = None,
    dt_bias: Optional[Tensor] = None,
    initial_states: Optional[Tensor] = None,
    seq_idx: Optional[Tensor] = None,
    cu_seqlens: Optional[Tensor] = None,
    dt_softplus: bool = False,
    dt_limit: tuple[float, float] = (0.0, math.inf),
) -> tuple[Tensor, Tensor, Optional[Tensor]]:
    """ssd_reference (same arguments, semantics and results up to float64 rounding),
    computed chunk by chunk: a Python loop over chunks of at most 64 tokens, the
    quadratic (attention-like) form inside a chunk, the state carried between chunks.
    Chunks also end at every cu_seqlens boundary, where varlen states are taken.

    With a_t = dt_t * A (log decay) and segsum[i, j] = a_{j+1} + ... + a_i, inside a
    chunk starting at s with state h_prev before it:
      y_i   = sum_{j<=i} exp(segsum[i, j]) (C_i . B_j) dt_j x_j + exp(a_s + ... + a_i) C_i . h_prev
      h_end = exp(a_s + ... + a_end) h_prev + sum_j exp(segsum[end, j]) dt_j x_j B_j^T.
    A state reset before token t is a_t = -inf (exp gives exact zeros). Sums of a are
    accumulated left to right over masked values (never as differences of prefix sums),
    so no cancellation and no -inf - -inf arises."""
    f64 = torch.float64
    max_chunk = 64
    pr = _Problem(x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens, dt_softplus, dt_limit)
    x, Bh, Ch, h, varlen, cu = pr.x, pr.Bh, pr.Ch, pr.h, pr.varlen, pr.cu
    b, T, H, P = x.shape
    dev = x.device
    dt = pr.dt
    # log decay per token; a reset before token t is a_t = -inf
    a = torch.where(pr.reset[:, :, None], torch.full((), -math.inf, dtype=f64, device=dev), dt * pr.A)

    # Chunk boundaries: every max_chunk tokens and at every cu_seqlens boundary.
    cut_set = set(range(0, T, max_chunk)) | {T}
    if cu is not None:
        cut_set |= {c for c in cu if 0 < c < T}
    cuts = sorted(cut_set)

    xdt = x * dt[..., None]  # (b, T, H, P)
    y = torch.empty(b, T, H, P, dtype=f64, device=dev)
    masks: dict[int, tuple[Tensor, Tensor]] = {}
    for s, e in zip(cuts[:-1], cuts[1:]):
        L = e - s
        if L not in masks:
            ones = torch.ones(L, L, dtype=torch.bool, device=dev)
            masks[L] = (torch.tril(ones, diagonal=-1), torch.tril(ones))
        strict, lower = masks[L]
        ac = a[:, s:e].transpose(1, 2)  # (b, H, L)
        # seg[..., i, j] = sum_{k=j+1..i} a_k for i >= j (accumulated over i, zeros above), -inf for i < j.
        rep = torch.where(strict, ac[..., :, None], torch.zeros((), dtype=f64, device=dev))  # rep[i, j] = a_i (i > j)
        seg = torch.cumsum(rep, dim=-2)
        seg = torch.where(lower, seg, torch.full((), -math.inf, dtype=f64, device=dev))
        decay_ij = torch.exp(seg)  # (b, H, L, L)
        decay_from_start = torch.exp(torch.cumsum(ac, dim=-1))  # (b, H, L): exp(a_s + ... + a_i)
        Bc, Cc, xc = Bh[:, s:e], Ch[:, s:e], xdt[:, s:e]
        scores = torch.einsum("bihn,bjhn->bhij", Cc, Bc) * decay_ij
        yc = torch.einsum("bhij,bjhp->bihp", scores, xc)
        yc = yc + torch.einsum("bihn,bhpn->bihp", Cc, h) * decay_from_start.transpose(1, 2)[..., None]
        y[:, s:e] = yc
        to_end = decay_ij[:, :, -1, :]  # (b, H, L): exp(a_{j+1} + ... + a_end)
        h = decay_from_start[:, :, -1, None, None] * h + torch.einsum("bhj,bjhp,bjhn->bhpn", to_end, xc, Bc)
        for k in pr.ends.get(e, ()):
            varlen[k] = h[0]

    return pr.finish(y), h, varlen


def rel_err(a: Tensor, ref: Tensor) -> float:
    """Relative Frobenius-norm error of a against ref (float64)."""
    ref = ref.to(torch.float64)
    num = torch.linalg.vector_norm(a.to(torch.float64) - ref).item()
    den = torch.linalg.vector_norm(ref).item()
    return num / den if den > 0 else num


# ---- random problems -----------------------------------------------------------------------


def make_inputs(
    b: int,
    T: int,
    H: int,
    P: int,
    G: int,
    N: int,
    *,
    dtype: torch.dtype = torch.float32,
    dt_dtype: torch.dtype = torch.float32,
    device: str | torch.device = "cpu",
    seed: int = 0,
    D: Optional[str] = None,
    z: bool = False,
    dt_bias: bool = False,
    dt_softplus: bool = False,
    initial_states: bool = False,
    seq_idx: bool = False,
    seqlens: Optional[list[int]] = None,
) -> dict:
    """Keyword arguments of a random problem (never zeros), generated on the CPU with
    a fixed seed and moved to `device`, so every device sees the same numbers.

    D: None, "head" (H,) or "channel" (H, P). seq_idx: random packed sequences per
    row. seqlens: lengths of cu_seqlens sequences (b must be 1); also sets a
    matching seq_idx, as mamba_ssm usage requires. With dt_softplus, raw dt spans
    the softplus and the identity (> 20) regimes."""
    g = torch.Generator().manual_seed(seed)

    def randn(*shape: int, dt: torch.dtype = dtype) -> Tensor:
        return torch.randn(*shape, generator=g).to(dt)

    def uniform(lo: float, hi: float, *shape: int) -> Tensor:
        return lo + (hi - lo) * torch.rand(*shape, generator=g)

    kw: dict = {
        "x": randn(b, T, H, P),
        "A": -uniform(0.5, 4.0, H),
        "B": randn(b, T, G, N),
        "C": randn(b, T, G, N),
    }
    if dt_softplus:
        raw = uniform(-4.0, -1.0, b, T, H)
        big = torch.rand(b, T, H, generator=g) < 0.02
        raw = torch.where(big, uniform(20.5, 21.0, b, T, H), raw)  # identity branch; the decay exp(dt A) is tiny (1e-38 .. 1e-4), not 0
        kw["dt"] = raw.to(dt_dtype)
        kw["dt_softplus"] = True
    else:
        kw["dt"] = uniform(0.005, 0.2, b, T, H).to(dt_dtype)
    if dt_bias:
        kw["dt_bias"] = uniform(-0.5, 0.5, H) if dt_softplus else uniform(0.0, 0.05, H)
    if D == "head":
        kw["D"] = randn(H, dt=torch.float32)
    elif D == "channel":
        kw["D"] = randn(H, P, dt=torch.float32)
    if z:
        kw["z"] = randn(b, T, H, P)
    if initial_states:
        kw["initial_states"] = randn(b, H, P, N, dt=torch.float32)
    if seqlens is not None:
        assert b == 1 and sum(seqlens) == T
        cu = torch.tensor([0] + list(seqlens)).cumsum(0).to(torch.int32)
        kw["cu_seqlens"] = cu
        kw["seq_idx"] = torch.repeat_interleave(torch.arange(len(seqlens), dtype=torch.int32), torch.tensor(seqlens))[
            None
        ]
    elif seq_idx:
        cuts = torch.rand(b, T, generator=g) < 4.0 / max(T, 1)
        cuts[:, 0] = False
        kw["seq_idx"] = cuts.to(torch.int32).cumsum(1).to(torch.int32)
    return {k: (v.to(device) if isinstance(v, Tensor) else v) for k, v in kw.items()}


def call_scan(fn, kw: dict, dt_limit, chunk_size: int = 256):
    """Calls fn (mamba_chunk_scan_combined's signature: flashssd's or mamba_ssm's) on
    make_inputs' tensors; returns (y, final_states, varlen_states or None)."""
    varlen = "cu_seqlens" in kw
    out = fn(
        kw["x"],
        kw["dt"],
        kw["A"],
        kw["B"],
        kw["C"],
        chunk_size,
        D=kw.get("D"),
        z=kw.get("z"),
        dt_bias=kw.get("dt_bias"),
        initial_states=kw.get("initial_states"),
        seq_idx=kw.get("seq_idx"),
        cu_seqlens=kw.get("cu_seqlens"),
        dt_softplus=kw.get("dt_softplus", False),
        dt_limit=dt_limit,
        return_final_states=True,
        return_varlen_states=varlen,
    )
    return out if varlen else (*out, None)
