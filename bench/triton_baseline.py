"""The benchmark's Triton baseline: mamba_ssm's ``mamba_chunk_scan_combined``.

The kernels come from the ``mamba-ssm`` sdist that ``scripts/fetch_triton_baseline.sh``
unpacks into ``third_party_bench/mamba_ssm-<version>/`` (git-ignored, never committed).
``mamba_ssm/__init__.py`` imports compiled extensions (selective_scan_cuda, ...)
that are neither built nor needed here, so :func:`load` never runs it: it
registers a bare package module for ``mamba_ssm`` (and its pure-python
sub-packages ``ops``, ``ops.triton``, ``utils``) with ``__path__`` pointing into
the sdist, blocks the optional ``causal_conv1d`` extension, then imports
``mamba_ssm.ops.triton.ssd_combined``, which needs only torch, triton, einops
and packaging.

    python3 bench/triton_baseline.py            # import check (works without a GPU)
    python3 bench/triton_baseline.py --run      # + a small forward/backward on the GPU,
                                                #   checked against a sequential torch scan
"""
from __future__ import annotations

import glob
import importlib
import os
import sys
import types

DEFAULT_VERSION = "2.3.2.post1"
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PACKAGES = ("mamba_ssm", "mamba_ssm.ops", "mamba_ssm.ops.triton", "mamba_ssm.utils")
_loaded = None


class BaselineUnavailable(RuntimeError):
    """The Triton baseline cannot be loaded; the message says why and what to do."""


def find_root(root: str | None = None) -> str:
    """Directory holding ``mamba_ssm/ops/triton/ssd_combined.py`` (the unpacked sdist)."""
    candidates = []
    if root:
        candidates.append(root)
    if os.environ.get("FLASHSSD_TRITON_BASELINE"):
        candidates.append(os.environ["FLASHSSD_TRITON_BASELINE"])
    tpb = os.path.join(_REPO, "third_party_bench")
    candidates.append(os.path.join(tpb, f"mamba_ssm-{DEFAULT_VERSION}"))
    candidates += sorted(glob.glob(os.path.join(tpb, "mamba_ssm-*")), reverse=True)
    candidates.append(tpb)
    candidates += [p for p in sys.path if p and "third_party_bench" in p]
    for c in candidates:
        if os.path.isfile(os.path.join(c, "mamba_ssm", "ops", "triton", "ssd_combined.py")):
            return os.path.abspath(c)
    raise BaselineUnavailable(
        "mamba_ssm Triton sources not found (looked in: " + ", ".join(dict.fromkeys(candidates)) +
        "); run scripts/fetch_triton_baseline.sh on a machine with the package registry and "
        "carry third_party_bench/ to the GPU machine, or set FLASHSSD_TRITON_BASELINE")


