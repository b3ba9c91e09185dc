"""minimize's re-checks of a result that draws unseeded random values (held-out r11-06: ``torch.randn(1, 2)`` as a
distribution's value failed the support check in the one run that accepted it, and passed when run alone, one time
in four). Such a result is run again; where a run does not fail the same way, the result seeded at its top is
written instead when that fails in every re-check, and the report says so either way."""

from __future__ import annotations

import types

import pytest

from reportkit.reduce import minimize as M


@pytest.mark.parametrize("source, expected", [
    ("import torch\nx = torch.randn(1, 2)\n", "import torch\ntorch.manual_seed(0)\nx = torch.randn(1, 2)\n"),
    ('"""Doc."""\nimport numpy as np\nimport random, os\nnp.random.rand(2)\n',
     '"""Doc."""\nimport numpy as np\nimport random, os\nnp.random.seed(0)\nrandom.seed(0)\nnp.random.rand(2)\n'),
    ("from __future__ import annotations\nimport torch as T\nT.rand(3)",
     "from __future__ import annotations\nimport torch as T\nT.manual_seed(0)\nT.rand(3)\n"),
    ("import os\nimport torch\nx = torch.randn(2)\nimport random\n", "import os\nimport torch\ntorch.manual_seed(0)\n"
     "x = torch.randn(2)\nimport random\n"),  # (the imports at the top only: a later one runs after the draws)
    ("from torch import randn\nrandn(2)\n", None),  # (no module to seed by its name)
    ("x = 1\nimport torch\n", None),
    ("import torch\ndef f(:\n", None),
])
def test_seeded(source, expected):
    assert M._seeded(source) == expected


@pytest.mark.parametrize("text, draws", [
    ("torch.randn(1, 2)", True), ("torch.randint_like(x, 3)", True), ("x.uniform_(-1, 1)", True),
    ("nn.Linear(2, 2)", True), ("torch.nn.init.kaiming_uniform_(w)", True), ("np.random.rand(2)", True),
    ("random.choice(xs)", True), ("torch.tensor([1.0])", False), ("nn.functional.relu(x)", False),
    ("torch.zeros(2).normal", False), ("my_random.random", False),
])
def test_what_draws_random_values(text, draws):
    assert bool(M._RANDOM_CALL_RE.search(text)) is draws


class _Runs:
    """``_verify`` stand-in: the unseeded program fails in the runs ``plain`` says (in order), the seeded one in
    the runs ``seeded`` says."""

    def __init__(self, plain: list[bool], seeded: list[bool]) -> None:
        self.plain, self.seeded, self.ran = list(plain), list(seeded), []

    def __call__(self, session, source, keep=None):
        self.ran.append(source)
        fails = (self.seeded if "manual_seed" in source else self.plain).pop(0)
        return fails, None, None


def _steady(tmp_path, monkeypatch, source: str, verified: bool, runs: _Runs):
    monkeypatch.setattr(M, "_verify", runs)
    monkeypatch.setattr(M, "_again", lambda session, source, keep: runs(session, source, keep)[0])
    reduced = types.SimpleNamespace(source=source)
    options = types.SimpleNamespace(output=tmp_path / "s.min.py", output_mode=None)
    got = M._steady(None, reduced, None, options, verified)
    written = options.output.read_text() if options.output.exists() else None
    return got, reduced.source, written


DRAWS = "import torch\nx = torch.randn(1, 2)\nassert (x >= 0).all()\n"


def test_a_result_that_fails_every_time_is_left_as_it_is(tmp_path, monkeypatch):
    runs = _Runs([True] * (M.STEADY_RUNS - 1), [])
    assert _steady(tmp_path, monkeypatch, DRAWS, True, runs) == ((True, ""), DRAWS, None)
    assert len(runs.ran) == M.STEADY_RUNS - 1  # (the re-check was the first)


def test_a_flaky_result_is_seeded_when_that_fails_every_time(tmp_path, monkeypatch):
    runs = _Runs([True, False], [True] * M.SEEDED_RUNS)
    (verified, note), source, written = _steady(tmp_path, monkeypatch, DRAWS, True, runs)
    assert verified and source == written == M._seeded(DRAWS) and "torch.manual_seed(0)" in source
    assert note == ("the result draws random values and did not fail the same way in run 3 of it; seeded at its "
                    "top (torch.manual_seed(0)), in every one of 3")
    assert len(runs.ran) == 2 + M.SEEDED_RUNS  # (no unseeded run after the first that passed)


def test_a_failed_recheck_is_seeded_too(tmp_path, monkeypatch):
    runs = _Runs([], [True] * M.SEEDED_RUNS)
    (verified, note), source, _ = _steady(tmp_path, monkeypatch, DRAWS, False, runs)
    assert verified and "manual_seed" in source and "in run 1 of it" in note


def test_a_result_flaky_when_seeded_too_is_not_verified(tmp_path, monkeypatch):
    runs = _Runs([False], [True, False, True])
    (verified, note), source, written = _steady(tmp_path, monkeypatch, DRAWS, True, runs)
    assert verified is False and source == DRAWS and written is None
    assert note.endswith("in run 2 of it; seeded, it failed the same way in 2 of 3 (flaky)")


def test_a_result_with_nothing_to_seed_is_called_flaky(tmp_path, monkeypatch):
    source = "def draw():\n    import torch\n    return torch.randn(1, 2)\nassert (draw() >= 0).all()\n"
    (verified, note), _, written = _steady(tmp_path, monkeypatch, source, True, _Runs([False], []))
    assert verified is False and written is None and note.endswith("(flaky: nothing to seed at its top)")


@pytest.mark.parametrize("source", ["import torch\nx = torch.tensor([1.0])\n",
                                    "import torch\ntorch.manual_seed(3)\nx = torch.randn(2)\n"])
def test_no_draws_or_seeded_already_runs_nothing_more(tmp_path, monkeypatch, source):
    runs = _Runs([], [])
    assert _steady(tmp_path, monkeypatch, source, True, runs) == ((True, ""), source, None) and not runs.ran
