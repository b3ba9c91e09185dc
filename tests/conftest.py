"""Shared fixtures."""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

import reportkit
from reportkit.run import sandbox


def pytest_configure(config):
    """The suite starts reportkit in a new interpreter thousands of times: its modules are compiled once,
    here, in the controlling process. An editable install leaves no bytecode, and where the environment
    says ``PYTHONDONTWRITEBYTECODE`` each of those starts compiled every module again (~0.25 s)."""
    if not hasattr(config, "workerinput"):  # (pytest-xdist's workers: the controller did it)
        compileall.compile_dir(Path(reportkit.__file__).parent, quiet=1)


#: Files whose tests run whole pipelines (a minimization, a bundle, ci over a suite, hangs waiting out their
#: timeouts: 20-90 s each under the CI's load). They are collected first, so that pytest-xdist hands them out
#: while the quick tests can still fill the other workers: started last, one of them ran for minutes after the
#: rest were done (the default run sat at 97% for 4 of its 21 minutes).
LONG_FIRST = ("test_ci_matrix.py", "test_ci_culprit.py", "test_collect.py", "test_examples.py", "test_adversarial.py",
              "test_good_check.py", "test_hang.py", "test_ci.py", "test_deep_trees.py", "test_flatten.py",
              "test_pytest_targets.py", "test_bundle.py", "test_redact_channels.py", "test_materialize.py",
              "test_minimize.py", "test_signature.py", "test_warm.py", "test_cause_rule.py", "test_sandbox_layers.py")


def pytest_collection_modifyitems(config, items):
    """The :data:`LONG_FIRST` files' tests first (a stable sort: the order within each part stays)."""
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(params=["bwrap", "fallback"])
def protection_mode(request, monkeypatch):
    """Run the test once under bubblewrap (skipped where it cannot run) and once under the fallback guard,
    forced through REPORTKIT_SANDBOX, so the no-bwrap path is tested on a machine that has bwrap."""
    monkeypatch.setenv(sandbox.FORCE_ENV, request.param)
    if request.param == "bwrap":
        try:
            sandbox.protection()
        except Exception as exc:  # noqa: BLE001 - UserError: no usable bwrap here
            pytest.skip(str(exc))
    return request.param
