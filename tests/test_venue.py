"""The venue and template of a report (`--template auto`) and the concise-body filters."""

from __future__ import annotations

import pytest

from reportkit.failure.signature import Location, Signature
from reportkit.report import collect as C
from reportkit.report import spyre as S
from reportkit.report.render import render_issue
from reportkit.report.venue import choose, relevant_env, short_traceback

TORCH = C.PackageInfo("torch", C.COLLECTED, version="2.13.0+cpu")
SPYRE = C.PackageInfo("torch_spyre", C.COLLECTED, version="0.3.0")
NO_SPYRE = C.PackageInfo("torch_spyre", reason="not installed")
LIB = Location("torch/nn/modules/linear.py", "forward", 134, "return F.linear(input, self.weight, self.bias)")
MINE = Location("s.py", "parse", 5, "raise ValueError(f'bad {x}')", in_script=True, user_code=True)
TB_LIB = 'Traceback (most recent call last):\n  File "s.py", line 3, in <module>\n  File ' \
         '"/v/lib/python3.11/site-packages/torch/nn/modules/linear.py", line 134, in forward\nRuntimeError: x\n'
TB_MINE = 'Traceback (most recent call last):\n  File "s.py", line 5, in parse\nValueError: bad 1\n'


def collected(source: str, *, torch=TORCH, spyre=NO_SPYRE, location=LIB, exc="RuntimeError", tb=TB_LIB,
              calls=(), ladder=None, message="x") -> C.Collected:
    sig = Signature(kind="exception", exc_type=exc, message=message, raw_message=message, location=location,
                    script_frame=MINE)
    return C.Collected(
        script="/p/s.py", script_name="s.py", args=[], python="python", source=source, policy="strict",
        signature=sig, env=C.EnvInfo(status=C.COLLECTED, python="3.11", os="Linux", torch=torch, torch_spyre=spyre,
                                     collect_env="PyTorch version: 2.13.0\nROCM used to build PyTorch: N/A\n"),
        debug_run=C.DebugRun(status=C.COLLECTED, error_output=tb, stderr=tb, compile_calls=list(calls)),
        evidence=dict(spyre_logs=S.SpyreLogs(), fx=C.FxArtifacts(), sdsc=S.SdscArtifacts(),
                      ffdc=S.FfdcInfo(), ladder=ladder or C.Comparison(reason="not compiled"),
                      spyre_comparison=S.SendnnComparison(), hang=C.HangInfo()))


EAGER = "import torch\nm = torch.nn.Linear(3, 4)\nm(torch.randn(2, 5))\n"
COMPILED = "import torch\nf = torch.compile(torch.sin, fullgraph=True)\nf(torch.randn(2))\n"
ON_SPYRE = "import torch\nx = torch.randn(2, device='spyre')\n"


@pytest.mark.parametrize("source, kw, template, repo", [
    (EAGER, {}, "pytorch", "pytorch/pytorch"),
    (COMPILED, {}, "pytorch-compile", "pytorch/pytorch"),
    (COMPILED, {"spyre": SPYRE}, "pytorch-compile", "pytorch/pytorch"),  # installed but not involved
    (ON_SPYRE, {"spyre": SPYRE}, "torch-spyre", "torch-spyre/torch-spyre"),
    (EAGER, {"location": Location("torch_spyre/ops.py", "copy", 3)}, "torch-spyre", "torch-spyre/torch-spyre"),
    ("import json\njson.loads('{')\n", {"location": Location("json/decoder.py", "decode", 3)}, "generic", None),
    (EAGER, {"torch": C.PackageInfo("torch", reason="not installed")}, "generic", None),
])
def test_venue(source, kw, template, repo):
    venue = choose(collected(source, **kw))
    assert (venue.template, venue.repo) == (template, repo)
    assert venue.own_bug is None


def test_custom_backend_failure_is_for_the_backend_owners():
    ladder = C.Comparison(status=C.COLLECTED, stage="custom backend",
                          verdict="fails only with the custom backend `stick_backend`: ... all pass")
    venue = choose(collected(COMPILED, ladder=ladder))
    assert venue.template == "pytorch-compile" and venue.repo is None and "stick_backend" in venue.reason


def test_the_scripts_own_bug_is_called_out():
    venue = choose(collected("import json\n", location=MINE, exc="ValueError", tb=TB_MINE))
    assert venue.own_bug and "script's own code" in venue.own_bug
    assert choose(collected("import json\n", location=MINE, exc="AssertionError", tb=TB_MINE)).own_bug is None


@pytest.mark.parametrize("template", ["pytorch-compile", "generic"])
def test_new_templates_render(template):
    text = render_issue(collected(COMPILED), template)
    assert "f = torch.compile(torch.sin, fullgraph=True)" in text and "RuntimeError: x" in text
    assert text.index("torch.compile(torch.sin") < text.index("RuntimeError: x")  # the reproducer first
    assert ("TORCH_TRACE=" in text) is (template == "pytorch-compile")
    assert "Torch-Spyre" not in text


