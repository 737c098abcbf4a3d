"""Session 30, call 4: call 3 showed the Python path's extra time is GPU time (a CUDA graph
replay reads what compare.py reads: R3 z 0.505 ms vs flashssd_bench's 0.463), not host
overhead. Left: where the tensors sit in memory, and the flush's value. Per shape, the same
randn values, _C.ssd_forward with y given, compare.py's Timer:
  torch      compare.py's tensors (torch caching allocator), y allocated after them
  arena      one buffer, flashssd_bench's order x, y, z, B, C, dt, A, dt_bias, D, 2 MiB-aligned
  arena_gap  the same with 1 MiB + 4 KiB more between consecutive tensors
  torch_f5a  torch's tensors, the flush writing 0x5A instead of zeros
"""
import sys, torch
sys.path.insert(0, "bench")
import compare as cmp
from flashssd import _C

timer = cmp.Timer(torch, iters=200, warmup=10, min_iters=100, budget_s=1.0)
ORDER = ["x", "y", "z", "B", "C", "dt", "A", "dt_bias", "D"]

def arena_copy(inp, y, gap):
    src = dict(inp, y=y)
    names = [k for k in ORDER if src.get(k) is not None]
    align = 2 << 20
    offs, off = {}, 0
    for k in names:
        offs[k] = off
        off += (src[k].numel() * src[k].element_size() + align - 1) // align * align + gap
    buf = torch.empty(off, dtype=torch.uint8, device="cuda")
    out = {}
    for k in names:
        t = src[k]
        n = t.numel() * t.element_size()
        v = buf[offs[k]:offs[k] + n].view(t.dtype).view(t.shape)
        v.copy_(t)
        out[k] = v
    return buf, out

def time_raw(d):
    st = torch.cuda.current_stream().cuda_stream
    fn = lambda: _C.ssd_forward(d["x"], d["dt"], d["A"], d["B"], d["C"], d["D"], d.get("z"),
                                d["dt_bias"], y=d["y"], dt_softplus=True, stream=st)
    return timer(fn)[0]

def shape(row):
    inp = cmp.make_inputs(torch, row, seed=1234)
    y = torch.empty_like(inp["x"])
    res = {"torch": time_raw(dict(inp, y=y))}
    keep = timer.flush
    timer.flush = lambda: timer.flush_buf.fill_(0x5A)
    res["torch_f5a"] = time_raw(dict(inp, y=y))
    timer.flush = keep
    cpu = {k: (v.cpu() if isinstance(v, torch.Tensor) else v) for k, v in inp.items()}
    del inp, y
    torch.cuda.empty_cache()
    for name, gap in (("arena", 0), ("arena_gap", (1 << 20) + 4096)):
        g = {k: (v.cuda() if isinstance(v, torch.Tensor) else v) for k, v in cpu.items()}
        buf, d = arena_copy(g, torch.empty_like(g["x"]), gap)
        del g
        torch.cuda.empty_cache()
        res[name] = time_raw(d)
        del buf, d
        torch.cuda.empty_cache()
    print(f"{row['config']} z={row['z']} b={row['batch']} T={row['seqlen']}: " +
          "  ".join(f"{k} {v:.4f}" for k, v in res.items()), flush=True)

for row in (cmp.make_row("R3", 32, 2048, True, "fwd"), cmp.make_row("R1", 8, 8192, False, "fwd"),
            cmp.make_row("R1", 8, 8192, True, "fwd"), cmp.make_row("R1", 128, 512, False, "fwd")):
    shape(row)
