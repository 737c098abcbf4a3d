"""CPU tests of the benchmark tooling (no GPU needed): the row plan and its floors
against DESIGN.md section 5, the results schema, the markdown / plot writers, the
--merge-json option, README regeneration, the row logic and the FlashSSD probe
(with stand-in contenders on the CPU; needs torch, skipped without it).

    python3 -m pytest -q bench/test_bench_tools.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "scripts"))

import compare  # noqa: E402


def plan(*argv):
    return compare.build_plan(compare.parse_args(["--dry-run", *argv]))


def test_plan_rows_and_design_floors():
    rows = plan()
    fwd = [r for r in rows if r["pass"] == "fwd"]
    assert len(fwd) == 26 and len(rows) == 26
    r1 = [r for r in fwd if r["config"] == "R1"]
    assert sorted({r["seqlen"] for r in r1}) == compare.R1_SEQLENS
    assert all(r["batch"] * r["seqlen"] == 65536 for r in r1)
    assert {r["z"] for r in r1} == {False, True}
    floors = {(r["config"], r["seqlen"], r["z"]): r["floor_ms"] for r in fwd}
    floors_bytes_r1_8k = next(r["min_bytes"] for r in r1 if r["seqlen"] == 8192 and not r["z"])
    # DESIGN.md section 5 anchors: R1 0.263, R2 0.574 (z 0.825), R3 0.257, R4 0.526 / 2.11.
    assert floors[("R1", 512, False)] == pytest.approx(0.263, abs=1e-3)
    assert floors[("R2", 2048, False)] == pytest.approx(0.574, abs=1e-3)
    assert floors[("R2", 2048, True)] == pytest.approx(0.825, abs=1e-3)
    assert floors[("R3", 2048, False)] == pytest.approx(0.257, abs=1e-3)
    assert floors[("R4", 131072, False)] == pytest.approx(0.526, abs=1e-3)
    assert floors[("R4", 524288, False)] == pytest.approx(2.11, abs=5e-3)
    assert {r["attn_heads"] for r in r1} == {16}
    assert {r["attn_heads"] for r in fwd if r["config"] not in ("R1", "R1-packed", "R1-N256", "R1-dtbf16")} == {32}
    # Packed rows: R1's layer on 8 rows of 8k tokens with 4 documents each, R1's floor.
    packed = [r for r in fwd if r["config"] == "R1-packed"]
    assert [(r["batch"], r["seqlen"], r["z"], r["packed_seqs"]) for r in packed] == [(8, 8192, False, 4), (8, 8192, True, 4)]
    assert [r["floor_ms"] for r in packed] == [floors[("R1", 8192, False)], floors[("R1", 8192, True)]]
    # N = 256 rows: R1's shape with twice the state; B and C add 2 x 4 x 128 bytes per token.
    n256 = [r for r in fwd if r["config"] == "R1-N256"]
    assert [(r["batch"], r["seqlen"], r["z"], r["N"], r["attn_heads"]) for r in n256] == [(8, 8192, False, 256, 16), (8, 8192, True, 256, 16)]
    assert n256[0]["floor_ms"] == pytest.approx(0.2711, abs=1e-3)  # flashssd_bench's floor (s9 call 1)
    # dt in bf16: R1's 8k rows with 2 bytes per token and head less to read.
    dtb = [r for r in fwd if r["config"] == "R1-dtbf16"]
    assert [(r["batch"], r["seqlen"], r["z"], r["dt_dtype"]) for r in dtb] == [(8, 8192, False, "bf16"), (8, 8192, True, "bf16")]
    assert dtb[0]["min_bytes"] == floors_bytes_r1_8k - 2 * 64 * 65536
    both = plan("--fwd-bwd")
    fb = [r for r in both if r["pass"] == "fwd_bwd"]
    assert len(fb) == 14 and all(r["floor_ms"] is None and r["flashssd_ms"] is None for r in fb)
    assert 3 <= len(plan("--quick")) < 20
    assert {r["config"] for r in plan("--configs", "r1,R4")} == {"R1", "R4"}
    assert {r["config"] for r in plan("--configs", "r1-PACKED")} == {"R1-packed"}
    assert {r["config"] for r in plan("--configs", "r1-n256")} == {"R1-N256"}
    assert {r["config"] for r in plan("--configs", "r1-dtbf16")} == {"R1-dtbf16"}


def report_for(rows, **kw):
    rep = {"device": "NVIDIA H200", "date": "2026-11-29", "commit": "abc", "memcpy_TBps": 4.2, "rows": rows,
           "protocol": {"iters": 100}, "errors": {}, "command": "python3 bench/compare.py"}
    rep.update(kw)
    return rep


def test_timed_runs_rotate_over_the_input_copies():
    seen = []
    run = compare.rotating([lambda i=i: seen.append(i) or i for i in range(3)])
    assert [run() for _ in range(7)] == [0, 1, 2, 0, 1, 2, 0] and seen == [0, 1, 2, 0, 1, 2, 0]
    assert compare.parse_args([]).placements == 3
    with pytest.raises(SystemExit):
        compare.parse_args(["--placements", "0"])


def test_input_copies_are_distinct_allocations_of_the_same_values():
    torch = pytest.importorskip("torch")
    inp = {"x": torch.randn(3, 4), "z": None, "seq_idx": torch.arange(4, dtype=torch.int32)}
    copies = compare.input_copies(torch, inp, 3)
    assert len(copies) == 3 and copies[0] is inp
    assert len({c["x"].data_ptr() for c in copies}) == 3
    assert len({c["seq_idx"].data_ptr() for c in copies}) == 3
    for c in copies:
        assert torch.equal(c["x"], inp["x"]) and torch.equal(c["seq_idx"], inp["seq_idx"]) and c["z"] is None
    assert compare.input_copies(torch, inp, 1) == [inp]


def test_schema_checks():
    rep = report_for(plan())
    assert compare.check_schema(rep) == []
    bad = json.loads(json.dumps(rep))
    del bad["rows"][0]["triton_ms"]
    bad["rows"][1]["pass"] = "forward"
    bad["rows"][2]["flashssd_ms"] = -1.0
    bad["rows"][3]["z"] = "yes"
    bad["rows"].append(dict(bad["rows"][4]))
    del bad["commit"]
    probs = "\n".join(compare.check_schema(bad))
    for needle in ("'triton_ms'", "forward", "flashssd_ms=-1.0", "z is not a bool", "duplicate", "'commit'"):
        assert needle in probs


def filled_rows():
    """Illustrative numbers for the writer tests only (never written to bench/results)."""
    rows = plan("--fwd-bwd")
    for i, r in enumerate(rows):
        if r["pass"] == "fwd":
            r.update(flashssd_ms=0.3 + 0.01 * i, triton_ms=2.4, cudnn_attn_ms=0.4 * (r["seqlen"] / 512),
                     flash_attn_ms=0.7 * (r["seqlen"] / 512), rel_err_vs_triton=3e-3)
        else:
            r.update(triton_ms=10.3)
    rows[0]["errors"]["flashssd"] = "NotSupported: example"
    rows[1]["iters"]["cudnn_attn"] = 5
    return rows


def test_writers(tmp_path):
    rows = filled_rows()
    rows[2]["rel_err_vs_triton"] = float("nan")
    rep = report_for(rows, segsum={"note": "merged"})
    j, m, p = compare.write_outputs(rep, str(tmp_path), "2026-11-29-h200")
    back = json.load(open(j))
    assert back["rows"][0]["flashssd_ms"] == pytest.approx(0.3)
    assert back["rows"][2]["rel_err_vs_triton"] is None  # NaN -> null, the file stays valid JSON
    md = open(m).read()
    assert "| 512 (128) | n | 0.263 | 0.300 | 2.400 | 8.00x | 88% |" in md
    assert "NotSupported: example" in md and "cudnn_attn=5" in md and "segsum" in md
    if p is not None:
        assert os.path.getsize(p) > 10000


def test_dry_run_end_to_end(tmp_path):
    seg = tmp_path / "segsum.json"
    seg.write_text(json.dumps({"device": "x", "segsum": {"variants": ["diff", "direct", "hierarchical"]},
                               "rows": [{"config": "R1", "batch": 1, "seqlen": 1, "pass": "decode", "z": False,
                                         "H": 64, "P": 64, "N": 128, "G": 1, "flashssd_ms": None,
                                         "triton_ms": 0.003, "cudnn_attn_ms": None, "flash_attn_ms": None,
                                         "floor_ms": None}]}))
    cp = subprocess.run([sys.executable, os.path.join(HERE, "compare.py"), "--dry-run", "--fwd-bwd",
                         "--out-dir", str(tmp_path), "--date", "2026-01-02", "--merge-json", str(seg)],
                        capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0, cp.stderr
    rep = json.load(open(tmp_path / "2026-01-02-dry-run.json"))
    assert rep["dry_run"] is True and rep["segsum"]["variants"][0] == "diff"
    assert len(rep["rows"]) == 41 and rep["rows"][-1]["pass"] == "decode"  # 26 fwd + 14 fwd_bwd + 1 merged
    assert all(r["flashssd_ms"] is None for r in rep["rows"])  # nothing fabricated
    assert compare.check_schema(rep) == []
    assert (tmp_path / "2026-01-02-dry-run.md").exists()


def test_update_readme_perf(tmp_path):
    import update_readme_perf as urp
    res = tmp_path / "results"
    res.mkdir()
    old = report_for(filled_rows(), date="2026-11-28")
    new = report_for(filled_rows(), date="2026-11-29", commit="newcommit")
    dry = report_for(plan(), date="2027-01-01", dry_run=True)
    for name, rep in (("2026-11-28-h200.json", old), ("2026-11-29-h200.json", new),
                      ("2027-01-01-dry-run.json", dry)):
        (res / name).write_text(json.dumps(rep))
    readme = tmp_path / "README.md"
    readme.write_text("# FlashSSD\n\nintro\n\n<!-- perf:begin -->\nstale\n<!-- perf:end -->\n\nafter\n")
    argv = ["--readme", str(readme), "--results-dir", str(res)]
    assert urp.main(argv + ["--check"]) == 1
    assert urp.main(argv) == 0
    text = readme.read_text()
    assert "newcommit" in text and "stale" not in text and text.endswith("after\n")
    assert "| 512 (128) | n | 0.263 |" in text and "Other rows" in text
    assert urp.main(argv + ["--check"]) == 0
    readme.write_text("no markers\n")
    assert urp.main(argv) == 2


def test_update_readme_perf_same_date_takes_the_last_committed(tmp_path):
    """Two records of one date: the one committed last is the newest, whatever the files'
    modification times (a fresh clone sets those in checkout order); one not yet committed
    is newer still."""
    import shutil
    import update_readme_perf as urp
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    res = tmp_path / "results"
    res.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    git = lambda *a, **kw: subprocess.run(["git", *a], cwd=tmp_path, check=True, capture_output=True,
                                          env=dict(env, **kw))
    git("init", "-q")
    first = report_for(filled_rows(), date="2026-12-05", commit="firstcommit")
    second = report_for(filled_rows(), date="2026-12-05", commit="secondcommit")
    (res / "2026-12-05-b.json").write_text(json.dumps(first))
    git("add", ".")
    git("commit", "-qm", "first", GIT_COMMITTER_DATE="2026-12-05T10:00:00+0000")
    (res / "2026-12-05-a.json").write_text(json.dumps(second))
    git("add", ".")
    git("commit", "-qm", "second", GIT_COMMITTER_DATE="2026-12-05T11:00:00+0000")
    os.utime(res / "2026-12-05-a.json", (1_000_000, 1_000_000))  # the older file by mtime
    newest = lambda: urp.load_reports(str(res))[-1][3]["commit"]
    assert newest() == "secondcommit"
    third = report_for(filled_rows(), date="2026-12-05", commit="uncommitted")
    (res / "2026-12-05-0.json").write_text(json.dumps(third))
    os.utime(res / "2026-12-05-0.json", (1_000_000, 1_000_000))
    assert newest() == "uncommitted"


def test_readme_perf_section_matches_the_newest_results():
    """The checked-in README's performance section is the newest bench/results/*.json's
    (a new benchmark of record committed without scripts/update_readme_perf.py fails here)."""
    import update_readme_perf as urp
    assert urp.main(["--check"]) == 0, "README.md is stale: run scripts/update_readme_perf.py"


def test_ab_choose_applies_the_written_rules(tmp_path):
    """scripts/ab_choose.py: a target must gain more than --gain, no row may lose more than
    --loss, the first qualifying candidate wins, a failed run never qualifies."""
    import ab_choose
    rows = {"R3": {"main": 1.000, "a": 0.980, "b": 0.999, "c": 0.970},
            "R1z": {"main": 1.000, "a": 1.004, "b": 0.950, "c": 0.960},
            "R1": {"main": 1.000, "a": 1.000, "b": 1.010, "c": 1.001}}
    log = tmp_path / "api_ab.log"
    log.write_text("NVIDIA H200\n" + "".join(
        f"round={r} {v} [{cfg}] {ms * (1 + 0.0005 * r):.4f}\n"
        for r in (1, 2, 3) for cfg, vs in rows.items() for v, ms in vs.items()))
    choose = lambda *cands, **kw: subprocess.run(
        [sys.executable, os.path.join(REPO, "scripts", "ab_choose.py"), str(log), "--base", "main",
         *[f"--candidate={c}" for c in cands], *kw.get("extra", [])],
        check=True, capture_output=True, text=True).stdout.strip()
    assert choose("a=R3") == "a"  # R3 -2%, R1z +0.4% within the 0.5% allowed
    assert choose("a=R3", extra=["--loss", "0.3"]) == "none"
    assert choose("b=R3;R1z", "a=R3") == "a"  # b's R3 gains 0.1% only (and R1 loses 1%)
    assert choose("b=R1z", "c=R3;R1z") == "c"  # b loses 1% on R1
    assert choose("c=R3;R1z", "a=R3") == "c"  # the first that qualifies
    assert choose("d=R3") == "none"  # no runs of d
    assert choose("a=R9") == "none"  # a target row the log does not have
    # e's every run of R1 failed: no median there, so e does not qualify on R3 either
    log.write_text(log.read_text() + "".join(f"round={r} e [R3] 0.9000\nround={r} e [R1z] 0.9000\n"
                                             f"round={r} e [R1] failed\n" for r in (1, 2, 3)))
    ok, why = ab_choose.verdict(ab_choose.parse(log.read_text().splitlines()), "main", "e", ["R3"], 0.5, 0.5)
    assert not ok and "no median for e" in why
    assert choose("e=R3", "a=R3") == "a"


# ---------------------------------------------------------------- CPU row logic (needs torch)
def small_row(z=False, seqlen=40, batch=2):
    r = compare.make_row("R1", batch, seqlen, z, "fwd")
    r.update(H=4, P=8, N=16, G=2)
    return r


class FakeTimer:
    def __call__(self, fn):
        fn()
        return 1.25, 7


def test_reference_against_direct_formula():
    torch = pytest.importorskip("torch")
    import triton_baseline as tb
    torch.manual_seed(0)
    b, T, H, P, G, N = 1, 9, 2, 3, 1, 4
    x, B, C = torch.randn(b, T, H, P), torch.randn(b, T, G, N), torch.randn(b, T, G, N)
    dt, A = torch.rand(b, T, H) * 3 - 3, -(torch.rand(H) + 0.5)
    bias, D, z = torch.rand(H) - 2, torch.rand(H), torch.randn(b, T, H, P)
    y = tb.ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=bias, dt_softplus=True).double()
    d = torch.nn.functional.softplus((dt + bias).double())  # (b, T, H)
    a = d * A.double()
    cs = torch.cumsum(a, 1)
    ref = torch.zeros(b, T, H, P, dtype=torch.float64)
    for i in range(T):
        for j in range(i + 1):
            L = torch.exp(cs[:, i] - cs[:, j])  # (b, H)
            cb = (C[:, i, 0].double() * B[:, j, 0].double()).sum(-1)  # (b,)
            ref[:, i] += (L * cb[:, None] * d[:, j])[..., None] * x[:, j].double()
    ref = (ref + x.double() * D.double()[:, None]) * torch.nn.functional.silu(z.double())
    assert ((y - ref).norm() / ref.norm()).item() < 1e-5


def test_packed_rows_reset_where_seq_idx_changes(monkeypatch):
    """packed_seq_idx puts a reset inside the checked prefix; ssd_reference with seq_idx
    equals independent runs of the packed documents; a packed row passes seq_idx to both
    contenders (one that ignores it is caught as wrong)."""
    torch = pytest.importorskip("torch")
    import triton_baseline as tb
    monkeypatch.setattr(compare, "DEVICE", "cpu")
    g = torch.Generator().manual_seed(3)
    idx = compare.packed_seq_idx(torch, 3, 200, 4, g)
    assert idx.dtype == torch.int32 and idx.shape == (3, 200)
    assert bool((idx[:, 1:] >= idx[:, :-1]).all()) and bool((idx[:, -1] == 3).all()) and bool((idx[:, 0] == 0).all())
    assert int(idx[0, 77]) >= 1  # row 0's first document ends inside prefix_reference's 128 tokens
    torch.manual_seed(1)
    b, T, H, P, G, N = 1, 12, 2, 3, 1, 4
    x, B, C = torch.randn(b, T, H, P), torch.randn(b, T, G, N), torch.randn(b, T, G, N)
    dt, A, D = torch.rand(b, T, H) - 2, -(torch.rand(H) + 0.5), torch.rand(H)
    seq = torch.tensor([[0] * 5 + [1] * 1 + [2] * 6], dtype=torch.int32)
    y = tb.ssd_reference(x, dt, A, B, C, D=D, dt_bias=None, dt_softplus=True, seq_idx=seq)
    parts = [tb.ssd_reference(x[:, s:e], dt[:, s:e], A, B[:, s:e], C[:, s:e], D=D, dt_softplus=True)
             for s, e in ((0, 5), (5, 6), (6, 12))]
    assert torch.allclose(y, torch.cat(parts, 1), rtol=1e-5, atol=1e-6)

    def ref_fn(x, dt, A, B, C, chunk, D=None, z=None, dt_bias=None, dt_softplus=False, seq_idx=None):
        return tb.ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=dt_softplus,
                                seq_idx=seq_idx).to(x.dtype)

    def ignores_seq_idx(*a, seq_idx=None, **k):
        return ref_fn(*a, **k)

    args = compare.parse_args(["--dry-run"])
    row = small_row()
    row["packed_seqs"] = 3
    compare.run_fwd_row(torch, args, row, 1, FakeTimer(), ref_fn, ref_fn, {})
    assert row["flashssd_ms"] == 1.25 and row["triton_ms"] == 1.25, row["errors"]
    row = small_row()
    row["packed_seqs"] = 3
    compare.run_fwd_row(torch, args, row, 1, FakeTimer(), ref_fn, ignores_seq_idx, {})
    assert row["flashssd_ms"] is None and "wrong result" in row["errors"]["flashssd"]


def test_fwd_row_logic_on_cpu(monkeypatch):
    torch = pytest.importorskip("torch")
    import triton_baseline as tb
    monkeypatch.setattr(compare, "DEVICE", "cpu")

    def ref_fn(x, dt, A, B, C, chunk, D=None, z=None, dt_bias=None, dt_softplus=False):
        return tb.ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=dt_softplus).to(x.dtype)

    def wrong_fn(*a, **k):
        return ref_fn(*a, **k) * 1.1

    def raising_fn(*a, **k):
        raise RuntimeError("NotSupported: flashssd: the GPU path is not built yet")

    args = compare.parse_args(["--dry-run"])
    for z in (False, True):
        row = small_row(z)
        compare.run_fwd_row(torch, args, row, 1, FakeTimer(), ref_fn, ref_fn, {})
        assert row["flashssd_ms"] == 1.25 and row["triton_ms"] == 1.25, row["errors"]
        assert row["iters"] == {"flashssd": 7, "triton": 7}
        assert row["rel_err_vs_triton"] == 0.0 and row["triton_rel_err_vs_ref"] < 1e-2
    row = small_row()
    compare.run_fwd_row(torch, args, row, 1, FakeTimer(), ref_fn, wrong_fn, {})
    assert row["flashssd_ms"] is None and "wrong result" in row["errors"]["flashssd"]
    assert row["triton_ms"] == 1.25 and row["rel_err_vs_triton"] == pytest.approx(0.1, rel=0.05)
    row = small_row()
    compare.run_fwd_row(torch, args, row, 1, FakeTimer(), ref_fn, raising_fn, {})
    assert row["flashssd_ms"] is None and "NotSupported" in row["errors"]["flashssd"]
    row = small_row()
    compare.run_fwd_row(torch, args, row, 1, FakeTimer(), ref_fn, ref_fn, {compare.shape_key(row): "boom"})
    assert row["flashssd_ms"] is None and row["errors"]["flashssd"] == "probe: boom"


def test_probe_survives_crashes(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    mod = tmp_path / "flashssd"
    mod.mkdir()
    (mod / "__init__.py").write_text(textwrap.dedent("""
        import os
        __version__ = "test"
        def mamba_chunk_scan_combined(x, dt, A, B, C, chunk, **kw):
            T = x.shape[1]
            if T == 24:
                os._exit(7)          # a crash that kills the process
            if T == 32:
                raise RuntimeError("NotSupported: T=32")
            if T == 48:
                import time
                time.sleep(1000)     # a hang
            return x.clone()
    """))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("FLASHSSD_BENCH_DEVICE", "cpu")
    rows = [small_row(seqlen=T) for T in (16, 24, 32, 48, 40)]
    res, glob_err = compare.run_probe(rows, timeout_s=300, shape_timeout_s=12)
    assert glob_err is None
    k = [compare.shape_key(r) for r in rows]
    assert res[k[0]] is None and res[k[4]] is None
    assert "died" in res[k[1]] and "exit code 7" in res[k[1]]
    assert "NotSupported: T=32" in res[k[2]]
    assert "hung" in res[k[3]]


def test_probe_reports_import_failure(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    mod = tmp_path / "flashssd"
    mod.mkdir()
    (mod / "__init__.py").write_text("raise ImportError('libflashssd.so: cannot open shared object file')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("FLASHSSD_BENCH_DEVICE", "cpu")
    res, glob_err = compare.run_probe([small_row()], timeout_s=120)
    assert "cannot open shared object" in glob_err


def test_run_gpu_orchestration_on_cpu(tmp_path, monkeypatch):
    """run_gpu end to end with stand-ins: CPU tensors, a fake timer and copy bandwidth,
    the torch reference as 'Triton', a fake flashssd module (one shape NotSupported)."""
    torch = pytest.importorskip("torch")
    import triton_baseline as tb

    mod = tmp_path / "flashssd"
    mod.mkdir()
    (mod / "__init__.py").write_text(textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        import triton_baseline as tb
        __version__ = "fake"
        def mamba_chunk_scan_combined(x, dt, A, B, C, chunk, D=None, z=None, dt_bias=None, dt_softplus=False, **kw):
            if x.shape[1] == 32 and z is not None:
                raise RuntimeError("NotSupported: z at T=32")
            return tb.ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=dt_softplus).to(x.dtype)
    """ % HERE))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + os.pathsep + HERE)
    monkeypatch.setenv("FLASHSSD_BENCH_DEVICE", "cpu")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(compare, "DEVICE", "cpu")

    def ref_fn(x, dt, A, B, C, chunk, D=None, z=None, dt_bias=None, dt_softplus=False):
        return tb.ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=dt_softplus).to(x.dtype)

    class FakeProps:
        multi_processor_count, major, minor, total_memory, L2_cache_size = 132, 9, 0, 1 << 37, 1 << 20

    class Timer:
        def __init__(self, *a):
            self.flush_buf = torch.empty(16)

        def __call__(self, fn):
            fn()
            return 2.5, 3

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda i: FakeProps())
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i: "FAKE GPU")
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
    monkeypatch.setattr(compare, "Timer", Timer)
    monkeypatch.setattr(compare, "measure_memcpy", lambda torch: 4.2)
    monkeypatch.setattr(tb, "load", lambda root=None: __import__("types").SimpleNamespace(
        mamba_chunk_scan_combined=ref_fn, version="test", root="-"))

    args = compare.parse_args(["--out-dir", str(tmp_path), "--fwd-bwd"])
    rows = []
    for T in (16, 32):
        for z in (False, True):
            r = compare.make_row("R1", 2, T, z, "fwd")
            r.update(H=4, P=8, N=16, G=2, attn_heads=2)
            rows.append(r)
    fb = compare.make_row("R1", 2, 16, False, "fwd_bwd")
    fb.update(H=4, P=8, N=16, G=2)
    rows.append(fb)
    report = {"device": "unknown", "date": "2026-01-01", "commit": "x", "memcpy_TBps": None, "rows": rows,
              "errors": {}}
    compare.run_gpu(args, report, rows, lambda: None)
    assert report["device"] == "FAKE GPU" and report["memcpy_TBps"] == 4.2
    assert report["errors"] == {}, report["errors"]
    by = {(r["seqlen"], r["z"], r["pass"]): r for r in rows}
    ok = by[(16, True, "fwd")]
    assert ok["flashssd_ms"] == 2.5 and ok["triton_ms"] == 2.5 and ok["rel_err_vs_triton"] == 0.0
    assert ok["floor_memcpy_ms"] is not None
    ns = by[(32, True, "fwd")]
    assert ns["flashssd_ms"] is None and "NotSupported: z at T=32" in ns["errors"]["flashssd"]
    assert ns["triton_ms"] == 2.5
    # attention on CPU tensors: the CUDA-only backends fail and say so (null, not fabricated)
    assert ok["cudnn_attn_ms"] is None and "cudnn_attn" in ok["errors"]
    assert by[(16, False, "fwd_bwd")]["triton_ms"] == 2.5
    assert compare.check_schema(report) == []


