"""Shared fixtures."""

from __future__ import annotations

import pytest

from reportkit.run import sandbox


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
