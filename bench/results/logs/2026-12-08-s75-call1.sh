#!/usr/bin/env bash
# Session 75's first call, asked ten times (asks 1-10 in 2026-12-08-s75-calls/summary.txt) and
# never run: every ask was refused. Its text as asked: asks 1-4 `git show
# 9a8a8f6:bench/results/logs/2026-12-08-s75-call1.sh` (LIMIT=570, the record on an H200), asks
# 5-10 `git show 3e6496e:...` (LIMIT=440, shorter). It became 2026-12-08-s75-call2.sh: one build
# holding all that waits for a device.
echo "2026-12-08-s75-call1.sh: superseded by 2026-12-08-s75-call2.sh" >&2
exit 2