def test_sass_scoreboards_decodes_the_control_fields():
    # Two instructions of the N = 128 producer as cuobjdump prints them (session 14, call 2's
    # layout): the per-tile dt prefetch sets scoreboard 5 and the multiply by A_h waits on it.
    import sass_scoreboards
    sass = textwrap.dedent("""\
            Function : kernel
        /*9710*/                   LDG.E R28, desc[UR50][R8.64] ;       /* 0x00000032081c7981 */
                                                                        /* 0x000368000c1e1900 */
        /*9f10*/                   FMUL R17, R24, R37 ;                 /* 0x0000002518117220 */
                                                                        /* 0x020fe20000400000 */
        """)
    (load, mul), = sass_scoreboards.functions(sass).values()
    assert load[0] == 0x9710 and load[1] == "LDG.E R28, desc[UR50][R8.64]"
    assert load[2]["wb"] == 5 and load[2]["rb"] == 1 and load[2]["wait"] == 0
    assert mul[0] == 0x9f10 and mul[2]["wb"] is None and mul[2]["rb"] is None
    assert mul[2]["wait"] == 1 << 5


def test_check_sm90_sass_finds_writes_to_inflight_wgmma_operands():
    # Session 17 call 1's state pass, reduced: an RS HGMMA group reads R88-R91, and an
    # instruction writes R88 before the group's WARPGROUP.DEPBAR. A write after it, or to other
    # registers, or a store whose first operand is an address, is fine; DEPBAR.LE gsb0, 0x1
    # keeps the latest group in flight.
    import check_sm90_sass as c
    ins = [(0, "HGMMA.64x128x16.F32.BF16 R24, R88, gdesc[UR12].tnspB, R24, gsb0"),
           (1, "STS [R88], R4"),
           (2, "LOP3.LUT R12, R0, 0x8, RZ, 0xc0, !PT"),
           (3, "LOP3.LUT R88, R0, 0x8, RZ, 0xc0, !PT"),
           (4, "WARPGROUP.DEPBAR.LE gsb0, 0x0"),
           (5, "MOV R89, R3")]
    assert c.inflight_operand_writes(ins) == ["LOP3.LUT R88, R0, 0x8, RZ, 0xc0, !PT"]
    two_groups = [(0, "HGMMA.64x64x16.F32.BF16 R24, R88, gdesc[UR4].tnspB, R24, gsb0"),
                  (1, "HGMMA.64x64x16.F32.BF16 R56, R92, gdesc[UR6].tnspB, R56, gsb0"),
                  (2, "WARPGROUP.DEPBAR.LE gsb0, 0x1"),
                  (3, "MOV R88, RZ"),   # the first group is retired
                  (4, "LDSM.16.MT88.4 R92, [R7]")]  # the second is not: R92-R95
    assert c.inflight_operand_writes(two_groups) == ["LDSM.16.MT88.4 R92, [R7]"]


