"""examples/mamba2_block.py on the CPU: it runs, compiles without graph breaks, and
its SSD is the one the float64 reference computes."""

from __future__ import annotations

import importlib.util
import os

import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
flashssd = pytest.importorskip("flashssd", reason="the flashssd module is not built / not on PYTHONPATH")

from ssd_reference import rel_err, ssd_reference  # noqa: E402

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "mamba2_block.py")


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("mamba2_block_example", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _ReferenceSSD:
    """Mixin: the block's SSD computed by the float64 torch reference."""

    def ssd(self, x, dt, A, B, C):
        y, _, _ = ssd_reference(
            x, dt, A, B, C, D=self.D.float(), dt_bias=self.dt_bias.float(), dt_softplus=True, dt_limit=self.dt_limit
        )
        return y.to(x.dtype)


def test_block_matches_reference_and_compiles(example):
    torch.manual_seed(0)
    block = example.Mamba2Block(64, d_state=16, headdim=16, ngroups=2).eval()
    ref_block = type("RefBlock", (_ReferenceSSD, example.Mamba2Block), {})(64, d_state=16, headdim=16, ngroups=2)
    ref_block.load_state_dict(block.state_dict())
    u = torch.randn(2, 40, 64)
    torch._dynamo.reset()
    with torch.inference_mode():
        out = block(u)
        assert rel_err(out, ref_block(u)) < 1e-5
        compiled = torch.compile(block, backend="aot_eager", fullgraph=True)
        torch.testing.assert_close(compiled(u), out, rtol=1e-6, atol=1e-6)
        explain = torch._dynamo.explain(block)(u)
    assert explain.graph_break_count == 0


def test_block_forward_needs_inference_mode(example):
    block = example.Mamba2Block(32, d_state=16, headdim=16)
    with pytest.raises(NotImplementedError, match="backward pass"):
        block(torch.randn(1, 8, 32))


def test_command_line(example, capsys):
    assert (
        example.main(
            [
                "--device",
                "cpu",
                "--seqlen",
                "24",
                "--d-model",
                "32",
                "--d-state",
                "16",
                "--headdim",
                "16",
                "--bench",
                "--iters",
                "1",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "forward ok" in printed and "block  flashssd" in printed
