"""Session 58, call 5 (H100): the state pass's fixed cost per CTA. From the diagnostic build's
timeline with consumer 1's stamps (2026-12-06-s58-timeline.patch): per state-pass CTA, medians over
the runs of full length (and the clipped ones): kernel entry -> item start (barrier set-up,
register split), item start -> first pair's operands ready (first stages' TMA and dt, weights),
the tile loop (per tile), the state's store (4-byte stores of 64 KB), store -> CTA end.
Run: python3 this_file. Output: 2026-12-06-s58-stamps.log."""
import glob, importlib.util, os
import statistics as st

# The parser of the state pass's timeline lines: 2026-12-06-s58-timeline.py's.
here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("s58_timeline", os.path.join(here, "2026-12-06-s58-timeline.py"))
_timeline = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_timeline)
last_state_block = _timeline.last_state_block

for path in sorted(glob.glob(os.path.join(here, "2026-12-06-s58-calls/call5/tl2_*.txt"))):
    e = last_state_block(path)
    live = [x for x in e if x["tiles"] > 0]; L = max(x["tiles"] for x in live)
    full = [x for x in live if x["tiles"] == L]
    def med(f, g=full): return st.median(f(x) for x in g) / 1e3
    print(os.path.basename(path), "full runs", len(full), "tiles", L)
    print("  entry->item start %.2f | item start->first pair ready %.2f | loop %.2f (%.3f/tile) | store %.2f | store->end %.2f | total %.2f us" % (
        med(lambda x: x["s"][0]-x["start"]), med(lambda x: x["s"][1]-x["s"][0]), med(lambda x: x["s"][2]-x["s"][1]),
        med(lambda x: (x["s"][2]-x["s"][1])/L), med(lambda x: x["s"][3]-x["s"][2]), med(lambda x: x["end"]-x["s"][3]), med(lambda x: x["end"]-x["start"])))
    part = [x for x in live if x["tiles"] < L]
    if part:
        print("  clipped (%d): first pair ready %.2f, loop per tile %.3f, store %.2f us" % (len(part), med(lambda x: x["s"][1]-x["s"][0], part),
              st.median((x["s"][2]-x["s"][1])/x["tiles"] for x in part)/1e3, med(lambda x: x["s"][3]-x["s"][2], part)))