def test_ncu_sass_table_trims_and_ranks(tmp_path, capsys):
    import ncu_sass_table
    raw = tmp_path / "raw.csv"
    raw.write_text('==PROF== noise\n'
                   '"Address","Source","Warp Stall Sampling (All Samples)","Warp Stall Sampling (Not-issued Samples)",'
                   '"Instructions Executed","stall_long_sb","stall_short_sb","stall_long_sb (Not Issued)","Other"\n'
                   '"0x10","  FADD R1, R2, R3","5","5","100","0","5","0","x"\n'
                   '"0x20","  @!P0  BRA 0x10","15","15","100","15","0","15","y"\n')
    table = ncu_sass_table.trim(ncu_sass_table.read_rows(str(raw)))
    assert table[0] == ["Address", "Source", "Warp Stall Sampling (All Samples)",
                        "Warp Stall Sampling (Not-issued Samples)", "Instructions Executed",
                        "stall_long_sb", "stall_short_sb"]
    lines = ncu_sass_table.summary(table, 2).splitlines()
    assert lines[0] == "2 instructions, 20 samples, 200 executed"
    assert "75.0%" in lines[1] and "BRA" in lines[1] and "long_sb 15" in lines[1]
    assert "25.0%" in lines[2] and "short_sb 5" in lines[2]


