"""Value materialization and hoisting: the passes on their own, then through reduce_source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from reportkit.reduce.passes import Splice, Together, apply_edits, apply_splices, parses
from reportkit.reduce.passes.hoist import hoist_candidates
from reportkit.reduce.passes.materialize import (
    CAPTURE_ENV,
    EXACT_ENV,
    SEEDED_ENV,
    differing_sites,
    instrument,
    materialize_edits,
    model_input_edits,
    sites,
    without_sites,
)
from reportkit.reduce.schedule import reduce_source


def probe_with(tmp_path, extra_env: dict | None = None):
    """A real probe: run the instrumented program in a subprocess and return the capture file."""
    def probe(program: str, _source: str = "") -> str | None:
        script, capture = tmp_path / "probe.py", tmp_path / "capture.json"
        script.write_text(program)
        capture.unlink(missing_ok=True)
        subprocess.run([sys.executable, str(script)], env={**os.environ, CAPTURE_ENV: str(capture), **(extra_env or {})},
                       capture_output=True, timeout=60)
        return capture.read_text() if capture.exists() else None
    return probe


PIPELINE = textwrap.dedent('''
    """Parses records."""
    from __future__ import annotations
    import re
    from datetime import datetime

    PATTERN = re.compile(r"^(?P<ts>\\S+(?: \\S+)?) \\| (?P<msg>.*)$")


    def records():
        for i in range(3):
            stamp = f"2024-01-0{i + 1}" + ("T10:00:00Z" if i == 2 else " 10:00:00")
            yield f"{stamp} | event {i}"


    for line in records():
        ts = PATTERN.match(line)["ts"]
        datetime.strptime(ts.strip(), "%Y-%m-%d %H:%M:%S")
''')


def test_instrumented_program_keeps_behaviour_and_records_last_values(tmp_path):
    program, spans = instrument(PIPELINE)
    assert parses(program)
    assert program.index("from __future__") < program.index("def __reportkit_value__")
    captured = probe_with(tmp_path)(program)
    values = json.loads(captured)
    texts = {PIPELINE[s:e]: values.get(str(i), [None])[0] for i, (s, e) in enumerate(spans)}
    assert texts['PATTERN.match(line)["ts"]'] == "'2024-01-03T10:00:00Z'"  # the last value, at the failure
    assert texts["line"] == "'2024-01-03T10:00:00Z | event 2'"
    assert texts["PATTERN"] is None  # a compiled pattern has no literal form
    assert "re.compile" not in " ".join(texts)  # reads only imported names: already self-contained


def test_materialize_edits_replace_computed_values():
    spans = [(PIPELINE.index("ts.strip()"), PIPELINE.index("ts.strip()") + len("ts.strip()"))]
    edits = materialize_edits(PIPELINE, spans, json.dumps({"0": ["'2024-01-03T10:00:00Z'", 7]}))
    assert apply_splices(PIPELINE, edits).count("strptime('2024-01-03T10:00:00Z', ") == 1
    assert materialize_edits(PIPELINE, spans, None) == []
    assert materialize_edits(PIPELINE, spans, "not json") == []
    # a tensor text needs ``import torch`` in the module
    assert materialize_edits(PIPELINE, spans, json.dumps({"0": ["torch.randn(2)", 1]})) == []


@pytest.mark.parametrize("source, text, expected", [
    # the script's own name of a dtype (r10-04: ``dtype=torch.cfloat`` had become ``torch.complex64``)
    ("import torch\na = torch.randn(10, 10, dtype=torch.cfloat)\nf(a)\n", "torch.randn(1, 1, dtype=torch.complex64)",
     "torch.randn(1, 1, dtype=torch.cfloat)"),
    ("import torch\na = torch.ones(3, dtype=torch.double)\nf(a)\n", "torch.randn(3, dtype=torch.float64)",
     "torch.randn(3, dtype=torch.double)"),
    # the script names the canonical one too, or neither: the value's text as it is
    ("import torch\na = torch.ones(3, dtype=torch.double).to(torch.float64)\nf(a)\n",
     "torch.randn(3, dtype=torch.float64)", "torch.randn(3, dtype=torch.float64)"),
    ("import torch\na = torch.ones(3).long()\nf(a)\n", "torch.zeros(3, dtype=torch.int64)",
     "torch.zeros(3, dtype=torch.int64)"),
])
def test_materialized_dtypes_keep_the_scripts_names(source, text, expected):
    start = source.index("torch.", source.index("a = "))
    end = source.index("\nf(a)")
    (edit,) = materialize_edits(source, [(start, end)], json.dumps({"0": [text, 1]}))
    assert edit.text == expected


def test_materialize_edits_most_recent_first():
    src = "a = 1\nb = a + 1\nc = b + a\n"
    spans = [(src.index("a + 1"), src.index("a + 1") + 5), (src.index("b + a"), src.index("b + a") + 5)]
    edits = materialize_edits(src, spans, json.dumps({"0": ["2", 1], "1": ["3", 2]}))
    assert [e.text for e in edits] == ["3", "2"]


def test_materialize_edits_take_the_sites_whose_values_varied_only_together():
    src = "a = f()\nb = g(a)\nc = h(b)\n"
    spans = [(src.index(t), src.index(t) + len(t)) for t in ("f()", "g(a)", "h(b)")]
    captured = {"0": ["2", 1, ["2", "2"]], "1": ["'b'", 5, ["'a'", "'b'"]], "2": ["3", 6, [None, "3"]]}
    edits = materialize_edits(src, spans, json.dumps(captured))
    # f() had one value (twice): its own edit; g(a) and h(b) had several (h(b) once unspellable): one
    # edit, all of them at once (the values of one evaluation, the last), ranked by the latest of them
    assert edits == [Together((Splice(*spans[1], "'b'"), Splice(*spans[2], "3"))), Splice(*spans[0], "2")]
    assert apply_edits(src, edits[:1]) == "a = f()\nb = 'b'\nc = 3\n"
    captured["2"] = ["3", 6, ["3"]]  # a single site that varied: an edit of its own
    assert materialize_edits(src, spans, json.dumps(captured)) == [Splice(*spans[2], "3"), Splice(*spans[1], "'b'"),
                                                                   Splice(*spans[0], "2")]


def test_values_that_change_between_evaluations_are_materialized_only_together(tmp_path):
    # a loop's item and a per-call argument have several values: one literal alone would stand for all
    # of them; all of them together are the last evaluation's values
    src = textwrap.dedent('''
        def scale(v, k):
            return v * k

        factor = len("abc")
        for v in [1, 2, 3]:
            out = scale(v, factor)
        assert out == 0
    ''')
    program, spans = instrument(src)
    edits = materialize_edits(src, spans, probe_with(tmp_path)(program))
    alone = sorted((src[e.start:e.end], e.text) for e in edits if isinstance(e, Splice))
    assert alone == [("factor", "3"), ("k", "3"), ("out", "9"), ("out == 0", "False")]
    (together,) = [e for e in edits if isinstance(e, Together)]
    assert sorted((src[e.start:e.end], e.text) for e in together.splices) == [
        ("scale(v, factor)", "9"), ("v", "3"), ("v", "3"), ("v * k", "9")]


@pytest.mark.torch
def test_tensors_and_leaf_modules_are_rendered(tmp_path):
    pytest.importorskip("torch")
    src = textwrap.dedent('''
        import torch

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.head = torch.nn.Linear(6, 3)
                self.body = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.ReLU())

            def forward(self, x):
                return self.head(self.body(x))

        meta = torch.zeros(2, 3, device="meta").long()
        Net()(torch.ones(4, 2, 2))
    ''')
    program, spans = instrument(src)
    values = json.loads(probe_with(tmp_path)(program))
    texts = {src[s:e]: values.get(str(i), [None])[0] for i, (s, e) in enumerate(spans)}
    assert texts["self.body(x)"] == "torch.randn(4, 4)"
    assert texts["self.body"] == ("torch.nn.Sequential(torch.nn.Flatten(start_dim=1, end_dim=-1), "
                                  "torch.nn.ReLU())")
    assert texts["self.head"] == "torch.nn.Linear(in_features=6, out_features=3, bias=True)"
    assert "torch.zeros(2, 3, device=\"meta\").long()" not in texts  # self-contained: not a site
    assert texts["x"] == "torch.randn(4, 2, 2)"


def test_unparenthesized_tuples_stay_one_value(tmp_path):
    src = "table = {(1, 2): 'x'}\nkey = 1\nprint(table[key, 2])\nraise KeyError(table[key, 2])\n"
    program, spans = instrument(src)
    values = json.loads(probe_with(tmp_path)(program))
    texts = {src[s:e]: values.get(str(i), [None])[0] for i, (s, e) in enumerate(spans)}
    assert texts["key, 2"] == "(1, 2)" and texts["table[key, 2]"] == "'x'"


def test_sites_skip_targets_and_unwrappable_forms():
    src = "import os\nx = [1]\nx[0] = os.getcwd()\ny = (v for v in x)\nprint(*x, len(x))\n"
    texts = [src[s:e] for s, e in sites(src)]
    assert "x" in texts and "len(x)" in texts
    assert "(v for v in x)" not in texts and "*x" not in texts
    assert "os.getcwd()" not in texts  # self-contained


def test_a_multi_dimensional_slice_is_no_site_and_the_program_still_instruments():
    # ``x[:, :, :-k]``: its index is a tuple of slices, which no call may wrap (it was a site, and the
    # instrumented program did not parse: no value of such a script was ever captured)
    src = "k = 1\nx = [[[1, 2]]]\ny = x[:1, k:, :-k]\nz = x[0, k - 1]\nprint(y, z)\n"
    texts = [src[s:e] for s, e in sites(src)]
    assert ":1, k:, :-k" not in texts and "-k" in texts and "0, k - 1" in texts
    made = instrument(src)
    assert made is not None and parses(made[0])


def test_hoist_moves_self_contained_statements_after_imports():
    src = textwrap.dedent('''
        import json

        class Loader:
            def load(self, text):
                data = json.loads(self.fix(text))
                return json.loads("{bad")

        Loader().load("{}")
    ''')
    candidates = hoist_candidates(src)
    assert len(candidates) == 1
    assert candidates[0].startswith('\nimport json\njson.loads("{bad")\n')
    assert candidates[0].count('json.loads("{bad")') == 1  # moved, not copied
    assert parses(candidates[0])


def test_reduce_with_probe_materializes_and_hoists(tmp_path):
    def predicate(candidate: str) -> bool:
        proc = subprocess.run([sys.executable, "-c", candidate], capture_output=True, text=True, timeout=60)
        return "ValueError: time data '2024-01-03T10:00:00Z' does not match format" in proc.stderr

    assert predicate(PIPELINE)
    result = reduce_source(PIPELINE, predicate, probe=probe_with(tmp_path))
    lines = [ln for ln in result.source.splitlines() if ln.strip()]
    assert len(lines) <= 3, result.source
    assert result.stats.probes >= 1
    assert "2024-01-03T10:00:00Z" in result.source


def test_top_level_functions_and_classes_are_rendered_by_name(tmp_path):
    program_src = textwrap.dedent('''
        import functools


        def double(x):
            return 2 * x


        class Box:
            pass


        def local_maker():
            def inner():
                return 1
            return inner


        table = {"fn": double, "cls": Box, "inner": local_maker(), "partial": functools.partial(double, 1)}
        picked = [table["fn"], table["cls"], table["inner"], table["partial"]]
        raise RuntimeError(picked)
    ''')
    program, spans = instrument(program_src)
    values = json.loads(probe_with(tmp_path)(program))
    texts = {program_src[s:e]: values.get(str(i), [None])[0] for i, (s, e) in enumerate(spans)}
    assert texts['table["fn"]'] == "double" and texts['table["cls"]'] == "Box"
    assert texts['table["inner"]'] is None  # a nested function is not reachable by its name
    assert texts['table["partial"]'] is None


def test_paths_of_the_run_are_not_values(tmp_path):
    """A string holding a path of the run itself (its temp dir, its working directory, the script's
    directory, its home: scratch directories of the sandbox, gone afterwards) has no literal: the
    reproducer would carry a path of one run on one machine. Other paths and strings do."""
    program_src = textwrap.dedent('''
        import os, tempfile
        probe = os.path.join(tempfile.gettempdir(), "probe.csv")
        here = os.path.abspath("data.json")
        nearby = os.path.dirname(os.path.abspath(__file__)) + "/x"
        cache = os.path.expanduser("~/.cache/x")
        kept = [os.path.join("/etc", "hosts"), b"/usr/lib".upper(), "tmp" + "/x"]
        held = [os.path.join(tempfile.gettempdir(), "a")]
        raise RuntimeError(probe, here, nearby, cache, kept, held)
    ''')
    tmp, home, work = tmp_path / "tmp", tmp_path / "home", tmp_path / "work"
    for d in (tmp, home, work):
        d.mkdir()
    program, spans = instrument(program_src)
    (work / "s.py").write_text(program)
    capture = tmp_path / "capture.json"
    subprocess.run([sys.executable, "s.py"], cwd=work, capture_output=True, timeout=60,
                   env={**os.environ, CAPTURE_ENV: str(capture), "TMPDIR": str(tmp), "HOME": str(home)})
    values = json.loads(capture.read_text())
    texts = {program_src[s:e]: values.get(str(i), [None])[0] for i, (s, e) in enumerate(spans)}
    assert texts["probe"] is None and texts["here"] is None and texts["nearby"] is None
    assert texts["cache"] is None and texts["held"] is None  # inside a list too
    assert texts["kept"] == "['/etc/hosts', b'/USR/LIB', 'tmp/x']"
    assert str(tmp) not in capture.read_text() and str(work) not in capture.read_text()


def last_values(tmp_path, src: str, seeded: bool) -> dict:
    """Each site's source text -> the text of the last value it had (captured with SEEDED_ENV or not)."""
    program, spans = instrument(src)
    values = json.loads(probe_with(tmp_path, {SEEDED_ENV: "1"} if seeded else {})(program))
    return {src[s:e]: values.get(str(i), [None])[0] for i, (s, e) in enumerate(spans)}


