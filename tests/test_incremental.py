"""The reducer's own work per test (issue 40): parse checks without compiling whole candidates, chunked
analyses read once per text, lazy candidates and a lazy -j window -- each giving exactly the answers of
doing it the slow way."""

from __future__ import annotations

import ast
import random
import threading
from pathlib import Path

import pytest

from reportkit.reduce import passes as P
from reportkit.reduce.dd import _vouchable
from reportkit.reduce.passes import statements as S
from reportkit.reduce.passes import wellformed as W
from reportkit.reduce.passes.chunks import Lazy, Module
from reportkit.reduce.passes.edits import Splice, apply_edits, spliced
from reportkit.reduce.passes.kinds import EachPass
from reportkit.reduce.passes.scopes import Scopes

PACKAGE = Path(__file__).resolve().parent.parent / "reportkit"


def real_sources(limit: int = 16) -> list[str]:
    """reportkit's own modules: real code of every shape (decorators, nested defs, strings, comments)."""
    paths = sorted(PACKAGE.rglob("*.py"))[:limit]
    return [p.read_text(encoding="utf-8") for p in paths]


CHAIN = "".join(f"def step_{i}(state):\n    total = state.get('k', {i})\n    state['k'] = total + 1\n    return state\n\n"
                for i in range(6)) + "state = {}\n" + "".join(f"state = step_{i}(state)\n" for i in range(6)) \
    + "print(state['missing'])\n"


# ------------------------------------------------------------------------------------------ parse checks
def _line_edits(rng: random.Random, lines: list[str], pieces: list[str]) -> str:
    """``lines`` with one to three random edits: a deletion of 1, 2 or 5 lines, or an insertion of one piece."""
    edited = lines[:]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(edited) or 1)
        if rng.random() < 0.5:
            del edited[i:i + rng.choice([1, 2, 5])]
        else:
            edited[i:i] = [rng.choice(pieces)]
    return "".join(edited)


@pytest.mark.parametrize(("reference", "candidate"), [
    # a change inside one function: only that function is compiled
    ("a = 1\n\ndef f():\n    return 1\n\nb = 2\n", "a = 1\n\ndef f():\n    return 2\n\nb = 2\n"),
    ("a = 1\n\ndef f():\n    return 1\n\nb = 2\n", "a = 1\n\ndef f():\n    return (2\n\nb = 2\n"),
    ("a = 1\n\ndef f():\n    return 1\n\nb = 2\n", "a = 1\n\ndef f():\n    break\n\nb = 2\n"),
    # futures: the parts are compiled with the module's features; a future import must stay first
    ("from __future__ import barry_as_FLUFL\nx = 1\n\ny = 2\n", "from __future__ import barry_as_FLUFL\nx = 1\n\ny = 1 <> 2\n"),
    ("from __future__ import barry_as_FLUFL\nx = 1\n\ny = 2\n", "from __future__ import barry_as_FLUFL\nx = 1\n\ny = 1 != 2\n"),
    ("x = 1\n\ny = 2\n", "x = 1\n\nfrom __future__ import annotations\n"),
    # ``global`` at module level must come before the name's uses (a check across statements)
    ("x = 1\n\ndef f():\n    pass\n", "x = 1\n\nglobal x\n"),
    ("x = 1\n\ndef f():\n    pass\n", "x = 1\n\ndef f():\n    global x\n    x = 2\n"),
    # a part that is not valid alone while the whole is: text after it closes its bracket
    ("a = 1\nb = 2\nc = 3\n", "a = (1,\n 2,\n 3)\n"),
    ("a = 1\r\n\r\ndef f():\r\n    return 1\r\n", "a = 1\r\n\r\ndef f():\r\n    return 2\r\n"),
    ("def f():\n    x = 1\n    def g():\n        nonlocal x\n        x = 2\n", "def f():\n    def g():\n        nonlocal x\n        x = 2\n"),
])
def test_the_parse_check_answers_like_compile(reference: str, candidate: str) -> None:
    check = W.ParseCheck()
    assert check.layout(reference) is not None
    assert check(candidate, reference) == W.compiles(candidate)