def test_ncu_durations_groups_launches_by_kernel(tmp_path):
    import ncu_durations
    raw = tmp_path / "ncu.csv"
    head = '"ID","PID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",' \
           '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n'
    row = '"{i}","1","b","h","{k}","1","7","(384,1,1)","(132,1,1)","0","9.0","s","gpu__time_duration.sum","us","{v}"\n'
    # flashssd_bench's JSON line comes before ncu's table and splits into many CSV fields.
    bench_json = '{"bench": "flashssd_forward", "status": "ok", "device": "H200", "sm": 90, "config": "R1", ' \
                 '"batch": 8, "seqlen": 8192, "H": 64, "P": 64, "N": 128, "G": 1, "dtype": "bf16", "z": false}\n'
    raw.write_text("==PROF== Connected\n" + bench_json + head + row.format(i=0, k="scores(P)", v="80.5")
                   + row.format(i=1, k="main(P)", v="1,002.25") + row.format(i=2, k="scores(P)", v="81"))
    per = ncu_durations.durations(str(raw))
    assert list(per) == ["scores(P)", "main(P)"]
    assert per["scores(P)"] == [(80.5, "us"), (81.0, "us")] and per["main(P)"] == [(1002.25, "us")]
    assert "n=2 80.5us 81.0us" in ncu_durations.summary(per)
    empty = tmp_path / "failed.csv"
    empty.write_text("==ERROR== no kernels profiled\n")
    assert ncu_durations.durations(str(empty)) is None and ncu_durations.main([str(empty)]) == 1


