"""``reportkit ci`` without a good revision: group failed tests by the function of the code under test that
most likely holds their bug (spectrum-based fault localization, Ochiai).

Each test module holding a confirmed failure is run once, whole (its failing and its passing tests), with a
pytest plugin (``_spectrum/rk_spectrum_plugin.py``) that records which functions under the rootdir each test
calls. A function's suspiciousness is Ochiai's ``failed(f) / sqrt(total_failed * (failed(f) + passed(f)))``,
computed for each failure (the tests its signature groups) on its own, over the tests of those modules; a
failure's *suspect* is the most suspicious function its tests call in the code under test (not test code).
Failures with the same suspect are one group, and two groups merge when the suspect of their tests together
is one of theirs and all of them call it (:func:`group`): a guess (two bugs in one function are one group;
tests of one bug reached through different entry points may stay apart), and the summary says so. ``--good REV`` replaces it with the culprit search.
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
from reportkit.redact import clip_words

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


def _counts(spectrum: Spectrum, candidates: Callable[[str], bool]) -> tuple[set[int], dict[int, int], dict[int, int]]:
    """The functions under test, and how many failed and how many passed tests call each."""
    under_test = {i for i, (file, _name) in enumerate(spectrum.functions) if candidates(file)}
    failed_by: dict[int, int] = {}
    passed_by: dict[int, int] = {}
    for failed, ids in spectrum.tests.values():
        counts = failed_by if failed else passed_by
        for i in ids:
            if i in under_test:
                counts[i] = counts.get(i, 0) + 1
    return under_test, failed_by, passed_by


def suspect_of(spectrum: Spectrum, tests: Iterable[str], candidates: Callable[[str], bool],
               counts: Optional[tuple] = None) -> Optional[tuple[str, str]]:
    """The most suspicious function under test for a set of failed tests taken as one bug: Ochiai's
    ``ef / sqrt(n * (ef + ep))`` with ``n`` the tests of the set that were traced, ``ef`` those of them calling
    the function and ``ep`` the passing tests calling it (the other failed tests count neither way: they may
    fail through it too). Ties go to the function more failed tests call, then fewer passing ones. None when
    no traced test of the set calls code under test."""
    under_test, failed_by, passed_by = counts or _counts(spectrum, candidates)
    calls: dict[int, int] = {}
    n = 0
    for test in dict.fromkeys(tests):
        if test not in spectrum.tests:
            continue
        n += 1
        for i in spectrum.tests[test][1]:
            if i in under_test:
                calls[i] = calls.get(i, 0) + 1
    if not calls:
        return None

    def rank(i: int) -> tuple:
        score = calls[i] / math.sqrt(n * (calls[i] + passed_by.get(i, 0)))
        return round(score, 9), failed_by.get(i, 0), -passed_by.get(i, 0), spectrum.functions[i]

    return spectrum.functions[max(calls, key=rank)]


def group(spectrum: Spectrum, clusters: list[list[str]], candidates: Callable[[str], bool]
          ) -> list[tuple[list[str], Optional[tuple[str, str]]]]:
    """Failed tests grouped by the function their bug most likely is in. ``clusters`` are the failures as their
    signatures group them (tests failing the same way). Each gets its suspect (:func:`suspect_of`, over its own
    tests); its tests that do not call that function are split off as a cluster of their own (scored in turn: a
    bug behind one shared assert helper or one exception type); clusters with the same suspect are one group.
    Then two groups merge while the function that best explains their tests together (the suspect of their
    union) is one of their two suspects and every test of the union calls it: a test reaching the bug through
    an entry point only it calls has that entry as its own suspect, but with the other tests of its bug the bug's
    function explains them all better. Scoring each group on its own tests, never all failed tests at once,
    keeps a function every failed test calls (a small library's common entry, called by passing tests too) from
    outranking the buggy functions that only some of them call: it is the union's suspect of no two bugs'
    groups (it is neither group's own). Returns (tests, suspect or None) per group, in the clusters' order."""
    counts = _counts(spectrum, candidates)
    index = {f: i for i, f in enumerate(spectrum.functions)}
    out: list[tuple[list[str], Optional[tuple[str, str]]]] = []
    at: dict[tuple[str, str], int] = {}
    pending = [list(dict.fromkeys(c)) for c in clusters if c]
    while pending:
        tests = pending.pop(0)
        suspect = suspect_of(spectrum, tests, candidates, counts)
        if suspect is not None:
            away = [t for t in tests if t in spectrum.tests and index[suspect] not in spectrum.tests[t][1]]
            if away:
                pending.append(away)
                tests = [t for t in tests if t not in away]
        if suspect is not None and suspect in at:
            out[at[suspect]][0].extend(t for t in tests if t not in out[at[suspect]][0])
            continue
        if suspect is not None:
            at[suspect] = len(out)
        out.append((tests, suspect))
    while (pair := _best_merge(spectrum, out, candidates, counts, index)) is not None:
        i, j, suspect = pair
        out[i] = (out[i][0] + out[j][0], suspect)
        del out[j]
    return out


def _best_merge(spectrum: Spectrum, groups: list, candidates: Callable[[str], bool], counts: tuple,
                index: dict) -> Optional[tuple[int, int, tuple[str, str]]]:
    """The two groups (i < j) whose union's suspect is one of their own suspects and is called by every traced
    test of the union, the best explained (Ochiai of that suspect over the union) first; None when none."""
    _under_test, _failed_by, passed_by = counts
    best, found = -1.0, None
    for i, (tests_i, suspect_i) in enumerate(groups):
        for j in range(i + 1, len(groups)):
            tests_j, suspect_j = groups[j]
            if suspect_i is None or suspect_j is None:
                continue
            union = [t for t in tests_i + tests_j if t in spectrum.tests]
            suspect = suspect_of(spectrum, union, candidates, counts)
            if suspect not in (suspect_i, suspect_j) or not union:
                continue
            k = index[suspect]
            if any(k not in spectrum.tests[t][1] for t in union):
                continue
            score = len(union) / math.sqrt(len(union) * (len(union) + passed_by.get(k, 0)))
            if score > best:
                best, found = score, (i, j, suspect)
    return found


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
            on_step(f"  {module}: no trace ({clip_words(outcome.signature.headline().splitlines()[0], 120)})")
            continue
        # node ids are relative to the pytest rootdir (the run's working directory): make them the repository's
        root = spec.root or spec.script.parent
        prefix = os.path.relpath(root, options.repo_root).replace(os.sep, "/")
        spectrum.add(*found, prefix="" if prefix == "." else prefix + "/")
    return spectrum
