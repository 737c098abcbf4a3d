"""Session 30, call 3: where do the Python path's extra ~8% come from? (call 2: compare.py's
Timer on flashssd.mamba_chunk_scan_combined reads R3 z 0.494-0.508, R3 0.410, R1 8k z 0.616,
flashssd_bench on the same library 0.462 / 0.379 / 0.570). Per shape:
  record   compare.py's Timer (flush, events, no host sync in the loop)
  synced   the same with a host sync after each run (as flashssd_bench)
  hostus   host time of one call, no sync (microseconds; > GPU time would starve the GPU)
  rawC     compare's Timer on _C.ssd_forward directly (no custom op, y preallocated)
  stream   compare's Timer on a side stream
  graph    the call captured in a CUDA graph; replayed with the flush outside
"""
import sys, time, torch
sys.path.insert(0, "bench")
import compare as cmp
import flashssd
from flashssd import _C

timer = cmp.Timer(torch, iters=200, warmup=10, min_iters=100, budget_s=1.0)

def synced_timer(fn, n=200):
    fn(); torch.cuda.synchronize()
    ts = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        timer.flush(); s.record(); fn(); e.record(); e.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort(); return ts[n // 2]

def shape(row):
    inp = cmp.make_inputs(torch, row, seed=1234)
    fn = lambda: cmp.call_ssd(flashssd.mamba_chunk_scan_combined, inp)
    res = {}
    res["record"] = timer(fn)[0]
    res["synced"] = synced_timer(fn)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(50):
        fn()
    res["hostus"] = (time.perf_counter() - t0) / 50 * 1e6
    torch.cuda.synchronize()
    y = torch.empty_like(inp["x"])
    st = torch.cuda.current_stream().cuda_stream
    raw = lambda: _C.ssd_forward(inp["x"], inp["dt"], inp["A"], inp["B"], inp["C"], inp["D"], inp["z"],
                                 inp["dt_bias"], y=y, dt_softplus=True, stream=st)
    res["rawC"] = timer(raw)[0]
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        res["stream"] = timer(fn)[0]
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = fn()
    res["graph"] = timer(g.replay)[0]
    del g, out
    print(f"{row['config']} z={row['z']} b={row['batch']} T={row['seqlen']}: " +
          "  ".join(f"{k} {v:.4f}" if k != "hostus" else f"{k} {v:.0f}" for k, v in res.items()), flush=True)
    del inp
    torch.cuda.empty_cache()

for row in (cmp.make_row("R3", 32, 2048, True, "fwd"), cmp.make_row("R3", 32, 2048, False, "fwd"),
            cmp.make_row("R1", 8, 8192, False, "fwd"), cmp.make_row("R1", 8, 8192, True, "fwd")):
    shape(row)
