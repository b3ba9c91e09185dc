"""The fix check's cost: candidates it is known to reject are never run, and the reducer's trace.

- :meth:`reportkit.reduce.fixcheck.GoodCode.screen`: a candidate without a good form, or (when the good code
  differs only in what the candidate carries) without the lines the fix changes, is rejected before a
  run on either side;
- a candidate the second condition rejected once is not accepted again by a later, lazy pass;
- ``REPORTKIT_TRACE``: one line per decision, through the redaction edge.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from test_good_check import make_repo, minimize

from reportkit.reduce import tester as T
from reportkit.reduce.bookkeeping import TRACE_ENV, Trace
from reportkit.reduce.fixcheck import GONE, FoldMap, GoodCode, merge_line
from reportkit.reduce.schedule import reduce_source
from reportkit.run.gitinfo import GoodRev

BAD = "def f(x):\n    y = x - 1\n    z = y * 2\n    return z\n"
GOOD = "def f(x):\n    y = x + 1\n    z = y * 3\n    return z\n"


def good_code(carried: bool, bad: str = BAD, good: str = GOOD) -> GoodCode:
    """A GoodCode whose candidates map ``bad``'s change (``screen`` needs nothing else: it runs nothing)."""
    return GoodCode(GoodRev("HEAD", "0" * 40, "0000000", Path("/nowhere")), False, Path("/nowhere/tree"),
                    check=None, import_path=[], fold=FoldMap(bad, good), carried=carried)  # type: ignore[arg-type]


def test_screen_rejects_candidates_with_no_good_form_without_a_run():
    good = good_code(carried=False)
    kept = BAD + "print(f(3))\n"
    assert good.screen(kept) is None  # mapped: it has to run
    edited = kept.replace("y * 2", "y * 4")  # one changed line kept as written, the other edited
    assert good.screen(edited).startswith("no good form")
    assert (good.screened, good.unmapped, good.rejected, good.runs) == (1, 1, 1, 0)


def test_screen_rejects_a_candidate_without_the_fix_only_when_nothing_else_differs():
    gone = "def f(x):\n    return x\n"  # the changed line is gone: its good form is itself
    assert good_code(carried=False).screen(gone) is None  # other files differ there: it must run
    good = good_code(carried=True)  # everything the fix changes is inside the candidate
    assert "fails there too" in good.screen(gone)
    assert (good.screened, good.unmapped) == (1, 0)
    assert good.screen(BAD) is None  # the change kept: runs


def test_screened_candidates_run_on_neither_side():
    ran: list[str] = []
    confirmed: list[str] = []

    def interesting(candidate: str) -> bool:
        ran.append(candidate)
        return "boom" in candidate

    def confirm(candidate: str) -> bool:
        confirmed.append(candidate)
        return "keep" in candidate

    source = "a = 1\nb = 2\nkeep = 3\nboom = 4\n"
    result = reduce_source(source, interesting, confirm=confirm,
                           screen=lambda c: None if "keep" in c else "no good form")
    assert "keep" in result.source and "boom" in result.source
    assert all("keep" in c for c in ran + confirmed)  # a candidate without "keep" was never run
    assert result.stats.screened > 0 and result.stats.redone == 0


def test_a_candidate_the_second_condition_rejected_is_not_accepted_by_a_later_pass():
    tester = T.Tester("abc", lambda c: True, confirm=lambda c: c != "ab")

    def step() -> bool:
        return tester.try_candidate("ab", "p", 1)

    tester.confirm.checked("p", step)  # accepted lazily, its result fails confirm: redone strict
    assert tester.current == "abc" and tester.stats.redone == 1
    assert not tester.confirm.checked("q", step)  # known: rejected at once, no second redo
    assert tester.current == "abc" and tester.stats.redone == 1


def test_trace_lines_pass_the_redaction_edge(tmp_path, monkeypatch):
    secret = "s3cr3t-Value-0987"
    monkeypatch.setenv("MY_API_TOKEN", secret)
    path = tmp_path / "trace.tsv"
    monkeypatch.setenv(TRACE_ENV, str(path))
    trace = Trace.from_env()
    assert trace is not None
    trace.why("x = 1\n", "bad", f"does not: KeyError: {secret}")
    trace.line("hdd level 0", "x = 1\n", "bad", False)
    trace.line("args", "x = 1\ny = 2\n", "screen", False, "no good form:\tthe changed lines were edited")
    lines = path.read_text().splitlines()
    assert lines[0].split("\t") == ["seconds", "phase", "lines", "bytes", "check", "verdict", "why", "key"]
    first, second = (line.split("\t") for line in lines[1:])
    assert first[1:6] == ["hdd level 0", "1", "6", "bad", "no"] and secret not in path.read_text()
    assert "<redacted:env-secret>" in first[6]
    assert second[4:7] == ["screen", "no", "no good form: the changed lines were edited"]
    monkeypatch.delenv(TRACE_ENV)
    assert Trace.from_env() is None


