# Session 61: the window search (state_window_kernel) before and after its loads were issued together,
# simulated on the CPU lane by lane (float32 sums): both must give the same window start.
# Run: python3 bench/results/logs/2026-12-06-s61-window-sim.py (needs numpy); prints "ok 3000".
import numpy as np
F=-110.0
def old(row,begin,end):
    carry=np.float32(0); first=begin; top=end
    while top>begin:
        t=np.array([top-1-l for l in range(32)])
        v=np.array([row[x] if x>=begin else 0 for x in t],dtype=np.float32)
        inc=np.cumsum(v,dtype=np.float32)
        after=carry+np.concatenate([[0],inc[:-1]]).astype(np.float32)
        cut=[(t[l]>=begin and after[l]<F) for l in range(32)]
        if any(cut): return top-cut.index(True)
        carry=np.float32(carry+inc[31]); top-=32
    return first
def new(row,begin,end,K=8):
    carry=np.float32(0); first=begin; found=False; top0=end
    while top0>begin and not found:
        V=[]
        for k in range(K):
            t=[top0-32*k-1-l for l in range(32)]
            V.append(np.array([row[x] if x>=begin else 0 for x in t],dtype=np.float32))
        for k in range(K):
            top=top0-32*k; t=[top-1-l for l in range(32)]
            inc=np.cumsum(V[k],dtype=np.float32)
            after=carry+np.concatenate([[0],inc[:-1]]).astype(np.float32)
            cut=[(t[l]>=begin and after[l]<F) for l in range(32)]
            if any(cut): first=top-cut.index(True); found=True; break
            carry=np.float32(carry+inc[31])
        top0-=32*K
    return first
rng=np.random.default_rng(1)
n=0
for trial in range(3000):
    tiles=int(rng.integers(1,1200)); row=(-rng.exponential(rng.choice([0.01,0.1,1,5,50]),tiles)).astype(np.float32)
    if rng.random()<0.1: row[rng.integers(0,tiles)]=-np.inf
    if rng.random()<0.05: row[rng.integers(0,tiles)]=np.nan
    sl=int(rng.integers(1,tiles+1)); s=int(rng.integers(0,(tiles+sl-1)//sl)); begin=s*sl; end=min(tiles,begin+sl)
    a,b=old(row,begin,end),new(row,begin,end)
    assert a==b,(a,b,begin,end); n+=1
print("ok",n)