def test_probe_ab_summary_medians_and_ratios():
    import probe_ab_summary

    log = textwrap.dedent("""\
        NVIDIA H200, 1980 MHz, 1980 MHz, 38
        round=1 base [--N 128] 0.50
        round=1 new [--N 128] 0.45
        round=1 base [--N 64] failed
        round=1 new [--N 64] 0.40
        round=2 base [--N 128] 0.52
        round=2 new [--N 128] 0.46
        round=3 base [--N 128] 0.51
        round=3 new [--N 128] 0.47
        round=2 base [--N 64] failed
        round=2 new [--N 64] 0.42
        """).splitlines()
    table = probe_ab_summary.parse(log)
    assert table == {"--N 128": {"base": [0.50, 0.52, 0.51], "new": [0.45, 0.46, 0.47]},
                     "--N 64": {"base": [], "new": [0.40, 0.42]}}
    lines = probe_ab_summary.summarise(table).splitlines()
    assert lines[0] == "[--N 128]  base 0.5100 (0.5000-0.5200)  new 0.4600 (0.4500-0.4700) -9.8%"
    assert lines[1] == "[--N 64]  base failed  new 0.4100 (0.4000-0.4200)"  # no base: no ratio


def test_ncu_stall_table_usage():
    """scripts/ncu_stall_table.sh (device only) refuses a call without its three arguments."""
    script = os.path.join(HERE, os.pardir, "scripts", "ncu_stall_table.sh")
    cp = subprocess.run(["bash", script, "only-a-name"], capture_output=True, text=True)
    assert cp.returncode == 2 and "usage: ncu_stall_table.sh" in cp.stderr


