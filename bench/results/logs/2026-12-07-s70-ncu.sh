#!/usr/bin/env bash
# Session 70, call 1 (any H100 / H200; ~150 s): where the main pass's SM time goes on main's
# kernel today, through the probe out/ab/main_probe (main's kernel code, session 69's build). What
# it ran is now scripts/device_ncu.sh (session 73 made it a script of its own, unchanged but for
# the probe's path as its argument and probe_ab.sh's --dir).
# Carry out/ab/main_probe.
#   device: OUT=$OUT bash bench/results/logs/2026-12-07-s70-ncu.sh > $OUT/call.txt 2>&1
set -u
OUT=$OUT bash scripts/device_ncu.sh out/ab/main_probe
