#!/usr/bin/env bash
# Compiler launcher for the sm90 kernels (src/kernels/CMakeLists.txt): runs the compile
# command with ptxas -v output and fails it when ptxas reports that it serialised the
# WGMMAs (C7510-C7519: C7512 when registers are short, C7514 / C7517 / C7518 for in-flight
# groups it cannot track; a wait after every wgmma instruction, so no GEMM overlaps anything; the kernel still computes the right result, so no test notices) or
# that a kernel uses local memory: spills, or a stack frame (a local array whose address
# is taken). These are "ptxas info" lines, invisible without -v and never errors on their
# own. The routine ptxas -v lines are dropped; everything else is printed.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" >"$log" 2>&1
rc=$?
grep -v -E "^ptxas info +: (Used|Compiling|Function properties|Compile time)|bytes stack frame|^ptxas info +: [0-9]+ bytes gmem" "$log" >&2
if [ $rc -ne 0 ]; then exit $rc; fi
if grep -B1 -E "C751[0-9]|[^0-9][1-9][0-9]* bytes (spill (stores|loads)|stack frame)" "$log" >&2; then
  echo "ptxas_guard: WGMMA serialisation or spills in a sm90 kernel (lines above); see docs/HOPPER_PLAN.md" >&2
  exit 1
fi