def test_placement_medians_split_the_timed_runs_by_copy(tmp_path):
    # Runs in order, taking copies 1, 2, 0, 1, 2, 0, 1 (a rotation entered mid-turn).
    times = [5.0, 9.0, 1.0, 6.0, 8.0, 2.0, 7.0]
    order = [1, 2, 0, 1, 2, 0, 1]
    assert compare.placement_medians(times, order, 3) == [1.5, 6.0, 8.5]
    assert compare.placement_medians(times, order, 1) is None
    assert compare.placement_medians(None, order, 3) is None
    assert compare.placement_medians(times, order[1:], 3) is None
    assert compare.median([3.0, 1.0, 2.0]) == 2.0 and compare.median([4.0, 1.0]) == 2.5
    row = plan()[0]
    row.update(flashssd_ms=1.0, triton_ms=2.0, flashssd_ms_by_placement=[0.9, 1.0, 1.1],
               triton_ms_by_placement=[2.0, 2.0, 2.1])
    rep = report_for([row])
    assert compare.check_schema(rep) == []
    lines = compare.render_placements(rep)
    assert any("0.900 / 1.000 / 1.100" in l for l in lines), lines
    compare.write_markdown(rep, tmp_path / "r.md")
    assert "Medians per placement" in (tmp_path / "r.md").read_text()


