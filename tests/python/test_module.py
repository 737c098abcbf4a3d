"""The nanobind extension flashssd._C on numpy arrays (DLPack / buffer protocol).

Needs only numpy: this part runs even where torch is not installed."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")
flashssd = pytest.importorskip("flashssd", reason="the flashssd module is not built / not on PYTHONPATH")
_C = flashssd._C


def _problem(b=2, T=5, H=4, P=8, G=2, N=16, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return dict(
        x=rng.standard_normal((b, T, H, P)).astype(dtype),
        dt=rng.uniform(0.01, 0.2, (b, T, H)).astype(np.float32),
        A=-rng.uniform(0.5, 4.0, (H,)).astype(np.float32),
        B=rng.standard_normal((b, T, G, N)).astype(dtype),
        C=rng.standard_normal((b, T, G, N)).astype(dtype),
    )


def _run(p, **kw):
    y = np.empty_like(p["x"])
    _C.ssd_forward(p["x"], p["dt"], p["A"], p["B"], p["C"], y=y, **kw)
    return y


def test_version_and_exception_types():
    assert flashssd.__version__ == _C.version()
    assert issubclass(flashssd.Error, ValueError)
    assert issubclass(flashssd.NotSupported, NotImplementedError)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_single_token_closed_form(dtype):
    """T = 1: y = dt * x * <B, C> (+ D x), with each head reading its group."""
    p = _problem(T=1, dtype=dtype)
    D = np.linspace(-1, 1, 4).astype(np.float32)
    y = _run(p, D=D)
    x, B, C = (p[k].astype(np.float64) for k in ("x", "B", "C"))
    bc = np.einsum("btgn,btgn->btg", B, C).repeat(2, axis=2)  # (b, 1, H): heads 0,1 -> group 0
    want = p["dt"][..., None] * x * bc[..., None] + D[:, None] * x
    tol = 1e-6 if dtype == np.float32 else 2e-3
    assert np.linalg.norm(y.astype(np.float64) - want) <= tol * np.linalg.norm(want)


def test_final_states_and_recurrence_by_hand():
    """Two tokens, one head, P = N = 1: h1 = dt1 x1 B1, h2 = e^{dt2 A} h1 + dt2 x2 B2."""
    x = np.array([[[[2.0]], [[3.0]]]], np.float32)  # (1, 2, 1, 1)
    dt = np.array([[[0.5], [0.25]]], np.float32)
    A = np.array([-2.0], np.float32)
    B = np.array([[[[1.5]], [[-1.0]]]], np.float32)
    C = np.array([[[[0.5]], [[2.0]]]], np.float32)
    y = np.empty_like(x)
    final = np.empty((1, 1, 1, 1), np.float32)
    _C.ssd_forward(x, dt, A, B, C, y=y, final_states=final)
    h1 = 0.5 * 2.0 * 1.5
    h2 = np.exp(0.25 * -2.0) * h1 + 0.25 * 3.0 * -1.0
    np.testing.assert_allclose(y.ravel(), [h1 * 0.5, h2 * 2.0], rtol=1e-6)
    np.testing.assert_allclose(final.ravel(), [h2], rtol=1e-6)


def test_strided_numpy_inputs():
    """Strided views go through DLPack with their strides."""
    p = _problem(T=6)
    y_ref = _run(p)
    wide = np.zeros(p["x"].shape[:-1] + (2 * p["x"].shape[-1],), np.float32)
    wide[..., ::2] = p["x"]
    y = np.empty_like(p["x"])
    _C.ssd_forward(wide[..., ::2], p["dt"], p["A"], p["B"], p["C"], y=y)
    np.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-6)


def test_validation_message_names_the_argument():
    p = _problem()
    with pytest.raises(flashssd.Error, match=r"^flashssd: C: expected shape"):
        _C.ssd_forward(p["x"], p["dt"], p["A"], p["B"], p["C"][:, :, :1], y=np.empty_like(p["x"]))
    with pytest.raises(ValueError, match=r"flashssd: dt_limit"):
        _run(p, dt_limit_lo=1.0, dt_limit_hi=0.5)


def test_unsupported_dtype_rank_and_scalar():
    p = _problem()
    with pytest.raises(flashssd.Error, match=r"flashssd: x: got dtype float64"):
        _run({**p, "x": p["x"].astype(np.float64)})
    with pytest.raises(flashssd.Error, match=r"flashssd: A: expected a tensor of rank >= 1"):
        _run({**p, "A": np.float32(-1.0).reshape(())})
    with pytest.raises(flashssd.Error, match=r"flashssd: x: expected a tensor of rank at most 4"):
        _run({**p, "x": p["x"][None]})


def test_outputs_untouched_on_error():
    p = _problem()
    y = np.full_like(p["x"], 7.0)
    with pytest.raises(flashssd.Error):
        _C.ssd_forward(p["x"], p["dt"], p["A"][:3], p["B"], p["C"], y=y)
    assert (y == 7.0).all()


def test_describe_only_names_the_path_and_runs_nothing():
    p = _problem()
    y = np.full_like(p["x"], 7.0)
    assert _C.ssd_forward(p["x"], p["dt"], p["A"], p["B"], p["C"], y=y, describe_only=True) == "host: float64 reference"
    assert (y == 7.0).all()
    with pytest.raises(flashssd.Error, match="A: expected shape"):
        _C.ssd_forward(p["x"], p["dt"], p["A"][:3], p["B"], p["C"], y=y, describe_only=True)
    assert _C.ssd_forward(p["x"], p["dt"], p["A"], p["B"], p["C"], y=y) is None
    assert not (y == 7.0).any()


def test_validate_meta():
    """Descriptions without data: the checks behind torch's fake tensors."""
    f32, bf16 = _C.DType.float32.value, _C.DType.bfloat16.value

    def meta(dtype, *shape):
        strides, acc = [], 1
        for n in reversed(shape):
            strides.append(acc)
            acc *= n
        return (dtype, list(shape), strides[::-1])

    args = [meta(bf16, 2, 8, 4, 16), meta(f32, 2, 8, 4), meta(f32, 4), meta(bf16, 2, 8, 1, 32), meta(bf16, 2, 8, 1, 32)]
    opts = dict(dt_softplus=False, dt_limit_lo=0.0, dt_limit_hi=float("inf"), chunk_size=0, segsum=0)
    none6 = dict(D=None, z=None, dt_bias=None, initial_states=None, seq_idx=None, cu_seqlens=None)
    _C.validate_meta(
        *args, **none6, y=meta(bf16, 2, 8, 4, 16), final_states=meta(f32, 2, 4, 16, 32), varlen_states=None, **opts
    )
    with pytest.raises(flashssd.Error, match=r"flashssd: final_states: expected shape"):
        _C.validate_meta(
            *args, **none6, y=meta(bf16, 2, 8, 4, 16), final_states=meta(f32, 2, 4, 16, 31), varlen_states=None, **opts
        )


