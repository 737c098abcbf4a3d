"""The torch custom operator ``flashssd::ssd_forward``.

One operator serves every public entry point. It is registered with
``torch.library`` so that

* ``torch.compile(fullgraph=True)`` traces through it (a fake implementation
  gives output shapes and runs the C++ validator on tensor descriptions);
* CUDA-graph capture works: outputs come from torch's allocator, the kernels
  run on torch's current stream, and nothing synchronises with the host;
* CPU tensors run the library's float64 reference, CUDA tensors the GPU path;
* autograd fails loudly: there is no backward pass yet, and an output is never
  silently detached from a graph that needs it.

Before the C++ call the implementation applies the conversions that
``mamba_ssm`` users rely on: per-head parameters (A, D, dt_bias) and
``initial_states`` in any floating dtype become fp32, an int64 ``seq_idx``
becomes int32 (never wrapped: see _seq_idx_to_int32), and on the GPU an
activation whose layout breaks the GPU path's alignment rule (innermost stride
1, 16-byte aligned pointer and strides) is copied to a contiguous tensor.
"""

from __future__ import annotations

from typing import Optional

import torch
from torch import Tensor
from torch.utils.dlpack import to_dlpack as _to_dlpack

from . import _C

__all__ = ["ssd_forward", "forward_path", "SEGSUM_VARIANTS", "BACKWARD_NOT_IMPLEMENTED", "check_no_grad"]

#: Accepted names of the decay-mask algorithm (docs/DESIGN.md section 4), by enum value.
SEGSUM_VARIANTS = {"hierarchical": 0, "diff": 1, "direct": 2}

BACKWARD_NOT_IMPLEMENTED = (
    "flashssd: the backward pass of the SSD layer is not implemented yet, so inputs that "
    "require grad cannot be used while grad mode is on. Run the forward under "
    "torch.no_grad() / torch.inference_mode(), or detach the inputs."
)

# torch dtype -> flashssd::DType enum value (flashssd.h).
_DTYPE_ENUM = {
    torch.float32: 0,
    torch.bfloat16: 1,
    torch.float16: 2,
    torch.int32: 3,
    torch.int64: 4,
}

_EMPTY_SHAPE = (0,)


def check_no_grad(*tensors: Optional[Tensor]) -> None:
    """Raise NotImplementedError if autograd would need a backward through the SSD."""
    if torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors):
        raise NotImplementedError(BACKWARD_NOT_IMPLEMENTED)


# ---- input conversions shared by the real and the fake implementation ----------------------


def _fp32_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float32 if dtype.is_floating_point else dtype


def _seq_idx_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.int32 if dtype == torch.int64 else dtype


_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _seq_idx_to_int32(seq_idx: Optional[Tensor]) -> Optional[Tensor]:
    """An int64 seq_idx as the int32 the C++ call takes, never wrapped (a plain cast maps 0
    and 2^32 to one value and loses that boundary). On the CPU its values, after a range check
    (the C++ validator then checks their order); on CUDA, where checking values would
    synchronise with the host, each token's number of changes since its row's first token:
    the same sequence boundaries, since the GPU kernels only compare neighbouring tokens."""
    if seq_idx is None or seq_idx.dtype != torch.int64:
        return seq_idx
    if seq_idx.device.type != "cuda":
        if seq_idx.numel() and (int(seq_idx.min()) < _INT32_MIN or int(seq_idx.max()) > _INT32_MAX):
            raise _C.Error(
                f"flashssd: seq_idx: int64 values must fit in int32 on the CPU, got the range "
                f"[{int(seq_idx.min())}, {int(seq_idx.max())}]"
            )
        return seq_idx.to(torch.int32)
    ids = torch.zeros(seq_idx.shape, dtype=torch.int32, device=seq_idx.device)
    if seq_idx.dim() == 2 and seq_idx.shape[1] > 1:
        ids[:, 1:] = torch.cumsum(seq_idx[:, 1:] != seq_idx[:, :-1], dim=1, dtype=torch.int32)
    return ids