def test_fwd_row_records_medians_per_placement(monkeypatch):
    torch = pytest.importorskip("torch")
    import triton_baseline as tb
    monkeypatch.setattr(compare, "DEVICE", "cpu")
    ptrs = []  # x's address at each call: which input copy it used

    def ref_fn(x, dt, A, B, C, chunk, D=None, z=None, dt_bias=None, dt_softplus=False):
        ptrs.append(x.data_ptr())
        return tb.ssd_reference(x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=dt_softplus).to(x.dtype)

    class CopyTimer:
        # Three untimed calls (Timer's first call, estimate, warm-up), so the timed runs enter
        # the rotation mid-turn; then five timed runs, 1 ms on the original inputs (the copy the
        # correctness check used, ptrs[0]) and 2 ms on the other copy.
        def __call__(self, fn):
            for _ in range(3):
                fn()
            start = len(ptrs)
            for _ in range(5):
                fn()
            self.last_times = [1.0 if p == ptrs[0] else 2.0 for p in ptrs[start:]]
            return 1.5, 5

    row = small_row()
    compare.run_fwd_row(torch, compare.parse_args(["--placements", "2"]), row, 1, CopyTimer(), ref_fn, ref_fn, {})
    assert row["flashssd_ms"] == 1.5 and row["triton_ms"] == 1.5, row["errors"]
    assert row["flashssd_ms_by_placement"] == [1.0, 2.0] and row["triton_ms_by_placement"] == [1.0, 2.0]
    row = small_row()
    compare.run_fwd_row(torch, compare.parse_args(["--placements", "1"]), row, 1, CopyTimer(), ref_fn, ref_fn, {})
    assert "flashssd_ms_by_placement" not in row and "triton_ms_by_placement" not in row


