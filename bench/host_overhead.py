#!/usr/bin/env python3
"""Host time of one eager FlashSSD call from PyTorch, layer by layer (README "Use from Python").

    python3 bench/host_overhead.py [--device cuda] [--iters 2000] [--rounds 5] [--json FILE]

On a small problem (1 x 64 tokens, 4 heads of P = 64, N = 128: microseconds of GPU work) calls
are issued back to back, so the time per call is the host's. Each layer is timed alone, the
median over rounds of `iters` calls (the stream synchronised at each round's end):

  api        flashssd.mamba_chunk_scan_combined with D, z, dt_bias, softplus and final states
             (the benchmark's arguments): everything below plus the Python wrapper;
  op         torch.ops.flashssd.ssd_forward with the same arguments: torch's dispatch of the
             custom operator, its Python body (conversions, output allocation), the extension;
  body       the operator's Python body called as a plain function (op minus torch's dispatch);
  extension  flashssd._C.ssd_forward on preallocated outputs, each tensor handed over as the
             body does (a DLPack capsule from torch.utils.dlpack.to_dlpack): the import, the
             C++ validation, the split plan and the kernel launches;
  tensors    the same call given the tensors themselves, so that nanobind calls each one's
             Tensor.__dlpack__ (how the body handed them over until session 46);
  import     the extension's call with chunk_size = -1, which the validator rejects after
             importing every tensor: DLPack and the error path, no launch;
  outputs    the op body's allocations alone (y, final states, the empty varlen output).

--seqlen T (64 by default) sets the tokens; with FLASHSSD_NUM_SPLITS=2 and T = 256 the Hopper
path takes its split kernels (the side stream's fork and join included). --layers a,b times
those layers only.
--device cpu times the same layers on CPU tensors (the float64 reference then runs instead of
the kernels, negligible at this size): a check of the script on a machine without a GPU.
Prints one line per layer and, with --json, writes them.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import torch

import flashssd
from flashssd import _C, _ops


def inputs(device: str, T: int = 64) -> dict:
    g = torch.Generator(device="cpu").manual_seed(0)
    b, H, P, N, G = 1, 4, 64, 128, 1
    dev = torch.device(device)

    def rand(*shape, dtype=torch.bfloat16, scale=1.0):
        return (torch.randn(*shape, generator=g) * scale).to(device=dev, dtype=dtype)

    return dict(
        x=rand(b, T, H, P), dt=torch.rand(b, T, H, generator=g).to(dev), A=-torch.rand(H, generator=g).to(dev) - 0.1,
        B=rand(b, T, G, N), C=rand(b, T, G, N), D=rand(H, dtype=torch.float32), z=rand(b, T, H, P),
        dt_bias=rand(H, dtype=torch.float32, scale=0.1),
    )


def per_call_us(fn, iters: int, rounds: int, sync) -> float:
    for _ in range(max(10, iters // 10)):
        fn()
    sync()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iters):
            fn()
        sync()
        times.append((time.perf_counter() - start) / iters * 1e6)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seqlen", type=int, default=64)
    ap.add_argument("--layers", help="comma-separated layers to time (all by default)")
    ap.add_argument("--json")
    args = ap.parse_args()
    if args.device == "cuda" and not torch.cuda.is_available():
        print("host_overhead: no CUDA device (--device cpu times the CPU path)")
        return 77
    t = inputs(args.device, args.seqlen)
    sync = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)
    x = t["x"]
    b, _, H, P = x.shape
    N = t["B"].shape[3]
    y = torch.empty_like(x)
    final = torch.empty(b, H, P, N, dtype=torch.float32, device=x.device)
    stream = torch.cuda.current_stream().cuda_stream if args.device == "cuda" else 0
    ext_args = (t["x"], t["dt"], t["A"], t["B"], t["C"], t["D"], t["z"], t["dt_bias"], None, None, None)

    def api():
        flashssd.mamba_chunk_scan_combined(t["x"], t["dt"], t["A"], t["B"], t["C"], chunk_size=256, D=t["D"], z=t["z"],
                                           dt_bias=t["dt_bias"], dt_softplus=True, return_final_states=True)

    def op():
        torch.ops.flashssd.ssd_forward(*ext_args, True, 0.0, float("inf"), 256, 0, True, False)

    def body():
        _ops._ssd_forward_body(*ext_args, True, 0.0, float("inf"), 256, 0, True, False)

    def extension(chunk_size=256, capsules=True):
        wrap = _ops._dlpack if capsules else (lambda t: t)
        _C.ssd_forward(*(wrap(a) for a in ext_args), y=wrap(y), final_states=wrap(final), varlen_states=None,
                       dt_softplus=True, dt_limit_lo=0.0, dt_limit_hi=float("inf"), chunk_size=chunk_size, segsum=0,
                       stream=stream)

    def tensors():
        extension(capsules=False)

    def rejected():
        try:
            extension(chunk_size=-1)
        except flashssd.Error:
            return
        raise AssertionError("chunk_size = -1 was not rejected")

    def outputs():
        x.new_empty(x.shape)
        x.new_empty((b, H, P, N), dtype=torch.float32)
        x.new_empty((0,), dtype=torch.float32)

    rows = []
    with torch.inference_mode():
        # The call is correct before it is timed: y against the float64 reference on the CPU.
        ref = flashssd.ssd(*(t[k].cpu() for k in ("x", "dt", "A", "B", "C")), D=t["D"].cpu(), z=t["z"].cpu(),
                           dt_bias=t["dt_bias"].cpu(), dt_softplus=True).y.double()
        got = flashssd.ssd(t["x"], t["dt"], t["A"], t["B"], t["C"], D=t["D"], z=t["z"], dt_bias=t["dt_bias"],
                           dt_softplus=True).y.double().cpu()
        rel = float((got - ref).norm() / ref.norm())
        if not rel < 2e-2:
            print(f"host_overhead: y rel err {rel:.3g} against the reference")
            return 1
        layers = (("api", api), ("op", op), ("body", body), ("extension", extension), ("tensors", tensors),
                  ("import", rejected), ("outputs", outputs))
        wanted = set(args.layers.split(",")) if args.layers else {name for name, _ in layers}
        unknown = wanted - {name for name, _ in layers}
        if unknown:
            print(f"host_overhead: unknown layers {sorted(unknown)}")
            return 2
        for name, fn in (layer for layer in layers if layer[0] in wanted):
            us = per_call_us(fn, args.iters, args.rounds, sync)
            rows.append({"layer": name, "us_per_call": round(us, 2)})
            print(f"{name:10s} {us:8.1f} us per call")
    meta = {"device": torch.cuda.get_device_name() if args.device == "cuda" else "cpu", "torch": torch.__version__,
            "flashssd": flashssd.__version__, "iters": args.iters, "rounds": args.rounds, "seqlen": args.seqlen, "y_rel_err": rel}
    print(json.dumps(meta))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**meta, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