def _to_fp32(t: Optional[Tensor]) -> Optional[Tensor]:
    if t is None or t.dtype == torch.float32 or not t.dtype.is_floating_point:
        return t
    return t.float()


def _fit_gpu_layout(t: Optional[Tensor]) -> Optional[Tensor]:
    """A copy of a CUDA tensor whose layout the GPU path rejects; else the tensor itself."""
    if t is None or t.dim() == 0:
        return t
    unit = max(1, 16 // t.element_size())
    # The common case first: a contiguous tensor whose innermost size is a multiple of 16 bytes
    # has every stride a multiple of them (0.53 against 2.17 us a tensor on a development CPU,
    # bench/results/logs/2026-12-05-s47-host_trims_cpu.log).
    if t.is_contiguous() and t.shape[-1] % unit == 0 and t.data_ptr() % 16 == 0:
        return t
    if t.device.type != "cuda" or t.numel() == 0:
        return t
    ok = (t.shape[-1] <= 1 or t.stride(-1) == 1) and t.data_ptr() % 16 == 0
    # (A broadcast dimension, stride 0 as torch's expand makes, is copied too: the Hopper kernel
    # would leave it to the slower portable one.)
    ok = ok and all(n <= 1 or (s % unit == 0 and s != 0) for n, s in zip(t.shape[:-1], t.stride()[:-1]))
    # clone, not contiguous(): a contiguous tensor at a misaligned offset needs a new allocation.
    return t if ok else t.clone(memory_format=torch.contiguous_format)


def _dlpack(t: Optional[Tensor]):  # -> Optional[PyCapsule]
    """A tensor as the DLPack capsule the extension imports.

    torch.utils.dlpack.to_dlpack is torch's C exporter (0.21 us a tensor on a development
    CPU); given the tensor itself, nanobind would call Tensor.__dlpack__, a Python method (2.0 us
    there; the import of a call's 10-14 tensors took ~44 us of the H200 host's ~105 us per
    call, bench/host_overhead.py, session 46). Neither synchronises any stream."""
    if t is None:
        return None
    # DLPack's Tensor.__dlpack__ refuses tensors that require grad even under no_grad; the
    # exporter is given the detached view the same way.
    return _to_dlpack(t.detach() if t.requires_grad else t)


def _output_shapes(x: Tensor, B: Tensor, cu_seqlens: Optional[Tensor]) -> tuple[Optional[tuple], Optional[tuple]]:
    """(final_states shape, varlen_states shape); None where ranks are wrong (the validator reports)."""
    if x.dim() != 4 or B.dim() != 4:
        return None, None
    b, _, H, P = x.shape
    N = B.shape[3]
    final = (b, H, P, N)
    if cu_seqlens is None:
        # Lets the validator say that varlen states need cu_seqlens.
        return final, (0, H, P, N)
    if cu_seqlens.dim() != 1:
        return final, None
    num_seqs = cu_seqlens.shape[0] - 1
    if isinstance(num_seqs, int):  # a SymInt is left alone (no guard); the validator wants >= 1
        num_seqs = max(num_seqs, 0)
    return final, (num_seqs, H, P, N)


# ---- the operator ------------------------------------------------------------------------------


def _call_extension(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    D: Optional[Tensor],
    z: Optional[Tensor],
    dt_bias: Optional[Tensor],
    initial_states: Optional[Tensor],
    seq_idx: Optional[Tensor],
    cu_seqlens: Optional[Tensor],
    dt_softplus: bool,
    dt_limit_lo: float,
    dt_limit_hi: float,
    chunk_size: int,
    segsum: int,
    return_final_states: bool,
    return_varlen_states: bool,
    describe_only: bool = False,
) -> tuple[Optional[str], Tensor, Optional[Tensor], Optional[Tensor]]:
    """The conversions of the module docstring, the outputs, then _C.ssd_forward with x's CUDA
    device current (the C++ call launches on that device's current stream). Returns (what
    _C.ssd_forward returns: the path with describe_only, else None; y; final_states or None;
    varlen_states or None)."""
    x, z, B, C = (_fit_gpu_layout(t) for t in (x, z, B, C))
    A, D, dt_bias = _to_fp32(A), _to_fp32(D), _to_fp32(dt_bias)
    initial_states = _fit_gpu_layout(_to_fp32(initial_states))
    seq_idx = _seq_idx_to_int32(seq_idx)

    device = x.device
    # (Tensor.new_empty: 1.2-1.9 us against torch.empty's 1.5-2.9 on a development CPU, the
    # same log.)
    y = x.new_empty(x.shape)
    final_shape, varlen_shape = _output_shapes(x, B, cu_seqlens)
    final = varlen = None
    if return_final_states and final_shape is not None:
        final = x.new_empty(final_shape, dtype=torch.float32)
    if return_varlen_states and varlen_shape is not None:
        varlen = x.new_empty(varlen_shape, dtype=torch.float32)

    stream = torch.cuda.current_stream(device).cuda_stream if device.type == "cuda" else 0

    def run() -> Optional[str]:
        return _C.ssd_forward(
            *(_dlpack(t) for t in (x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens)),
            y=_dlpack(y),
            final_states=_dlpack(final),
            varlen_states=_dlpack(varlen),
            dt_softplus=dt_softplus,
            dt_limit_lo=dt_limit_lo,
            dt_limit_hi=dt_limit_hi,
            chunk_size=chunk_size,
            segsum=segsum,
            stream=stream,
            describe_only=describe_only,
        )

    if device.type == "cuda" and device.index != torch.cuda.current_device():
        with torch.cuda.device(device):
            return run(), y, final, varlen
    return run(), y, final, varlen


def _ssd_forward_body(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    D: Optional[Tensor],
    z: Optional[Tensor],
    dt_bias: Optional[Tensor],
    initial_states: Optional[Tensor],
    seq_idx: Optional[Tensor],
    cu_seqlens: Optional[Tensor],
    dt_softplus: bool,
    dt_limit_lo: float,
    dt_limit_hi: float,
    chunk_size: int,
    segsum: int,
    return_final_states: bool,
    return_varlen_states: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    """SSD forward. Returns (y, final_states, varlen_states); an output not asked for
    (return_final_states / return_varlen_states False) is an empty fp32 tensor."""
    _, y, final, varlen = _call_extension(
        x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx, cu_seqlens,
        dt_softplus, dt_limit_lo, dt_limit_hi, chunk_size, segsum, return_final_states, return_varlen_states,
    )  # fmt: skip
    final = final if final is not None else y.new_empty(_EMPTY_SHAPE, dtype=torch.float32)
    varlen = varlen if varlen is not None else y.new_empty(_EMPTY_SHAPE, dtype=torch.float32)
    return y, final, varlen


def forward_path(*args: object) -> str:
    """The path the operator would take for its arguments (flashssd::ssd_forward_path), with
    the operator's own conversions applied first; nothing runs but those."""
    path = _call_extension(*args, describe_only=True)[0]  # type: ignore[arg-type]
    assert path is not None
    return path


# The body stays a plain function as well: bench/host_overhead.py times it without torch's
# dispatch of the operator around it.
ssd_forward = torch.library.custom_op("flashssd::ssd_forward", mutates_args=())(_ssd_forward_body)


# ---- fake implementation (FakeTensor / meta): shapes + the C++ validator -------------------------


def _contiguous_strides(shape: tuple) -> tuple:
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(int(n), 1)
    return tuple(reversed(strides))


def _static(t: Tensor) -> bool:
    return all(isinstance(v, int) for v in (*t.shape, *t.stride()))


def _meta(t: Tensor, dtype: torch.dtype, contiguous: bool) -> tuple[int, list, list]:
    """(dtype enum, shape, strides) of a tensor as the real implementation would hand it over."""
    code = _DTYPE_ENUM[dtype]
    shape = tuple(int(n) for n in t.shape)
    strides = _contiguous_strides(shape) if contiguous else tuple(int(s) for s in t.stride())
    return (code, list(shape), list(strides))


def _validate_fake(
    inputs: dict,
    final_shape: Optional[tuple],
    varlen_shape: Optional[tuple],
    dt_softplus: bool,
    dt_limit_lo: float,
    dt_limit_hi: float,
    chunk_size: int,
    segsum: int,
) -> None:
    """Runs the C++ validator on the tensors as the real implementation would pass them."""
    on_gpu = inputs["x"].device.type == "cuda"
    metas = {}
    for name, t in inputs.items():
        if t is None:
            metas[name] = None
            continue
        dtype = t.dtype
        if name in ("A", "D", "dt_bias", "initial_states"):
            dtype = _fp32_dtype(dtype)
        elif name == "seq_idx":
            dtype = _seq_idx_dtype(dtype)
        if dtype not in _DTYPE_ENUM:
            # The same words as the extension's eager check.
            raise _C.Error(
                f"flashssd: {name}: got dtype {str(dtype).replace('torch.', '')}, which flashssd does not take "
                "(its tensors are float32, bfloat16, float16, int32 or int64)"
            )
        # Layout rules exist only on the GPU path, where the real implementation copies
        # activations that break them; elsewhere any strides are fine. Either way, a
        # contiguous description passes the validator's layout checks as the real call would.
        contiguous = not on_gpu or name in ("x", "z", "B", "C", "initial_states")
        metas[name] = _meta(t, dtype, contiguous)

    def out(shape: Optional[tuple], dtype: torch.dtype):
        return None if shape is None else (_DTYPE_ENUM[dtype], list(shape), list(_contiguous_strides(shape)))

    x = inputs["x"]
    _C.validate_meta(
        *metas.values(),
        out(tuple(x.shape), x.dtype),
        out(final_shape, torch.float32),
        out(varlen_shape, torch.float32),
        dt_softplus,
        dt_limit_lo,
        dt_limit_hi,
        chunk_size,
        segsum,
        on_gpu,
    )


@ssd_forward.register_fake
def _ssd_forward_fake(
    x: Tensor,
    dt: Tensor,
    A: Tensor,
    B: Tensor,
    C: Tensor,
    D: Optional[Tensor],
    z: Optional[Tensor],
    dt_bias: Optional[Tensor],
    initial_states: Optional[Tensor],
    seq_idx: Optional[Tensor],
    cu_seqlens: Optional[Tensor],
    dt_softplus: bool,
    dt_limit_lo: float,
    dt_limit_hi: float,
    chunk_size: int,
    segsum: int,
    return_final_states: bool,
    return_varlen_states: bool,
) -> tuple[Tensor, Tensor, Tensor]:
    final_shape, varlen_shape = _output_shapes(x, B, cu_seqlens)
    inputs = dict(
        x=x,
        dt=dt,
        A=A,
        B=B,
        C=C,
        D=D,
        z=z,
        dt_bias=dt_bias,
        initial_states=initial_states,
        seq_idx=seq_idx,
        cu_seqlens=cu_seqlens,
    )
    if all(_static(t) for t in inputs.values() if t is not None):
        # Symbolic sizes are left to the real implementation: no size gets specialised here.
        _validate_fake(
            inputs,
            final_shape if return_final_states else None,
            varlen_shape if return_varlen_states else None,
            dt_softplus,
            dt_limit_lo,
            dt_limit_hi,
            chunk_size,
            segsum,
        )
    y = x.new_empty(x.shape)
    empty = x.new_empty(_EMPTY_SHAPE, dtype=torch.float32)
    final = x.new_empty(final_shape, dtype=torch.float32) if return_final_states and final_shape else empty
    varlen = x.new_empty(varlen_shape, dtype=torch.float32) if return_varlen_states and varlen_shape else empty.clone()
    return y, final, varlen


# ---- autograd: none yet, and say so -------------------------------------------------------------


def _setup_context(ctx, inputs, output) -> None:  # noqa: ANN001 (torch.library signature)
    raise NotImplementedError(BACKWARD_NOT_IMPLEMENTED)


def _backward(ctx, *grads):  # noqa: ANN001, ANN202
    raise NotImplementedError(BACKWARD_NOT_IMPLEMENTED)


# Reached only when grad mode is on and an input requires grad: the call raises
# instead of returning outputs that autograd could not differentiate.
ssd_forward.register_autograd(_backward, setup_context=_setup_context)