def test_validate_meta_host_rules():
    """on_device=False: the host path's rules, under which the GPU kernels' dims do not apply."""
    f32 = _C.DType.float32.value

    def meta(*shape):
        strides, acc = [], 1
        for n in reversed(shape):
            strides.append(acc)
            acc *= n
        return (f32, list(shape), strides[::-1])

    # P = 4, N = 12: served by the host path only.
    args = [meta(1, 8, 2, 4), meta(1, 8, 2), meta(2), meta(1, 8, 1, 12), meta(1, 8, 1, 12)]
    opts = dict(dt_softplus=False, dt_limit_lo=0.0, dt_limit_hi=float("inf"), chunk_size=0, segsum=0)
    seq_idx = (_C.DType.int32.value, [1, 8], [8, 1])  # (its contents are never read)
    rest = dict(D=None, z=None, dt_bias=None, initial_states=None, seq_idx=seq_idx, cu_seqlens=None)
    outs = dict(y=meta(1, 8, 2, 4), final_states=None, varlen_states=None)
    _C.validate_meta(*args, **rest, **outs, **opts, on_device=False)
    with pytest.raises(flashssd.NotSupported):
        _C.validate_meta(*args, **rest, **outs, **opts)  # (on_device defaults to True)
    with pytest.raises(flashssd.Error, match=r"flashssd: C: expected shape"):
        _C.validate_meta(*args[:4], meta(1, 8, 1, 11), **rest, **outs, **opts, on_device=False)


def test_memory_of_another_device_kind_is_refused():
    """A DLPack tensor of a device the library does not know (OpenCL here) is named, never read
    as host memory (the library tells host from CUDA memory by asking the CUDA runtime)."""
    import ctypes

    class Device(ctypes.Structure):
        _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]

    class DataType(ctypes.Structure):
        _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]

    class Tensor(ctypes.Structure):
        _fields_ = [
            ("data", ctypes.c_void_p),
            ("device", Device),
            ("ndim", ctypes.c_int32),
            ("dtype", DataType),
            ("shape", ctypes.POINTER(ctypes.c_int64)),
            ("strides", ctypes.POINTER(ctypes.c_int64)),
            ("byte_offset", ctypes.c_uint64),
        ]

    class Managed(ctypes.Structure):
        pass

    Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(Managed))
    Managed._fields_ = [("dl_tensor", Tensor), ("manager_ctx", ctypes.c_void_p), ("deleter", Deleter)]

    p = _problem()
    x = p["x"]
    shape = (ctypes.c_int64 * 4)(*x.shape)
    strides = (ctypes.c_int64 * 4)(*(s // x.itemsize for s in x.strides))
    deleter = Deleter(lambda _: None)
    managed = Managed(
        Tensor(x.ctypes.data, Device(4, 0), 4, DataType(2, 32, 1), shape, strides, 0), None, deleter
    )  # kDLOpenCL = 4, kDLFloat = 2
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype, new_capsule.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    capsule = new_capsule(ctypes.addressof(managed), b"dltensor", None)
    with pytest.raises(flashssd.Error, match=r"flashssd: x: expected memory of the CPU or a CUDA device.*device type 4"):
        _C.ssd_forward(capsule, p["dt"], p["A"], p["B"], p["C"], y=np.empty_like(x))
