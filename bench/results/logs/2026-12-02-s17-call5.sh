#!/bin/bash
# Session 17 call 5: the checks of scripts/device_session.sh (PART=checks: GPU suites at 1 and 3
# splits, the Hopper-kernel suite, memcheck and racecheck of the small shapes, racecheck at 3
# splits) on the library of bd6f08c (the consumer-side state-pass weights).
FLASHSSD_COMMIT=bd6f08c PART=checks OUT=$OUT/ds timeout 560 bash scripts/device_session.sh out/dev/build-gpu
