"""Session 58: the windowed state pass's per-CTA timeline (call 4, H100; the diagnostic build of
2026-12-06-s58-timeline.patch, FLASHSSD_TIMELINE=1): for the last call's state pass, the CTAs'
start / go / end (globaltimer, ns) and tiles, summarised: the pass's span, live and dead CTAs'
durations, ns per tile of the live runs, each SM's busy time, when the last live CTA started.
Run: python3 this_file [files]; by default the call's six files in 2026-12-06-s58-calls/call4/."""
import glob, os, sys
import statistics as st

def last_state_block(path):
    block, cur = None, None
    for line in open(path):
        if line.startswith("TLBEGIN"):
            cur = [] if line.split()[1] == "state" else None
            if cur is not None: block = cur
        elif line.startswith("TL ") and cur is not None:
            f = line.split()
            cur.append(dict(block=int(f[2]), sm=int(f[3]), start=int(f[4]), go=int(f[5]), end=int(f[6]), tiles=int(f[7]),
                            s=[int(v) for v in f[9:13]]))  # (call 5's build: consumer 1's four stamps; [] before)
    return block

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "2026-12-06-s58-calls/call4/tl_*.txt")))
    for path in files:
        e = last_state_block(path)
        if not e: print(os.path.basename(path), "no state pass"); continue
        t0 = min(x["start"] for x in e)
        span = (max(x["end"] for x in e) - t0) / 1e3
        live = [x for x in e if x["tiles"] > 0]; dead = [x for x in e if x["tiles"] == 0]
        dur = lambda x: (x["end"] - x["start"]) / 1e3
        per_tile = [ (x["end"] - x["go"]) / x["tiles"] / 1e3 for x in live]
        full = max(x["tiles"] for x in live)
        full_runs = [x for x in live if x["tiles"] == full]
        sms = {}
        for x in e: sms.setdefault(x["sm"], []).append(x)
        busy = [sum(dur(x) for x in v) for v in sms.values()]
        print(f"{os.path.basename(path)}: CTAs {len(e)} (live {len(live)}, dead {len(dead)}), SMs used {len(sms)}, span {span:.1f} us")
        print(f"  live: tiles {sum(x['tiles'] for x in live)}, duration median {st.median(dur(x) for x in live):.1f} max {max(dur(x) for x in live):.1f} us;"
              f" longest runs ({full} tiles, {len(full_runs)}): {min(dur(x) for x in full_runs):.1f}-{max(dur(x) for x in full_runs):.1f} us,"
              f" {st.median((x['end']-x['go'])/x['tiles']/1e3 for x in full_runs):.3f} us/tile")
        if dead: print(f"  dead: duration median {st.median(dur(x) for x in dead):.2f} max {max(dur(x) for x in dead):.2f} us; last dead start {max((x['start']-t0)/1e3 for x in dead):.1f} us")
        print(f"  starts: live CTAs' last start {max((x['start']-t0)/1e3 for x in live):.1f} us; go-start median {st.median((x['go']-x['start'])/1e3 for x in e):.2f} us")
        print(f"  per SM: busy median {st.median(busy):.1f} max {max(busy):.1f} us; CTAs per SM max {max(len(v) for v in sms.values())}")
        # start-time histogram of live runs (10 us bins)
        bins = {}
        for x in live: bins[int((x['start'] - t0) / 1e4)] = bins.get(int((x['start'] - t0) / 1e4), 0) + 1
        print("  live starts per 10 us:", " ".join(f"{k*10}:{v}" for k, v in sorted(bins.items())))


if __name__ == "__main__":
    main()