def test_a_change_inside_one_top_level_statement_compiles_that_statement_only() -> None:
    check = W.ParseCheck()
    reference = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(50))
    candidate = reference.replace("return 7\n", "return 70\n")
    assert check(candidate, reference)
    assert check.stats["part"] == 1
    layout = check.layout(candidate)  # known without a parse: split where the reference was
    assert layout is not None and len(layout.bounds) == 51 and check.stats["whole"] == 0


def test_a_spliced_candidate_compiles_around_each_splice_not_between() -> None:
    """Inlining: the definition near the top goes, the call near the bottom is replaced."""
    source = Module.of(CHAIN).source
    candidates = S.inline_candidates(source)
    assert candidates and all(isinstance(c, W.Spliced) for c in candidates)
    check = W.ParseCheck()
    check.layout(source)
    assert check(candidates[0]) and check.stats == {"vouched": 0, "known": 0, "part": 1, "whole": 0}


@pytest.mark.parametrize("seed", range(2))
def test_parse_checks_of_random_edits_agree_with_compile(seed: int) -> None:
    rng = random.Random(seed)
    check = W.ParseCheck()
    pieces = ["", "pass\n", "    pass\n", "x = (\n", ")\n", "else:\n", "def f():\n", "return 1\n", "global q\n",
              "from __future__ import annotations\n", "'''\n", "\\\n", "# c\n", "    y = 2\n"]
    for source in real_sources():
        lines = source.splitlines(keepends=True)
        for _ in range(8):
            candidate = _line_edits(rng, lines, pieces)
            assert check(candidate, source) == W.compiles(candidate), candidate
    assert check.stats["part"] > 0


# ------------------------------------------------------------------------------------ by construction
@pytest.mark.parametrize("seed", range(2))
def test_clean_statement_deletions_always_compile(seed: int) -> None:
    rng = random.Random(seed)
    vouched = 0
    for source in real_sources():
        levels = P.statement_levels(source)
        for edits in [level for level in levels if level] + [[e for level in levels for e in level]]:
            if not _vouchable(source, edits):
                continue
            vouched += 1
            for _ in range(4):
                subset = [e for e in edits if rng.random() < rng.choice([0.1, 0.5, 1.0])]
                candidate = apply_edits(source, subset) if subset else None
                assert candidate is None or W.compiles(candidate)
    assert vouched > 10


@pytest.mark.parametrize("source", [
    "def f():\n    x = 1\n    def g():\n        nonlocal x\n        x = 2\n    return g\n",  # the binding may go
    "a = 1; b = 2\nc = 3\n",  # statements sharing a line
    "if a: b = 1\nc = 2\n",  # a body on its header's line
    "x = 1 \\\n\ny = 2\nz = 3\n",  # a continuation into the next line
    "from __future__ import annotations\nx = 1\n",  # a future import
])
def test_deletions_that_are_not_clean_are_compiled(source: str) -> None:
    edits = [e for level in P.statement_levels(source) for e in level]
    assert not _vouchable(source, edits)


def test_ddmin_candidates_of_clean_deletions_are_not_compiled() -> None:
    from reportkit.reduce.schedule import reduce_source

    source = "".join(f"a{i} = {i}\n" for i in range(30)) + "raise ValueError('x')\n"
    before = dict(W.CHECK.stats)

    def predicate(candidate: str) -> bool:
        return "raise ValueError('x')" in candidate

    result = reduce_source(source, predicate)
    assert result.source.strip() == "raise ValueError('x')"
    assert W.CHECK.stats["vouched"] > before["vouched"]


# --------------------------------------------------------------------------------------------- chunks
@pytest.mark.parametrize("source", [
    CHAIN,
    # reads after the site at module level, in a nested function, in another chunk
    "def f(a):\n    t = a\n    return t\n\nt = 0\nx = f(1)\nprint(t)\n",
    "def f(a):\n    t = a\n    return t\n\nx = f(1)\n\ndef g():\n    return t\n",
    "def f(a):\n    t = a\n    return t\n\nfor i in range(2):\n    x = f(i)\n",
    "def f(a):\n    return a + 1\n\nif f(2) > 1:\n    pass\n",
    "class C:\n    def f(self):\n        return helper(1)\n\ndef helper(n=2):\n    return n * 2\n",
    *real_sources(8),
])
def test_chunked_passes_give_what_reading_the_whole_module_gives(source: str) -> None:
    chunked, one = Module(source), Module(source, whole=True)
    assert len(one.chunks) == 1
    for candidates in (S._inline_candidates, S._unwrap_candidates, S._inline_expression_candidates):
        assert list(candidates(chunked)) == list(candidates(one))