def test_concise_filters():
    tb = ('Traceback (most recent call last):\n  File "/v/lib/python3.11/site-packages/torch/nn/modules/module.py",'
          ' line 1778, in _wrapped_call_impl\n    return self._call_impl(*args, **kwargs)\n'
          '           ^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/v/lib/python3.11/site-packages/torch/nn/modules/linear.py", '
          'line 134, in forward\n    return F.linear(input, self.weight, self.bias)\nRuntimeError: x')
    short = short_traceback(tb)
    assert "_call_impl" not in short and "^^^" not in short and "1 frames of torch.nn.Module" in short
    assert '"…/site-packages/torch/nn/modules/linear.py", line 134' in short and short.endswith("RuntimeError: x")
    env = relevant_env("PyTorch version: 2.13\nROCM used to build PyTorch: N/A\nIs CUDA available: False\n"
                       "Vulnerability Meltdown:  Not affected\nFlags:   fpu vme\nModel name:        AMD EPYC\n")
    assert env.splitlines() == ["PyTorch version: 2.13", "Model name: AMD EPYC",
                                "Not available / not applicable: ROCM used to build PyTorch, CUDA"]


SHAPES = "mat1 and mat2 shapes cannot be multiplied (64x576 and 3136x128)"
CONV = ("Given groups=1, weight of size [16, 3, 3, 3], expected input[8, 1, 28, 28] to have 3 channels, "
        "but got 1 channels instead")
CONV_LOC = Location("torch/nn/modules/conv.py", "_conv_forward", 543, "return F.conv2d(input, weight, bias)")
EAGER_LADDER = C.Comparison(status=C.COLLECTED, stage="eager", verdict="fails with every backend, eager too")


@pytest.mark.parametrize("source, kw, shown", [
    (EAGER, {"message": SHAPES}, ["64x576 and 3136x128", "torch/nn/modules/linear.py (forward)"]),
    (EAGER, {"message": CONV, "location": CONV_LOC}, ["[16, 3, 3, 3] and [8, 1, 28, 28]", "conv.py"]),
    (EAGER, {"message": "size mismatch for fc.weight: copying a param with shape [4, 3]"}, ["size mismatch"]),
    (COMPILED, {"message": SHAPES, "ladder": EAGER_LADDER}, ["64x576"]),  # compiled, but eager fails too
])
def test_library_input_check_on_the_scripts_values_is_a_likely_usage_error(source, kw, shown):
    venue = choose(collected(source, **kw))
    assert venue.usage and venue.usage.startswith("likely a usage error") and "before filing" in venue.usage
    assert venue.check_first == venue.usage
    for fragment in shown:
        assert fragment in venue.usage
    assert "s.py:5" in venue.usage  # the script's line that called the op


@pytest.mark.parametrize("source, kw", [
    (EAGER, {}),  # a library error that is not an input check
    (COMPILED, {"message": SHAPES}),  # only under torch.compile (the ladder does not say eager fails too)
    (ON_SPYRE, {"message": SHAPES, "spyre": SPYRE}),  # Spyre's verdicts are the Spyre venue's business
])
def test_not_a_usage_error(source, kw):
    assert choose(collected(source, **kw)).usage is None


@pytest.mark.parametrize("template", ["pytorch", "pytorch-compile", "generic"])
def test_footer_points_at_no_tarball_upstream_cannot_see(template):
    text = render_issue(collected(COMPILED), template, bundle_name="reportkit-bundle-s.tar.gz")
    assert ".tar.gz" not in text and "available on request" in text


def test_headline_never_ends_in_an_empty_message():
    from reportkit.report.render import default_title, describe_problem

    bare = Location("s.py", "<module>", 4, "assert out.shape == ref.shape", in_script=True, user_code=True)
    c = collected(EAGER, exc="AssertionError", message="", location=bare)
    assert default_title(c) == "AssertionError at assert out.shape == ref.shape (s.py)"
    problem = describe_problem(c)
    assert "raises `AssertionError` at `assert out.shape == ref.shape`" in problem
    assert ": \n" not in problem and "`AssertionError`: " not in problem
    plain = collected(EAGER, exc="KeyError", message="", location=LIB)
    assert default_title(plain).startswith("KeyError (s.py")


def test_bundle_of_a_usage_error_gives_no_upstream_command(tmp_path):
    """Example 02 (an nn.Linear fed the wrong shape, 130 lines): no ready `gh issue create --repo pytorch/pytorch`,
    a check-first note naming the op and the shapes, and a hint to minimize the long reproducer."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "02_eager_shape_error" / "train_classifier.py"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "bundle", str(script), "--issue", "--no-ladder",
                           "--out", str(tmp_path / "b")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "gh issue create" not in proc.stdout
    assert "likely a usage error" in proc.stdout and "64x576 and 3136x128" in proc.stdout
    assert "--minimize" in proc.stdout
    assert ".tar.gz" not in (tmp_path / "b" / "issue.md").read_text()
