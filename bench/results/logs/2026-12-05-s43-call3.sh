#!/usr/bin/env bash
# Session 43, call 3 (H200), as run: the benchmark of record on 3154aa2's library (carry out/carry: s43b.tar.xz,
# third_party_bench), the SM clock and power sampled every 200 ms -> bench/results/2026-12-05-h200.*, -call3/.
bash scripts/carry.sh unpack s43b >/dev/null && B=out/dev/build-gpu && mkdir -p $OUT && (nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/clocks.csv 2>&1 &) && FLASHSSD_COMMIT=$(cat $B/COMMIT) PART=bench OUT=$OUT/bench bash scripts/device_session.sh $B | tail -45; pkill nvidia-smi; cd $OUT && tar czf bench_all.tgz bench && ls