def test_tensor_texts_keep_their_dtype(tmp_path):
    """A materialized tensor has the original's dtype (a wrong dtype is a common cause the library's
    message does not name); the default dtype is left to randn, as a person writes it."""
    pytest.importorskip("torch")
    src = ("import torch\nimport numpy as np\nlabels = torch.from_numpy(np.array([0, 3], dtype=np.int32))\n"
           "wide = torch.ones(2, dtype=torch.float64)\nplain = torch.ones(2)\nidx = torch.tensor([1, 2])\n"
           "print(labels, wide, plain, idx)\n")
    texts = last_values(tmp_path, src, False)
    assert texts["labels"] == "torch.zeros(2, dtype=torch.int32)"  # (the values read: the print's arguments)
    assert texts["wide"] == "torch.randn(2, dtype=torch.float64)"
    assert texts["plain"] == "torch.randn(2)"
    assert texts["idx"] == "torch.zeros(2, dtype=torch.int64)"


def test_random_tensors_get_a_seeded_generator_when_values_are_compared(tmp_path):
    """A wrong result that shows for some random inputs only: a materialized input must compute the same
    values in every run, or the reproducer passes now and then (minimize sets SEEDED_ENV for such failures)."""
    pytest.importorskip("torch")
    src = "import torch\nx = torch.ones(3) * 2\nprint(torch.nn.functional.gelu(x))\n"
    texts = {seeded: last_values(tmp_path, src, seeded) for seeded in (False, True)}
    assert texts[False]["x"] == "torch.randn(3)"
    seeded = texts[True]["x"]
    assert seeded == "torch.randn(3, generator=torch.Generator().manual_seed(0))"
    import torch

    assert torch.equal(eval(seeded, {"torch": torch}), eval(seeded, {"torch": torch}))


