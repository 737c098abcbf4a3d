"""flashssd's torch API on CPU tensors (the library's float64 reference path):
API and return conventions, shapes and dtypes, errors, autograd guard,
torch.compile through fake tensors, and agreement with the float64 torch
reference of ssd_reference.py."""

from __future__ import annotations

import math
import zlib

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (scripts/setup_python.sh installs it)")
flashssd = pytest.importorskip("flashssd", reason="the flashssd module is not built / not on PYTHONPATH")

from ssd_reference import call_scan, make_inputs, rel_err, ssd_reference  # noqa: E402

OP = torch.ops.flashssd.ssd_forward.default
TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1e-2}

REF_KEYS = ("D", "z", "dt_bias", "initial_states", "seq_idx", "cu_seqlens", "dt_softplus")


def _ref(kw, dt_limit=(0.0, math.inf)):
    return ssd_reference(
        kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], dt_limit=dt_limit, **{k: kw[k] for k in REF_KEYS if k in kw}
    )


# ---- API and return conventions --------------------------------------------------------------


def test_exports():
    for name in ("ssd", "mamba_chunk_scan_combined", "SSDOutput", "forward_path", "Error", "NotSupported", "__version__"):
        assert hasattr(flashssd, name)


def test_forward_path_on_cpu_tensors():
    kw = make_inputs(1, 12, 4, 8, 2, 16, seqlens=[5, 7])
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    assert flashssd.forward_path(*args) == "host: float64 reference"
    assert flashssd.forward_path(*args, cu_seqlens=kw["cu_seqlens"], return_final_states=True) == "host: float64 reference"
    with pytest.raises(flashssd.Error, match=r"flashssd: A: expected shape"):
        flashssd.forward_path(kw["x"], kw["dt"], kw["A"][:2], kw["B"], kw["C"])


def test_mamba_return_conventions():
    kw = make_inputs(1, 12, 4, 8, 2, 16, seqlens=[5, 7])
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], 64)
    y = flashssd.mamba_chunk_scan_combined(*args)
    assert isinstance(y, torch.Tensor) and y.shape == kw["x"].shape
    y2, fs = flashssd.mamba_chunk_scan_combined(*args, return_final_states=True)
    assert fs.shape == (1, 4, 8, 16) and fs.dtype == torch.float32
    y3, vs = flashssd.mamba_chunk_scan_combined(
        *args, seq_idx=kw["seq_idx"], cu_seqlens=kw["cu_seqlens"], return_varlen_states=True
    )
    assert vs.shape == (2, 4, 8, 16) and vs.dtype == torch.float32
    out = flashssd.mamba_chunk_scan_combined(
        *args, seq_idx=kw["seq_idx"], cu_seqlens=kw["cu_seqlens"], return_final_states=True, return_varlen_states=True
    )
    assert len(out) == 3
    torch.testing.assert_close(out[2], vs)
    torch.testing.assert_close(out[1][0], vs[-1])  # the last sequence's final state is the row's
    torch.testing.assert_close(y2, y)


def test_mamba_ignores_cu_seqlens_without_varlen_states():
    kw = make_inputs(1, 12, 4, 8, 2, 16)
    cu = torch.tensor([0, 5, 12], dtype=torch.int32)
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], 64)
    torch.testing.assert_close(
        flashssd.mamba_chunk_scan_combined(*args, cu_seqlens=cu),
        flashssd.mamba_chunk_scan_combined(*args),
        rtol=0,
        atol=0,
    )


def test_mamba_varlen_states_need_cu_seqlens():
    kw = make_inputs(1, 12, 4, 8, 2, 16)
    with pytest.raises(ValueError, match="flashssd: varlen_states: expected cu_seqlens"):
        flashssd.mamba_chunk_scan_combined(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], 64, return_varlen_states=True)


def test_ssd_output_fields():
    kw = make_inputs(1, 10, 4, 8, 1, 16, seqlens=[3, 7])
    out = flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    assert isinstance(out, flashssd.SSDOutput)
    assert out.final_states is None and out.varlen_states is None
    out = flashssd.ssd(
        kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], cu_seqlens=kw["cu_seqlens"], return_final_states=True
    )
    assert out.final_states.shape == (1, 4, 8, 16)
    assert out.varlen_states.shape == (2, 4, 8, 16)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("dt_dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_dtypes(dtype, dt_dtype):
    kw = make_inputs(2, 9, 4, 8, 2, 16, dtype=dtype, dt_dtype=dt_dtype, z=True)
    y, fs = flashssd.mamba_chunk_scan_combined(
        kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], 32, z=kw["z"], return_final_states=True
    )
    assert y.dtype == dtype and y.shape == kw["x"].shape and y.is_contiguous()
    assert fs.dtype == torch.float32
    ref_y, ref_fs, _ = _ref(kw)
    assert rel_err(y, ref_y) < TOL[dtype]
    assert rel_err(fs, ref_fs) < 1e-6