def test_folded_fix_check_screens_and_traces(tmp_path, monkeypatch):
    """A bug in a local module folded into the script: every changed file is carried by the candidate,
    so candidates that drop or edit the fixed line are rejected without running."""
    repo = make_repo(tmp_path / "repo", {
        "helper.py": """\
            def scale(values, factor):
                out = []
                for v in values:
                    out.append(v * factor)
                return out
            """,
        "check_scale.py": """\
            from helper import scale

            data = [1, 2, 3]
            extra = [4, 5]
            got = scale(data, 2)
            assert got == [2, 4, 6], got
            """}, {
        "helper.py": """\
            def scale(values, factor):
                out = []
                for v in values:
                    out.append(v * factor + (v > 2))
                return out
            """})
    trace = tmp_path / "trace.tsv"
    monkeypatch.setenv(TRACE_ENV, str(trace))
    report = minimize(repo / "check_scale.py", tmp_path / "out.py", good_auto=True)
    result = Path(report.output).read_text()
    fix = report.fix_check
    assert report.folded == ["helper.py"] and report.verified and fix["verified"] is True
    assert fix["carried"] and fix["screened"] > 0 and fix["screened"] <= fix["rejected"]
    assert "out.append(v * factor + (v > 2))" in result and "extra" not in result
    rows = [line.split("\t") for line in trace.read_text().splitlines()[1:]]
    screened = [row for row in rows if row[4] == "screen"]
    assert len(screened) == fix["screened"]
    assert sum(row[4] == "good" for row in rows) == report.good_runs
    rounds = [row for row in rows if row[4] == "round"]  # each round's start, the last one verifying
    assert [row[6].split()[:2] for row in rounds] == [["round", str(i)] for i in range(1, len(rounds) + 1)]
    assert "verifying" in rounds[-1][6]


# --------------------------------------------------------------------------- the changed line, edited elsewhere

FIX_BAD = "return torch.randint(0, classes, (batch, seq), generator=g).to(torch.float32)"
FIX_GOOD = "return torch.randint(0, classes, (batch, seq), generator=g)"


def test_merge_line_applies_the_fix_to_a_line_edited_elsewhere():
    # literals for the arguments, the line moved into its caller: the fix still applies
    assert merge_line(FIX_BAD, "t = torch.randint(0, 1, (1, 1), generator=g).to(torch.float32)", FIX_GOOD) == \
        "t = torch.randint(0, 1, (1, 1), generator=g)"
    moved = "loss(torch.randint(0, 1, (1, 1), generator=g).to(torch.float32).reshape(-1))"
    assert merge_line(FIX_BAD, moved, FIX_GOOD).replace(" ", "") == \
        "loss(torch.randint(0,1,(1,1),generator=g).reshape(-1))"
    # the tokens the fix changes (or the one next to them) edited: no good form that way
    assert merge_line(FIX_BAD, "t = torch.randint(0, 1, (1, 1), generator=g).to(torch.float64)", FIX_GOOD) is None
    assert merge_line(FIX_BAD, "t = torch.randint(0, 1, (1, 1), generator=g).to(torch)", FIX_GOOD) is None
    # another use of a name the fix's tokens mention is part of the fix's context: kept as written
    pad_bad, pad_good = "ids = pad_to(ids, len(ids), pad_id)", "ids = pad_to(ids, max_len, pad_id)"
    assert merge_line(pad_bad, "ids = pad_to(ids, len(ids), 0)", pad_good) == "ids = pad_to(ids, max_len, 0)"
    assert merge_line(pad_bad, "ids = pad_to([1, 2], len(ids), 0)", pad_good) is None
    # too little of the line left to tell it is that line
    assert merge_line(FIX_BAD, "x.to(torch.float32)", FIX_GOOD) is None


