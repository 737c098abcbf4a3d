"""flashssd's torch API on a CUDA GPU: agreement with the float64 reference and
with mamba_ssm's Triton kernels over many shapes and options, CUDA-graph
capture, streams, torch.compile, layouts and errors.

Skipped without a CUDA device. The Triton comparison needs the mamba_ssm sources
under third_party_bench/ (scripts/fetch_triton_baseline.sh), triton and einops;
third_party_bench/pylib goes on sys.path for pure-Python helpers (einops) that a
GPU machine may lack. Without them it skips with the loader's reason. Relative
errors of every case are printed in the terminal summary (max per dtype)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import zlib

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
flashssd = pytest.importorskip("flashssd", reason="the flashssd module is not built / not on PYTHONPATH")

from ssd_reference import call_scan, make_inputs, rel_err, ssd_reference_chunked  # noqa: E402

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device: the GPU suite needs one")

DTYPES = [torch.bfloat16, torch.float16]  # compared with mamba_ssm
REF_DTYPES = DTYPES + [torch.float32]     # compared with the float64 reference
NAME = {torch.bfloat16: "bfloat16", torch.float16: "float16", torch.float32: "float32"}
# Relative norm error vs the float64 reference (inputs rounded to the dtype first, so
# this measures the kernel's own arithmetic plus the output rounding).
# fp16 at 1e-3: its errors are ~3e-4; session 11's bf16 chunk scores made them 1.3-2.6e-3
# (within the 4e-3 this was), a loss this bound now catches.
TOL_Y = {torch.bfloat16: 1.5e-2, torch.float16: 1e-3, torch.float32: 1e-4}
TOL_STATE = {torch.bfloat16: 1.5e-2, torch.float16: 4e-3, torch.float32: 1e-4}
# flashssd vs Triton (both approximate the same float64 value): a semantic check.
TOL_VS_TRITON = {torch.bfloat16: 3e-2, torch.float16: 1e-2}

REF_KEYS = ("D", "z", "dt_bias", "initial_states", "seq_idx", "cu_seqlens", "dt_softplus")

# (b, T, H, P, G, N) and options. T values deliberately miss powers of two.
CASES = {
    "r1_like": dict(dims=(2, 512, 8, 64, 1, 128)),
    "g8_t700": dict(dims=(1, 700, 16, 64, 8, 128)),
    "p128_n64": dict(dims=(2, 300, 4, 128, 1, 64)),
    "n256": dict(dims=(1, 260, 4, 64, 2, 256)),
    "p32_n16": dict(dims=(3, 100, 6, 32, 3, 16)),
    "n48_p40": dict(dims=(2, 129, 4, 40, 2, 48)),
    "t1": dict(dims=(4, 1, 4, 64, 1, 128)),
    "t7": dict(dims=(2, 7, 4, 64, 2, 64)),
    "gated_softplus": dict(dims=(2, 1024, 8, 64, 1, 128), D="head", z=True, dt_bias=True, dt_softplus=True),
    "d_channel": dict(dims=(2, 333, 8, 64, 2, 64), D="channel"),
    "dt_limit": dict(dims=(2, 257, 4, 64, 1, 128), dt_bias=True, dt_softplus=True, dt_limit=(0.02, 0.1)),
    "dt_bf16": dict(dims=(2, 400, 4, 64, 1, 128), dt_dtype=torch.bfloat16, dt_bias=True, dt_softplus=True),
    "initial": dict(dims=(2, 400, 8, 64, 1, 128), initial_states=True),
    "seq_idx": dict(dims=(2, 1000, 4, 64, 1, 128), seq_idx=True, initial_states=True),
    "cu_seqlens": dict(dims=(1, 1500, 4, 64, 1, 128), seqlens=[100, 1, 600, 799], initial_states=True),
    "everything": dict(
        dims=(1, 900, 8, 64, 2, 128),
        D="channel",
        z=True,
        dt_bias=True,
        dt_softplus=True,
        initial_states=True,
        seqlens=[300, 250, 350],
    ),
    "long_8k": dict(dims=(1, 8192, 8, 64, 1, 128), dt_bias=True, dt_softplus=True),
    "long_32k_few_heads": dict(dims=(1, 32768, 2, 64, 1, 128), D="head", initial_states=True),
}


def _inputs(name: str, dtype: torch.dtype) -> tuple[dict, tuple[float, float]]:
    case = dict(CASES[name])
    dims = case.pop("dims")
    dt_limit = case.pop("dt_limit", (0.0, math.inf))
    kw = make_inputs(*dims, dtype=dtype, device="cuda", seed=zlib.crc32(name.encode()) % 10000, **case)
    return kw, dt_limit


def _reference(kw: dict, dt_limit: tuple[float, float]):
    return ssd_reference_chunked(
        kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], dt_limit=dt_limit, **{k: kw[k] for k in REF_KEYS if k in kw}
    )


def _call(fn, kw: dict, dt_limit: tuple[float, float], chunk_size: int = 256):
    return call_scan(fn, kw, dt_limit, chunk_size)


_REFS: dict = {}


def _cached_reference(name: str, dtype: torch.dtype, kw: dict, dt_limit):
    key = (name, dtype)
    if key not in _REFS:
        _REFS[key] = _reference(kw, dt_limit)
    return _REFS[key]


@pytest.mark.parametrize("dtype", REF_DTYPES, ids=NAME.get)
@pytest.mark.parametrize("name", list(CASES))
def test_vs_float64_reference(name, dtype, error_report):
    kw, dt_limit = _inputs(name, dtype)
    y, final, varlen = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)
    torch.cuda.synchronize()
    assert y.dtype == dtype and y.device == kw["x"].device and final.dtype == torch.float32
    ref_y, ref_final, ref_varlen = _cached_reference(name, dtype, kw, dt_limit)
    errs = {"y": rel_err(y, ref_y), "final": rel_err(final, ref_final)}
    if varlen is not None:
        errs["varlen"] = rel_err(varlen, ref_varlen)
    error_report("gpu-vs-ref", NAME[dtype], name, **errs)
    assert torch.isfinite(y).all()
    assert errs["y"] < TOL_Y[dtype], errs
    assert errs["final"] < TOL_STATE[dtype], errs
    if varlen is not None:
        assert errs["varlen"] < TOL_STATE[dtype], errs


# ---- mamba_ssm's Triton kernels --------------------------------------------------------------------


_REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def _triton():
    # bench/triton_baseline.py loads the sdist from third_party_bench/; pure-Python
    # helpers a GPU machine may lack (einops) can be unpacked into third_party_bench/pylib.
    for path in (os.path.join(_REPO, "bench"), os.path.join(_REPO, "third_party_bench", "pylib")):
        if os.path.isdir(path) and path not in sys.path:
            sys.path.insert(0, path)
    try:
        import triton_baseline
    except ImportError as e:
        pytest.skip(f"bench/triton_baseline.py not importable: {e}")
    try:
        return triton_baseline.load()
    except triton_baseline.BaselineUnavailable as e:
        pytest.skip(f"mamba_ssm Triton baseline unavailable: {e}")


# Each new shape makes mamba_ssm's Triton kernels autotune (seconds per shape): the
# comparison runs on a representative subset by default (every option class is in
# it); FLASHSSD_PYTEST_ALL_TRITON=1 compares every case but long_32k.
TRITON_CASES = (
    [n for n in CASES if not n.startswith("long_32k")]
    if os.environ.get("FLASHSSD_PYTEST_ALL_TRITON")
    else ["r1_like", "g8_t700", "p128_n64", "gated_softplus", "seq_idx", "cu_seqlens", "everything"]
)


@pytest.mark.parametrize("dtype", DTYPES, ids=NAME.get)
@pytest.mark.parametrize("name", TRITON_CASES)
def test_vs_mamba_ssm_triton(name, dtype, error_report):
    base = _triton()
    kw, dt_limit = _inputs(name, dtype)
    y, final, varlen = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)
    ty, tfinal, tvarlen = _call(base.mamba_chunk_scan_combined, kw, dt_limit)
    torch.cuda.synchronize()
    ref_y, ref_final, ref_varlen = _cached_reference(name, dtype, kw, dt_limit)
    triton_errs = {"y": rel_err(ty, ref_y), "final": rel_err(tfinal, ref_final)}
    ours_vs_triton = {"y": rel_err(y, ty), "final": rel_err(final, tfinal)}
    if varlen is not None:
        triton_errs["varlen"] = rel_err(tvarlen, ref_varlen)
        ours_vs_triton["varlen"] = rel_err(varlen, tvarlen)
    error_report("triton-vs-ref", NAME[dtype], name, **triton_errs)
    error_report("flashssd-vs-triton", NAME[dtype], name, **ours_vs_triton)
    assert ours_vs_triton["y"] < TOL_VS_TRITON[dtype], (ours_vs_triton, triton_errs)
    assert ours_vs_triton["final"] < TOL_VS_TRITON[dtype], (ours_vs_triton, triton_errs)
    if varlen is not None:
        assert ours_vs_triton["varlen"] < TOL_VS_TRITON[dtype], (ours_vs_triton, triton_errs)


# ---- options that must not change the result ------------------------------------------------------


def test_chunk_size_and_segsum_variants(error_report):
    kw, dt_limit = _inputs("r1_like", torch.bfloat16)
    ref_y = _cached_reference("r1_like", torch.bfloat16, kw, dt_limit)[0]
    base = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit, chunk_size=256)[0]
    for cs in (0, 64, 128):
        y = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit, chunk_size=cs)[0]
        assert rel_err(y, base) < 1e-2
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    for variant in ("hierarchical", "diff", "direct"):
        try:
            y = flashssd.ssd(*args, segsum=variant).y
        except flashssd.NotSupported as e:
            pytest.fail(f"segsum={variant} not supported for bf16 N=128: {e}")
        err = rel_err(y, ref_y)
        error_report("gpu-segsum", "bfloat16", variant, y=err)
        assert err < TOL_Y[torch.bfloat16], (variant, err)


# ---- CUDA graphs, streams, no host sync ----------------------------------------------------------


def test_cuda_graph_capture_and_replay():
    kw, dt_limit = _inputs("everything", torch.bfloat16)
    static = {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}

    def step():
        return _call(flashssd.mamba_chunk_scan_combined, static, dt_limit)

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the graph, as torch recommends
        step()
    torch.cuda.current_stream().wait_stream(side)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):  # captures on a private stream: launches elsewhere would break it
        out = step()

    for key in ("x", "B", "C", "z"):  # new values in the captured buffers
        static[key].copy_(torch.randn_like(static[key]))
    static["dt"].copy_(torch.rand_like(static["dt"]) * 3.0 - 4.0)
    graph.replay()
    torch.cuda.synchronize()
    want = _call(flashssd.mamba_chunk_scan_combined, static, dt_limit)
    for got, ref in zip(out, want):  # stale inputs would give an O(1) difference
        assert (got is None and ref is None) or rel_err(got, ref) < 1e-3


_FIRST_CALL_IN_CAPTURE = r"""
import math, sys, torch, flashssd
from ssd_reference import call_scan, make_inputs, rel_err
kw = make_inputs(1, 900, 8, 64, 2, 128, dtype=torch.bfloat16, device="cuda", seed=11, z=True, initial_states=True)
torch.cuda.synchronize()
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):  # flashssd's first GPU call in this process: its workspace pool is made here
    out = call_scan(flashssd.mamba_chunk_scan_combined, kw, (0.0, math.inf))
