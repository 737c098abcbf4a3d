#!/usr/bin/env bash
# Session 39 call B: why the balanced last wave (bt) is slower (call A: R1 8k +10%, 8k z +16%).
# (1) ncu, the main pass's DRAM bytes and duration, head against bt, R1 8k z, 8k, 512 (the
# guess: CTAs that share a batch row's B, C and chunk scores no longer walk its tiles in step,
# so those tiles come from DRAM once per CTA instead of once per row); (2) flashssd_bench, bt's
# library with the balancing off (FLASHSSD_BALANCED_TAIL=0: no memset, the grid stride)
# against head, so the cost of the code change alone. Carry out/dev/bt and out/headlib.
set -u
O=${OUT:?}; mkdir -p $O
for lib in head:out/headlib bt:out/dev/bt/bench; do
  name=${lib%%:*} dir=${lib#*:}
  libdir=$([ $name = head ] && echo out/headlib || echo out/dev/bt)
  for args in "--config R1 --seqlen 8192 --z" "--config R1 --seqlen 8192" "--config R1 --seqlen 512"; do
    echo "== $name $args"
    LD_LIBRARY_PATH=$PWD/$libdir timeout 120 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct \
      -k regex:ssd_fwd_sm90_kernel -c 1 $dir/flashssd_bench $args --iters 1 --warmup 0 --no-verify 2>&1 |
      grep -E "dram__bytes|gpu__time|lts__t_sector_hit"
  done
done > $O/ncu.log 2>&1
cat $O/ncu.log
printf "%s\n" "--config R1 --seqlen 512" "--config R1 --seqlen 8192" "--config R1 --seqlen 512 --z" "--config R1 --seqlen 8192 --z" \
  | bash scripts/api_ab.sh --rounds 3 --lib head=out/headlib --lib bt_off=out/dev/bt,FLASHSSD_BALANCED_TAIL=0 > $O/api_ab_off.log 2>&1
tail -6 $O/api_ab_off.log
