"""Public PyTorch entry points: ``ssd`` and the drop-in ``mamba_chunk_scan_combined``.

Shapes (b batch, T tokens, H heads, P head dim, G groups, N state dim)::

    x               (b, T, H, P)   bfloat16 | float16 | float32
    dt              (b, T, H)      float32 | bfloat16 | float16
    A               (H,)           float32 (negative)
    B, C            (b, T, G, N)   dtype of x; head h uses group h // (H // G)
    D               (H,) or (H, P) float32
    z               (b, T, H, P)   dtype of x
    dt_bias         (H,)           float32
    initial_states  (b, H, P, N)   float32
    seq_idx         (b, T)         int32 (int64 accepted), non-decreasing
    cu_seqlens      (S + 1,)       int32 | int64, with b == 1

The operation, per batch row and head, token t = 1..T::

    dt_t = clamp(softplus?(dt_t + dt_bias), lo, hi)      softplus(v) = v for v > 20
    h_t  = exp(dt_t * A) * h_{t-1} + dt_t * x_t B_t^T   (h: P x N, fp32; h_0 = initial_states or 0)
    y_t  = h_t C_t + D * x_t ;  y_t *= silu(z_t) if z is given

The state restarts from zero where ``seq_idx`` changes and at each sequence start
of ``cu_seqlens``. y has x's dtype; states are fp32. Tensors on the CPU run the
library's float64 reference; CUDA tensors run the GPU kernels on the current
stream (CUDA-graph capturable). Bad input raises ``flashssd.Error`` (a
ValueError) with the library's message (a ``dt_limit`` that is not a pair of
numbers: TypeError); a valid request this build cannot serve raises
``flashssd.NotSupported`` (a NotImplementedError).

There is no backward pass yet: a call whose inputs require grad while grad mode
is on raises NotImplementedError.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional, Sequence, Union

import torch
from torch import Tensor

from . import _ops
from ._C import Error

__all__ = ["SSDOutput", "ssd", "mamba_chunk_scan_combined", "forward_path"]


class SSDOutput(NamedTuple):
    """Result of :func:`ssd`."""

    y: Tensor
    """(b, T, H, P), dtype of x."""
    final_states: Optional[Tensor]
    """(b, H, P, N) float32: the state after the last token; None unless asked for."""
    varlen_states: Optional[Tensor]
    """(S, H, P, N) float32: the state after each sequence's last token; None without cu_seqlens."""


def _dt_limit(dt_limit: Sequence[float]) -> tuple[float, float]:
    try:
        lo, hi = dt_limit
        return float(lo), float(hi)
    except (TypeError, ValueError):
        raise TypeError(f"flashssd: dt_limit: expected a pair (lo, hi) of floats, got {dt_limit!r}") from None


def _segsum(segsum: Union[str, int]) -> int:
    if isinstance(segsum, str):
        try:
            return _ops.SEGSUM_VARIANTS[segsum]
        except KeyError:
            names = ", ".join(repr(k) for k in _ops.SEGSUM_VARIANTS)
            raise Error(f"flashssd: segsum: expected one of {names}, got {segsum!r}") from None
    return int(segsum)


def ssd(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    *,
    D: Optional[Tensor] = None,
    z: Optional[Tensor] = None,
    dt_bias: Optional[Tensor] = None,
    dt_softplus: bool = False,
    dt_limit: Sequence[float] = (0.0, math.inf),
    initial_states: Optional[Tensor] = None,
    seq_idx: Optional[Tensor] = None,
    cu_seqlens: Optional[Tensor] = None,
    return_final_states: bool = False,
    segsum: Union[str, int] = "hierarchical",
    chunk_size: int = 0,
) -> SSDOutput:
    """The Mamba-2 SSD forward (see the module docstring for shapes and semantics).

    Args:
        x, dt, A, B, C: the required inputs.
        D: skip connection, per head (H,) or per channel (H, P).
        z: gate; y is multiplied by silu(z).
        dt_bias: added to dt before softplus / clamping.
        dt_softplus: apply softplus to dt + dt_bias.
        dt_limit: (lo, hi) clamp of the processed dt.
        initial_states: state before the first token of each batch row.
        seq_idx: packed sequences; the state restarts where the value changes.
        cu_seqlens: sequence offsets (b == 1); the state restarts at each
            sequence start, and ``varlen_states`` holds each sequence's final state.
        return_final_states: also return the state after the last token.
        segsum: decay-mask algorithm, "hierarchical" (default, stable and fast),
            "diff" (the Triton kernels' prefix subtraction) or "direct".
        chunk_size: accepted for compatibility, does not change the result
            (0 = the library's choice).

    Returns:
        SSDOutput(y, final_states, varlen_states).
    """
    _ops.check_no_grad(x, dt, A, B, C, D, z, dt_bias, initial_states)
    lo, hi = _dt_limit(dt_limit)
    want_varlen = cu_seqlens is not None
    y, final_states, varlen_states = torch.ops.flashssd.ssd_forward(
        x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens,
        dt_softplus, lo, hi, chunk_size, _segsum(segsum), return_final_states, want_varlen,
    )  # fmt: skip
    return SSDOutput(
        y,
        final_states if return_final_states else None,
        varlen_states if want_varlen else None,
    )