def test_small_tensors_are_spelled_by_their_values_where_the_message_shows_them(tmp_path):
    """Held-out r19-09 (pytorch #5248): "Bernoulli(probs: tensor([2.])) … found invalid values": the tensor's
    values are the failure's input; ``torch.randn(1)`` in their place failed in two runs of three."""
    pytest.importorskip("torch")
    src = ("import torch\np = torch.Tensor([2.0])\nq = torch.tensor([[0.1, -3.0]], dtype=torch.float64)\n"
           "i = torch.tensor([1, 2], dtype=torch.int32)\nw = torch.tensor([0.5], requires_grad=True)\n"
           "m = torch.tensor([True, False])\nbig = torch.arange(9.0)\nprint(p, q, i, w, m, big)\n")
    program, spans = instrument(src)
    values = json.loads(probe_with(tmp_path, {EXACT_ENV: "1"})(program))
    texts = {src[s:e]: values.get(str(n), [None])[0] for n, (s, e) in enumerate(spans)}
    assert texts["p"] == "torch.tensor([2.0])"
    assert texts["q"] == "torch.tensor([[0.1, -3.0]], dtype=torch.float64)"
    assert texts["i"] == "torch.tensor([1, 2], dtype=torch.int32)"
    assert texts["w"] == "torch.tensor([0.5], requires_grad=True)"
    assert texts["m"] == "torch.tensor([True, False])"
    assert texts["big"] == "torch.randn(9)"  # more than EXACT_MAX elements: its shape
    assert last_values(tmp_path, src, False)["p"] == "torch.randn(1)"  # without the flag: its shape
    import torch

    assert torch.equal(eval(texts["q"], {"torch": torch}), torch.tensor([[0.1, -3.0]], dtype=torch.float64))


