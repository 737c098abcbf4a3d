"""Session 30, call 7: call 4 read R1 8k 0.499-0.502 ms with the tensors back to back in one
arena (2 MiB-aligned, so x, y, z 512 MiB apart) and 0.460-0.463 with 1 MiB + 4 KiB between them,
in two processes. Virtual offsets only change with the gap (physical pages are the driver's),
so a systematic effect of the gap points at address translation or virtual-address hashing
rather than DRAM placement. Same values, _C.ssd_forward with y in the arena, compare.py's
Timer; gaps in bytes added after each 2 MiB-rounded tensor; two passes over the gaps."""
import sys, torch
sys.path.insert(0, "bench")
import compare as cmp
from flashssd import _C

timer = cmp.Timer(torch, iters=200, warmup=10, min_iters=100, budget_s=1.0)
ORDER = ["x", "y", "z", "B", "C", "dt", "A", "dt_bias", "D"]
GAPS = [0, 4096, 65536, 1 << 20, 2 << 20, (1 << 20) + 4096, 16 << 20]

def run(cpu, gap):
    src = {k: (v.cuda() if isinstance(v, torch.Tensor) else v) for k, v in cpu.items()}
    src["y"] = torch.empty_like(src["x"])
    names = [k for k in ORDER if src.get(k) is not None]
    align, offs, off = 2 << 20, {}, 0
    for k in names:
        offs[k] = off
        off += (src[k].numel() * src[k].element_size() + align - 1) // align * align + gap
    buf = torch.empty(off, dtype=torch.uint8, device="cuda")
    d = {}
    for k in names:
        t = src[k]
        n = t.numel() * t.element_size()
        d[k] = buf[offs[k]:offs[k] + n].view(t.dtype).view(t.shape)
        d[k].copy_(t)
    del src
    torch.cuda.empty_cache()
    st = torch.cuda.current_stream().cuda_stream
    fn = lambda: _C.ssd_forward(d["x"], d["dt"], d["A"], d["B"], d["C"], d["D"], d.get("z"),
                                d["dt_bias"], y=d["y"], dt_softplus=True, stream=st)
    ms = timer(fn)[0]
    del buf, d
    torch.cuda.empty_cache()
    return ms

for row in (cmp.make_row("R1", 8, 8192, False, "fwd"), cmp.make_row("R3", 32, 2048, True, "fwd")):
    inp = cmp.make_inputs(torch, row, seed=1234)
    cpu = {k: (v.cpu() if isinstance(v, torch.Tensor) else v) for k, v in inp.items()}
    del inp
    torch.cuda.empty_cache()
    for rep in range(2):
        print(f"{row['config']} z={row['z']} pass {rep}: " +
              "  ".join(f"{g // 1024}K {run(cpu, g):.4f}" for g in GAPS), flush=True)
