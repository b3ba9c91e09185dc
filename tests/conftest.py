"""Shared fixtures."""

from __future__ import annotations

import pytest

from reportkit import sandbox


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


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group marks (under --dist loadgroup)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist with `--dist loadgroup` (the README's test command), the tests that start a
    local Ray cluster run on one worker, one after another: two clusters at once on a 2-core machine would
    compete for the same CPUs their slots claim. Every other test is spread over the workers."""
    if not config.pluginmanager.hasplugin("xdist"):  # -p no:xdist: the mark would be unknown (--strict-markers)
        return
    for item in items:
        if item.get_closest_marker("ray"):
            item.add_marker(pytest.mark.xdist_group("ray"))
