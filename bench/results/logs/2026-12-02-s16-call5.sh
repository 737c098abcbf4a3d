#!/bin/bash
# Session 16 call 5: why R1 8k read 2% slower through the API in call 4. flashssd_bench, three
# rounds, libraries: main = 7960b1c, l2 = 9fbb8cb (per-warp producer sync + 3 stages at N = 64
# without z; its ungated N = 128 / 256 stages also lost their unused z tile, 16 KB), l3 = l2
# with the z tile kept wherever dropping it buys no stage (N = 128 / 256: acaaed3's layout).
A=out/ab
for round in 1 2 3; do
  for args in "--config R1 --seqlen 8192" "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 512"; do
    case $round in 1) order="main l2 l3";; 2) order="l3 main l2";; 3) order="l2 l3 main";; esac
    for v in $order; do
      L=$A/${v}lib; [ $v = main ] && L=$A/baselib
      r=$(LD_LIBRARY_PATH=$PWD/$L timeout 60 $L/flashssd_bench $args 2>&1 | tail -1 | grep -o "median [0-9.]* ms"); echo "round=$round | $args | $v | $r"
    done
  done
done
