"""Session 38 call D: how much of a row's time is the L2 flush's own write-back. compare.py's
Timer flushes L2 by zero_() on a 2 x L2 buffer before each timed run: that leaves L2 full of
dirty lines, written back to DRAM while the timed kernels run (up to ~50 MB, ~12 us at 4.2 TB/s).
Each row timed (a) as compare.py does (zero_), (b) zero_ then a read of a second 2 x L2 buffer
(the dirty lines written back before the start event; L2 left holding clean, unrelated lines),
(c) no flush, 3 rotating input copies (DESIGN.md 6's other option; each > L2). FlashSSD only."""
import sys, json
sys.path.insert(0, "bench")
import torch
import compare
import flashssd

fn = flashssd.mamba_chunk_scan_combined
ROWS = [("R1", 128, 512, True), ("R1", 64, 1024, True), ("R1", 8, 8192, True), ("R1", 2, 32768, True),
        ("R1", 128, 512, False), ("R1", 8, 8192, False), ("R2", 32, 2048, False), ("R3", 32, 2048, True),
        ("R4", 1, 131072, False)]
read_buf = None
for rnd in range(2):
    for cfg, b, T, z in ROWS:
        row = compare.make_row(cfg, b, T, z, "fwd")
        copies = compare.input_copies(torch, compare.make_inputs(torch, row, 1234), 3)
        call = compare.rotating([lambda c=c: compare.call_ssd(fn, c) for c in copies])
        timer = compare.Timer(torch, 100, 5, 20, 4.0)
        if read_buf is None:
            read_buf = torch.ones(timer.flush_buf.numel() // 4, dtype=torch.float32, device="cuda")
        res = {}
        zero_flush = timer.flush
        for mode in ("zero", "zero_read", "none"):
            timer.flush = {"zero": zero_flush, "zero_read": lambda: (zero_flush(), read_buf.sum()),
                           "none": lambda: None}[mode]
            res[mode] = round(timer(call)[0], 4)
        print(json.dumps(dict(round=rnd, config=cfg, batch=b, seqlen=T, z=z, **res)), flush=True)
        del copies, call
        torch.cuda.empty_cache()
