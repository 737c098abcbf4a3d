"""Session 38 call C: why R1 512 z reads 0.536 ms in the record (compare.py) while flashssd_bench
reads 0.515 (call B) and 1k z 0.509 in both. Times mamba_chunk_scan_combined on compare.py's
inputs for R1 512 / 1k / 8k z and 512 / 8k ungated: (a) compare.py's Timer (L2 flushed, events
around one call), (b) the same with torch.cuda._sleep queued after the flush so that the host is
ahead of the GPU when the start event fires (host launch latency out of the window), (c) 50 calls
back to back. With --once ROW it runs 3 calls of one row (for ncu's kernel list)."""
import os, sys, json
sys.path.insert(0, "bench")
import torch
import compare
import flashssd

fn = flashssd.mamba_chunk_scan_combined
ROWS = [(128, 512, True), (64, 1024, True), (8, 8192, True), (128, 512, False), (8, 8192, False)]

if len(sys.argv) > 2 and sys.argv[1] == "--once":
    b, T, z = ROWS[int(sys.argv[2])]
    inp = compare.make_inputs(torch, compare.make_row("R1", b, T, z, "fwd"), 1234)
    for _ in range(3):
        compare.call_ssd(fn, inp)
    torch.cuda.synchronize()
    sys.exit(0)

for rnd in range(2):
    for b, T, z in ROWS:
        inp = compare.make_inputs(torch, compare.make_row("R1", b, T, z, "fwd"), 1234)
        call = lambda: compare.call_ssd(fn, inp)
        timer = compare.Timer(torch, 60, 5, 5, 4.0)
        ms_a, _ = timer(call)
        flush = timer.flush
        timer.flush = lambda: (flush(), torch.cuda._sleep(2_000_000))  # ~1 ms of GPU spin after the flush
        ms_b, _ = timer(call)
        for _ in range(5):
            call()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        s.record()
        for _ in range(50):
            call()
        e.record()
        e.synchronize()
        r = dict(round=rnd, batch=b, seqlen=T, z=z, timer_ms=round(ms_a, 4), timer_host_ahead_ms=round(ms_b, 4),
                 back_to_back_ms=round(s.elapsed_time(e) / 50, 4))
        print(json.dumps(r), flush=True)
        del inp
        torch.cuda.empty_cache()