def test_sums_over_chunks_carry_over_to_the_next_version() -> None:
    first = Module.of(CHAIN)
    loads = first.total("loads", lambda c: S._chunk_name_counts(c)[0])
    following = S.inline_candidates(CHAIN)[0]
    second = Module.of(following)
    carried = second.total("loads", lambda c: S._chunk_name_counts(c)[0])
    counted = S._name_counts(ast.parse(following))[0]
    assert +carried == counted and carried != loads


# ------------------------------------------------------------------------------------------ laziness
def test_a_lazy_sequence_makes_its_items_when_asked() -> None:
    made: list[int] = []

    def items():
        for i in range(10):
            made.append(i)
            yield i

    lazy = Lazy(items())
    assert lazy[2] == 2 and made == [0, 1, 2]
    tail = lazy[1:]
    assert next(iter(tail)) == 1 and made == [0, 1, 2]
    assert lazy.has(3) and not lazy.has(10) and len(lazy) == 10 and list(tail) == list(range(1, 10))


def test_an_each_pass_makes_candidates_as_far_as_the_search_looks() -> None:
    from reportkit.reduce.tester import Tester

    made: list[str] = []

    def candidates(source: str) -> Lazy[str]:
        def each():
            for i in range(50):
                made.append(f"{source}x{i} = 1\n")
                yield made[-1]
        return Lazy(each())

    tester = Tester("a = 1\n", lambda c: c.count("x") < 2)
    assert EachPass("each", candidates).run(tester)  # type: ignore[arg-type]
    assert len(made) < 60  # (a list would be 50 per accepted candidate)


def test_the_window_takes_planned_candidates_only_when_it_runs_them() -> None:
    """-j 2: a plan of 100 candidates whose first is interesting costs two looks, not 100 parse checks."""
    from reportkit.reduce.tester import Tester

    taken: list[int] = []
    lock = threading.Lock()

    def plan():
        for i in range(100):
            taken.append(i)
            yield f"a = {i}\n"

    def predicate(candidate: str) -> bool:
        with lock:
            return candidate == "a = 0\n"

    tester = Tester("a = 1\nb = 2\n", predicate, jobs=2)
    try:
        tester.prefetch(plan())
        assert len(taken) <= 3
        assert tester.test("a = 0\n") and tester.stats.tests_run <= 2
    finally:
        tester.close(wait=True)


def test_spliced_candidates_reach_the_predicate_and_the_current_source_as_plain_text() -> None:
    from reportkit.reduce.tester import Tester

    got: list[type] = []
    tester = Tester("a = 1\nb = 2\n", lambda c: got.append(type(c)) is None)
    candidate = spliced("a = 1\nb = 2\n", [Splice(0, 6, "")])
    assert isinstance(candidate, W.Spliced) and tester.try_candidate(candidate, "x", 1)
    assert got == [str] and type(tester.current) is str


# ------------------------------------------------------------------------------------------ scopes
SCOPED = """\
x = 1
class C:
    x = 2
    y = x
    def m(self):
        return x
def g(a=3):
    x = 3
    def inner():
        nonlocal x
        x += 1
    return [x for x in range(a)]
def h():
    global x
    x = 5
print(C.y, g(), h())
"""


