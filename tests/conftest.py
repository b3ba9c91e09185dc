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


@pytest.fixture(autouse=True)
def _no_known_secrets_of_other_tests():
    """Each test starts with an empty register of known secrets (reportkit.redact's, process-wide): a value an
    earlier test remembered would otherwise be redacted, whole or cut, in a later test's text."""
    from reportkit import redact

    redact.forget_known()
    yield