@pytest.mark.parametrize("message, shows", [
    ("Expected parameter probs (Tensor of shape (1,)) of distribution Bernoulli(probs: tensor([2.])) to satisfy", True),
    ("index tensor(-1) is out of bounds", True),
    ("Bernoulli(probs: tensor([N]))", True),  # (a signature's normalized message)
    ("mask: tensor([[True, False]])", True),
    ("expected a tensor(s) of shape (2, 3)", False),
    ("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", False),
])
def test_messages_that_show_tensor_values(message, shows):
    from reportkit.failure.signature import FailureKind, Signature
    from reportkit.reduce.minimize import shows_tensor_values

    sig = Signature(kind=FailureKind.EXCEPTION, exc_type="ValueError", message=message, full_message=message)
    assert shows_tensor_values(sig) is shows


def test_a_module_with_weights_is_spelled_only_where_it_was_built_once_when_values_are_compared(tmp_path):
    """Compiled and eager each call ``forward``: a literal ``torch.nn.Linear(...)`` there would build new
    random weights per call, and the two would compare different computations."""
    pytest.importorskip("torch")
    src = textwrap.dedent('''
        import torch
        lin = torch.nn.Linear(3, 2)
        act = torch.nn.ReLU()
        def forward(x):
            return act(lin(x))
        a, b = forward(torch.ones(3)), forward(torch.ones(3))
        print(a, b)
    ''')
    texts = {seeded: last_values(tmp_path, src, seeded) for seeded in (False, True)}
    assert texts[False]["lin"] == "torch.nn.Linear(in_features=3, out_features=2, bias=True)"
    assert texts[True]["lin"] is None  # evaluated twice, has weights
    assert texts[True]["act"] == "torch.nn.ReLU()"  # no weights: the same module at every evaluation