def test_fold_map_maps_an_edited_changed_line_once():
    bad = "def f(n):\n    x = scale(n, 2) + 1\n    return x\n\nprint(f(3))\n"
    good = "def f(n):\n    x = scale(n, 3) + 1\n    return x\n\nprint(f(3))\n"
    fold = FoldMap(bad, good)
    inlined = "print(scale(3, 2) + 1)\n"  # f inlined, its parameter made the argument
    assert fold(inlined) == "print(scale(3, 3) + 1)\n"
    assert fold("print(scale(3, 2) + 1)\nprint(scale(4, 2) + 1)\n") is None  # which one? no good form
    # the fixed token edited: not that line any more (as if gone: it runs as it is)
    assert fold.mapped("print(scale(3, 5) + 1)\n") == ("print(scale(3, 5) + 1)\n", GONE)
    # a line the change leaves alone is never taken for the changed line
    fold2 = FoldMap("a = h(1, 2)\nb = h(1, 3)\n", "a = h(1, 2)\nb = h(1, 4)\n")
    assert fold2("a = h(1, 2)\n") == "a = h(1, 2)\n"


def test_fold_map_tells_a_repeated_changed_line_apart_by_the_lines_before_it():
    # the same keyword line in two calls; the fix changes the second (r01-07: export, then re-export)
    call = "ep = export(\n    {},\n    args=(x,),\n    shapes=({{0: D}},),\n)\n"
    bad = call.format("model") + "m = unflatten(ep)\n" + call.format("m")
    good = bad[::-1].replace("\n,),}D :0{(=sepahs", "\n,),),}D :0{((=sepahs", 1)[::-1]
    fold = FoldMap(bad, good)
    assert fold(bad) == good
    inlined = bad.replace("    model,\n", "    Model(),\n")  # the first call's own lines edited
    assert fold(inlined) == good.replace("    model,\n", "    Model(),\n")
    # the lines before tell neither apart (both calls alike there): no good form, as before
    assert fold(call.format("m") + call.format("m")) is None


def test_fold_map_makes_a_change_made_at_every_place_of_its_line_wherever_it_stands():
    # r01-10: two blocks each compile with aot_eager; the fix makes both eager. A candidate keeps one block
    block = "def f(x):\n    return x * {0}\n\nof = compile(f, backend='aot_eager')\nprint(of(1))\n\n"
    bad = block.format(1) + "\n".join(f"a{i} = {i}" for i in range(6)) + "\n" + block.format(2)
    good = bad.replace("'aot_eager'", "'eager'")
    fold = FoldMap(bad, good)
    assert fold(bad) == good
    second = block.format(2)  # the first block gone: the line it had once is the second's, changed the same
    assert fold(second) == second.replace("'aot_eager'", "'eager'")
    # a lookalike: the same line twice, the fix changes one of them only (which one matters: by the lines
    # before it, :func:`_nearest_context`)
    half = bad[::-1].replace("'regea_toa'", "'regae'", 1)[::-1]  # the last one
    assert FoldMap(bad, half)(bad) == half
    # one change made everywhere beside another made at one of its places only: no change is merged (the merged
    # one was placed twice, by itself and by its twin: "places overlap")
    three = bad + "".join(f"def g{i}():\n    pass\n\nprint(0)  # x\n\n" for i in range(3))
    mixed = three.replace("'aot_eager'", "'eager'").replace("print(0)  # x", "print(1)  # x", 2)
    assert FoldMap(three, mixed)(three) == mixed


def test_fold_map_takes_assignments_changed_each_alone_one_by_one():
    # r01-05: four Dims each made Dim.DYNAMIC; a candidate drops the ones nothing reads
    dims = "".join(f"d{i} = Dim('d{i}')\n" for i in range(3))
    bad = "x = 1\n" + dims + "export(m, shapes={'z': {1: d2}})\n"
    good = bad.replace("Dim('d0')", "Dim.DYNAMIC").replace("Dim('d1')", "Dim.DYNAMIC").replace("Dim('d2')", "Dim.DYNAMIC")
    fold = FoldMap(bad, good)
    assert fold(bad) == good
    kept = bad.replace("d0 = Dim('d0')\n", "").replace("d1 = Dim('d1')\n", "")
    assert fold(kept) == "x = 1\nd2 = Dim.DYNAMIC\nexport(m, shapes={'z': {1: d2}})\n"
    # a lookalike: the lines of the block bind other names in the fix (not one assignment changed alone)
    renamed = FoldMap(bad, bad.replace("d0 = ", "e0 = ").replace("d1 = ", "e1 = "))
    assert renamed(bad.replace("d0 = Dim('d0')\n", "")) is None