@pytest.mark.parametrize(("line", "reads"), [
    (1, 1),  # module x: m's ``return x`` (a class body is not visible in its methods)
    (3, 1),  # C's x: ``y = x`` in the class body only
    (8, 1),  # g's x: inner's ``x += 1`` (nonlocal), not the comprehension's own x
    (15, 1),  # h's ``global x`` binds the module's x: the module x's load
])
def test_scopes_resolve_each_load_to_its_binding(line: int, reads: int) -> None:
    """The one-walk Scopes (bind and note, resolve when every scope's names are known) gives each
    binding the loads Python's scoping rules give it."""
    tree = ast.parse(SCOPED)
    scopes = Scopes(tree)
    stmt = next(n for n in ast.walk(tree) if isinstance(n, ast.Assign) and n.lineno == line)
    assert scopes.reads(stmt, "x") == reads


# ------------------------------------------------------------------------------------------ per-name questions
def classes_script(n: int) -> str:
    """``n`` small classes (a class constant, ``__init__``, one method), each constructed once in a chain:
    the scaling benchmark's ``classes`` shape."""
    out: list[str] = []
    for i in range(n):
        out += [f"class Stage{i}:", f"    scale = {i % 7 + 2}", "", "    def __init__(self, offset):",
                "        self.offset = offset", "", "    def apply(self, state):",
                "        state['k'] = state.get('k', 1) * self.scale + self.offset", "        return state", "", ""]
    out += ["state = {'k0': 1}", *(f"state = Stage{i}({i % 10}).apply(state)" for i in range(n)),
            "print(state['missing'])"]
    return "\n".join(out) + "\n"


def test_the_node_index_lists_what_a_walk_finds_in_walk_order() -> None:
    from reportkit.reduce.passes.scopes import node_index

    for source in [*real_sources(), classes_script(4)]:
        tree = ast.parse(source)
        index = node_index(tree)
        walked = list(ast.walk(tree))
        names = {n.id for n in walked if isinstance(n, ast.Name)}
        for name in names:
            assert index.loads.get(name, []) == [n for n in walked if isinstance(n, ast.Name) and n.id == name
                                                 and isinstance(n.ctx, ast.Load)]
        attrs = {n.attr for n in walked if isinstance(n, ast.Attribute)}
        for attr in attrs:
            assert index.attributes[attr] == [n for n in walked if isinstance(n, ast.Attribute) and n.attr == attr]
        assert node_index(tree) is index  # built once per tree


@pytest.mark.parametrize("name", ["self_attr_candidates", "self_attr_build_candidates", "class_constant_candidates",
                                  "global_argument_candidates", "readability_candidates"])