FIXED_WIDTH = textwrap.dedent('''
    import json

    def width(cfg):
        return cfg["dim"] - 16

    cfg = {"dim": 64}
    w = width(cfg)
    label = "wide" if w > 40 else "narrow"
    json.loads(label * w)
''')


def test_values_the_fix_changes_are_not_proposed(tmp_path):
    # the good code computes the width differently: its value (and everything computed from it) is the
    # fix's; a literal of the bug's value would fail on the good code too, so it is left out
    good = FIXED_WIDTH.replace('cfg["dim"] - 16', 'cfg["dim"]')
    program, spans = instrument(FIXED_WIDTH)
    good_program, good_spans = instrument(good)
    (tmp_path / "good").mkdir()
    captured, other = probe_with(tmp_path)(program), probe_with(tmp_path / "good")(good_program)
    differ = differing_sites(FIXED_WIDTH, spans, captured, good, good_spans, other)
    texts = {FIXED_WIDTH[spans[i][0]:spans[i][1]] for i in differ}
    assert texts == {"width(cfg)", "w", "label * w"}  # not cfg: the same on both sides
    kept = {FIXED_WIDTH[s:e] for s, e in (spans[i] for i in range(len(spans)) if i not in differ)}
    assert "cfg" in kept
    proposed = materialize_edits(FIXED_WIDTH, spans, without_sites(captured, differ))
    assert proposed and all(FIXED_WIDTH[e.start:e.end] not in texts for e in proposed)
    # the same program on both sides (a differential with nothing switched): nothing differs
    assert differing_sites(FIXED_WIDTH, spans, captured, FIXED_WIDTH, spans, captured) == set()
    # a side that recorded nothing says nothing
    assert differing_sites(FIXED_WIDTH, spans, captured, good, good_spans, None) == set()


