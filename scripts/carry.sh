#!/usr/bin/env bash
# Packs staged device builds (folders under out/) into one xz tarball for a device call's carry
# list, and unpacks it on the device. The carry holds 64 MiB with the tree (~16 MB); staged
# binaries are mostly SASS and compress ~10x (session 42: four library builds with their test
# suites, main's library and five probes, 105 MB, packed into 9.3 MB), so one call can take
# many variants.
#
#   scripts/carry.sh pack <name> <folder under out/>...   # here: writes out/carry/<name>.tar.xz
#   scripts/carry.sh unpack <name>                         # there: restores the folders under out/
#
# Unpacking uses Python's tarfile (xz may be missing on the device); links and modes are kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -ge 2 ] || { echo "usage: scripts/carry.sh pack <name> <folder>... | unpack <name>" >&2; exit 2; }
mode=$1 name=$2; shift 2
archive=out/carry/$name.tar.xz
case $mode in
  pack)
    [ $# -ge 1 ] || { echo "carry: name the folders under out/ to pack" >&2; exit 2; }
    for d in "$@"; do [ -d "out/$d" ] || { echo "carry: out/$d is not a folder" >&2; exit 1; }; done
    mkdir -p out/carry
    tar -cJf "$archive" -C out "$@"
    echo "carry: $archive ($(du -h "$archive" | cut -f1)) from $(du -sch "${@/#/out/}" | tail -1 | cut -f1): carry out/carry"
    ;;
  unpack)
    [ -f "$archive" ] || { echo "carry: no $archive" >&2; exit 1; }
    python3 - "$archive" <<'EOF'
import sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    try:
        t.extractall("out", filter="tar")  # (keeps modes and links inside the tree)
    except TypeError:  # a Python without extraction filters
        t.extractall("out")
    print("carry: unpacked", len(t.getnames()), "entries into out/")
EOF
    ;;
  *) echo "carry: pack or unpack, not $mode" >&2; exit 2;;
esac