def forward_path(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    *,
    D: Optional[Tensor] = None,
    z: Optional[Tensor] = None,
    dt_bias: Optional[Tensor] = None,
    dt_softplus: bool = False,
    dt_limit: Sequence[float] = (0.0, math.inf),
    initial_states: Optional[Tensor] = None,
    seq_idx: Optional[Tensor] = None,
    cu_seqlens: Optional[Tensor] = None,
    return_final_states: bool = False,
    segsum: Union[str, int] = "hierarchical",
    chunk_size: int = 0,
) -> str:
    """Which kernel :func:`ssd` would run for these arguments, without running it.

    Takes :func:`ssd`'s arguments and returns the C++ library's answer
    (``flashssd::ssd_forward_path``), e.g. ``"sm90: Hopper kernel (TMA + WGMMA),
    bfloat16, N=128"``, ``"sm80: portable kernel (mma.sync), float32, N<=128,
    head-dim block 32, segsum hierarchical"`` or ``"host: float64 reference"``.
    It validates as :func:`ssd` does and raises what it would raise before a launch
    (flashssd.Error, flashssd.NotSupported, NotImplementedError for inputs that need a
    backward). ``FLASHSSD_DISABLE_SM90`` and ``FLASHSSD_SM80_HALF_HEAD_BLOCK`` are read as by
    the call; the split knobs are left to the launch. The operator's conversions run first
    (y is allocated, inputs the GPU path cannot take as they are copied), flashssd's kernels
    do not. For logs and tests: the text after the first ':' may grow.
    """
    _ops.check_no_grad(x, dt, A, B, C, D, z, dt_bias, initial_states)
    lo, hi = _dt_limit(dt_limit)
    return _ops.forward_path(
        x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens,
        dt_softplus, lo, hi, chunk_size, _segsum(segsum), return_final_states, cu_seqlens is not None,
    )  # fmt: skip


def mamba_chunk_scan_combined(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    chunk_size: int,
    D: Optional[Tensor] = None,
    z: Optional[Tensor] = None,
    dt_bias: Optional[Tensor] = None,
    initial_states: Optional[Tensor] = None,
    seq_idx: Optional[Tensor] = None,
    cu_seqlens: Optional[Tensor] = None,
    dt_softplus: bool = False,
    dt_limit: tuple[float, float] = (0.0, float("inf")),
    return_final_states: bool = False,
    return_varlen_states: bool = False,
) -> Union[Tensor, tuple[Tensor, Tensor], tuple[Tensor, Tensor, Tensor]]:
    """Drop-in replacement for ``mamba_ssm.ops.triton.ssd_combined.mamba_chunk_scan_combined``.

    Same signature, same return conventions:

    * ``y`` when neither ``return_final_states`` nor ``return_varlen_states``;
    * ``(y, final_states)`` with ``return_final_states``;
    * ``(y, varlen_states)`` with ``return_varlen_states``;
    * ``(y, final_states, varlen_states)`` with both.

    As in mamba_ssm, ``cu_seqlens`` is used only when ``return_varlen_states``
    is True (and is then required), and packed sequences should also be marked
    with ``seq_idx``. One difference makes the result well defined where
    mamba_ssm's depends on ``chunk_size``: with ``return_varlen_states`` the
    state restarts at every ``cu_seqlens`` boundary even without ``seq_idx``
    (with a matching ``seq_idx``, the mamba_ssm usage, both agree).
    ``chunk_size`` does not change the result (it must be >= 0). Forward only:
    inputs that require grad raise NotImplementedError while grad mode is on.
    """
    _ops.check_no_grad(x, dt, A, B, C, D, z, dt_bias, initial_states)
    lo, hi = _dt_limit(dt_limit)
    if not return_varlen_states:
        cu_seqlens = None  # mamba_ssm ignores it then
    y, final_states, varlen_states = torch.ops.flashssd.ssd_forward(
        x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens,
        dt_softplus, lo, hi, chunk_size, 0, return_final_states, return_varlen_states,
    )  # fmt: skip
    if not return_varlen_states:
        return (y, final_states) if return_final_states else y
    return (y, final_states, varlen_states) if return_final_states else (y, varlen_states)