def test_values_are_compared_as_far_as_both_runs_got(tmp_path):
    # the good run goes on past the bug's failure: later values differ for that reason alone
    src = textwrap.dedent('''
        total = 0
        for i in range(5):
            total = total + i
            if total > 3 and BAD:
                raise ValueError(total)
    ''')
    bad, good = "BAD = True\n" + src, "BAD = False\n" + src
    program, spans = instrument(bad)
    good_program, good_spans = instrument(good)
    (tmp_path / "g").mkdir()
    captured, other = probe_with(tmp_path)(program), probe_with(tmp_path / "g")(good_program)
    differ = {bad[spans[i][0]:spans[i][1]] for i in differing_sites(bad, spans, captured, good, good_spans, other)}
    assert "total + i" not in differ and "i" not in differ
    assert {"BAD", "total > 3 and BAD"} <= differ  # the flag, and the test it decides at the failure
    # a value that differs at a later evaluation, before the failure, is the fix's
    src2 = textwrap.dedent('''
        rows = [[1, 2], [3], [4, 5]]
        for row in rows:
            padded = row + [0] * (2 - len(row)) if FIXED else row
            if len(padded) != 2 and row is rows[-1]:
                raise ValueError(padded)
    ''')
    bad, good = "FIXED = False\n" + src2, "FIXED = True\n" + src2
    program, spans = instrument(bad)
    good_program, good_spans = instrument(good)
    captured, other = probe_with(tmp_path)(program), probe_with(tmp_path / "g")(good_program)
    differ = {bad[spans[i][0]:spans[i][1]] for i in differing_sites(bad, spans, captured, good, good_spans, other)}
    assert "row + [0] * (2 - len(row)) if FIXED else row" in differ  # [1, 2] both times, then [3] vs [3, 0]
    assert "row" not in differ


@pytest.mark.parametrize("ddmin_changes", [False, True])
@pytest.mark.parametrize("together_holds", [False, True])
def test_a_together_edit_is_tried_alone_after_the_ddmin_over_the_others(ddmin_changes, together_holds):
    from reportkit.reduce.passes.kinds import FirstCutPass, ProbePass

    src = "a = f(x)\nb = g(y)\nc = h(z)\n"
    plain = [Splice(src.index("f(x)"), src.index("f(x)") + 4, "1"), Splice(src.index("h(z)"), src.index("h(z)") + 4, "3")]
    together = Together((Splice(src.index("x"), src.index("x") + 1, "7"), Splice(src.index("y"), src.index("y") + 1, "8")))

    class Problem:
        current = src

        def __init__(self):
            self.tried, self.ddmins, self.captures = [], [], []

        def capture(self, _p, *, mark=True):
            self.captures.append(mark)
            return [together, *plain]

        def try_candidate(self, candidate, _name, _count):
            self.tried.append(candidate)
            return together_holds

        def ddmin(self, es, _name, **_kw):
            self.ddmins.append(list(es))
            return ddmin_changes

    probe = ProbePass("materialize", lambda s: None, lambda *a: [])
    problem = Problem()
    assert probe.run(problem) is (ddmin_changes or together_holds)
    assert problem.ddmins == [plain]  # the ddmin is over the others
    # then the together edit alone, on the ddmin's result: probed again (not marked as the pass's run) if
    # the ddmin changed it
    assert problem.captures == ([True, False] if ddmin_changes else [True])
    assert problem.tried == ["a = f(7)\nb = g(8)\nc = h(z)\n"]
    # the first cut: all but the together edit, all of them (every site at the failing evaluation's value),
    # then the first 8 (here: all the others again, not repeated) and the first 1 of the others
    problem = Problem()
    together_holds = True
    assert FirstCutPass(probe).run(problem) is True
    assert problem.tried == ["a = 1\nb = g(y)\nc = 3\n"]
    problem = Problem()
    together_holds = False
    assert FirstCutPass(probe).run(problem) is False
    assert problem.tried == ["a = 1\nb = g(y)\nc = 3\n", "a = 1\nb = g(8)\nc = 3\n", "a = 1\nb = g(y)\nc = h(z)\n"]


