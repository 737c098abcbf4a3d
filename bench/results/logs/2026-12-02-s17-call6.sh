#!/bin/bash
# Session 17 call 6: the benchmark of record (scripts/device_session.sh PART=bench: the segsum
# section, then compare.py with every baseline) on the library of bd6f08c.
FLASHSSD_COMMIT=947b67ed164b PART=bench OUT=$OUT/ds timeout 580 bash scripts/device_session.sh out/dev/build-gpu
