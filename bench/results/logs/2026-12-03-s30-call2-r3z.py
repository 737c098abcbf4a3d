"""Session 30, call 2: why does the benchmark of record read R3 z at 0.511 ms when
flashssd_bench (the C++ API, same options) reads 0.465 on the same library?
Times flashssd.mamba_chunk_scan_combined with compare.py's own Timer on R3 z's shape:
  randn   compare.py's make_inputs (x, B, C, z ~ N(0, 1))
  unif    flashssd_bench's value ranges (x, B, C ~ U(-1, 1), z ~ U(-2, 2)), same dt/A/D/bias
  randn2  randn again after unif (order / clock drift)
and R3 (ungated) and R1 8k z the same way. Run from the repo root with PYTHONPATH set."""
import sys, torch
sys.path.insert(0, "bench")
import compare as cmp
import flashssd

timer = cmp.Timer(torch, iters=200, warmup=10, min_iters=100, budget_s=1.0)

def run(name, row, uniform=False):
    inp = cmp.make_inputs(torch, row, seed=1234)
    if uniform:
        for k, lo, hi in (("x", -1, 1), ("B", -1, 1), ("C", -1, 1), ("z", -2, 2)):
            if inp[k] is not None:
                inp[k].uniform_(lo, hi)
    fn = lambda: cmp.call_ssd(flashssd.mamba_chunk_scan_combined, inp)
    ms, n = timer(fn)
    print(f"{name:10s} {row['config']} z={row['z']} b={row['batch']} T={row['seqlen']}: {ms:.4f} ms ({n} runs)", flush=True)
    del inp
    torch.cuda.empty_cache()

r3z = cmp.make_row("R3", 32, 2048, True, "fwd")
r3 = cmp.make_row("R3", 32, 2048, False, "fwd")
r1z = cmp.make_row("R1", 8, 8192, True, "fwd")
for rep in range(2):
    run("randn", r3z)
    run("unif", r3z, uniform=True)
run("randn", r3)
run("unif", r3, uniform=True)
run("randn", r1z)
run("unif", r1z, uniform=True)