def test_a_look_at_the_values_is_not_the_probe_pass_s_run_on_that_source():
    from reportkit.reduce.passes import MATERIALIZE
    from reportkit.reduce.schedule import Problem

    probes: list[str] = []

    def probe(program: str, source: str) -> str:
        probes.append(source)
        return json.dumps({"0": ["2", 1]})

    problem = Problem("a = f()\nb = g(a)\n", lambda s: True, probe=probe)
    assert problem.capture(MATERIALIZE, mark=False)  # a look (ProbePass, after its ddmin changed the source)
    assert problem.capture(MATERIALIZE)  # the pass's own run here still proposes the values, from the same probe
    assert problem.capture(MATERIALIZE) is None  # once it ran here: nothing more to try
    assert len(probes) == 1


RESIDUAL = textwrap.dedent('''
    import torch
    from torch import nn


    def make_batch(n):
        t = torch.arange(n * 8) / 8.0
        return torch.sin(t).view(n, 1, 8)


    class Block(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.pad = k - 1
            self.conv = nn.Conv1d(1, 1, k, padding=self.pad)

        def forward(self, x):
            out = self.conv(x)
            res = x
            return out[:, :, :-1] + res


    def scale(x):
        return x * 2


    Block(3)(scale(make_batch(4)))
''')


@pytest.mark.torch
def test_model_inputs_are_the_tensors_fed_to_torch_modules(tmp_path):
    """A tensor operator of the script raised: only the data fed to a model may become a random tensor;
    not a layer's input inside it (what the layers before computed), the operands, a plain function's
    argument, nor the module's own configuration."""
    pytest.importorskip("torch")
    program, spans = instrument(RESIDUAL)
    captured = probe_with(tmp_path)(program)
    fed = json.loads(captured)["fed"]
    texts = {RESIDUAL[s:e] for i, (s, e) in enumerate(spans) if fed.get(str(i))}
    assert texts == {"scale(make_batch(4))"}  # Block(3)(...)'s argument; self.conv(x) is called inside Block
    edits = model_input_edits(RESIDUAL, spans, captured)
    assert {RESIDUAL[e.start:e.end] for e in edits} == texts
    assert {e.text for e in edits} == {"torch.randn(4, 1, 8)"}
    # without the record of what was a module (a capture of an older program): nothing
    values = json.loads(captured)
    del values["fed"]
    assert model_input_edits(RESIDUAL, spans, json.dumps(values)) == []
    assert materialize_edits(RESIDUAL, spans, captured)  # the plain pass proposes every value, as before


@pytest.mark.torch
@pytest.mark.parametrize("grad", [True, False])
def test_what_a_model_computed_is_no_model_input(tmp_path, grad):
    """Two models called one after the other at the top: the second one's input is the first one's output
    (autograd computed it); under ``no_grad`` the first one's output is not told from data, but a tensor
    the second one computes from it inside a module is still no input."""
    pytest.importorskip("torch")
    src = textwrap.dedent(f'''
        import torch
        from torch import nn

        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 3)

            def forward(self, h):
                return self.lin(h * 2)

        enc = nn.Linear(2, 4)
        with torch.set_grad_enabled({grad}):
            data = torch.ones(5, 2) * 3
            feats = enc(data)
            out = Head()(feats.relu())
    ''')
    program, spans = instrument(src)
    captured = probe_with(tmp_path)(program)
    texts = {src[e.start:e.end] for e in model_input_edits(src, spans, captured)}
    assert texts == ({"data"} if grad else {"data", "feats.relu()"})


@pytest.mark.torch
def test_reduce_with_model_inputs_keeps_the_module_that_computed_the_operand(tmp_path):
    pytest.importorskip("torch")

    def predicate(candidate: str) -> bool:  # in-process (torch is imported once): the candidates are torch code
        try:
            exec(compile(candidate, "<candidate>", "exec"), {"__name__": "__main__"})
        except RuntimeError as e:
            return "The size of tensor a (9) must match the size of tensor b (8)" in str(e)
        except Exception:
            return False
        return False

    assert predicate(RESIDUAL)
    result = reduce_source(RESIDUAL, predicate, probe=probe_with(tmp_path), oracle=True, inputs=True)
    assert "torch.sin" not in result.source and "scale" not in result.source  # the data is a random tensor
    assert "torch.randn(4, 1, 8" in result.source
    assert "padding=" in result.source and "Conv1d" in result.source  # what computed the operand stays code
    assert result.stats.passes.get("model-inputs")
    plain = reduce_source(RESIDUAL, predicate, probe=probe_with(tmp_path), oracle=True)
    assert "torch.sin" in plain.source and not plain.stats.probes  # the values all stay code
    assert "padding=" in plain.source
