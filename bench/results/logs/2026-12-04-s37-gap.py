"""Session 37 call C: why the record's R4 and R1 32k z read slower than their kernels.
Call B: flashssd_bench R4 128k 1.190 ms (its kernels under ncu: 305 + 15 + 26 + 825 us) against
the record's 1.347; probe call A: R1 32k z's main pass 0.497 + state pass 0.110 against 0.753.
Times mamba_chunk_scan_combined from Python on compare.py's inputs: (a) compare.py's Timer (L2
flushed before each run, events around one call), (b) 50 calls back to back between two events,
(c) as (a) with FLASHSSD-only torch ops around (no flush)."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))
import torch
sys.path.insert(0, "bench")
import compare
import flashssd

fn = flashssd.mamba_chunk_scan_combined
out = []
for cfg, b, T, z in [("R4", 1, 131072, False), ("R1", 2, 32768, False), ("R1", 2, 32768, True),
                     ("R1", 4, 16384, True), ("R1", 8, 8192, True)]:
    row = compare.make_row(cfg, b, T, z, "fwd")
    inp = compare.make_inputs(torch, row, 1234)
    timer = compare.Timer(torch, 50, 5, 5, 4.0)
    call = lambda: compare.call_ssd(fn, inp)
    ms_a, _ = timer(call)
    for _ in range(5):
        call()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    s.record()
    for _ in range(50):
        call()
    e.record()
    e.synchronize()
    ms_b = s.elapsed_time(e) / 50
    r = dict(config=cfg, batch=b, seqlen=T, z=z, timer_flush_ms=round(ms_a, 4), back_to_back_ms=round(ms_b, 4))
    print(json.dumps(r), flush=True)
    out.append(r)
    del inp
    torch.cuda.empty_cache()
