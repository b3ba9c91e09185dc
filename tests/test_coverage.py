"""Dead code by coverage: the probe's line tracer, the deletions it proposes, and the pass in reduce_source."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from reportkit.passes import apply_edits, parses
from reportkit.passes.coverage import (
    CAPTURE_ENV,
    executed_either,
    executed_lines,
    instrument,
    unexecuted_edits,
)
from reportkit.reduce import reduce_source


def run_probe(tmp_path, source: str, timeout: float = 60) -> tuple[str, list[tuple[int, int]], str | None]:
    """Instrument ``source``, run it in a subprocess as the probe does; (program, shift, capture)."""
    made = instrument(source)
    assert made is not None
    program, shift = made
    script, capture = tmp_path / "probe.py", tmp_path / "capture.txt"
    script.write_text(program)
    capture.unlink(missing_ok=True)
    try:
        subprocess.run([sys.executable, str(script)], env={**os.environ, CAPTURE_ENV: str(capture)},
                       capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pass
    return program, shift, capture.read_text() if capture.exists() else None


def cut(tmp_path, source: str) -> str:
    _program, shift, captured = run_probe(tmp_path, source)
    out = apply_edits(source, unexecuted_edits(source, shift, captured))
    assert out is not None and parses(out)
    return out


SCRIPT = textwrap.dedent('''
    """Settles invoices."""
    import json
    import sys


    def load(path):
        if path.endswith(".json"):
            return json.load(open(path))
        return {"lines": [3, 4], "currency": None}


    def export_csv(rows, path):
        with open(path, "w") as fh:
            fh.write("\\n".join(rows))


    def fmt(value):
        return f"{value:.2f}"


    def by_amount(row):
        return row[1]


    class Invoice:
        def __init__(self, data):
            self.data = data

        def total(self):
            try:
                return sum(self.data["lines"])
            except KeyError:
                print("no lines", file=sys.stderr)
                return 0

        def archive(self):
            return json.dumps(self.data)


    def main(argv):
        inv = Invoice(load("inv.txt"))
        ordered = sorted([("a", 2), ("b", 1)], key=by_amount)
        if "--csv" in argv:
            export_csv([fmt(inv.total())], "out.csv")
        print(ordered, inv.total())
        return inv.data["currency"].upper()


    main(sys.argv[1:])
    print("done")
''')


def test_unexecuted_code_goes_and_the_failure_stays(tmp_path):
    out = cut(tmp_path, SCRIPT)
    assert "def export_csv" not in out  # never called (only from a branch not taken)
    assert "def fmt" not in out
    assert "def archive" not in out  # a method never called
    assert 'if path.endswith(".json"):' in out and "json.load(open(path))" not in out  # branch not taken
    assert 'print("no lines"' not in out  # a handler never entered
    assert 'print("done")' not in out  # after the failure
    assert "def by_amount" in out  # referenced as a value, not called
    assert "def total" in out and "return inv.data" in out
    proc = subprocess.run([sys.executable, "-c", out], capture_output=True, text=True, timeout=60)
    assert "AttributeError: 'NoneType' object has no attribute 'upper'" in proc.stderr


def test_the_tracer_does_not_shift_lines_and_imports_run_untraced(tmp_path):
    program, shift, captured = run_probe(tmp_path, SCRIPT)
    first, inserted = shift[0]
    assert program.splitlines()[first - 1 + inserted:] == SCRIPT.splitlines()[first - 1:]
    seen = executed_lines(captured, shift)
    assert seen is not None
    lines = SCRIPT.splitlines()
    assert all(n in seen for n, text in enumerate(lines, 1) if text.startswith("import "))
    assert next(n for n, t in enumerate(lines, 1) if "fh.write" in t) not in seen
    assert next(n for n, t in enumerate(lines, 1) if t.strip().startswith("return sum(")) in seen


def test_code_run_only_in_a_thread_is_kept(tmp_path):
    source = textwrap.dedent('''
        import threading


        def work(out):
            out.append(1)


        def unused_helper():
            return 2


        out = []
        t = threading.Thread(target=lambda: work(out))
        t.start()
        t.join()
        raise SystemExit(len(out) + 4)
    ''')
    out = cut(tmp_path, source)
    assert "out.append(1)" in out
    assert "unused_helper" not in out


def test_a_run_killed_as_a_hang_still_reports_what_ran(tmp_path):
    source = textwrap.dedent('''
        import threading


        def never():
            return 1


        def wait_forever(event):
            event.wait()


        if __name__ == "__main__":
            wait_forever(threading.Event())
            never()
    ''')
    _program, shift, captured = run_probe(tmp_path, source, timeout=3)
    assert captured is not None
    out = apply_edits(source, unexecuted_edits(source, shift, captured))
    assert "event.wait()" in out and "def never" not in out and "    never()" not in out


def test_no_capture_no_edits_and_nothing_to_trace():
    assert unexecuted_edits(SCRIPT, [(4, 20)], None) == []
    assert instrument("import os\nimport sys\n") is None
    assert instrument("def broken(:\n") is None


def test_a_line_the_other_side_ran_is_kept(tmp_path):
    bad = textwrap.dedent('''
        import sys
        limit = 3


        def check(n):
            if n > limit:
                raise ValueError(n)
            return n


        def fallback():
            return 0


        print(check(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
    ''')
    good = bad.replace("limit = 3", "limit = 10")
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    _p, shift, captured = run_probe(tmp_path / "bad", bad)
    _p, other_shift, other_captured = run_probe(tmp_path / "good", good)
    alone = apply_edits(bad, unexecuted_edits(bad, shift, captured))
    assert "return n" not in alone  # the bad run raised before it
    merged = executed_either(bad, shift, captured, good, other_shift, other_captured)
    both = apply_edits(bad, unexecuted_edits(bad, shift, merged))
    assert "return n" in both  # the good run returns there
    assert "def fallback" not in both  # neither side called it


def test_reduce_source_drops_dead_code_in_one_test(tmp_path):
    funcs = "\n\n".join(f"def helper_{i}(x):\n    y = x * {i}\n    return y + {i}" for i in range(30))
    source = f"import sys\n\n{funcs}\n\n\ndef main():\n    d = {{}}\n    return d['missing']\n\n\nmain()\n"

    calls = []

    def predicate(candidate: str) -> bool:
        calls.append(candidate)
        proc = subprocess.run([sys.executable, "-c", candidate], capture_output=True, text=True, timeout=60)
        return "KeyError: 'missing'" in proc.stderr

    def probe(program: str, *_source_sites_pass) -> str | None:
        return run_probe_program(tmp_path, program)

    assert predicate(source)
    calls.clear()
    result = reduce_source(source, predicate, probe=probe)
    assert "helper_" not in result.source
    assert result.stats.tests_by_pass.get("dead-code") == 1
    assert result.stats.passes.get("dead-code") == 30
    # the same reduction without the probe spends more tests on the helpers
    without = reduce_source(source, predicate)
    assert without.source == result.source
    assert without.stats.tests_run > result.stats.tests_run


def test_dead_code_runs_for_an_oracle_failure_but_materialization_does_not(tmp_path):
    source = textwrap.dedent('''
        def unused_path(cfg):
            return cfg["never"]


        def merge(base, override):
            out = dict(base)
            for k, v in override.items():
                out[k] = v
            return out


        cfg = merge({"sched": {"warmup": 1}}, {"sched": None})
        if cfg.get("debug"):
            print(unused_path(cfg))
        print(cfg["sched"].get("warmup", 0))
    ''')

    def predicate(candidate: str) -> bool:
        proc = subprocess.run([sys.executable, "-c", candidate], capture_output=True, text=True, timeout=60)
        return "AttributeError: 'NoneType' object has no attribute 'get'" in proc.stderr

    def probe(program: str, *_source_sites_pass) -> str | None:
        return run_probe_program(tmp_path, program)

    result = reduce_source(source, predicate, probe=probe, oracle=True)
    assert result.stats.passes.get("dead-code")
    assert "unused_path" not in result.source
    assert "materialize" not in result.stats.passes and "materialize" not in result.stats.tests_by_pass


def run_probe_program(tmp_path, program: str) -> str | None:
    script, capture = tmp_path / "probe.py", tmp_path / "capture.txt"
    script.write_text(program)
    capture.unlink(missing_ok=True)
    subprocess.run([sys.executable, str(script)], env={**os.environ, CAPTURE_ENV: str(capture)},
                   capture_output=True, timeout=60)
    return capture.read_text() if capture.exists() else None


def test_decorated_functions_stay_unless_their_definition_never_ran(tmp_path):
    source = textwrap.dedent('''
        import functools
        HANDLERS = {}


        def register(fn):
            HANDLERS[fn.__name__] = fn
            return fn


        @register
        def on_start():
            return 1


        @functools.lru_cache(maxsize=None)
        def cached(n):
            return n


        def plain():
            return 2


        if HANDLERS:
            raise RuntimeError(sorted(HANDLERS))


        @register
        def never_defined():
            return 3
    ''')
    out = cut(tmp_path, source)
    assert "def on_start" in out and "def cached" in out
    assert "def plain" not in out and "never_defined" not in out