def test_chunk_size_does_not_change_the_result():
    kw = make_inputs(2, 50, 4, 8, 2, 16, D="head", z=True)
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    ys = [flashssd.mamba_chunk_scan_combined(*args, cs, D=kw["D"], z=kw["z"]) for cs in (0, 1, 16, 64, 256)]
    for y in ys[1:]:
        torch.testing.assert_close(y, ys[0], rtol=0, atol=0)


def test_empty_problems():
    for b, T in ((0, 7), (2, 0)):
        kw = make_inputs(b, T, 4, 8, 2, 16, initial_states=True)
        out = flashssd.ssd(
            kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], initial_states=kw["initial_states"], return_final_states=True
        )
        assert out.y.shape == (b, T, 4, 8)
        if T == 0:
            torch.testing.assert_close(out.final_states, kw["initial_states"])


# ---- agreement with the float64 reference over the options ------------------------------------

CASES = {
    "plain": dict(b=2, T=33, H=4, P=8, G=1, N=16),
    "t1": dict(b=1, T=1, H=2, P=4, G=2, N=8),
    "g_eq_h": dict(b=2, T=20, H=4, P=8, G=4, N=16),
    "d_head_z": dict(b=2, T=40, H=4, P=8, G=2, N=16, D="head", z=True),
    "d_channel": dict(b=1, T=31, H=6, P=4, G=3, N=8, D="channel"),
    "softplus_bias": dict(b=2, T=45, H=4, P=8, G=2, N=16, dt_bias=True, dt_softplus=True),
    "initial": dict(b=2, T=30, H=4, P=8, G=2, N=16, initial_states=True),
    "seq_idx": dict(b=3, T=64, H=4, P=8, G=2, N=16, seq_idx=True, initial_states=True),
    "cu_seqlens": dict(b=1, T=60, H=4, P=8, G=2, N=16, seqlens=[7, 20, 1, 32], initial_states=True),
    "cu_empty_seq": dict(b=1, T=25, H=2, P=8, G=1, N=16, seqlens=[0, 10, 0, 15], initial_states=True),
    "everything": dict(
        b=1,
        T=70,
        H=8,
        P=8,
        G=2,
        N=16,
        D="channel",
        z=True,
        dt_bias=True,
        dt_softplus=True,
        initial_states=True,
        seqlens=[30, 40],
    ),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("name", list(CASES))
def test_agrees_with_float64_reference(name, dtype, error_report):
    case = dict(CASES[name])
    dims = [case.pop(k) for k in ("b", "T", "H", "P", "G", "N")]
    kw = make_inputs(*dims, dtype=dtype, seed=zlib.crc32(name.encode()) % 1000, **case)
    dt_limit = (0.01, 0.15) if name in ("plain", "everything") else (0.0, math.inf)
    want_varlen = "cu_seqlens" in kw
    out = call_scan(flashssd.mamba_chunk_scan_combined, kw, dt_limit, chunk_size=64)
    ref_y, ref_fs, ref_vs = _ref(kw, dt_limit)
    errs = {"y": rel_err(out[0], ref_y), "final": rel_err(out[1], ref_fs)}
    if want_varlen:
        errs["varlen"] = rel_err(out[2], ref_vs)
    error_report("cpu-vs-ref", str(dtype).replace("torch.", ""), name, **errs)
    assert errs["y"] < TOL[dtype], errs
    assert errs["final"] < 1e-6, errs
    if want_varlen:
        assert errs["varlen"] < 1e-6, errs


def test_ssd_resets_at_cu_seqlens_without_seq_idx():
    kw = make_inputs(1, 30, 4, 8, 2, 16, seqlens=[12, 18])
    out = flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], cu_seqlens=kw["cu_seqlens"])
    ref_y, _, ref_vs = ssd_reference(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], cu_seqlens=kw["cu_seqlens"])
    assert rel_err(out.y, ref_y) < 1e-6 and rel_err(out.varlen_states, ref_vs) < 1e-6


# ---- conversions mamba_ssm users rely on -----------------------------------------------------------


