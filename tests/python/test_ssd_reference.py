"""The float64 torch references of ssd_reference.py against each other, on CPU:
ssd_reference_chunked (chunked quadratic form, what the GPU suite uses for speed)
must match ssd_reference (the token-by-token recurrence, the ground truth) to
float64 rounding over every option. Needs torch only, not the flashssd module."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (scripts/setup_python.sh installs it)")

from ssd_reference import make_inputs, rel_err, ssd_reference, ssd_reference_chunked  # noqa: E402

REF_KEYS = ("D", "z", "dt_bias", "initial_states", "seq_idx", "cu_seqlens", "dt_softplus")
TOL = 1e-12

# (b, T, H, P, G, N) and make_inputs options; dt_limit is popped. Small: CI has 2 cores.
CASES = {
    "t1": dict(dims=(2, 1, 4, 4, 1, 8)),
    "t1_initial": dict(dims=(2, 1, 4, 4, 2, 8), initial_states=True, D="head"),
    "t7_g_eq_h": dict(dims=(2, 7, 4, 4, 4, 8)),
    "t130_g1": dict(dims=(2, 130, 4, 8, 1, 16)),
    "t130_g_eq_h": dict(dims=(1, 130, 3, 8, 3, 16)),
    "d_head_z": dict(dims=(2, 130, 4, 8, 2, 16), D="head", z=True),
    "d_channel": dict(dims=(1, 130, 4, 8, 2, 16), D="channel"),
    "softplus_bias": dict(dims=(2, 130, 4, 8, 1, 16), dt_bias=True, dt_softplus=True),
    "softplus_no_bias": dict(dims=(1, 70, 4, 8, 1, 16), dt_softplus=True),
    "dt_limit": dict(dims=(2, 130, 4, 8, 1, 16), dt_bias=True, dt_softplus=True, dt_limit=(0.02, 0.1)),
    "dt_limit_plain": dict(dims=(1, 65, 2, 8, 1, 16), dt_limit=(0.05, 0.12)),
    "initial": dict(dims=(2, 130, 4, 8, 2, 16), initial_states=True),
    "seq_idx": dict(dims=(3, 130, 4, 8, 2, 16), seq_idx=True),
    "seq_idx_initial": dict(dims=(2, 130, 4, 8, 1, 16), seq_idx=True, initial_states=True, D="head", z=True),
    "cu_empty_start_middle_len1": dict(dims=(1, 130, 4, 8, 2, 16), seqlens=[0, 50, 0, 1, 79], initial_states=True),
    "cu_first_empty_initial": dict(dims=(1, 30, 2, 8, 1, 16), seqlens=[0, 10, 0, 20], initial_states=True),
    "cu_no_initial": dict(dims=(1, 130, 4, 8, 1, 16), seqlens=[1, 0, 64, 65]),
    "cu_len1_first_initial": dict(dims=(1, 7, 2, 4, 1, 8), seqlens=[1, 6], initial_states=True),
    "cu_trailing_empty": dict(dims=(1, 20, 2, 4, 1, 8), seqlens=[20, 0], initial_states=True),
    "everything": dict(
        dims=(1, 130, 4, 8, 2, 16),
        D="channel",
        z=True,
        dt_bias=True,
        dt_softplus=True,
        initial_states=True,
        seqlens=[0, 66, 0, 1, 63],
        dt_limit=(0.01, 25.0),
    ),
}


def _both(kw: dict, dt_limit):
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    opts = {k: kw[k] for k in REF_KEYS if k in kw}
    return ssd_reference(*args, dt_limit=dt_limit, **opts), ssd_reference_chunked(*args, dt_limit=dt_limit, **opts)


@pytest.mark.parametrize("name", list(CASES))
def test_chunked_matches_recurrence(name):
    case = dict(CASES[name])
    dims = case.pop("dims")
    dt_limit = case.pop("dt_limit", (0.0, math.inf))
    kw = make_inputs(*dims, seed=sum(map(ord, name)), **case)
    (y, fs, vs), (cy, cfs, cvs) = _both(kw, dt_limit)
    assert cy.dtype == fs.dtype == torch.float64 and cy.shape == y.shape and cfs.shape == fs.shape
    assert torch.isfinite(cy).all() and torch.isfinite(cfs).all()
    assert rel_err(cy, y) <= TOL, rel_err(cy, y)
    assert rel_err(cfs, fs) <= TOL, rel_err(cfs, fs)
    if "cu_seqlens" in kw:
        assert cvs is not None and cvs.shape == vs.shape
        assert rel_err(cvs, vs) <= TOL, rel_err(cvs, vs)
        # Empty sequences' states are exact copies (initial state or zeros) in both.
        lens = kw["cu_seqlens"].diff().tolist()
        for k, n in enumerate(lens):
            if n == 0:
                assert torch.equal(cvs[k], vs[k])
    else:
        assert vs is None and cvs is None


def test_cases_cover_the_branches():
    # The softplus cases reach the identity branch (dt > 20), the seq_idx cases reset.
    kw = make_inputs(2, 130, 4, 8, 1, 16, seed=sum(map(ord, "softplus_bias")), dt_bias=True, dt_softplus=True)
    assert ((kw["dt"] + kw["dt_bias"]) > 20).any()
    kw = make_inputs(3, 130, 4, 8, 2, 16, seed=sum(map(ord, "seq_idx")), seq_idx=True)
    assert (kw["seq_idx"].diff(dim=1) != 0).any()


def test_first_sequence_empty_ignores_initial_states():
    # With cu_seqlens, initial_states belong to sequence 0 only: when it is empty, its
    # varlen state is initial_states[0] and the next sequence starts from zero.
    kw = make_inputs(1, 12, 2, 4, 1, 8, seqlens=[0, 12], initial_states=True)
    args = (kw["x"], kw["dt"], kw["A"], kw["B"], kw["C"])
    for fn in (ssd_reference, ssd_reference_chunked):
        y, fs, vs = fn(*args, initial_states=kw["initial_states"], cu_seqlens=kw["cu_seqlens"])
        y0, fs0, _ = fn(*args)
        assert torch.equal(vs[0], kw["initial_states"][0].double())
        assert rel_err(y, y0) <= TOL and rel_err(fs, fs0) <= TOL and rel_err(vs[1], fs0[0]) <= TOL


def test_empty_problems():
    for b, T in ((0, 7), (2, 0)):
        kw = make_inputs(b, T, 4, 8, 2, 16, initial_states=True)
        (y, fs, _), (cy, cfs, _) = _both(kw, (0.0, math.inf))
        assert cy.shape == y.shape == (b, T, 4, 8)
        assert torch.equal(cfs, fs)
        if T == 0:
            assert torch.equal(cfs, kw["initial_states"].double())