def test_a_pass_that_broke_the_check_before_confirms_its_first_accepts_at_once():
    calls: list[str] = []

    def interesting(candidate: str) -> bool:
        calls.append("test " + candidate)
        return True

    def confirm(candidate: str) -> bool:
        calls.append("confirm " + candidate)
        return "c" in candidate

    tester = T.Tester("abcdef", interesting, confirm=confirm)

    def trying(*candidates: str):
        return lambda: any([tester.try_candidate(c, "p", 1) for c in candidates])

    tester.confirm.checked("first", trying("abcdf"))  # lazy, fine: checked once at its end
    assert calls == ["test abcdf", "confirm abcdf"]
    calls.clear()
    tester.confirm.checked("second", trying("abcd", "abd", "ab"))  # breaks the check: redone strict
    assert tester.current == "abcd" and tester.stats.redone == 1
    calls.clear()
    # a pass that never broke the check is checked at its end only (then bisected back) ...
    tester.confirm.checked("third", trying("abc", "bd", "b"))
    assert calls == ["test abc", "test bd", "test b", "confirm b", "confirm abc", "confirm bd"]
    assert tester.current == "abc" and tester.stats.redone == 2
    calls.clear()
    # ... one that did, once a strict run of it saw the check pass every candidate, is lazy again with
    # its 1st, 2nd, 4th ... accepted source checked at once: one that breaks the check is caught there
    tester.confirm.checked("second", trying("abcx"))  # strict, the check passes it
    assert sorted(calls) == ["confirm abcx", "test abcx"]
    calls.clear()
    tester.confirm.checked("second", trying("abcxy", "axy", "ay"))
    assert calls[:4] == ["test abcxy", "confirm abcxy", "test axy", "confirm axy"]
    assert tester.current == "abcxy" and tester.stats.redone == 3


# the fix reads an attribute that the buggy line did not: a candidate that deleted its only assignment
# fails on the good code wherever the fixed line runs (and runs like the candidate where it does not)
DATASET_BAD = '''\
class Items:
    def __init__(self, texts, max_len):
        self.texts = texts
        self.max_len = max_len

    def __getitem__(self, i):
        ids = list(self.texts[i])
        return ids + [0] * (len(ids) - len(ids))


print([len(Items(["ab", "abcd"], 4)[i]) for i in range(2)])
'''
DATASET_GOOD = DATASET_BAD.replace("(len(ids) - len(ids))", "(self.max_len - len(ids))")


def dataset_code(carried: bool = True) -> GoodCode:
    return good_code(carried, DATASET_BAD, DATASET_GOOD)


def test_screen_rejects_a_candidate_that_deleted_what_only_the_fixed_line_reads():
    good = dataset_code()
    assert good.screen(DATASET_BAD) is None  # self.max_len still assigned: it has to run
    deleted = DATASET_BAD.replace("        self.max_len = max_len\n", "")
    assert "reads self.max_len" in good.screen(deleted)
    assert (good.screened, good.rejected, good.runs) == (1, 1, 0)
    # the good code differs in other files too: where the line does not run, they could make it pass
    assert dataset_code(carried=False).screen(deleted) is None


def test_the_fixed_line_is_trusted_to_run_only_where_nothing_could_catch_or_supply_the_name():
    deleted = DATASET_BAD.replace("        self.max_len = max_len\n", "")
    for guard in ("try:\n    pass\nexcept Exception:\n    pass\n",  # a handler that would catch it
                  "import threading\n",  # the line could run in a thread: its error does not end the run
                  "setattr(Items, 'x', 1)\n"):  # names defined without being spelled
        assert dataset_code().screen(guard + deleted) is None, guard
    # a name that the good program does not define itself (a library's attribute) is not judged
    library = DATASET_BAD.replace("(len(ids) - len(ids))", "(len(ids) - len(ids)) + self.offset")
    good = good_code(True, library, library.replace("(len(ids) - len(ids))", "(self.max_len - len(ids))"))
    assert "reads self.max_len" in good.screen(library.replace("        self.max_len = max_len\n", ""))
    assert good.screen(library) is None


WORKER_BAD = """import queue

class Pool:
    def __init__(self):
        self.todo = queue.Queue()

    def work(self):
        while True:
            item = self.todo.get()
            try:
                check(item)
            except ValueError:
                continue
            done.append(item)
            self.todo.task_done()
"""
WORKER_GOOD = WORKER_BAD.replace("                continue\n            done.append(item)\n            self.todo.task_done()\n",
                                 "                continue\n            finally:\n                self.todo.task_done()\n"
                                 "            done.append(item)\n")


