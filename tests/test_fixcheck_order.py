"""The fix check's order while a pass is strict: the good run first when it rejects more of the pass's
candidates than the candidate's own run does (one run per rejected candidate instead of two), the
candidate's own run first otherwise — and in either order a candidate is accepted only when both pass."""

from __future__ import annotations

from reportkit import tester as T


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

