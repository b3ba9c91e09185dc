"""The fix check's order while a pass is strict: the good run first when it rejects more of the pass's
candidates than the candidate's own run does (one run per rejected candidate instead of two), the
candidate's own run first otherwise — and in either order a candidate is accepted only when both pass."""

from __future__ import annotations

from reportkit.reduce import tester as T
from reportkit.reduce.fixcheck import FoldMap


class Calls:
    def __init__(self, answer) -> None:
        self.answer, self.seen = answer, []

    def __call__(self, candidate: str) -> bool:
        self.seen.append(candidate)
        return self.answer(candidate)


def strict_tester(predicate, confirm, phase: str = "shrink-literals") -> T.Tester:
    tester = T.Tester("x = 48\n", predicate, confirm=confirm)
    tester.phase = phase
    tester.confirm.strict = True
    return tester


def test_good_run_goes_first_once_it_rejects_most_and_a_rejected_candidate_costs_one_run():
    bad = Calls(lambda c: True)  # every literal still fails the same way ...
    good = Calls(lambda c: False)  # ... and none passes on the good code
    tester = strict_tester(bad, good)
    candidates = [f"x = {n}\n" for n in range(1, 12)]
    assert not any(tester.test(c) for c in candidates)  # all rejected: they fail on the good code
    assert len(good.seen) == len(candidates)  # every one checked there
    assert len(bad.seen) <= 2  # the predicate ran only until the good side's odds were learnt
    assert tester.current == "x = 48\n"
    assert not tester.test(candidates[-1])  # known: rejected again without a run
    assert len(good.seen) == len(candidates)


def test_a_candidate_failing_on_the_good_code_is_rejected_in_either_order():
    # the good side has rejected most lately (good first) — and then a candidate that passes there but
    # does not fail the same way, and one that fails the same way but not there
    good = Calls(lambda c: "ok" in c)
    bad = Calls(lambda c: "same" in c)
    tester = strict_tester(bad, good)
    for n in range(5):
        assert not tester.test(f"x = {n}  # same\n")  # fails on the good code: rejected
    assert tester.confirm.first(tester.phase)
    assert not tester.test("x = 1  # ok\n")  # passes on the good code, but not the same failure
    assert not tester.test("x = 2  # same\n")  # the same failure, but fails on the good code
    assert tester.test("x = 3  # same ok\n")  # both: interesting
    assert tester.accept("x = 3  # same ok\n", "shrink-literals", 1)


def test_predicate_first_where_candidates_mostly_do_not_fail_the_same_way():
    bad = Calls(lambda c: False)
    good = Calls(lambda c: True)
    tester = strict_tester(bad, good, phase="hdd level 0")
    assert not any(tester.test(f"y = {n}\n") for n in range(6))
    assert good.seen == []  # never needed: none fails the same way
    assert not tester.confirm.first("hdd level 0")


def test_lazy_passes_are_not_reordered():
    bad = Calls(lambda c: True)
    good = Calls(lambda c: False)
    tester = strict_tester(bad, good)
    tester.confirm.strict = False
    assert tester.test("x = 1\n")  # lazy: the predicate alone, the pass's result is checked later
    assert good.seen == []


# ------------------------------------------------ ``self.x`` in the fix, where the candidate has no ``self``

BAD_DS = """\
class Data:
    def __init__(self, rows, max_len):
        self.rows = rows
        self.max_len = max_len

    def item(self, i):
        ids = self.rows[i]
        ids = pad_to(ids, len(ids), self.pad_id)
        return ids
"""
GOOD_DS = BAD_DS.replace("pad_to(ids, len(ids), self.pad_id)", "pad_to(ids, self.max_len, self.pad_id)")
PAD = "def pad_to(ids, n, pad):\n    return (ids + [pad] * n)[:n]\n"


def test_a_line_that_became_module_code_gets_the_fix_without_self():
    fold = FoldMap(BAD_DS, GOOD_DS)
    declassed = PAD + "max_len = 3\nids = [1, 2]\nids = pad_to(ids, len(ids), 0)\nassert len(ids) == 3, ids\n"
    good, how = fold.mapped(declassed)
    assert how == "mapped" and "ids = pad_to(ids, max_len, 0)" in good
    exec(compile(good, "<good>", "exec"), {})  # the good form passes: the fix reads the variable
    try:
        exec(compile(declassed, "<bad>", "exec"), {})
    except AssertionError:
        pass
    else:
        raise AssertionError("the candidate must fail on the code as it is")


def test_a_line_still_in_a_method_keeps_self_in_the_fix():
    fold = FoldMap(BAD_DS, GOOD_DS)
    kept = BAD_DS.replace("self.pad_id)", "0)")  # the pad value made a literal, the line still a method's
    good, how = fold.mapped(kept)
    assert how == "mapped" and "ids = pad_to(ids, self.max_len, 0)" in good


def test_a_module_level_candidate_without_the_variable_still_runs_and_fails_on_the_good_code():
    """The mapping never accepts anything by itself: a candidate whose good form cannot work (no
    ``max_len`` anywhere) is mapped, run on the good code, and rejected there."""
    fold = FoldMap(BAD_DS, GOOD_DS)
    bare = PAD + "ids = [1, 2]\nids = pad_to(ids, len(ids), 0)\nassert len(ids) == 3, ids\n"
    good, how = fold.mapped(bare)
    assert how == "mapped"
    try:
        exec(compile(good, "<good>", "exec"), {})
    except NameError:
        pass  # fails on the good code: the fix check rejects it
    else:
        raise AssertionError("the good form must not pass")

