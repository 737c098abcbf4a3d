"""Session 14: for each dt load in the Hopper kernels' producer region, the first instructions that wait on
its scoreboard (distance in instructions). python3 2026-12-01-s14-sbscan.py LIBRARY_OR_OBJECT (run from the repo root)."""
import sys, subprocess
sys.path.insert(0,'scripts')
import sass_scoreboards as sb, check_sm90_sass as c
sass=subprocess.run([c.find_cuobjdump(),'-sass',sys.argv[1]],capture_output=True,text=True).stdout
for name,ins in sb.functions(sass).items():
    if 'ssd_fwd_sm90_kernel' not in name or 'bfloat16' not in name: continue
    d=c.describe(name)
    prod=next((a for a,t,_ in ins if 'SETMAXREG.DEALLOC' in t),None)
    if prod is None: continue
    body=[x for x in ins if x[0]>=prod]
    print('==',d)
    for idx,(a,t,cf) in enumerate(body):
        if ('LDG.E R' in t or 'LDG.E.U16' in t) and cf['wb'] is not None:
            k=cf['wb']; hits=[]
            for a2,t2,c2 in body[idx+1:idx+400]:
                if (c2['wait']>>k)&1: hits.append((a2-a,t2[:40]))
                if 'SYNCS.ARRIVE.TRANS64.A1T0' in t2: break
            print(f"  {a:#07x} {t[:34]:34s} sb{k}: first waits at +{[h[0]//16 for h in hits[:3]]} instr: {[h[1] for h in hits[:2]]}")