def test_per_class_questions_do_not_walk_the_program_per_class(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where is ``C`` constructed, who reads ``X.scale``, which parentheses can go: answered from one index per
    source (no walk of the whole module, no parse of a candidate, per class or per call), so that the work of a
    scaffold pass grows with the program, not with its square."""
    from reportkit.reduce.passes import scaffold, wrappers

    fn = getattr(scaffold, name, None) or getattr(wrappers, name)
    real_walk, real_parse = ast.walk, ast.parse
    counts: list[tuple[int, int]] = []
    for n in (4, 32):
        seen = {"walk": 0, "parse": 0}

        def walk(node: ast.AST, seen: dict = seen):
            seen["walk"] += isinstance(node, ast.Module)
            return real_walk(node)

        def parse(*args, seen: dict = seen, **kwargs):
            seen["parse"] += 1
            return real_parse(*args, **kwargs)

        source = classes_script(n)
        monkeypatch.setattr(ast, "walk", walk)
        monkeypatch.setattr(ast, "parse", parse)
        fn(source)
        monkeypatch.undo()
        counts.append((seen["walk"], seen["parse"]))
    assert counts[0] == counts[1]


@pytest.mark.parametrize(("source", "expected"), [
    ("x = range((n // k))\n", ["x = range(n // k)\n"]),
    ("x = f(k=(a + b))\n", ["x = f(k=a + b)\n"]),
    ("x = f(a)\n", []),  # the call's own parentheses
    ("x = f (a)\n", []),
    ("x = [f\n     (a)]\n", []),
])
def test_redundant_argument_parentheses_go_and_a_calls_own_stay(source: str, expected: list[str]) -> None:
    from reportkit.reduce.passes.scaffold import _argument_parens
    from reportkit.reduce.passes.source import SourceMap

    tree = ast.parse(source)
    smap = SourceMap(source)
    found = [c for node in ast.walk(tree) for c in _argument_parens(source, smap, tree, node)]
    assert found == expected


def test_the_passes_reading_one_version_share_its_tree_parent_map_and_scopes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pass asks for the tree of the version it is given: parsed once, its parent map and its scopes made
    once, whichever of the passes asks first."""
    from reportkit.reduce.passes import readback, scaffold, scopes, wrappers

    made = {"parse": 0, "scopes": 0}
    real_parse, real_init = ast.parse, scopes.Scopes.__init__

    def parse(*args, **kwargs):
        made["parse"] += 1
        return real_parse(*args, **kwargs)

    def init(self, tree):
        made["scopes"] += 1
        real_init(self, tree)

    monkeypatch.setattr(ast, "parse", parse)
    monkeypatch.setattr(scopes.Scopes, "__init__", init)
    source = classes_script(3) + "# a version no other test made\n"
    for fn in (scaffold.self_attr_candidates, scaffold.global_argument_candidates, scaffold.unused_parameter_candidates,
               wrappers.class_constant_candidates, wrappers.delegating_module_candidates,
               readback.field_readback_candidates, readback.unused_field_candidates):
        fn(source)
    assert (made["parse"], made["scopes"]) == (1, 1)
    parsed = scaffold._parse(source)[0]
    assert scopes.parent_map(parsed) is scopes.parent_map(parsed)


# ------------------------------------------------------------------------------------ the inlining cap
def _random_candidates(rng: random.Random, source: str, count: int) -> list[str]:
    """Candidates made from ``source`` by random line edits (plain text) and by random splices (Spliced, with
    changes far apart), those that compile."""
    pieces = ["", "pass\n", "x = f(g(h(a, b), c), d[e[1]])\n", "    y = [i * j for i in a for j in b if i]\n",
              "def f():\n", "    return q(r(s(t(u(v)))))\n", "z = {1: 2}\n"]
    lines = source.splitlines(keepends=True)
    out: list[str] = []
    for _ in range(count):
        if rng.random() < 0.5:
            candidate: str | None = _line_edits(rng, lines, pieces)
        else:
            starts = [0, *(i for i, c in enumerate(source) if c == "\n")]
            picks = sorted(rng.sample(starts, min(len(starts), rng.randint(1, 3))))
            splices = [Splice(a, min(len(source), a + rng.randint(0, 40)), rng.choice(pieces).rstrip("\n"))
                       for a in picks]
            candidate = spliced(source, splices)
        if candidate is not None and W.compiles(candidate):
            out.append(candidate)
    return out


def _changed_nodes(candidate: str, current: str) -> int | None:
    """The tester's count of a candidate: its statements where it differs from ``current``, constructors of
    constants as one (None: not parsed apart)."""
    from reportkit.reduce.passes.complexity import changed_statements, imported_modules, most_nodes

    stmts = changed_statements(candidate, current)
    return None if stmts is None else most_nodes(stmts, imported_modules(candidate))


@pytest.mark.parametrize("seed", range(2))
def test_counting_the_changed_statements_decides_the_cap_like_counting_all(seed: int) -> None:
    """For every threshold the tester can use (at least the current source's most complex statement), a
    candidate is beyond it by its changed statements alone exactly when it is by all of its statements."""
    from reportkit.reduce.passes.complexity import max_statement_nodes

    rng = random.Random(seed)
    counted = 0
    for source in [CHAIN, *real_sources()]:
        current = max_statement_nodes(source)
        for candidate in _random_candidates(rng, source, 16):
            whole = max_statement_nodes(candidate)
            changed = _changed_nodes(candidate, source)
            if changed is None:
                continue
            counted += 1
            assert changed <= whole
            for threshold in range(current, max(whole, current) + 2):
                assert (changed > threshold) == (whole > threshold), (candidate, threshold)
    assert counted > 50


def test_only_the_changed_statements_are_counted() -> None:
    """A candidate changing one small function of a module whose most complex statement is elsewhere counts
    that function's statements only; a spliced one (a definition gone, its call replaced) its two places."""
    from reportkit.reduce.passes.complexity import max_statement_nodes

    reference = "big = f(g(h(a, b), c), d[e[1]], k(l(m)))\n\n" + "".join(
        f"def f{i}():\n    return {i}\n\n" for i in range(50))
    candidate = reference.replace("return 7\n", "return g(7)\n")
    assert max_statement_nodes(candidate) == max_statement_nodes(reference) > 4
    assert _changed_nodes(candidate, reference) == 4  # ``return g(7)``: the return, the call, ``g``, ``7``
    source = Module.of(CHAIN).source
    inlined = S.inline_candidates(source)[0]
    assert isinstance(inlined, W.Spliced)
    assert _changed_nodes(inlined, source) == max_statement_nodes(inlined)
    assert _changed_nodes(source, source) == 0


def test_the_statement_walk_finds_every_statement_ast_walk_does() -> None:
    from reportkit.reduce.passes.complexity import statements

    extra = ("try:\n    f = lambda: (yield)\nexcept E as e:\n    pass\nelse:\n    x = [y for y in z]\nfinally:\n    del x\n"
             "match p:\n    case [a, *b] if a:\n        class C:\n            def m(self):\n                return b\n"
             "async def g():\n    async with a as b:\n        async for c in d:\n            await e\n")
    for source in [CHAIN, extra, *real_sources()]:
        tree = ast.parse(source)
        walked = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
        found = statements(tree)
        assert len(found) == len(walked) and {id(n) for n in found} == {id(n) for n in walked}


def test_the_memo_splits_the_current_source_once_and_answers_alike() -> None:
    from reportkit.reduce.tester import _Memo

    rng = random.Random(3)
    memo = _Memo()
    for source in real_sources(4):
        lines = source.splitlines(keepends=True)
        for _ in range(10):
            i = rng.randrange(len(lines))
            candidate = "".join(lines[:i] + lines[i + rng.choice([1, 3]):])
            assert memo.change(source, candidate, memo._lines(source)) == _Memo.change(source, candidate)
            memo.add(source, candidate)
            assert memo.has(source, candidate) and memo._current[0] is source


def test_the_original_statements_are_counted_only_as_far_as_the_cap_question_needs() -> None:
    """``MostNodes.at_least(n)`` answers ``max_statement_nodes >= n`` for every n, counting statements only
    until one is that large; ``value`` is the whole count."""
    from reportkit.reduce.passes.complexity import MostNodes, max_statement_nodes, statements

    for source in [CHAIN, "", "pass\n", *real_sources(6)]:
        tree = ast.parse(source)
        most = max_statement_nodes(tree)
        for n in [0, 1, 2, 3, 5, 8, most - 1, most, most + 1, most + 50]:
            assert MostNodes(tree).at_least(n) == (most >= n), (n, most)
        assert MostNodes(tree).value == most
    big = ast.parse("".join(f"x{i} = f(a, b[c], d.e)\n" for i in range(500)))
    lazy = MostNodes(big)
    assert lazy.at_least(3) and len(lazy._todo) >= 498  # one statement counted (or two), not 500
    assert not lazy.at_least(lazy.value + 1) and not lazy._todo and lazy.value == max_statement_nodes(big)
    assert len(statements(big)) == 500


def test_the_layout_check_and_the_passes_share_one_parse_of_a_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new current source is parsed once: for its layout (the parse check) and for the passes (``tree_of``),
    whichever asks first; the shared tree is the one ``ast.parse`` gives."""
    parses = [0]
    real_parse = ast.parse

    def parse(*args, **kwargs):
        parses[0] += 1
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(ast, "parse", parse)
    for i, first in enumerate(("layout", "passes")):
        source = CHAIN + f"tail_{i} = {i}  # a version no other test made ({first} first)\n"
        if first == "layout":
            assert W.CHECK.layout(source) is not None
            tree = S.tree_of(source)
        else:
            tree = S.tree_of(source)
            assert W.CHECK.layout(source) is not None
        assert parses[0] == i + 1
        assert ast.dump(tree) == ast.dump(real_parse(source))
        assert P.statement_levels(source) and parses[0] == i + 1  # the passes read that tree too


@pytest.mark.parametrize("extra", [
    "def rec(n):\n    return rec(n - 1) if n else 0\n",  # its name read inside: walked
    "class P:\n    @property\n    def x(self):\n        return 1\n\n    @x.setter\n    def x(self, v):\n        pass\n",
    "def ﬁx():\n    return ﬁx\n\nfix = 1\n",  # non-ASCII: ``ﬁx`` is the name ``fix``, spelled otherwise
    "def f():\n    return 1\n\n\ndef g():\n    return f\n",
])
def test_reads_of_a_definition_skip_the_walk_only_when_its_text_holds_its_name_once(extra: str) -> None:
    """``statements._reads`` answers what ``Scopes.reads`` does for every binding statement (a definition whose
    lines hold its name once is not walked)."""
    from reportkit.reduce.passes.edits import walk_bodies

    checked = 0
    for source in [CHAIN, extra, CHAIN + extra, *real_sources(8)]:
        tree = ast.parse(source)
        smap = P.SourceMap(source)
        scopes = Scopes(tree)
        for info in walk_bodies(tree, smap):
            for stmt in info.seq.stmts:
                for name in S._bound_names(stmt):
                    assert S._reads(stmt, name, scopes, smap) == scopes.reads(stmt, name), (name, stmt.lineno)
                    checked += 1
    assert checked > 300
    recursive = ast.parse(extra).body[0]
    if isinstance(recursive, ast.FunctionDef) and recursive.name == "rec":
        tree = ast.parse(extra + "rec(3)\n")
        assert S._reads(tree.body[0], "rec", Scopes(tree), P.SourceMap(extra + "rec(3)\n")) == 1


_BODIES = ("x = 1; y = 2\nif x: a = 1; b = 2\nif y:\n    c = 3\nelif x:\n    d = 4\nelse:\n    e = 5\n    f = 6\n"
           "for i in range(3):\n    g = i\n    h = i\nelse:\n    pass\n"
           "try:\n    j = 1\nexcept E:\n    k = 2\nelse:\n    m = 3\nfinally:\n    n = 4\n"
           "def f():\n    '''doc'''\n    # a comment\n\n    p = 1; q = 2\n    return p\n"
           "class C:\n    r = 1\n\n    def m(self): return 1\n"
           "while x:\n    s = 1\n    break\n")


@pytest.mark.parametrize("seed", range(3))
def test_deletions_worked_out_from_the_last_subset_are_those_applied_whole(seed: int) -> None:
    """For every HDD level (pruned or not) of real modules and of bodies of every kind (``;`` groups, a body on
    its header's line, ``elif`` / ``else`` / ``finally``, emptied bodies), each subset of the level's deletions
    rendered by ``Deletions`` -- from nothing, or from the subset the walk went on with -- is
    ``apply_edits`` of that subset: the same text, or None alike."""
    from reportkit.reduce.passes.edits import Deletions

    rng = random.Random(seed)
    levels_seen = 0
    for source in [CHAIN, _BODIES, *real_sources(6)]:
        for prune in (False, True):
            for level in P.statement_levels(source, prune=prune):
                fast = Deletions.of(source, level)
                if fast is None:
                    continue
                levels_seen += 1
                n = len(level)
                kept = set(range(n))
                for _ in range(12):
                    if not kept:
                        break
                    gone = set(rng.sample(sorted(kept), rng.randint(1, max(1, len(kept) // 2))))
                    applied = set(range(n)) - (kept - gone)
                    assert fast.render(applied) == apply_edits(source, [level[i] for i in sorted(applied)])
                    if rng.random() < 0.5:  # the walk goes on with it
                        kept -= gone
                        fast.rebase(applied)
                    else:  # a subset not made from the last one: from nothing
                        other = set(rng.sample(range(n), rng.randint(0, n)))
                        assert fast.render(other) == (apply_edits(source, [level[i] for i in sorted(other)])
                                                      if other else source)
    assert levels_seen > 20


def test_deletions_of_bodies_that_overlap_are_applied_whole() -> None:
    from reportkit.reduce.passes.edits import Deletions

    levels = P.statement_levels(_BODIES)
    assert Deletions.of(_BODIES, levels[0] + levels[1]) is None  # a body and the statements holding it
    assert Deletions.of(_BODIES, [*levels[0], P.Splice(0, 1)]) is None
    assert Deletions.of(_BODIES + "z = 0\n", levels[0]) is None  # made from another source


def test_a_candidate_after_the_subset_the_walk_went_on_with_redoes_only_what_it_adds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from reportkit.reduce.passes.edits import BodySeq, Deletions

    source = "".join(f"x{i} = {i}\n" for i in range(400))
    level = P.statement_levels(source)[0]
    fast = Deletions.of(source, level)
    assert fast is not None
    fast.rebase(range(300))  # 300 deletions accepted
    made = [0]
    real = BodySeq.group_splices

    def counted(self, g, deleted):
        made[0] += 1
        return real(self, g, deleted)

    monkeypatch.setattr(BodySeq, "group_splices", counted)
    assert fast.render([*range(300), 350]) == "".join(f"x{i} = {i}\n" for i in range(300, 400) if i != 350)
    assert made[0] == 1


def test_the_ddmin_outcome_cache_answers_like_picires_config_cache() -> None:
    """``dd._Configs`` (a dict) answers every lookup as picire's ``ConfigCache`` (a tree) does: the outcome of that
    very configuration, None for a prefix or an extension of one, or for one never added."""
    from reportkit.reduce._picire import ConfigCache, Outcome
    from reportkit.reduce.dd import _Configs

    rng = random.Random(5)
    tree, table = ConfigCache(), _Configs()
    configs = [sorted(rng.sample(range(30), rng.randint(0, 30))) for _ in range(300)]
    for config in configs[:150]:
        outcome = rng.choice([Outcome.PASS, Outcome.FAIL])
        tree.add(config, outcome)
        table.add(config, outcome)
    for config in configs + [c[:-1] for c in configs] + [c + [99] for c in configs] + [[]]:
        assert table.lookup(config) == tree.lookup(config)
    table.clear()
    assert table.lookup(configs[0]) is None


# ------------------------------------------------------------------------------------------ fixed costs
def test_a_minimization_parses_the_original_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Folding local modules, the warm executor's preload, what to keep, the screens, the reducer's first
    version and the statement count before all read one parse of the original (``wellformed.TREES``)."""
    import sys

    from reportkit.failure.check import establish
    from reportkit.failure.signature import MatchPolicy
    from reportkit.reduce.minimize import MinimizeOptions, minimize
    from reportkit.run.runner import target_spec

    script = tmp_path / "s.py"
    script.write_text("import os\nx = 1\ny = 2\n\n\ndef f(a):\n    return a\n\n\nprint({}['k'])\n")
    spec, source = target_spec(str(script), [], python=sys.executable, timeout=30)
    rep = establish(spec, MatchPolicy(), runs=2)
    parse, parsed = ast.parse, []
    monkeypatch.setattr(ast, "parse", lambda text, *a, **k: (parsed.append(text == source), parse(text, *a, **k))[1])
    report = minimize(spec, source, rep, MatchPolicy(), MinimizeOptions(output=tmp_path / "s.min.py", executor="warm"))
    assert report.verified and report.statements_before == 6
    assert sum(parsed) == 1


@pytest.mark.parametrize("source", real_sources(40) + [CHAIN])
def test_the_walk_for_imports_finds_what_ast_walk_finds_in_its_order_without_expressions(source: str) -> None:
    """The preload's and the fold's walks for import statements (``executor.walk_statements``): every statement
    :func:`ast.walk` finds, in its order, and no expression."""
    from reportkit.run.executor import _absolute_imports, walk_statements

    tree = ast.parse(source)
    walked = list(walk_statements(tree))
    assert [n for n in walked if isinstance(n, ast.stmt)] == [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    assert not any(isinstance(n, ast.expr) for n in walked)
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert _absolute_imports(tree) == [name for n in imports for name in (
        [a.name for a in n.names] if isinstance(n, ast.Import) else [n.module] if n.level == 0 and n.module else [])]