def test_host_overhead_times_every_layer_on_the_cpu(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("flashssd")
    out = tmp_path / "host.json"
    run = subprocess.run([sys.executable, os.path.join(HERE, "host_overhead.py"), "--device", "cpu", "--iters", "20",
                          "--rounds", "1", "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(out.read_text())
    assert [r["layer"] for r in result["rows"]] == ["api", "op", "body", "extension", "tensors", "import", "outputs"]
    assert all(r["us_per_call"] > 0 for r in result["rows"])
    assert result["device"] == "cpu" and result["y_rel_err"] < 2e-2


def test_host_overhead_times_the_layers_asked_for_at_a_length(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("flashssd")
    out = tmp_path / "host.json"
    run = subprocess.run([sys.executable, os.path.join(HERE, "host_overhead.py"), "--device", "cpu", "--iters", "5",
                          "--rounds", "1", "--seqlen", "256", "--layers", "extension,import", "--json", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(out.read_text())
    assert [r["layer"] for r in result["rows"]] == ["extension", "import"]
    assert result["seqlen"] == 256 and result["y_rel_err"] < 2e-2
    bad = subprocess.run([sys.executable, os.path.join(HERE, "host_overhead.py"), "--device", "cpu", "--layers", "nope"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "unknown layers" in bad.stdout
