"""Times flashssd with cu_seqlens + per-sequence states (R1 dims, b = 1, 65 536 tokens, 32
sequences of random lengths, seq_idx alongside as mamba_ssm expects): median of 50 CUDA-event
runs, L2 flushed before each; prints one JSON line and saves y and the states to OUT.pt so
that two runs (the Hopper kernel, then FLASHSSD_DISABLE_SM90=1) can be compared:

    PYTHONPATH=build/python python3 bench/varlen_time.py /tmp/v90.pt
    FLASHSSD_DISABLE_SM90=1 PYTHONPATH=build/python python3 bench/varlen_time.py /tmp/v80.pt
"""
import os, sys, json, torch
import flashssd
g = torch.Generator(device="cuda").manual_seed(5)
T, H, P, N, S = 65536, 64, 64, 128, 32
bf = torch.bfloat16
x = torch.randn(1, T, H, P, device="cuda", dtype=bf, generator=g)
B = torch.randn(1, T, 1, N, device="cuda", dtype=bf, generator=g)
C = torch.randn(1, T, 1, N, device="cuda", dtype=bf, generator=g)
dt = torch.rand(1, T, H, device="cuda", generator=g) * 3 - 3
A = -(torch.rand(H, device="cuda", generator=g) * 7.5 + 0.5)
D = torch.rand(H, device="cuda", generator=g) + 0.5
bias = torch.rand(H, device="cuda", generator=g) * 2 - 4
cuts = torch.randperm(T - 1, generator=g, device="cuda")[: S - 1].sort().values + 1
cu = torch.cat([torch.zeros(1, device="cuda", dtype=torch.int64), cuts, torch.full((1,), T, device="cuda")]).to(torch.int32)
seq_idx = torch.zeros(1, T, dtype=torch.int32, device="cuda")
for c in cuts.tolist():
    seq_idx[0, c:] += 1
def call():
    return flashssd.mamba_chunk_scan_combined(x, dt, A, B, C, 256, D=D, dt_bias=bias, dt_softplus=True,
                                              seq_idx=seq_idx, cu_seqlens=cu, return_varlen_states=True)
out = call(); torch.cuda.synchronize()
flush = torch.empty(2 * 60 * 2**20, dtype=torch.uint8, device="cuda")
ts = []
for i in range(60):
    flush.zero_(); s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); call(); e.record(); torch.cuda.synchronize()
    if i >= 10: ts.append(s.elapsed_time(e))
ts.sort()
y, vs = out[0], out[-1]
torch.save({"y": y.float().cpu(), "vs": vs.cpu()}, sys.argv[1])
print(json.dumps({"sm90_disabled": os.environ.get("FLASHSSD_DISABLE_SM90", "0"), "median_ms": round(ts[len(ts)//2], 4),
                  "finite": bool(torch.isfinite(y).all()) and bool(torch.isfinite(vs).all())}))