def test_parameter_dtypes_and_int64_seq_idx_are_converted():
    kw = make_inputs(2, 20, 4, 8, 2, 16, D="head", dt_bias=True, seq_idx=True, initial_states=True)
    base = flashssd.ssd(
        kw["x"],
        kw["dt"],
        kw["A"],
        kw["B"],
        kw["C"],
        D=kw["D"],
        dt_bias=kw["dt_bias"],
        seq_idx=kw["seq_idx"],
        initial_states=kw["initial_states"],
    ).y
    conv = flashssd.ssd(
        kw["x"],
        kw["dt"],
        kw["A"].double(),
        kw["B"],
        kw["C"],
        D=kw["D"].double(),
        dt_bias=kw["dt_bias"].double(),
        seq_idx=kw["seq_idx"].long(),
        initial_states=kw["initial_states"].double(),
    ).y
    torch.testing.assert_close(conv, base, rtol=0, atol=0)


def test_int64_seq_idx_outside_int32_raises():
    # A plain cast would map 0 and 2^32 to one value and drop the boundary between them.
    kw = make_inputs(1, 8, 2, 4, 1, 8)
    wide = torch.tensor([[0, 0, 0, 2**32, 2**32, 2**32, 2**32 + 1, 2**32 + 1]], dtype=torch.int64)
    with pytest.raises(flashssd.Error, match=r"flashssd: seq_idx: int64 values must fit in int32"):
        flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], seq_idx=wide)
    with pytest.raises(flashssd.Error, match=r"flashssd: seq_idx: int64 values must fit in int32"):
        flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], seq_idx=-wide - 2**31)


def test_strided_inputs():
    kw = make_inputs(2, 20, 4, 8, 2, 16)
    base = flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"]).y
    xt = kw["x"].transpose(0, 1).contiguous().transpose(0, 1)  # (b, T) swapped in memory
    Bw = torch.cat([kw["B"], kw["C"]], dim=-1)[..., :16]
    y = flashssd.ssd(xt, kw["dt"], kw["A"], Bw, kw["C"]).y
    torch.testing.assert_close(y, base, rtol=0, atol=0)


# ---- errors carry the C++ message ----------------------------------------------------------------


def _bad_cases():
    kw = make_inputs(2, 8, 4, 8, 2, 16)
    x, dt, A, B, C = (kw[k] for k in ("x", "dt", "A", "B", "C"))
    return {
        "x rank": (dict(x=x[0]), r"flashssd: x: expected shape \(b, T, H, P\)"),
        "dt shape": (dict(dt=dt[:, :4]), r"flashssd: dt: expected shape"),
        "A shape": (dict(A=A[:3]), r"flashssd: A: expected shape"),
        "B dtype": (dict(B=B.to(torch.bfloat16)), r"flashssd: B: expected the dtype of x"),
        "C shape": (dict(C=C[:, :, :1]), r"flashssd: C: expected shape"),
        "groups": (
            dict(B=B[:, :, :1].expand(2, 8, 3, 16).contiguous(), C=C[:, :, :1].expand(2, 8, 3, 16).contiguous()),
            r"flashssd: B: expected the number of groups",
        ),
        "x float64": (dict(x=x.double()), r"flashssd: x: got dtype float64"),
        "D shape": (dict(D=torch.ones(5)), r"flashssd: D: expected shape"),
        "z shape": (dict(z=x[:, :4]), r"flashssd: z: expected shape"),
        "dt_bias shape": (dict(dt_bias=torch.ones(2)), r"flashssd: dt_bias: expected shape"),
        "initial shape": (dict(initial_states=torch.ones(2, 4, 8, 15)), r"flashssd: initial_states: expected shape"),
        "seq_idx decreasing": (
            dict(seq_idx=torch.tensor([[0, 0, 1, 1, 0, 2, 2, 2]] * 2, dtype=torch.int32)),
            r"flashssd: seq_idx: expected non-decreasing",
        ),
        "cu_seqlens batch": (
            dict(cu_seqlens=torch.tensor([0, 8], dtype=torch.int32), return_varlen_states=True),
            r"flashssd: cu_seqlens: expected batch b = x.shape\[0\] == 1",
        ),
        "dt_limit order": (dict(dt_limit=(1.0, 0.5)), r"flashssd: dt_limit: expected dt_limit_lo <= dt_limit_hi"),
        "chunk_size": (dict(chunk_size=-1), r"flashssd: chunk_size: expected chunk_size >= 0"),
        "A scalar": (dict(A=torch.tensor(-1.0)), r"flashssd: A: expected a tensor of rank >= 1"),
    }


