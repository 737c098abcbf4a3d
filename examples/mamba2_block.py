#!/usr/bin/env python3
"""A minimal Mamba-2 block on FlashSSD, runnable on a GPU and on the CPU.

    in_proj -> causal depthwise conv1d (+ SiLU) over (x, B, C) -> SSD (flashssd)
            -> gated RMSNorm (y * silu(z), normalised per group) -> out_proj

The layer follows mamba_ssm's ``Mamba2`` module (same projections, parameter
initialisation and defaults: ``D`` per head, ``dt_softplus``, ``norm_before_gate=False``)
with plain PyTorch everywhere except the SSD. Forward only (FlashSSD has no
backward yet), so run it under ``torch.inference_mode()``.

    python examples/mamba2_block.py                      # GPU if present, else a small CPU run
    python examples/mamba2_block.py --device cpu --seqlen 64
    python examples/mamba2_block.py --bench              # time vs the same block on mamba_ssm's kernels

``--bench`` times the block and the SSD alone against the same block whose SSD
and gated RMSNorm are mamba_ssm's Triton kernels (``mamba_chunk_scan_combined``
and ``rmsnorm_fn``, loaded from the sdist in third_party_bench/ by
bench/triton_baseline.py; ``scripts/fetch_triton_baseline.sh`` fetches it). Both
blocks share weights and inputs, and their outputs are compared first.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from typing import Callable, Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn

import flashssd

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Mamba2Block(nn.Module):
    """Mamba-2 mixer: ``forward(u)`` maps (batch, seqlen, d_model) to the same shape."""

    def __init__(
        self,
        d_model: int,
        *,
        d_state: int = 128,
        headdim: int = 64,
        ngroups: int = 1,
        expand: int = 2,
        d_conv: int = 4,
        chunk_size: int = 256,
        dt_min: float = 0.001,
        dt_max: float = 0.1,
        dt_init_floor: float = 1e-4,
        dt_limit: tuple[float, float] = (0.0, float("inf")),
        eps: float = 1e-5,
        device: Optional[torch.device] = None,
        dtype: Optional[torch.dtype] = None,
    ) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        self.d_inner = expand * d_model
        assert self.d_inner % headdim == 0, "expand * d_model must be a multiple of headdim"
        self.nheads = self.d_inner // headdim
        self.headdim, self.d_state, self.ngroups = headdim, d_state, ngroups
        self.chunk_size, self.dt_limit, self.eps = chunk_size, dt_limit, eps
        conv_dim = self.d_inner + 2 * ngroups * d_state

        # [z, x, B, C, dt] in one projection, as in Mamba2.
        self.in_proj = nn.Linear(d_model, 2 * self.d_inner + 2 * ngroups * d_state + self.nheads, bias=False, **factory)
        self.conv1d = nn.Conv1d(conv_dim, conv_dim, d_conv, groups=conv_dim, padding=d_conv - 1, **factory)

        # dt_bias = softplus^{-1}(dt), dt log-uniform in [dt_min, dt_max]; A = -exp(A_log), A_log ~ log U[1, 16].
        dt = torch.exp(
            torch.rand(self.nheads, device=device) * (math.log(dt_max) - math.log(dt_min)) + math.log(dt_min)
        ).clamp(min=dt_init_floor)
        self.dt_bias = nn.Parameter(dt + torch.log(-torch.expm1(-dt)))
        self.A_log = nn.Parameter(torch.log(torch.empty(self.nheads, device=device).uniform_(1, 16)))
        self.D = nn.Parameter(torch.ones(self.nheads, device=device))
        self.norm_weight = nn.Parameter(torch.ones(self.d_inner, **factory))
        self.out_proj = nn.Linear(self.d_inner, d_model, bias=False, **factory)

    # The two kernels a backend may replace: the SSD and the gated RMSNorm.
    # mamba_chunk_scan_combined-compatible function (TritonMamba2Block swaps it).
    _scan = staticmethod(flashssd.mamba_chunk_scan_combined)

    def ssd(self, x: Tensor, dt: Tensor, A: Tensor, B: Tensor, C: Tensor) -> Tensor:
        return self._scan(
            x,
            dt,
            A,
            B,
            C,
            self.chunk_size,
            D=self.D.float(),
            dt_bias=self.dt_bias.float(),
            dt_softplus=True,
            dt_limit=self.dt_limit,
        )

    def gated_rmsnorm(self, y: Tensor, z: Tensor) -> Tensor:
        """RMSNorm(y * silu(z)) per group of d_inner / ngroups channels (norm_before_gate=False)."""
        g = (y.float() * F.silu(z.float())).unflatten(-1, (self.ngroups, -1))
        g = g * torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + self.eps)
        return (g.flatten(-2) * self.norm_weight.float()).to(y.dtype)

    def forward(self, u: Tensor) -> Tensor:
        batch, seqlen, _ = u.shape
        GN = self.ngroups * self.d_state
        z, xBC, dt = torch.split(self.in_proj(u), [self.d_inner, self.d_inner + 2 * GN, self.nheads], dim=-1)
        # Causal depthwise convolution: pad d_conv - 1 on both sides, keep the first seqlen outputs.
        xBC = F.silu(self.conv1d(xBC.transpose(1, 2))[..., :seqlen].transpose(1, 2))
        x, B, C = torch.split(xBC, [self.d_inner, GN, GN], dim=-1)
        y = self.ssd(
            x.unflatten(-1, (self.nheads, self.headdim)),
            dt,
            -torch.exp(self.A_log.float()),
            B.unflatten(-1, (self.ngroups, self.d_state)),
            C.unflatten(-1, (self.ngroups, self.d_state)),
        )
        y = self.gated_rmsnorm(y.flatten(-2), z)
        return self.out_proj(y)


class TritonMamba2Block(Mamba2Block):
    """The same block with mamba_ssm's Triton SSD and gated RMSNorm (for --bench)."""

    def __init__(self, base, *args, **kwargs) -> None:  # base: bench/triton_baseline.load()
        super().__init__(*args, **kwargs)
        self._scan = base.mamba_chunk_scan_combined
        self._rmsnorm = getattr(base.module, "rmsnorm_fn", None)

    def gated_rmsnorm(self, y: Tensor, z: Tensor) -> Tensor:
        if self._rmsnorm is None:
            return super().gated_rmsnorm(y, z)
        return self._rmsnorm(
            y,
            self.norm_weight,
            None,
            z=z,
            eps=self.eps,
            group_size=self.d_inner // self.ngroups,
            norm_before_gate=False,
        )


