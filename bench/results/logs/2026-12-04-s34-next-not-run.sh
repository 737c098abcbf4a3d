#!/usr/bin/env bash
# Session 34's prepared device calls for the next session (not run: no device time left).
#
# Call A (~5 min, PART=A): the benchmark of record on HEAD (e5e2bd5's kernels: the z kernels
#   load the reset flag ahead; R1-packed z should read ~5% under ad07e70's 0.549 ms). Build and
#   stage HEAD's library first (README "Build"; scripts/stage_device_build.sh build-gpu
#   build-gpu; git rev-parse --short=12 HEAD > out/dev/build-gpu/COMMIT). Carry out/dev/build-gpu
#   and third_party_bench.
#
# Call B (~2 min, PART=B): the gate computed in bf16x2 (timing and accuracy; not applied).
#   zb1 = silu(z) as h + h tanh(h) in bf16x2 (HMUL2 + MUFU.TANH.BF16 x2 + HFMA2), y * silu in
#   fp32: the N = 128 z kernel's tile loop 1716 -> 1684 instructions (check_sm90_sass on the
#   probes); zb2 = also y * silu as one bf16x2 multiply after y's conversion: 1716 -> 1588
#   (-7.5%). ptxas clean (no C751x, no spill) for both. tanh.approx.bf16x2 is two MUFU ops on
#   sm_90a (per element), so the MUFU count is unchanged; the savings are the FMUL / FFMA / unpacks.
#   Accuracy estimate (numpy, the gating step alone, z ~ N(0, 4), bf16 roundings emulated, tanh
#   exact then rounded): rel err 1.66e-3 (HEAD) -> 2.48e-3 (zb1) -> 3.00e-3 (zb2), so y's
#   2.8e-3 against float64 would read ~3.35e-3 / ~3.75e-3 (1.2x / 1.34x). Take zb2 only if its
#   measured gain on R1 z is several percent and the Hopper suite's z errors stay within
#   their tolerances; session 24 declined 1.4x on the state for <= 0.6%.
#   Also is (`-next-is.diff`): the bf16 chunk scores' inverse scales (always 1) no longer loaded
#   by the producer nor applied in the exact schedule's mask (K::kScaledScores): the N = 128
#   tile loops 1377 -> 1353 (ungated) and 1716 -> 1692 (z) instructions; ptxas clean. Needs
#   PART=checks if kept (it changes the exact schedule's mask argument).
#   Prepare here (CPU):
#     for v in zb1 zb2 is; do rm -rf /tmp/v_$v && mkdir /tmp/v_$v && cp -r src include bench CMakeLists.txt cmake tests apps examples python pyproject.toml /tmp/v_$v
#       (cd /tmp/v_$v && patch -p1 < /work/main/bench/results/logs/2026-12-04-s34-next-$v.diff)
#       scripts/build_probe.sh /tmp/v_$v out/abzb/${v}_probe; done
#     scripts/build_probe.sh out/abzb/head_probe
#     cmake -S /tmp/v_zb2 -B /tmp/v_zb2/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a-real \
#       && cmake --build /tmp/v_zb2/build --target flashssd_sm90_gpu_tests && mkdir -p out/abzb/zb2_tests \
#       && cp /tmp/v_zb2/build/tests/gpu/flashssd_sm90_gpu_tests /tmp/v_zb2/build/libflashssd*.so* out/abzb/zb2_tests/ 2>/dev/null
#   (the test binary may link the library: copy what `ldd` names from the build folder). Carry
#   out/abzb and out/dev/build-gpu (HEAD's tests, for the errors to compare).
set -u
O=${OUT:?}; mkdir -p $O
case ${PART:-A} in
  A) FLASHSSD_COMMIT=$(cat out/dev/build-gpu/COMMIT) PART=bench OUT=$O/bench bash scripts/device_session.sh out/dev/build-gpu
     ls $O/bench ;;
  B) printf "%s\n" "--final-states 0" "--final-states 0 --z 1" "--batch 128 --seqlen 512 --final-states 0 --z 1" "--final-states 0 --z 1 --N 64" \
       "--final-states 0 --z 1 --N 256" "--final-states 0 --packed 4 --z 1" "--H 128 --G 8 --batch 32 --seqlen 2048 --final-states 0 --z 1" \
       | bash scripts/probe_ab.sh --dir out/abzb --rounds 3 --variants "head zb1 zb2 is" > $O/ab.log 2>&1
     tail -8 $O/ab.log
     LD_LIBRARY_PATH=$PWD/out/dev/build-gpu timeout 120 out/dev/build-gpu/tests/gpu/flashssd_sm90_gpu_tests > $O/head_sm90.log 2>&1
     LD_LIBRARY_PATH=$PWD/out/abzb/zb2_tests timeout 120 out/abzb/zb2_tests/flashssd_sm90_gpu_tests > $O/zb2_sm90.log 2>&1
     for f in head zb2; do echo "== $f"; grep -E "z=1.*y rel err|PASSED|FAILED" $O/${f}_sm90.log | head -20; done ;;
  # Call C (~3 min, PART=C): where packed N = 128 ungated's 3.8% over unpacked goes (ncu SASS
  #   stall tables, as session 33 call 8). Needs out/abzb/head_probe (PART=B's preparation).
  C) TOP=25 bash scripts/ncu_stall_table.sh packed4 $O out/abzb/head_probe --final-states 0 --packed 4 --iters 2
     TOP=25 bash scripts/ncu_stall_table.sh unpacked $O out/abzb/head_probe --final-states 0 --iters 2
     ls $O ;;
esac
