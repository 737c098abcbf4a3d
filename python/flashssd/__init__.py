"""FlashSSD: fast, numerically stable kernels for the Mamba-2 SSD layer forward.

PyTorch API (needs torch at run time, not at build time)::

    import flashssd
    y = flashssd.mamba_chunk_scan_combined(x, dt, A, B, C, chunk_size=256, D=D, z=z)  # drop-in
    out = flashssd.ssd(x, dt, A, B, C, D=D, return_final_states=True)                 # out.y, out.final_states

Both are built on the torch custom operator ``torch.ops.flashssd.ssd_forward``
(torch.compile- and CUDA-graph-friendly). The low-level extension
``flashssd._C.ssd_forward`` takes any DLPack arrays (numpy, torch, ...) and
caller-provided outputs. Errors: ``flashssd.Error`` (a ValueError) for bad
input, ``flashssd.NotSupported`` (a NotImplementedError) for a valid request
this build cannot serve; both carry the C++ library's message.
"""

from __future__ import annotations

from typing import Any

try:
    # Import torch first: its CUDA runtime libraries then serve libflashssd too.
    import torch as _torch
except ImportError:  # numpy-only use of flashssd._C
    _torch = None

try:
    from . import _C
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"flashssd: the compiled extension flashssd._C could not be loaded ({e}). Build it with "
        "`pip install .`, or configure CMake with -DFLASHSSD_BUILD_PYTHON=ON and put <build>/python "
        "on PYTHONPATH. A missing libcudart means the CUDA runtime is not on the library path "
        "(importing torch first provides it)."
    ) from e

from ._C import Error, NotSupported

__version__: str = _C.version()

__all__ = ["Error", "NotSupported", "SSDOutput", "__version__", "forward_path", "mamba_chunk_scan_combined", "ssd"]

if _torch is not None:
    from .interface import SSDOutput, forward_path, mamba_chunk_scan_combined, ssd
else:

    def __getattr__(name: str) -> Any:
        if name in ("ssd", "mamba_chunk_scan_combined", "SSDOutput", "forward_path"):
            raise ImportError(f"flashssd.{name} needs PyTorch (pip install torch); flashssd._C works without it")
        raise AttributeError(f"module 'flashssd' has no attribute {name!r}")
