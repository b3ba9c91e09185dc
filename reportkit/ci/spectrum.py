"""``reportkit ci`` without a good revision: group failed tests by the function of the code under test that
most likely holds their bug (spectrum-based fault localization, Ochiai).

Each test module holding a confirmed failure is run once, whole (its failing and its passing tests), with a
pytest plugin (``_spectrum/rk_spectrum_plugin.py``) that records which functions under the rootdir each test
calls. A function's suspiciousness is Ochiai's ``failed(f) / sqrt(total_failed * (failed(f) + passed(f)))``,
over the tests of those modules; a failed test's *suspect* is the most suspicious function it calls in the
code under test (not test code), ties going to the function fewer tests call (the more specific). Tests
with the same suspect are one group: a guess (two bugs in one function are one group, a bug reached only
through a function every test calls is not told apart), and the summary says so. ``--good REV`` replaces it
with the culprit search.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

from reportkit.failure.check import Check
from reportkit.failure.signature import MatchPolicy

PLUGIN_DIR = Path(__file__).resolve().parent / "_spectrum"
PLUGIN = "rk_spectrum_plugin"
MARK = "RK-SPECTRUM "


@dataclass
class Spectrum:
    """Which functions (file, qualname) each test called, and which tests failed."""

    functions: list[tuple[str, str]] = field(default_factory=list)
    tests: dict[str, tuple[bool, frozenset[int]]] = field(default_factory=dict)  # node id -> (failed, functions)

    def add(self, functions: list, tests: dict, prefix: str = "") -> None:
        index = {}
        for i, (file, name) in enumerate(functions):
            key = (prefix + file, name)
            if key not in index:
                try:
                    index[i] = self.functions.index(key)
                except ValueError:
                    self.functions.append(key)
                    index[i] = len(self.functions) - 1
        for node, (failed, ids) in tests.items():
            self.tests[prefix + node] = (bool(failed), frozenset(index[i] for i in ids if i in index))


def parse_output(stdout: str) -> Optional[tuple[list, dict]]:
    """The plugin's record from a run's standard output; None when it printed none."""
    for line in reversed(stdout.splitlines()):
        at = line.find(MARK)
        if at >= 0:
            try:
                data = json.loads(line[at + len(MARK):])
                return data["functions"], data["tests"]
            except (ValueError, KeyError, TypeError):
                return None
    return None


def ochiai(spectrum: Spectrum, candidates: Callable[[str], bool]) -> dict[int, float]:
    """Suspiciousness of each function whose file passes ``candidates`` (the code under test)."""
    total_failed = sum(failed for failed, _ in spectrum.tests.values())
    failed_by: dict[int, int] = {}
    passed_by: dict[int, int] = {}
    for failed, ids in spectrum.tests.values():
        for i in ids:
            (failed_by if failed else passed_by)[i] = (failed_by if failed else passed_by).get(i, 0) + 1
    scores = {}
    for i, (file, _name) in enumerate(spectrum.functions):
        if not candidates(file):
            continue
        ef, ep = failed_by.get(i, 0), passed_by.get(i, 0)
        scores[i] = ef / math.sqrt(total_failed * (ef + ep)) if ef and total_failed else 0.0
    return scores


def suspects(spectrum: Spectrum, candidates: Callable[[str], bool]) -> dict[str, tuple[str, str]]:
    """Each failed test's suspect function (file, qualname); tests calling none under test are left out."""
    scores = ochiai(spectrum, candidates)
    callers: dict[int, int] = {}
    for _failed, ids in spectrum.tests.values():
        for i in ids:
            callers[i] = callers.get(i, 0) + 1
    out = {}
    for node, (failed, ids) in spectrum.tests.items():
        mine = [i for i in ids if i in scores and scores[i] > 0]
        if failed and mine:
            best = max(mine, key=lambda i: (round(scores[i], 9), -callers[i], spectrum.functions[i]))
            out[node] = spectrum.functions[best]
    return out


def record(modules: Iterable[str], options, on_step: Callable[[str], None] = lambda m: None) -> Spectrum:
    """Run each test module (relative to ``options.repo_root``) once, whole, under the plugin, through the
    one door (:class:`~reportkit.failure.check.Check`, in the sandbox); their records merged, node ids
    relative to the repository root as the JUnit ones are."""
    from reportkit.errors import UserError
    from reportkit.run.runner import target_spec

    spectrum = Spectrum()
    for module in modules:
        current = os.environ.get("PYTHONPATH")
        env = {"PYTHONPATH": os.pathsep.join([*([current] if current else []), str(PLUGIN_DIR)])}
        try:
            spec, _source = target_spec(str(options.repo_root / module), ["-p", PLUGIN], python=options.python,
                                        timeout=options.timeout, env=env, repo_root=options.repo_root,
                                        pytest_module=True)
            spec.env["RK_SPECTRUM_ROOT"] = str(spec.root or spec.script.parent)
        except UserError as exc:
            on_step(f"  {module}: not traced ({exc.message.splitlines()[0]})")
            continue
        on_step(f"tracing the tests of {module} (once, all of them) ...")
        outcome = Check(spec, MatchPolicy()).run()
        found = parse_output(outcome.result.stdout)
        if found is None:
            on_step(f"  {module}: no trace ({outcome.signature.headline().splitlines()[0][:120]})")
            continue
        # node ids are relative to the pytest rootdir (the run's working directory): make them the repository's
        root = spec.root or spec.script.parent
        prefix = os.path.relpath(root, options.repo_root).replace(os.sep, "/")
        spectrum.add(*found, prefix="" if prefix == "." else prefix + "/")
    return spectrum