@pytest.mark.parametrize("name", list(_bad_cases()))
def test_bad_input_raises_cpp_message(name):
    kw = make_inputs(2, 8, 4, 8, 2, 16)
    change, pattern = _bad_cases()[name]
    args = {k: kw[k] for k in ("x", "dt", "A", "B", "C")}
    args.update(change)
    chunk = args.pop("chunk_size", 64)
    with pytest.raises(ValueError, match=pattern) as info:
        flashssd.mamba_chunk_scan_combined(
            args.pop("x"), args.pop("dt"), args.pop("A"), args.pop("B"), args.pop("C"), chunk, **args
        )
    assert isinstance(info.value, flashssd.Error)


def test_bad_python_arguments():
    kw = make_inputs(1, 4, 2, 4, 1, 8)
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    with pytest.raises(TypeError, match="flashssd: dt_limit"):
        flashssd.ssd(*args, dt_limit=0.5)
    with pytest.raises(flashssd.Error, match="flashssd: segsum"):  # (a ValueError)
        flashssd.ssd(*args, segsum="fastest")
    with pytest.raises(ValueError, match="flashssd: segsum"):
        flashssd.ssd(*args, segsum=7)


def test_mixed_devices_raise():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device to mix host and device tensors")
    kw = make_inputs(1, 4, 2, 4, 1, 8)
    with pytest.raises(ValueError, match="cannot be mixed"):
        flashssd.ssd(kw["x"], kw["dt"], kw["A"].cuda(), kw["B"], kw["C"])


# ---- autograd: no backward yet, and never a silently detached output ------------------------------