for key in ("x", "B", "C", "z"):
    kw[key].copy_(torch.randn_like(kw[key]))
graph.replay()
torch.cuda.synchronize()
want = call_scan(flashssd.mamba_chunk_scan_combined, kw, (0.0, math.inf))
errs = [rel_err(a, b) for a, b in zip(out[:2], want[:2])]
print("rel errs", errs)
sys.exit(0 if all(e < 1e-3 for e in errs) else 1)
"""


def test_cuda_graph_capture_of_the_first_call():
    # A fresh process, so that no earlier call has created the library's workspace pool:
    # its creation must not break the capture (it runs in the relaxed capture mode).
    # Two splits: the call allocates a workspace (the split states) on every kernel path, so the
    # pool is created inside the capture also where no chunk scores are needed. The replay is
    # checked against an eager call (stale inputs would differ at O(1)); accuracy is tested elsewhere.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), FLASHSSD_NUM_SPLITS="2")
    run = subprocess.run([sys.executable, "-c", _FIRST_CALL_IN_CAPTURE], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_no_host_synchronisation():
    kw, dt_limit = _inputs("cu_seqlens", torch.bfloat16)
    _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)  # warm-up (lazy loading etc.)
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    torch.cuda.synchronize()


@pytest.mark.parametrize("name", ["r1_like", "long_32k_few_heads"])
def test_runs_on_the_current_stream(name):
    # x, B and C are NaN until s, after a sleep, writes them: every kernel of the call must run
    # after that, on s or ordered after it (long_32k_few_heads takes the split path, whose
    # kernels may use a second stream forked from the caller's).
    kw, dt_limit = _inputs(name, torch.bfloat16)
    want = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)[0]
    late = {k: torch.full_like(kw[k], float("nan")) for k in ("x", "B", "C")}
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(50_000_000)  # keeps s busy: a kernel on another stream would read the NaNs
        for k, v in late.items():
            v.copy_(kw[k])
        y = _call(flashssd.mamba_chunk_scan_combined, {**kw, **late}, dt_limit)[0]
    s.synchronize()
    assert rel_err(y, want) < 1e-3


# (tensors' device, current device) after a first call on device 0
DEVICE_PAIRS = ((1, 0), (0, 1), (1, 1))


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
@pytest.mark.parametrize("name", ["r1_like", "everything", "long_32k_few_heads"])
def test_tensors_on_a_non_current_device(name):
    # The call runs on its tensors' device whatever the current one is, and each device gets its
    # own workspace pool: device 0 first (its pool made), then device 1 from device 0, device 0
    # from device 1, device 1 from itself. long_32k_few_heads takes the split path (workspace,
    # state pass, boundary scan), everything the packed one.
    kw, dt_limit = _inputs(name, torch.bfloat16)
    want = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)
    for device, current in DEVICE_PAIRS:
        kw_d = {k: (v.to(f"cuda:{device}") if isinstance(v, torch.Tensor) else v) for k, v in kw.items()}
        with torch.cuda.device(current):
            got = _call(flashssd.mamba_chunk_scan_combined, kw_d, dt_limit)
        torch.cuda.synchronize(device)
        assert got[0].device == torch.device(f"cuda:{device}")
        for g, w in zip(got, want):
            if w is not None:
                assert torch.isfinite(g).all()
                assert rel_err(g.cpu(), w.cpu()) < 1e-3, (device, current)


# ---- torch.compile ------------------------------------------------------------------------------------


class _Mixer(torch.nn.Module):
    def __init__(self, d: int = 256, H: int = 8, P: int = 64, N: int = 128) -> None:
        super().__init__()
        self.H, self.P, self.N = H, P, N
        self.in_proj = torch.nn.Linear(d, 2 * H * P + 2 * N + H, bias=False)
        self.out_proj = torch.nn.Linear(H * P, d, bias=False)
        self.A_log = torch.nn.Parameter(torch.log(torch.linspace(1.0, 8.0, H)))
        self.dt_bias = torch.nn.Parameter(torch.full((H,), -2.0))
        self.D = torch.nn.Parameter(torch.ones(H))

    def forward(self, u: torch.Tensor) -> torch.Tensor:
        b, T, _ = u.shape
        HP = self.H * self.P
        z, x, B, C, dt = torch.split(self.in_proj(u), [HP, HP, self.N, self.N, self.H], dim=-1)
        y = flashssd.mamba_chunk_scan_combined(
            x.reshape(b, T, self.H, self.P),
            dt,
            -torch.exp(self.A_log.float()),
            B.reshape(b, T, 1, self.N),
            C.reshape(b, T, 1, self.N),
            256,
            D=self.D.float(),
            z=z.reshape(b, T, self.H, self.P),
            dt_bias=self.dt_bias.float(),
            dt_softplus=True,
        )
        return self.out_proj(y.reshape(b, T, HP))


@pytest.mark.parametrize("mode", ["default", "reduce-overhead"])
def test_torch_compile_gpu(mode):
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = _Mixer().cuda().to(torch.bfloat16)
    u = torch.randn(2, 1000, 256, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        want = model(u)
        compiled = torch.compile(model, fullgraph=True, mode=mode)
        for _ in range(3):  # reduce-overhead records a CUDA graph on a later call
            got = compiled(u)
        torch.cuda.synchronize()
    assert rel_err(got, want) < 2e-2


# ---- layouts and errors on the GPU ------------------------------------------------------------------


def test_strided_and_misaligned_activations_are_handled():
    kw, dt_limit = _inputs("gated_softplus", torch.bfloat16)
    want = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)
    b, T, H, P = kw["x"].shape
    N = kw["B"].shape[-1]
    # One packed buffer, as Mamba-2's in_proj produces, with a 1-element lead making every view misaligned.
    packed = torch.empty(b, T, 1 + 2 * H * P + 2 * N, device="cuda", dtype=torch.bfloat16)
    x = packed[..., 1 : 1 + H * P].view(b, T, H, P)
    z = packed[..., 1 + H * P : 1 + 2 * H * P].view(b, T, H, P)
    B = packed[..., 1 + 2 * H * P : 1 + 2 * H * P + N].view(b, T, 1, N)
    C = packed[..., 1 + 2 * H * P + N :].view(b, T, 1, N)
    for dst, key in ((x, "x"), (z, "z"), (B, "B"), (C, "C")):
        dst.copy_(kw[key])
    got = _call(flashssd.mamba_chunk_scan_combined, {**kw, "x": x, "z": z, "B": B, "C": C}, dt_limit)
    for g, w in zip(got, want):
        assert (g is None and w is None) or rel_err(g, w) < 1e-3
    xt = kw["x"].transpose(1, 2).contiguous().transpose(1, 2)  # (b, H, T, P) in memory: valid, not contiguous
    got = _call(flashssd.mamba_chunk_scan_combined, {**kw, "x": xt}, dt_limit)
    assert rel_err(got[0], want[0]) < 1e-3
    # B and C broadcast over the batch (stride 0, torch's expand): copied, so the Hopper kernel serves them.
    B1, C1 = kw["B"][:1].expand_as(kw["B"]), kw["C"][:1].expand_as(kw["C"])
    want = _call(flashssd.mamba_chunk_scan_combined, {**kw, "B": B1.contiguous(), "C": C1.contiguous()}, dt_limit)
    got = _call(flashssd.mamba_chunk_scan_combined, {**kw, "B": B1, "C": C1}, dt_limit)
    for g, w in zip(got, want):
        assert (g is None and w is None) or torch.equal(g, w)


def test_int64_seq_idx_keeps_boundaries_beyond_int32():
    # On CUDA an int64 seq_idx becomes each token's count of changes (no host synchronisation
    # for a range check): values 2^32 apart must still start new sequences.
    kw, dt_limit = _inputs("seq_idx", torch.bfloat16)
    want = _call(flashssd.mamba_chunk_scan_combined, kw, dt_limit)
    wide = kw["seq_idx"].long() * 2**32 - 2**40
    assert wide.to(torch.int32).unique().numel() == 1  # the plain cast would lose every boundary
    for g, w in zip(_call(flashssd.mamba_chunk_scan_combined, {**kw, "seq_idx": wide}, dt_limit), want):
        assert (g is None and w is None) or torch.equal(g, w)
    torch.cuda.set_sync_debug_mode("error")
    try:
        _call(flashssd.mamba_chunk_scan_combined, {**kw, "seq_idx": wide}, dt_limit)
    finally:
        torch.cuda.set_sync_debug_mode("default")


def test_forward_path_names_the_kernel(monkeypatch):
    hopper = torch.cuda.get_device_capability()[0] == 9
    monkeypatch.delenv("FLASHSSD_DISABLE_SM90", raising=False)
    monkeypatch.delenv("FLASHSSD_SM80_HALF_HEAD_BLOCK", raising=False)
    kw, _ = _inputs("r1_like", torch.bfloat16)
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    path = flashssd.forward_path(*args)
    if hopper:
        assert path == "sm90: Hopper kernel (TMA + WGMMA), bfloat16, N=128"
    else:
        assert path.startswith("sm80: portable kernel (mma.sync), bfloat16, N<=128, head-dim block ")
    k32, _ = _inputs("n48_p40", torch.float32)
    assert flashssd.forward_path(k32["x"], k32["dt"], k32["A"], k32["B"], k32["C"]) == (
        "sm80: portable kernel (mma.sync), float32, N<=64, head-dim block 32, segsum hierarchical"
    )
    monkeypatch.setenv("FLASHSSD_DISABLE_SM90", "1")
    assert flashssd.forward_path(*args).startswith("sm80: portable kernel (mma.sync), bfloat16, N<=128")
    monkeypatch.setenv("FLASHSSD_SM80_HALF_HEAD_BLOCK", "1")
    assert flashssd.forward_path(*args, segsum="hierarchical").endswith(
        "N<=128, head-dim block 32 (half), segsum hierarchical"
    )
    if hopper:  # (sm_86 / sm_89 have not the shared memory for diff's block)
        assert flashssd.forward_path(*args, segsum="diff").endswith("N<=128, head-dim block 64, segsum diff")
    if hopper:  # (read only where the default block fits: not on sm_86 / sm_89 at N = 128)
        monkeypatch.setenv("FLASHSSD_SM80_HALF_HEAD_BLOCK", "2")
        with pytest.raises(ValueError, match="FLASHSSD_SM80_HALF_HEAD_BLOCK=2"):
            flashssd.forward_path(*args)
    with pytest.raises(NotImplementedError, match="diff"):
        flashssd.forward_path(kw["x"].half(), kw["dt"], kw["A"], kw["B"].half(), kw["C"].half(), segsum="diff")


def test_gpu_errors():
    kw, _ = _inputs("t7", torch.bfloat16)
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    with pytest.raises(ValueError, match=r"flashssd: A: expected shape"):
        flashssd.ssd(kw["x"], kw["dt"], kw["A"][:2], kw["B"], kw["C"])
    with pytest.raises(ValueError, match=r"cannot be mixed"):
        flashssd.ssd(*args[:2], kw["A"].cpu(), *args[3:])
    with pytest.raises(NotImplementedError, match="backward pass"):
        flashssd.ssd(kw["x"].clone().requires_grad_(), *args[1:])
    b, T = kw["x"].shape[:2]
    B_big = torch.randn(b, T, 2, 264, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(NotImplementedError, match="state dim N"):
        flashssd.ssd(kw["x"], kw["dt"], kw["A"], B_big, B_big)