def test_fold_map_applies_a_method_fix_where_its_class_became_module_code():
    # the worker's fix is two hunks of one region (insert ``finally: self.todo.task_done()``, drop the bare
    # call); the class became module code, ``self.todo`` is ``todo`` there: the fix applies, without ``self.``
    fold = FoldMap(WORKER_BAD, WORKER_GOOD)
    declassed = ("import queue\n\ndef work():\n    while True:\n        item = todo.get()\n        try:\n"
                 "            check(item)\n        except ValueError:\n            continue\n        done.append(item)\n"
                 "        todo.task_done()\n\ntodo = queue.Queue()\n")
    good, how = fold.mapped(declassed)
    assert len(fold.hunks) == 2 and how == "mapped"
    assert good == declassed.replace("            continue\n        done.append(item)\n        todo.task_done()\n",
                                     "            continue\n        finally:\n            todo.task_done()\n"
                                     "        done.append(item)\n")
    # still a method (of a class kept): the fix as written
    assert fold(WORKER_BAD) == WORKER_GOOD
    # the bare call gone while the insertion's anchor stays: part of the region removed, no good form
    assert fold(declassed.replace("        todo.task_done()\n", "")) is None
    # the de-selfed line inside a method of another class is not the fixed line: not taken for it
    other = ("class Other:\n    def work(self):\n        while True:\n            try:\n                check(1)\n"
             "            except ValueError:\n                continue\n            done.append(1)\n"
             "            todo.task_done()\n")
    assert fold(other) is None


def test_trace_redacts_a_reason_whole_before_it_cuts_it(tmp_path):
    """A failure message holding a PGP private key over many lines: the trace line is one line, cut to a few
    hundred characters — redacted first, or a chunk of the key body (no header left around it) got through."""
    body = [uuid.uuid4().hex + uuid.uuid4().hex[:24] for _ in range(12)]
    message = ("ValueError: cannot sign: -----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(body)
               + "\n=Ab3x\n-----END PGP PRIVATE KEY BLOCK-----")
    from types import SimpleNamespace

    from reportkit.reduce.minimize import _why

    outcome = SimpleNamespace(ok=False, signature=SimpleNamespace(location=None, headline=lambda: message))
    trace = Trace(tmp_path / "t.tsv")
    trace.line("hdd", "x = 1\n", "bad", False, _why(outcome, False))
    text = (tmp_path / "t.tsv").read_text()
    assert len(text.splitlines()) == 2 and "cannot sign" in text
    assert not any(line[:20] in text for line in body), text


def test_fold_map_finds_the_fix_s_lines_in_a_candidate_without_comments():
    """The cosmetic pass drops comments; the line the fix changes kept its own (``# Error occurs on this line``, a
    reporter's note) and comment-only lines stood around it. Matched with the comments, the candidate without them
    looked as if the fix's lines were gone: it ran unfixed on the good code, failed there and was rejected, so every
    result with a fix check kept the reporter's comments (r06-01, r07-02 of the corpus)."""

    bad = ("import torch\n\ndef func(x):\n    mat = torch.zeros(x.shape)  # Error occurs on this line\n"
           "    # mat = torch.zeros_like(x)  # No error\n    mat[0, 0] = mat[0, 1] + x[0, 0]\n    return mat\n")
    good = bad.replace("torch.zeros(x.shape)", "torch.zeros_like(x)")
    fold = FoldMap(bad, good)
    assert fold(bad) == good
    plain = ("import torch\n\ndef func(x):\n    mat = torch.zeros(x.shape)\n    mat[0, 0] = mat[0, 1] + x[0, 0]\n"
             "    return mat\n")
    assert fold(plain) == plain.replace("    mat = torch.zeros(x.shape)\n",
                                        "    mat = torch.zeros_like(x)  # Error occurs on this line\n")
    # a fix that changes nothing but a comment changes no code
    assert FoldMap(bad, bad.replace("# No error", "# fine"))(plain) == plain


def test_a_fix_that_swaps_a_line_with_its_commented_twin_is_carried(tmp_path):
    """r06-01's fix comments the failing line out and the commented alternative in. Compared comments aside, the
    script mapped to its good form differs from the good script only in comments, which do not run: the change is
    carried (compared as text, the check refused the whole fix check: "its change cannot be carried")."""
    from reportkit.reduce.fixcheck import good_form_map

    bad = ("import torch\n\ndef func(x, y):\n    mat = torch.zeros(x.shape)  # Error occurs on this line\n"
           "    # mat = torch.zeros_like(x)  # No error occurs on this line\n    return mat\n")
    good = ("import torch\n\ndef func(x, y):\n    # mat = torch.zeros(x.shape)  # Error occurs on this line\n"
            "    mat = torch.zeros_like(x)  # No error occurs on this line\n    return mat\n")
    fold = good_form_map(bad, tmp_path / "repro.py", good, folded=False)
    assert fold is not None
    assert "torch.zeros_like(x)" in fold("import torch\ndef func(x, y):\n    mat = torch.zeros(x.shape)\n    return mat\n")