@pytest.mark.parametrize("which", ["x", "dt", "A", "B", "C", "D", "z", "dt_bias", "initial_states"])
def test_requires_grad_raises(which):
    kw = make_inputs(1, 6, 2, 4, 1, 8, D="head", z=True, dt_bias=True, initial_states=True)
    kw[which] = kw[which].clone().requires_grad_(True)
    call = dict(D=kw["D"], z=kw["z"], dt_bias=kw["dt_bias"], initial_states=kw["initial_states"])
    with pytest.raises(NotImplementedError, match="backward pass .* not implemented"):
        flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], **call)
    with pytest.raises(NotImplementedError, match="backward pass .* not implemented"):
        flashssd.mamba_chunk_scan_combined(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], 64, **call)
    with pytest.raises(NotImplementedError, match="backward pass .* not implemented"):
        OP(
            kw["x"],
            kw["dt"],
            kw["A"],
            kw["B"],
            kw["C"],
            kw["D"],
            kw["z"],
            kw["dt_bias"],
            kw["initial_states"],
            None,
            None,
            False,
            0.0,
            math.inf,
            0,
            0,
            False,
            False,
        )
    with torch.no_grad():
        y = flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], **call).y
    assert not y.requires_grad
    with torch.inference_mode():
        flashssd.ssd(kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"], **call)


# ---- torch.library / torch.compile -------------------------------------------------------------------


def _op_args(kw, final=True, varlen=False):
    return (
        kw["x"],
        kw["dt"],
        kw["A"],
        kw["B"],
        kw["C"],
        kw.get("D"),
        kw.get("z"),
        kw.get("dt_bias"),
        kw.get("initial_states"),
        kw.get("seq_idx"),
        kw.get("cu_seqlens"),
        kw.get("dt_softplus", False),
        0.0,
        math.inf,
        64,
        0,
        final,
        varlen,
    )


def test_dlpack_hand_over_shares_the_tensor():
    # The operator hands tensors to the extension as to_dlpack capsules (not Tensor.__dlpack__):
    # the capsule must view the same memory, also for a strided view and a tensor that requires grad.
    from torch.utils.dlpack import from_dlpack

    from flashssd import _ops

    assert _ops._dlpack(None) is None
    base = torch.randn(4, 6, dtype=torch.bfloat16)
    for t in (base, base[:, ::2], torch.randn(3, 5, requires_grad=True)):
        back = from_dlpack(_ops._dlpack(t))
        assert back.data_ptr() == t.data_ptr() and back.shape == t.shape and back.stride() == t.stride()
        assert back.dtype == t.dtype and not back.requires_grad
        assert torch.equal(back, t.detach())


def test_opcheck():
    kw = make_inputs(1, 12, 4, 8, 2, 16, D="channel", z=True, dt_bias=True, initial_states=True, seqlens=[5, 7])
    torch.library.opcheck(
        OP, _op_args(kw, True, True), test_utils=("test_schema", "test_faketensor", "test_aot_dispatch_static")
    )
    kw = make_inputs(2, 9, 4, 8, 2, 16, dtype=torch.bfloat16)
    torch.library.opcheck(
        OP, _op_args(kw, False, False), test_utils=("test_schema", "test_faketensor", "test_aot_dispatch_dynamic")
    )


def test_fake_tensor_validation_gives_the_cpp_message():
    from torch._subclasses.fake_tensor import FakeTensorMode

    kw = make_inputs(2, 8, 4, 8, 2, 16)
    with FakeTensorMode() as mode:
        fake = {k: mode.from_tensor(v) for k, v in kw.items()}
        out = flashssd.ssd(fake["x"], fake["dt"], fake["A"], fake["B"], fake["C"], return_final_states=True)
        assert out.y.shape == (2, 8, 4, 8) and out.final_states.shape == (2, 4, 8, 16)
        with pytest.raises(ValueError, match=r"flashssd: C: expected shape"):
            flashssd.ssd(fake["x"], fake["dt"], fake["A"], fake["B"], fake["C"][:, :4])


def test_fake_cpu_problem_takes_the_host_rules():
    # P = 4 and N = 12 are no GPU kernel's dims, but the CPU path serves them: a fake (traced)
    # CPU call must validate as the eager one runs, not as a GPU call would.
    from torch._subclasses.fake_tensor import FakeTensorMode

    kw = make_inputs(1, 10, 2, 4, 1, 12, seq_idx=True)
    with FakeTensorMode() as mode:
        fake = {k: mode.from_tensor(v) for k, v in kw.items()}
        out = flashssd.ssd(
            fake["x"], fake["dt"], fake["A"], fake["B"], fake["C"], seq_idx=fake["seq_idx"], return_final_states=True
        )
        assert out.y.shape == (1, 10, 2, 4) and out.final_states.shape == (1, 2, 4, 12)
    torch.library.opcheck(OP, _op_args(kw), test_utils=("test_faketensor", "test_aot_dispatch_static"))


class _TinyMixer(torch.nn.Module):
    """in_proj -> SSD -> out_proj, enough to see the op inside a compiled graph."""

    def __init__(self, d: int = 16, H: int = 4, P: int = 8, N: int = 16) -> None:
        super().__init__()
        self.H, self.P, self.N = H, P, N
        self.in_proj = torch.nn.Linear(d, H * P + 2 * N + H)
        self.out_proj = torch.nn.Linear(H * P, d)
        self.A_log = torch.nn.Parameter(torch.linspace(0.0, 1.0, H))
        self.D = torch.nn.Parameter(torch.ones(H))

    def forward(self, u: torch.Tensor) -> torch.Tensor:
        b, T, _ = u.shape
        x, B, C, dt = torch.split(self.in_proj(u), [self.H * self.P, self.N, self.N, self.H], dim=-1)
        y = flashssd.mamba_chunk_scan_combined(
            x.reshape(b, T, self.H, self.P),
            dt,
            -torch.exp(self.A_log),
            B.reshape(b, T, 1, self.N),
            C.reshape(b, T, 1, self.N),
            64,
            D=self.D,
            dt_softplus=True,
        )
        return self.out_proj(y.reshape(b, T, -1))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_torch_compile_fullgraph(backend):
    torch._dynamo.reset()
    model = _TinyMixer()
    u = torch.randn(2, 24, 16)
    with torch.no_grad():
        want = model(u)
        compiled = torch.compile(model, backend=backend, fullgraph=True)
        got = compiled(u)
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
        explain = torch._dynamo.explain(model)(u)
    assert explain.graph_break_count == 0 and explain.graph_count == 1


def test_torch_compile_dynamic_shapes():
    torch._dynamo.reset()
    model = _TinyMixer()
    compiled = torch.compile(model, backend="aot_eager", fullgraph=True, dynamic=True)
    with torch.no_grad():
        for T in (10, 17, 33):
            u = torch.randn(1, T, 16)
            torch.testing.assert_close(compiled(u), model(u), rtol=1e-5, atol=1e-5)


def test_torch_compile_bad_input_message():
    torch._dynamo.reset()
    kw = make_inputs(2, 8, 4, 8, 2, 16)

    @torch.compile(backend="aot_eager", fullgraph=True)
    def f(x, dt, A, B, C):
        return flashssd.mamba_chunk_scan_combined(x, dt, A, B, C, 64)

    with pytest.raises(Exception, match=r"flashssd: A: expected shape"):
        f(kw["x"], kw["dt"], kw["A"][:3], kw["B"], kw["C"])


def test_torch_compile_requires_grad_raises():
    torch._dynamo.reset()
    model = _TinyMixer()
    with pytest.raises(Exception, match="backward pass .* not implemented"):
        torch.compile(model, backend="aot_eager", fullgraph=True)(torch.randn(1, 8, 16))