def _sdist_version(root: str) -> str:
    try:
        with open(os.path.join(root, "PKG-INFO"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    init = os.path.join(root, "mamba_ssm", "__init__.py")
    try:
        with open(init, encoding="utf-8") as f:
            for line in f:
                if line.startswith("__version__"):
                    return line.split("=", 1)[1].strip().strip("'\"")
    except OSError:
        pass
    return "unknown"


def _ensure_packaging() -> None:
    """mamba_ssm uses packaging.version.parse on version strings; stub it if absent."""
    try:
        import packaging.version  # noqa: F401
        return
    except ImportError:
        pass
    import re

    def parse(v):
        return tuple(int(p) for p in re.findall(r"\d+", str(v).split("+")[0])[:3])

    pkg = types.ModuleType("packaging")
    pkg.__path__ = []
    ver = types.ModuleType("packaging.version")
    ver.parse = parse
    ver.Version = parse
    pkg.version = ver
    sys.modules["packaging"] = pkg
    sys.modules["packaging.version"] = ver


def load(root: str | None = None):
    """Import mamba_ssm's Triton SSD module from the sdist; returns a namespace with
    ``mamba_chunk_scan_combined``, ``version``, ``root`` and ``module``."""
    global _loaded
    if _loaded is not None:
        return _loaded
    root = find_root(root)
    existing = sys.modules.get("mamba_ssm")
    if existing is not None and not getattr(existing, "__flashssd_bare__", False):
        raise BaselineUnavailable(
            f"a different mamba_ssm is already imported ({getattr(existing, '__file__', '?')}); "
            "load the baseline before anything imports mamba_ssm")
    _ensure_packaging()
    for missing in ("torch", "triton", "einops"):
        try:
            importlib.import_module(missing)
        except ImportError as e:
            raise BaselineUnavailable(f"the Triton baseline needs {missing}: {e}") from e

    for name in _PACKAGES:
        if name in sys.modules and getattr(sys.modules[name], "__flashssd_bare__", False):
            continue
        mod = types.ModuleType(name)
        mod.__path__ = [os.path.join(root, *name.split("."))]
        mod.__package__ = name
        mod.__file__ = None
        mod.__flashssd_bare__ = True
        sys.modules[name] = mod
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(sys.modules[parent], child, mod)
    sys.modules["mamba_ssm"].__version__ = _sdist_version(root)

    # causal_conv1d is an optional compiled extension (ssd_combined guards its
    # import with try/except ImportError): make that import fail fast.
    blocked = "causal_conv1d" not in sys.modules
    if blocked:
        sys.modules["causal_conv1d"] = None  # import raises ImportError
    try:
        ssd_combined = importlib.import_module("mamba_ssm.ops.triton.ssd_combined")
    except Exception as e:  # noqa: BLE001 - report any import failure clearly
        raise BaselineUnavailable(f"importing mamba_ssm.ops.triton.ssd_combined from {root} "
                                  f"failed: {type(e).__name__}: {e}") from e
    finally:
        if blocked and sys.modules.get("causal_conv1d", 0) is None:
            del sys.modules["causal_conv1d"]

    compiled = [m for m in ("selective_scan_cuda", "causal_conv1d_cuda") if m in sys.modules]
    if compiled:
        raise BaselineUnavailable(f"compiled extensions were imported: {compiled}")

    _loaded = types.SimpleNamespace(
        mamba_chunk_scan_combined=ssd_combined.mamba_chunk_scan_combined,
        module=ssd_combined,
        version=_sdist_version(root),
        root=root,
    )
    return _loaded


def mamba_chunk_scan_combined(*args, **kwargs):
    return load().mamba_chunk_scan_combined(*args, **kwargs)


def ssd_reference(x, dt, A, B, C, D=None, z=None, dt_bias=None, dt_softplus=False, seq_idx=None):
    """Sequential fp32 recurrence in torch (slow; for small self-checks only); seq_idx (b, T)
    resets the state where its value changes."""
    import torch
    import torch.nn.functional as F

    b, T, H, P = x.shape
    G, N = B.shape[2], B.shape[3]
    rep = H // G
    xf, Bf, Cf = x.float(), B.float().repeat_interleave(rep, 2), C.float().repeat_interleave(rep, 2)
    d = dt.float() + (dt_bias.float() if dt_bias is not None else 0)
    if dt_softplus:
        d = torch.where(d > 20, d, F.softplus(d))
    h = torch.zeros(b, H, P, N, device=x.device, dtype=torch.float32)
    ys = []
    for t in range(T):
        decay = torch.exp(d[:, t] * A.float())  # (b, H)
        if seq_idx is not None and t > 0:
            decay = decay * (seq_idx[:, t] == seq_idx[:, t - 1]).float()[:, None]
        h = h * decay[..., None, None] + (d[:, t, :, None, None] * xf[:, t, :, :, None]
                                          * Bf[:, t, :, None, :])
        ys.append(torch.einsum("bhpn,bhn->bhp", h, Cf[:, t]))
    y = torch.stack(ys, 1)
    if D is not None:
        y = y + xf * (D.float()[:, None] if D.dim() == 1 else D.float())
    if z is not None:
        y = y * F.silu(z.float())
    return y


def _main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", help="unpacked sdist (default: third_party_bench/mamba_ssm-*)")
    ap.add_argument("--run", action="store_true", help="also run a small case on the GPU")
    a = ap.parse_args(argv)
    try:
        base = load(a.root)
    except BaselineUnavailable as e:
        print(f"triton_baseline: UNAVAILABLE: {e}", file=sys.stderr)
        return 1
    import torch
    import triton

    print(f"triton_baseline: mamba_ssm {base.version} Triton kernels from {base.root} "
          f"(torch {torch.__version__}, triton {triton.__version__}) import ok")
    if not a.run:
        return 0
    if not torch.cuda.is_available():
        print("triton_baseline: no CUDA device: --run skipped", file=sys.stderr)
        return 0
    torch.manual_seed(0)
    dev = "cuda"
    b, T, H, P, G, N = 2, 300, 4, 64, 2, 64
    x = torch.randn(b, T, H, P, device=dev, dtype=torch.bfloat16)
    B = torch.randn(b, T, G, N, device=dev, dtype=torch.bfloat16)
    C = torch.randn(b, T, G, N, device=dev, dtype=torch.bfloat16)
    z = torch.randn(b, T, H, P, device=dev, dtype=torch.bfloat16)
    dt = torch.rand(b, T, H, device=dev) * 3 - 3
    dt_bias = torch.rand(H, device=dev) * 2 - 4
    A = -(torch.rand(H, device=dev) * 7.5 + 0.5)
    D = torch.rand(H, device=dev) + 0.5
    y = base.mamba_chunk_scan_combined(x, dt, A, B, C, 256, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)
    ref = ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)
    err = ((y.float() - ref).norm() / ref.norm()).item()
    xs = [t.clone().requires_grad_() for t in (x, dt, B, C)]
    y2 = base.mamba_chunk_scan_combined(xs[0], xs[1], A, xs[2], xs[3], 256, D=D, z=z, dt_bias=dt_bias,
                                        dt_softplus=True)
    grads = torch.autograd.grad(y2, xs, torch.randn_like(y2))
    ok = err < 2e-2 and all(torch.isfinite(g).all().item() for g in grads)
    print(f"triton_baseline: forward rel err vs fp32 scan {err:.2e}; backward grads finite: "
          f"{all(torch.isfinite(g).all().item() for g in grads)} -> {'OK' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(_main())
