"""R1 32k z timed as compare.py times it, for its row seed (1000 + 13) and for 12345."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import torch
import compare
fn, err, _, _ = compare.load_flashssd()
assert fn is not None, err
timer = compare.Timer(torch, 100, 10, 5, 4.0)
for T, z in [(32768, True), (32768, False)]:
    row = dict(config="R1", batch=65536 // T, seqlen=T, H=64, P=64, N=128, G=1, z=z)
    for seed in (1013, 12345, 1006, 1013):
        inp = compare.make_inputs(torch, row, seed)
        med, n = timer(lambda: compare.call_ssd(fn, inp))
        print(f"T={T} z={z} seed {seed}: {med:.4f} ms ({n} runs)", flush=True)
        del inp
