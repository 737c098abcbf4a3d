"""Session 33: why R1 32k with z reads ~0.17 ms slower in compare.py than the library's kernels
(flashssd_bench 0.637 ms; kernels by ncu 0.641; record 0.814). compare.py's inputs and timer,
one row at a time, then variants of the timer: no L2 flush, host time per call, kernel times
by torch.profiler. On the device:
  PYTHONPATH=out/dev/build-gpu/python:bench python3 bench/results/logs/2026-12-04-s33-z32k_probe.py
"""
import sys
import time

import torch

sys.path.insert(0, "bench")
import compare  # noqa: E402
import flashssd  # noqa: E402

timer = compare.Timer(torch, iters=50, warmup=5, min_iters=10, budget_s=2.0)
fn = flashssd.mamba_chunk_scan_combined
for seqlen, z in [(16384, True), (32768, True), (32768, False), (16384, False)]:
    row = dict(batch=65536 // seqlen, seqlen=seqlen, H=64, P=64, N=128, G=1, z=z)
    inp = compare.make_inputs(torch, row, 0)
    copies = compare.input_copies(torch, inp, 3)
    rot = compare.rotating([lambda c=c: compare.call_ssd(fn, c) for c in copies])
    ms, n = timer(rot)
    one = compare.rotating([lambda c=c: compare.call_ssd(fn, c) for c in copies[:1]])
    ms1, _ = timer(one)
    # no flush: back-to-back events
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize(); s.record()
    for _ in range(20):
        one()
    e.record(); e.synchronize()
    nof = s.elapsed_time(e) / 20
    # host time of one call (queued, no sync) and of 20 calls queued
    torch.cuda.synchronize(); t0 = time.perf_counter(); one(); t1 = time.perf_counter(); torch.cuda.synchronize()
    t2 = time.perf_counter()
    for _ in range(20):
        one()
    t3 = time.perf_counter(); torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(3):
            one()
        torch.cuda.synchronize()
    kern = {}
    for ev in prof.events():
        if ev.device_type == torch.autograd.DeviceType.CUDA:
            kern.setdefault(ev.name[:50], []).append(round(ev.device_time_total / 1000.0, 4) if hasattr(ev, "device_time_total") else None)
    print(f"R1 {seqlen} z={int(z)}: compare timer (3 placements) {ms:.4f} ms (n={n}); one placement {ms1:.4f}; "
          f"no flush back-to-back {nof:.4f}; host one call {1e3*(t1-t0):.3f} ms, 20 queued {1e3*(t3-t2)/20:.3f} ms/call")
    for k, v in kern.items():
        print("   ", k, v)
    del inp, copies, rot, one
    torch.cuda.empty_cache()