# ---- command line ----------------------------------------------------------------------------------


def _time_ms(fn: Callable[[], object], device: torch.device, iters: int, warmup: int = 3) -> float:
    """Median wall time of fn in ms (CUDA events on a GPU)."""
    for _ in range(warmup):
        fn()
    times = []
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        for _ in range(iters):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    else:
        for _ in range(iters):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def _load_triton_baseline():
    """bench/triton_baseline.load(), or None with the reason printed."""
    for path in (os.path.join(_REPO, "bench"), os.path.join(_REPO, "third_party_bench", "pylib")):
        if os.path.isdir(path) and path not in sys.path:
            sys.path.insert(0, path)
    try:
        import triton_baseline

        return triton_baseline.load()
    except Exception as e:  # noqa: BLE001 - any failure means: no baseline
        print(f"mamba_ssm Triton baseline unavailable ({type(e).__name__}: {e}); timing flashssd only")
        return None


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument(
        "--dtype",
        default=None,
        choices=["bfloat16", "float16", "float32"],
        help="default: bfloat16 on a GPU, float32 on the CPU",
    )
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--seqlen", type=int, default=None)
    ap.add_argument("--d-model", type=int, default=None)
    ap.add_argument("--d-state", type=int, default=128)
    ap.add_argument("--headdim", type=int, default=64)
    ap.add_argument("--ngroups", type=int, default=1)
    ap.add_argument("--chunk-size", type=int, default=256)
    ap.add_argument("--compile", action="store_true", help="torch.compile(fullgraph=True) the block")
    ap.add_argument("--bench", action="store_true", help="time against the block on mamba_ssm's Triton kernels")
    ap.add_argument("--iters", type=int, default=None, help="timed iterations (median reported)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)

    device = torch.device(a.device)
    gpu = device.type == "cuda"
    dtype = getattr(torch, a.dtype or ("bfloat16" if gpu else "float32"))
    # GPU default: the d_model 2048 layer of DESIGN.md (H = 64, P = 64, N = 128); CPU: something small.
    batch = a.batch or (4 if gpu else 1)
    seqlen = a.seqlen or (4096 if gpu else 128)
    d_model = a.d_model or (2048 if gpu else 128)
    iters = a.iters or (50 if gpu else 3)

    torch.manual_seed(a.seed)
    cfg = dict(
        d_state=a.d_state, headdim=a.headdim, ngroups=a.ngroups, chunk_size=a.chunk_size, device=device, dtype=dtype
    )
    block = Mamba2Block(d_model, **cfg).eval()
    u = torch.randn(batch, seqlen, d_model, device=device, dtype=dtype)
    run = torch.compile(block, fullgraph=True) if a.compile else block

    print(
        f"flashssd {flashssd.__version__} | device {device} ({torch.cuda.get_device_name(device) if gpu else 'CPU'})"
        f" | {dtype} | batch {batch} seqlen {seqlen} d_model {d_model} -> H {block.nheads} P {block.headdim}"
        f" N {block.d_state} G {block.ngroups}{' | compiled' if a.compile else ''}"
    )
    with torch.inference_mode():
        out = run(u)
        if gpu:
            torch.cuda.synchronize(device)
        finite = bool(torch.isfinite(out).all())
        rms = out.float().pow(2).mean().sqrt().item()
        print(f"forward ok: output {tuple(out.shape)} {out.dtype}, finite={finite}, rms={rms:.4f}")
        if not finite:
            return 1
        if not a.bench:
            return 0

        ms = _time_ms(lambda: run(u), device, iters)
        print(f"block  flashssd: {ms:8.3f} ms")
        base = _load_triton_baseline() if gpu else None
        if gpu and base is None:
            return 0
        if not gpu:
            print("(the mamba_ssm Triton comparison needs a GPU)")
            return 0
        triton_block = TritonMamba2Block(base, d_model, **cfg).eval()
        triton_block.load_state_dict(block.state_dict())
        triton_run = torch.compile(triton_block) if a.compile else triton_block
        ref = triton_run(u)
        err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
        print(f"output vs Triton block: relative error {err:.2e}")
        tms = _time_ms(lambda: triton_run(u), device, iters)
        print(f"block  triton  : {tms:8.3f} ms   (flashssd speed-up x{tms / ms:.2f})")

        # The SSD alone, on the block's own activations.
        GN = block.ngroups * block.d_state
        z, xBC, dt = torch.split(block.in_proj(u), [block.d_inner, block.d_inner + 2 * GN, block.nheads], -1)
        xBC = F.silu(block.conv1d(xBC.transpose(1, 2))[..., :seqlen].transpose(1, 2))
        x, B, C = torch.split(xBC, [block.d_inner, GN, GN], dim=-1)
        args = (
            x.unflatten(-1, (block.nheads, block.headdim)).contiguous(),
            dt.contiguous(),
            -torch.exp(block.A_log.float()),
            B.unflatten(-1, (block.ngroups, -1)).contiguous(),
            C.unflatten(-1, (block.ngroups, -1)).contiguous(),
        )
        sms = _time_ms(lambda: block.ssd(*args), device, iters)
        tsms = _time_ms(lambda: triton_block.ssd(*args), device, iters)
        print(f"ssd    flashssd: {sms:8.3f} ms | triton: {tsms:8.3f} ms   (x{tsms / sms:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
