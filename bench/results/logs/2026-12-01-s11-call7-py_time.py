"""R1 rows timed as compare.py times them (its Timer, inputs and call), to check one row."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import torch
import compare
fn, err, _, _ = compare.load_flashssd()
assert fn is not None, err
timer = compare.Timer(torch, 100, 10, 5, 4.0)
for T, z in [(32768, True), (32768, False), (16384, True), (8192, True)]:
    row = dict(config="R1", batch=65536 // T, seqlen=T, H=64, P=64, N=128, G=1, z=z)
    inp = compare.make_inputs(torch, row, 12345)
    for rep in range(2):
        med, n = timer(lambda: compare.call_ssd(fn, inp))
        print(f"T={T} z={z} rep {rep}: {med:.4f} ms ({n} runs)", flush=True)
    for sp in ("1", "2", "3"):
        os.environ["FLASHSSD_NUM_SPLITS"] = sp
        med, n = timer(lambda: compare.call_ssd(fn, inp))
        print(f"T={T} z={z} splits {sp}: {med:.4f} ms", flush=True)
        del os.environ["FLASHSSD_NUM_SPLITS"]
