#!/usr/bin/env bash
# On the device: ncu's SASS stall table of one kernel launch of a probe (or any program), the
# sequence device-call scripts repeated inline (sessions 20 and 31): profile with SourceCounters
# and WarpStateStats, export the SASS page, trim it (scripts/ncu_sass_table.py), print the top
# stalls and a few headline metrics, keep the table gzipped and the report in a tarball.
#
#   scripts/ncu_stall_table.sh <name> <out-dir> <program> [program args...]
#   e.g. scripts/ncu_stall_table.sh fy $OUT out/ab32/fy_probe --final-states 0 --iters 2
#
# KERNEL (default regex:ssd_fwd_sm90_kernel) picks the launch; TOP (default 30) the rows shown.
set -u
[ $# -ge 3 ] || { echo "usage: ncu_stall_table.sh <name> <out-dir> <program> [args...]" >&2; exit 2; }
name=$1 out=$2; shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
timeout 100 ncu --section SourceCounters --section WarpStateStats -k "${KERNEL:-regex:ssd_fwd_sm90_kernel}" -c 1 \
  -o "$out/ncu_$name" "$@" > "$out/ncu_$name.log" 2>&1
echo "ncu $name rc=$?"
ncu -i "$out/ncu_$name.ncu-rep" --page source --csv --print-source sass > "$out/raw_$name.csv" 2>/dev/null
python3 "$here/ncu_sass_table.py" "$out/raw_$name.csv" --out "$out/sass_$name.csv" --top "${TOP:-30}" > "$out/sass_${name}_top.txt" 2>&1
head -$(( ${TOP:-30} + 15 )) "$out/sass_${name}_top.txt"
ncu -i "$out/ncu_$name.ncu-rep" --page details --csv > "$out/ncu_${name}_details.csv" 2>/dev/null
grep -E 'Duration|Issued|Executed Ipc|Warp Cycles|SM Frequency' "$out/ncu_${name}_details.csv" | awk -F'","' '{print $(NF-2), $NF}' | head -12
gzip -f "$out/sass_$name.csv"
rm -f "$out/raw_$name.csv"
(cd "$out" && tar czf "ncu_$name.tgz" "ncu_$name.ncu-rep" "ncu_${name}_details.csv" && rm -f "ncu_$name.ncu-rep" "ncu_${name}_details.csv")
