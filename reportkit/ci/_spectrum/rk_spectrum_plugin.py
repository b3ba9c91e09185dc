"""pytest plugin for ``reportkit ci``'s grouping without a good revision (stdlib only; loaded in the target
interpreter with ``-p rk_spectrum_plugin``, its directory on PYTHONPATH).

For every test it records the functions called while the test runs (``sys.setprofile``: call and return
events) in the files under the working directory (the mirror of the rootdir), but none called from code that
only describes a failure (an assertion message's reprs), and whether the test failed;
at the end of the session it prints one line ``RK-SPECTRUM <json>`` to the real standard output:
``{"functions": [[file, qualname], ...], "tests": {nodeid: [failed, [function index, ...]]}}``.
"""

import json
import os
import sys

import pytest

MARK = "RK-SPECTRUM "
# the run's working directory (a mirror of the rootdir) and the rootdir itself (an editable install's files)
_ROOTS = [r.rstrip(os.sep) + os.sep for r in (os.getcwd(), os.environ.get("RK_SPECTRUM_ROOT")) if r]
_functions = {}
_tests = {}
_skip = ("site-packages", "dist-packages", os.sep + "_pytest" + os.sep, os.sep + "pluggy" + os.sep)
# code that only describes a failure after the fact (pytest's assertion messages, unittest's and reprlib's reprs,
# pprint, difflib): what it calls (the objects' __repr__, __iter__ ...) ran because the test failed, not why
_REPORTING = tuple(os.sep + p for p in (
    os.path.join("_pytest", "assertion", ""), os.path.join("_pytest", "_io", ""), os.path.join("unittest", "util.py"),
    "reprlib.py", "pprint.py", "difflib.py"))


def _relative(filename):
    if not filename or filename.startswith("<"):
        return None
    path = os.path.abspath(filename)
    if any(s in path for s in _skip):
        return None
    for root in _ROOTS:
        if path.startswith(root):
            return path[len(root):].replace(os.sep, "/")
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    seen = set()
    files = {}
    reporting = {}  # caller file -> whether it describes a failure
    muted = []  # the frames called from such code: nothing under them is recorded

    def profile(frame, event, arg):
        if muted:
            if event == "return" and frame is muted[-1]:
                muted.pop()
            elif event == "call":
                muted.append(frame)  # every call under it, so that the outermost one's return unmutes
            return
        if event != "call":
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        mute = reporting.get(caller)
        if mute is None:
            mute = reporting[caller] = any(r in caller for r in _REPORTING)
        if mute:
            muted.append(frame)
            return
        code = frame.f_code
        rel = files.get(code.co_filename, False)
        if rel is False:
            rel = files[code.co_filename] = _relative(code.co_filename)
        if rel is not None:
            seen.add((rel, getattr(code, "co_qualname", code.co_name)))

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(previous)
        ids = []
        for key in seen:
            ids.append(_functions.setdefault(key, len(_functions)))
        _tests.setdefault(item.nodeid, [False, []])[1] = sorted(ids)


def pytest_runtest_logreport(report):
    if report.failed and report.nodeid in _tests or (report.failed and report.when != "teardown"):
        _tests.setdefault(report.nodeid, [False, []])[0] = True


def pytest_sessionfinish(session, exitstatus):
    functions = [list(k) for k, _ in sorted(_functions.items(), key=lambda kv: kv[1])]
    line = "\n" + MARK + json.dumps({"functions": functions, "tests": _tests}, separators=(",", ":")) + "\n"
    out = getattr(sys, "__stdout__", None) or sys.stdout
    try:
        out.write(line)
        out.flush()
    except (OSError, ValueError):
        pass
