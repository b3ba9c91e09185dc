"""The command line: thin wrappers that parse options and call the pipeline stages."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape

from reportkit import __version__
from reportkit.constants import AUTO_TEMPLATE, TEMPLATE_NAMES
from reportkit.errors import UserError
from reportkit.failure.signature import FailureKind, MatchPolicy, Reproduction, Signature
from reportkit.redact import RedactingStream
from reportkit.run.runner import target_spec
from reportkit.run.spec import RunSpec

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Minimize failing PyTorch / Torch-Spyre scripts and turn them into complete bug reports.\n\n"
    "Start with `reportkit check SCRIPT`: it runs the script in a scratch copy of its directory and "
    "prints how it fails (its failure signature).",
)
# every byte printed goes through the redaction edge (secret env values, tokens, keys, passwords)
raw_out = RedactingStream(lambda: sys.stdout)  # for plain print(): workflow commands, progress lines
raw_err = RedactingStream(lambda: sys.stderr)
out = Console(file=raw_out, highlight=False, soft_wrap=True)
err = Console(file=raw_err, stderr=True, highlight=False, soft_wrap=True)

SCRIPT_CONTEXT = {"allow_extra_args": True, "ignore_unknown_options": True}
SCRIPT_HELP = ("The failing Python script (never modified), or a pytest test: path/to/test_x.py::test_y, "
               "...::TestClass::test_y, ...::test_y\\[param-id] (runs with pytest from its rootdir).")
ARGS_HELP = "Arguments passed to the script. Put `--` before them if they look like reportkit options."

PythonOpt = typer.Option(None, "--python", help="Interpreter that runs the script (default: the one running reportkit).")
TimeoutOpt = typer.Option(None, "--timeout", min=0.1, help="Seconds per run; a run that takes longer is a hang. "
                          "Default: 300 for check.")
IsolateOpt = typer.Option(False, "--isolate-file", help="Copy only the script into the scratch dir, "
                          "not its whole directory.")
MatchOpt = typer.Option(None, "--match", help="Regex searched in stdout+stderr; when given, a run counts as "
                        "failing the same way iff it matches (replaces strict matching).")
ExitCodeOpt = typer.Option(None, "--exit-code", help="A run counts as failing the same way iff it exits with this code.")
AnyExcOpt = typer.Option(False, "--any-exception", help="Any uncaught exception counts, whatever its type, "
                         "message or location.")
EnvOpt = typer.Option(None, "--env", "-e", help="KEY=VALUE set for the script's runs (repeatable); KEY= unsets.")
JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")
ExecutorOpt = typer.Option("local", "--executor", help="Where candidates run: local (this machine) "
                           "or ray: one Ray actor per -j slot, each with its own warm server and "
                           "compile cache (pip install 'reportkit[ray]'; see README, Running on a cluster).")
RayAddressOpt = typer.Option(None, "--ray-address", help="With --executor ray: the cluster to "
                             "join (default: $RAY_ADDRESS, else a local one started for this run).")
RayResourcesOpt = typer.Option(None, "--ray-resources", help="With --executor ray: "
                               "NAME=AMOUNT (repeatable) each slot needs, e.g. spyre=1; "
                               "Ray places slots on hosts that have them.")


def _version(value: bool) -> None:
    if value:
        out.print(f"reportkit {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit."),
          no_network: bool = typer.Option(False, "--no-network", help="Runs of the script get no network "
                                          "(before the command: reportkit --no-network check ...; or set "
                                          "REPORTKIT_NO_NETWORK=1).")) -> None:
    if no_network:
        from reportkit.run import sandbox

        sandbox.set_network(False)


def _parse_env(pairs: Optional[List[str]]) -> dict[str, str | None]:
    env: dict[str, str | None] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise UserError(f"--env takes KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        env[key] = value if value else None
    return env


def _policy(match: Optional[str], exit_code: Optional[int], any_exception: bool) -> MatchPolicy:
    if match is not None:
        import re

        try:
            re.compile(match)
        except re.error as exc:
            raise UserError(f"--match is not a valid regular expression: {exc}") from None
    if exit_code == 0:
        raise UserError("--exit-code 0 would mean 'passes'; give the non-zero code the failure exits with")
    return MatchPolicy(match=match, exit_code=exit_code, any_exception=any_exception)


def _spec(script: str, args: Optional[List[str]], python: Optional[str], timeout: Optional[float],
          isolate_file: bool, env: Optional[List[str]], default_timeout: float) -> tuple[RunSpec, str]:
    """The run spec of a target: a script, or a pytest node id (``tests/test_x.py::test_y[1]``)."""
    return target_spec(script, list(args or []), python=python, timeout=timeout or default_timeout,
                       isolate_file=isolate_file, env=_parse_env(env))


def _loc_line(sig: Signature) -> list[tuple[str, str]]:
    rows = []
    if sig.location:
        label = {FailureKind.HANG: "blocked at", FailureKind.SIGNAL: "crashed at"}.get(sig.kind, "raised at")
        rows.append((label, str(sig.location) + (f": {sig.location.shown}" if sig.location.in_script else "")))
    if sig.script_frame and sig.script_frame != sig.location:
        rows.append(("in script", f"{sig.script_frame}: {sig.script_frame.shown}"))
    return rows


def print_reproduction(rep: Reproduction, policy: MatchPolicy, script: str) -> None:
    from reportkit.failure.check import describe_runs

    sig = rep.signature
    rows: list[tuple[str, str]] = [("script", script), ("runs", describe_runs(rep)),
                                   ("time", f"{rep.max_duration:.1f} s per run (slowest)"), ("kind", sig.kind)]
    if sig.kind is FailureKind.EXCEPTION:
        rows += [("type", sig.exc_type or ""), ("message", (sig.raw_message or "").splitlines()[0]
                                                if sig.raw_message else "")]
    elif sig.kind is FailureKind.EXIT:
        rows.append(("exit code", str(sig.exit_code)))
        if sig.last_stderr:
            rows.append(("last stderr", sig.last_stderr))
    elif sig.kind is FailureKind.SIGNAL:
        rows.append(("signal", sig.headline()))
    elif sig.kind is FailureKind.OUTPUT:
        rows.append(("matched", sig.matched or ""))
    rows += _loc_line(sig)
    if any(r.hung_after_exception for r in rep.results):
        rows.append(("then", "a non-daemon thread kept the process alive until the timeout (killed)"))
    for te in sig.thread_exceptions[:3]:
        rows.append(("thread error", te))
    if sig.kind is FailureKind.HANG:
        result = rep.results[0]
        output = (result.stdout + result.stderr).replace(result.workdir + "/", "")
        last = [ln.strip() for ln in output.splitlines() if ln.strip()][-3:]
        rows.append(("last output", " | ".join(last) if last else "(nothing printed)"))
    rows.append(("signature", sig.message if sig.kind is FailureKind.EXCEPTION else sig.headline()))
    rows.append(("matching", policy.describe()))
    rows.append(("sandbox", _protection()))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        out.print(f"  [bold]{key.ljust(width)}[/bold]  {escape(str(value))}")


def _protection() -> str:
    """Which protection the runs had (bubblewrap or the fallback guard), for check/minimize output."""
    from reportkit.run import sandbox

    try:
        return sandbox.protection().describe()
    except UserError as exc:
        return exc.message


def _fail(exc: UserError) -> None:
    err.print(f"[bold red]reportkit:[/bold red] {escape(exc.message)}")
    raise typer.Exit(exc.exit_code)


@app.command(context_settings=SCRIPT_CONTEXT)
def check(
    script: str = typer.Argument(..., help=SCRIPT_HELP),
    args: Optional[List[str]] = typer.Argument(None, help=ARGS_HELP),
    python: Optional[str] = PythonOpt,
    timeout: Optional[float] = TimeoutOpt,
    runs: int = typer.Option(2, "--runs", min=1, help="Runs in fresh interpreters; while they all fail the same "
                             "way, more runs (warm, cheap) follow until 7 did (a 50% flake passes that with "
                             "p < 1%; hangs: --runs only)."),
    isolate_file: bool = IsolateOpt,
    match: Optional[str] = MatchOpt,
    exit_code: Optional[int] = ExitCodeOpt,
    any_exception: bool = AnyExcOpt,
    env: Optional[List[str]] = EnvOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run SCRIPT and print how it fails: kind, exception, message, raising location (its signature).

    Exit code: 0 the failure reproduces on every run, 1 it is flaky, 2 bad input or nothing fails.
    """
    from reportkit.failure.check import CONFIRM_RUNS, Check, establish_original

    try:
        policy = _policy(match, exit_code, any_exception)
        spec, _ = _spec(script, args, python, timeout, isolate_file, env, default_timeout=300.0)
        if not as_json:
            more = f", then up to {CONFIRM_RUNS} in all while they fail the same way" if runs < CONFIRM_RUNS else ""
            err.print(f"running {escape(script)} {runs}x{more} (timeout {spec.timeout:g} s per run) ...")
        rep = establish_original(Check(spec, policy), runs)
    except UserError as exc:
        _fail(exc)
        return
    if as_json:
        out.print_json(json.dumps({
            "script": script, "runs": rep.runs, "failures": rep.failures, "deterministic": rep.deterministic,
            "durations": [round(r.duration, 3) for r in rep.results],
            "signature": rep.signature.to_dict(), "policy": policy.describe(), "sandbox": _protection(),
        }))
    else:
        print_reproduction(rep, policy, script)
    raise typer.Exit(0 if rep.deterministic else 1)


def _default_output(spec: RunSpec) -> Path:
    if spec.pytest_node is not None:  # an importable module name that pytest's default patterns do not collect
        return spec.script.with_name("min_" + spec.script.name)
    return spec.script.with_name(spec.script.stem + ".min.py")


@app.command(context_settings=SCRIPT_CONTEXT)
def minimize(
    script: str = typer.Argument(..., help=SCRIPT_HELP),
    args: Optional[List[str]] = typer.Argument(None, help=ARGS_HELP),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Where to write the result "
                                          "(default: SCRIPT with .min.py next to it)."),
    python: Optional[str] = PythonOpt,
    timeout: Optional[float] = typer.Option(None, "--timeout", min=0.1, help="Seconds a run may take before "
                                            "it counts as a hang (default 300). For a hanging script, candidates "
                                            "blocked where the original hangs are decided early; those that "
                                            "hang elsewhere cost this: set it to a few times the time the "
                                            "script needs to reach the hang."),
    jobs: int = typer.Option(os.cpu_count() or 1, "--jobs", "-j", min=1,
                             help="Candidates tested in parallel (default: the number of cores); the result "
                             "is the same for any N."),
    cold: bool = typer.Option(False, "--cold", help="Run every candidate in a fresh interpreter instead of "
                              "forking it from a warm server that has the script's heavy imports (torch) "
                              "loaded. The warm executor is checked against a cold run of the original first "
                              "and falls back to cold by itself when they differ."),
    budget: Optional[float] = typer.Option(None, "--budget", min=1, help="Stop after this many seconds with "
                                           "the best result so far."),
    executor: str = ExecutorOpt,
    ray_address: Optional[str] = RayAddressOpt,
    ray_resources: Optional[List[str]] = RayResourcesOpt,
    runs: int = typer.Option(2, "--runs", min=1, help="Runs of the original in fresh interpreters; then, "
                             "while they all fail the same way, more on the candidates' executor until 7 did "
                             "(a 50% flake passes that with p < 1%; hangs: --runs only)."),
    retries: int = typer.Option(1, "--retries", min=1, help="A candidate must fail the same way N times out "
                                "of N (needed for flaky failures)."),
    isolate_file: bool = IsolateOpt,
    match: Optional[str] = MatchOpt,
    exit_code: Optional[int] = ExitCodeOpt,
    any_exception: bool = AnyExcOpt,
    env: Optional[List[str]] = EnvOpt,
    passes_with: Optional[List[str]] = typer.Option(
        None, "--passes-with", help="KEY=VALUE (repeatable): for wrong results, a candidate must also *pass* "
        "with these variables set (e.g. a switch to the reference implementation). Automatic for "
        "compiled-vs-eager assertion failures: TORCHDYNAMO_DISABLE=1."),
    good: Optional[str] = typer.Option(
        None, "--good", metavar="REV", help="A commit of the target's git repository where the bug is absent: "
        "every result must also *pass* with that commit's code in place of the checkout (exported read-only, "
        "the checkout is not touched), else it is rejected as failing even without the bug. The original "
        "must pass there (else an error). Without --good: automatic with HEAD when the repository has "
        "uncommitted changes to tracked files other than SCRIPT."),
    no_good_check: bool = typer.Option(False, "--no-good-check", help="No automatic fix check against HEAD "
                                       "(see --good)."),
    keep_values: bool = typer.Option(False, "--keep-values", help="Where library code raised, keep what it was "
                                     "given as code, with what computed it, instead of literals: shows where the "
                                     "script made a wrong value (results are longer)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines, only the result."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also a progress line at every phase start and "
                                 "every 15 s (without a terminal; default: only when the result shrinks and at "
                                 "phase ends)."),
    as_json: bool = JsonOpt,
) -> None:
    """Shrink SCRIPT to a small script that still fails the same way (same signature as `check`).

    Python-aware delta debugging (picire's ddmin over statements, then passes that remove unused code,
    unwrap blocks, inline one-use functions, drop arguments and shrink numbers) to a fixpoint. The best
    result so far is always on disk: Ctrl-C or --budget stop early and keep it. In a git repository
    with a known good version (--good REV, or HEAD when files the script imports from have uncommitted
    changes) a result must also pass on the good code.
    """
    from reportkit.failure.check import Check, reproduce, require_deterministic
    from reportkit.reduce.minimize import MinimizeOptions
    from reportkit.reduce.minimize import minimize as run_minimize

    try:
        policy = _policy(match, exit_code, any_exception)
        spec, source = _spec(script, args, python, timeout, isolate_file, env, default_timeout=300.0)
        kind = _executor_choice(executor, cold, ray_address, ray_resources, jobs)
        out_path = (output or _default_output(spec)).resolve()
        if out_path == spec.script:
            raise UserError("the output would overwrite the input script; choose another --output")
        good_code = _good_rev(spec, good, no_good_check)
        if not as_json:
            out.print(f"[bold]reportkit minimize[/bold] {escape(script)}: running the original {runs}x ...")
        rep = reproduce(Check(spec, policy), runs)
        require_deterministic(rep, retries)  # and minimize confirms it with more runs (reportkit.failure.check)
        if not as_json:
            print_reproduction(rep, policy, script)
        options = MinimizeOptions(output=out_path, jobs=jobs, budget=budget, retries=retries,
                                  passes_with=_parse_env(passes_with) or None,
                                  executor=kind, good=good_code, good_auto=good is None and not no_good_check,
                                  keep_values=keep_values)
        report = _run_with_progress(spec, source, rep, policy, options, quiet=as_json or quiet, verbose=verbose,
                                    run_minimize=run_minimize)
    except UserError as exc:
        _fail(exc)
        return
    if as_json:
        out.print_json(json.dumps(report.to_dict()))
    else:
        _print_minimize_summary(report)
    if report.interrupted:
        raise typer.Exit(130)
    raise typer.Exit(0 if report.verified is not False else 1)


def _good_rev(spec: RunSpec, good: Optional[str], no_good_check: bool):
    """``--good REV`` resolved in the target's repository (one clear error if it cannot be), or None."""
    if good is None:
        return None
    if no_good_check:
        raise UserError("--good and --no-good-check contradict each other; pass one of them")
    from reportkit.run.gitinfo import GoodRevError, good_rev

    try:
        return good_rev(spec.script.parent, good)
    except GoodRevError as exc:
        raise UserError(str(exc)) from None


def _executor_choice(executor: str, cold: bool, ray_address, ray_resources, jobs: int):
    """``--executor``: "warm"/"cold" locally, or a RayConfig (checked here: Ray installed, resources)."""
    if executor == "local":
        if ray_address or ray_resources:
            raise UserError("--ray-address / --ray-resources need --executor ray")
        return "cold" if cold else "warm"
    if executor != "ray":
        raise UserError(f"--executor: {executor!r} is not one of: local, ray")
    from reportkit.run.ray_executor import RayConfig, import_ray, parse_resources

    resources = parse_resources(ray_resources)
    import_ray()  # one clear message now if it is not installed
    return RayConfig(address=ray_address, resources=resources, slots=jobs, inner="cold" if cold else "warm")


def _run_with_progress(spec, source, rep, policy, options, *, quiet: bool, run_minimize, verbose: bool = False):
    """Run minimize with progress on stderr: a live line on a terminal (redrawn in place); without one (CI
    logs, pipes) a plain line when the result shrinks and when a phase ends (``verbose``: also at every
    phase start and every 15 s), never a carriage-return redraw; nothing with ``quiet``."""
    import time

    from rich.live import Live
    from rich.text import Text

    from reportkit.reduce.minimize import count_lines, count_statements

    start = time.monotonic()
    lines0 = count_lines(source)
    live = Live(Text(""), console=err, transient=True, refresh_per_second=4) if err.is_terminal and not quiet \
        else None
    last = {"phase": "", "best": lines0, "at_start": lines0, "printed": start, "text": "", "first": True}

    def phase_done() -> None:
        if last["phase"] and (verbose or last["best"] < last["at_start"]):  # only phases that shrank it
            err.print(f"{'done ' + last['phase']:<27} {last['text']}")
            last["printed"] = time.monotonic()

    def on_progress(p, log) -> None:
        nonlocal lines0
        now = time.monotonic()
        lines = count_lines(p.source)
        if last["first"]:  # the reducer starts from the script with its local modules folded in, when they were
            lines0 = last["best"] = last["at_start"] = max(lines0, lines)
            last["first"] = False
        text = (f"{lines0} -> {lines} lines, {count_statements(p.source)} statements | "
                f"tests {log.runs}, cache hits {p.stats.cache_hits}, skipped unparsable {p.stats.invalid_skipped}"
                f" | {now - start:.0f} s")
        slots = _ray_slots()
        if slots:
            text += f" | Ray slots busy {slots[0]}/{slots[1]}"
        if live is not None:
            live.update(Text(f"{p.phase:<22} {text}"))
            return
        if quiet:
            return
        if p.phase != last["phase"]:
            phase_done()
            last.update(phase=p.phase, at_start=last["best"])
            if verbose:
                err.print(f"{p.phase:<27} {text}")
                last["printed"] = now
        elif (lines < last["best"] or verbose) and now - last["printed"] > SHRINK_PRINT_INTERVAL:
            err.print(f"{p.phase:<27} {text}")  # a long phase that is still shrinking it
            last["printed"] = now
        last.update(best=min(lines, last["best"]), text=text)

    try:
        if live is not None:
            with live:
                return run_minimize(spec, source, rep, policy, options, on_progress)
        return run_minimize(spec, source, rep, policy, options, on_progress)
    finally:
        if live is None and not quiet:
            phase_done()


SHRINK_PRINT_INTERVAL = 15.0  # seconds between two lines of one phase without a terminal


def _ray_slots() -> tuple[int, int] | None:
    """(busy, live) slots of the Ray executor in use, if any (only when reportkit.run.ray_executor is loaded)."""
    module = sys.modules.get("reportkit.run.ray_executor")
    active = getattr(module, "ACTIVE", None) if module is not None else None
    return active.status() if active is not None else None


def _lines_row(report) -> str:
    """Non-blank lines before -> after; with local modules folded in, the script's own share named."""
    folded = report.lines_before - report.lines_script if report.folded and report.lines_script else 0
    before = (f"{report.lines_before} ({report.lines_script} in the script + {folded} folded in from local modules)"
              if folded > 0 else str(report.lines_before))
    return f"{before} -> {report.lines_after} (non-blank)"


def _print_minimize_summary(report) -> None:
    if report.interrupted:
        out.print(f"[yellow]interrupted[/yellow]: the best result so far is in {escape(report.output)}")
    elif report.stopped_early:
        out.print(f"[yellow]stopped early (budget)[/yellow]: the best result so far is in {escape(report.output)}")
    rows = [
        ("result", report.output),
        ("lines", _lines_row(report)),
        ("statements", f"{report.statements_before} -> {report.statements_after}"),
        ("bytes", f"{report.bytes_before} -> {report.bytes_after}"),
        ("tests run", f"{report.tests_run} (cache hits {report.cache_hits}, never-run unparsable "
                      f"{report.invalid_skipped}, skipped as known-rejected {report.memo_skips}, timeout "
                      f"{report.test_timeout:.0f} s; plus {report.probes} value-capture runs"
                      + (f"; {report.withdrawn} withdrawn on their slot, no longer needed" if report.withdrawn else "")
                      + ")"),
        ("wall time", f"{report.wall_time:.1f} s"),
    ]
    if report.original_runs:
        rate = report.original_failures / report.original_runs
        rows.insert(1, ("original", f"{report.original_failures}/{report.original_runs} runs failed the same way"
                        + (" (deterministic)" if report.original_failures == report.original_runs else
                           f" — FLAKY ({rate:.0%})")))
    if report.pytest_node is not None:
        rows.insert(1, ("run it", f"python -m pytest '{report.output}" + (f"::{report.pytest_node}" if report.pytest_node else "") + "'"))
        rows.append(("standalone", report.standalone + f"  (python {report.standalone})" if report.standalone
                     else report.standalone_note))
    if report.folded_note:
        rows.append(("local code", report.folded_note))
    if report.keeps:
        rows.append(("keeps", report.keeps))
    rows.append(("executor", report.executor + (f" ({report.executor_note})" if report.executor_note else "")))
    if report.differential:
        rows.append(("differential", f"{report.differential}; {report.reference_runs} of the tests were such "
                     f"runs, one per pass result ({report.redone_passes} pass(es) whose result failed it were "
                     "redone checking every candidate)"))
    if report.fix_check is not None:
        fix = report.fix_check
        verdict = {True: "; the result passes there", False: "; the result DOES NOT pass there", None: ""}
        unmapped = (f" ({fix['screened']} of them not run: known to fail there, {fix['unmapped']} with the "
                    "lines the fix changes edited)" if fix.get("screened") else "")
        rows.append(("fix check", f"{report.fix_check_note}; {fix['runs']} runs there, {fix['rejected']} "
                     f"rejected as failing even without the bug{unmapped}, {fix['redone_passes']} pass(es) redone"
                     + verdict[fix["verified"]]))
    elif report.fix_check_note:
        rows.append(("fix check", report.fix_check_note))
    if report.verified is not None:
        rows.append(("re-checked", "fails the same way" if report.verified else
                     "DOES NOT fail the same way any more (flaky?); see --retries"))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        out.print(f"  [bold]{key.ljust(width)}[/bold]  {escape(str(value))}")


TEMPLATE_CHOICES = (AUTO_TEMPLATE, *TEMPLATE_NAMES)


@app.command(context_settings=SCRIPT_CONTEXT)
def bundle(
    script: str = typer.Argument(..., help=SCRIPT_HELP),
    args: Optional[List[str]] = typer.Argument(None, help=ARGS_HELP),
    issue: bool = typer.Option(False, "--issue", help="Also write issue.md, ready to paste or to pass to "
                               "`gh issue create --body-file`."),
    out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Bundle directory to create (default: "
                                           "./reportkit-bundle-<script>-<time>); a .tar.gz of it is written "
                                           "next to it."),
    title: Optional[str] = typer.Option(None, "--title", help="Issue title (default: from the failure)."),
    do_minimize: bool = typer.Option(False, "--minimize", help="First shrink the script with `reportkit "
                                     "minimize` and bundle the result (the original is kept in the bundle)."),
    budget: Optional[float] = typer.Option(None, "--budget", min=1, help="With --minimize: stop minimizing "
                                           "after this many seconds, keeping the best result so far."),
    retries: int = typer.Option(1, "--retries", min=1, help="With --minimize: a candidate must fail the same way "
                                "N times out of N (needed for flaky failures, which are refused otherwise)."),
    template: str = typer.Option(AUTO_TEMPLATE, "--template", help="Issue template: auto (default: chosen from what is "
                                 "installed and what the failure involves), torch-spyre (Torch-Spyre's issue form "
                                 "+ bug-report checklist), pytorch-compile (PyTorch's compile form: backend ladder, "
                                 "TORCH_TRACE), pytorch (describe the bug + versions) or generic (no torch)."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Do not redact secrets and the home directory."),
    ladder: bool = typer.Option(True, "--ladder/--no-ladder", help="Rerun the script with the torch.compile "
                                "backend switched (eager, aot_eager, inductor; spyre/sendnn when installed)."),
    spyre_verbose_backend: bool = typer.Option(False, "--spyre-verbose-backend", help="The debug run also raises "
                                               "the Spyre back end's log levels (TORCH_SENDNN_LOG=DEBUG "
                                               "DT_DEEPRT_VERBOSE=1 DTLOG_LEVEL=info; --env values win): very "
                                               "large logs on a card."),
    python: Optional[str] = PythonOpt,
    timeout: Optional[float] = TimeoutOpt,
    isolate_file: bool = IsolateOpt,
    match: Optional[str] = MatchOpt,
    exit_code: Optional[int] = ExitCodeOpt,
    any_exception: bool = AnyExcOpt,
    env: Optional[List[str]] = EnvOpt,
) -> None:
    """Collect a checklist-complete bug report for SCRIPT into a bundle directory (and a .tar.gz).

    Runs the script with Torch-Spyre / Inductor debugging on (TORCH_SPYRE_FFDC, TORCH_SPYRE_DEBUG,
    TORCH_COMPILE_DEBUG, TORCH_LOGS=+torch_spyre when torch_spyre is installed, private cache dirs), probes the environment in the target interpreter, reruns it with the
    torch.compile backend switched, and collects logs, fx graphs, sdsc files and FFDC reports.
    Secrets and the home directory are redacted from everything written.
    """
    import shlex

    from reportkit.report.bundle import BundleOptions, make_bundle

    try:
        if template not in TEMPLATE_CHOICES:
            raise UserError(f"--template must be one of {', '.join(TEMPLATE_CHOICES)}, not {template!r}")
        policy = _policy(match, exit_code, any_exception)
        spec, source = _spec(script, args, python, timeout, isolate_file, env, default_timeout=300.0)
        options = BundleOptions(out=out_dir, issue=issue, title=title, template=template, redact=not no_redact,
                                ladder=ladder, verbose_backend=spyre_verbose_backend, minimize=do_minimize, budget=budget, retries=retries,
                                command=shlex.join(["reportkit", "bundle", *sys.argv[2:]]))
        err.print(f"[bold]reportkit bundle[/bold] {escape(script)}")
        result = make_bundle(spec, source, policy, options, on_step=lambda msg: err.print(f"  {escape(msg)}"))
    except UserError as exc:
        _fail(exc)
        return
    _print_bundle_summary(result)


def _print_bundle_summary(result) -> None:
    import os

    def rel(path: Path) -> str:
        try:
            shown = os.path.relpath(path)
        except ValueError:
            return str(path)
        return str(path) if shown.startswith("..") else shown

    c = result.collected
    done = [i for i in result.checklist if i.done]
    rows = [("bundle", rel(result.directory) + "/"),
            ("archive", f"{rel(result.archive)} ({result.archive.stat().st_size / 1024:.0f} KiB)")]
    if result.issue is not None:
        rows.append(("issue", f"{rel(result.issue)} ({len(result.issue.read_text(encoding='utf-8')):,} characters)"))
    rows += [("json", rel(result.bundle_json)), ("failure", c.signature.headline().splitlines()[0])]
    issue_repo = result.issue_repo
    if result.issue is not None:
        from reportkit.report.venue import choose

        venue = choose(c)
        if venue.template == result.template:  # chosen by --template auto (or agreeing with it)
            issue_repo = venue.repo
        rows.append(("venue", f"{issue_repo or 'the tracker of the code that failed'} ({result.template} form)"
                              + (f": {venue.reason}" if venue.template == result.template else "")))
        if venue.own_bug:
            rows.append(("note", venue.own_bug))
    if result.template == "torch-spyre":  # the checklist is Torch-Spyre's; the pytorch form has none
        rows.append(("checklist", f"{len(done)}/{len(result.checklist)} ticked"))
        rows += [("  missing", f"{i.label}: {i.detail}") for i in result.checklist if not i.done]
    from reportkit.report.render import single_verdict

    verdict = single_verdict(c)  # the ladder's and the spyre vs sendnn comparison's, as one (as issue.md has it)
    if verdict:
        rows.append(("verdict", verdict))
    rows.append(("time", ", ".join(f"{k} {v:.0f} s" for k, v in result.timings.items())))
    if result.issue is not None:
        import shlex

        repo = f"--repo {issue_repo} " if issue_repo else ""
        rows.append(("file it", f"gh issue create {repo}--title {shlex.quote(result.title)} "
                                f"--body-file {shlex.quote(rel(result.issue))}"))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        out.print(f"  [bold]{key.ljust(width)}[/bold]  {escape(str(value))}")


@app.command()
def ci(
    junit: Optional[List[Path]] = typer.Option(None, "--junit", help="JUnit XML of the failed job (pytest "
                                               "--junitxml, unittest-xml-reporting); repeatable."),
    repo_root: Path = typer.Option(Path("."), "--repo-root", help="Repository root: test paths are resolved "
                                   "from here, and the tests run from a mirror of it."),
    out_dir: Path = typer.Option(Path("reportkit-ci"), "--out", "-o", help="Output directory: "
                                 "reportkit-ci.json, summary.md and bundles/<fingerprint>/."),
    python: Optional[str] = PythonOpt,
    max_tests: int = typer.Option(20, "--max-tests", min=1, help="Examine at most this many failed tests "
                                  "(in XML order); the rest are listed as not examined."),
    budget: Optional[float] = typer.Option(None, "--budget", min=1, help="Wall-clock seconds for the whole "
                                           "command, runs in flight included: at the budget the run in progress "
                                           "is cut, and the summary lists what was not re-run or bundled."),
    do_minimize: bool = typer.Option(False, "--minimize/--no-minimize", help="Also minimize each reproduced "
                                     "failure's test module (and write a standalone script when possible)."),
    timeout: float = typer.Option(600.0, "--timeout", min=0.1, help="Seconds per test run before it counts as "
                                  "a hang."),
    template: str = typer.Option(AUTO_TEMPLATE, "--template", help="Issue template of the bundles: auto (chosen per "
                                 "failure), torch-spyre, pytorch-compile, pytorch or generic."),
    ladder: bool = typer.Option(True, "--ladder/--no-ladder", help="Rerun compiled tests with the backend "
                                "switched (eager, aot_eager, inductor) in the bundles."),
    jobs: int = typer.Option(os.cpu_count() or 1, "--jobs", "-j", min=1, help="With --minimize: candidates "
                             "tested in parallel (default: the number of cores)."),
    executor: str = ExecutorOpt,
    ray_address: Optional[str] = RayAddressOpt,
    ray_resources: Optional[List[str]] = RayResourcesOpt,
    plan: bool = typer.Option(False, "--plan", help="GitHub Actions matrix: group the failures (as ci does) and "
                              "print the matrix, one entry per distinct failure, as JSON (also matrix= and count= "
                              "in $GITHUB_OUTPUT); runs nothing."),
    only: Optional[str] = typer.Option(None, "--only", metavar="ID", help="Matrix job: do one group's work (re-runs, "
                                       "bundle, --minimize) and write it to --out; ID is a matrix entry's id. Give "
                                       "the same --junit, --repo-root and --max-tests as --plan."),
    merge: Optional[List[Path]] = typer.Option(None, "--merge", metavar="DIR", help="Final matrix job: combine the "
                                               "--only jobs' output directories (or directories holding them; "
                                               "repeatable) into --out, as one ci run writes it."),
    as_json: bool = JsonOpt,
) -> None:
    """Turn a failed CI job's JUnit XML into one confirmed, bundled failure per fingerprint.

    Failed tests are grouped by what the XML says, one test per group is re-run with pytest
    (as `reportkit check PATH::TEST` would: twice, then while it fails the same way up to 7 times), groups whose re-runs fail the same way are merged, and each
    distinct failure gets a bundle with issue.md. Writes reportkit-ci.json (read by `reportkit publish`)
    and summary.md; in GitHub Actions also the job summary ($GITHUB_STEP_SUMMARY) and the step outputs
    bundle-dir, count, fingerprints ($GITHUB_OUTPUT). Exit code 0 whenever it ran, whatever it found.

    As a GitHub Actions matrix (one job per distinct failure): --plan prints the matrix, each job runs
    --only ID, a final job runs --merge DIR... (see README, Running on a cluster).
    """
    from reportkit.ci.ci import (
        MATRIX_LIMIT,
        CiOptions,
        annotations,
        make_plan,
        merge_parts,
        resolve_repo_root,
        run_ci,
        write_outputs,
        write_plan,
    )

    in_actions = os.environ.get("GITHUB_ACTIONS") == "true"
    group = {"open": False}

    def on_step(message: str) -> None:
        if as_json:
            return
        if in_actions and message.startswith("re-running"):  # fold each failure's log in the job's output
            if group["open"]:
                print("::endgroup::", file=raw_err, flush=True)
            print(f"::group::reportkit: {message}", file=raw_err, flush=True)
            group["open"] = True
        err.print(escape(message))

    try:
        if template not in TEMPLATE_CHOICES:
            raise UserError(f"--template must be one of {', '.join(TEMPLATE_CHOICES)}, not {template!r}")
        if sum((plan, only is not None, bool(merge))) > 1:
            raise UserError("--plan, --only and --merge are the three matrix steps: give one of them")
        if merge and junit:
            raise UserError("--merge reads the jobs' outputs (their manifests hold the plan); drop --junit")
        kind = _executor_choice(executor, False, ray_address, ray_resources, jobs)
        if executor != "local" and not do_minimize:
            raise UserError("--executor says where --minimize's candidates run: add --minimize (the re-runs and "
                            "bundles always run here)")
        options = CiOptions(out_dir=out_dir, repo_root=repo_root, python=python, max_tests=max_tests, budget=budget,
                            minimize=do_minimize, timeout=timeout, template=template, ladder=ladder,
                            executor=kind, jobs=jobs)
        if plan:
            the_plan = make_plan(list(junit or []), resolve_repo_root(options), max_tests, limit=MATRIX_LIMIT)
            print(write_plan(the_plan), file=raw_out, flush=True)
            err.print(f"reportkit ci --plan: {the_plan.failed_cases} of {the_plan.total_cases} tests failed, "
                      f"{len(the_plan.groups)} group(s) to examine"
                      + (f", {len(the_plan.not_examined)} test(s) not examined" if the_plan.not_examined else ""))
            return
        try:
            if merge:
                report = merge_parts(list(merge), out_dir, on_step=on_step)
            else:
                report = run_ci(list(junit or []), options, on_step=on_step, only=only)
        finally:
            if group["open"]:
                print("::endgroup::", file=raw_err, flush=True)
        outputs = write_outputs(report, out_dir)
    except UserError as exc:
        _fail(exc)
        return
    if in_actions and only is None:  # a matrix's failures are annotated once, by the --merge job
        for line in annotations(report, os.environ.get("GITHUB_WORKSPACE")):
            print(line, file=raw_out, flush=True)
    if as_json:
        out.print_json(json.dumps(report.to_manifest()))
        raise typer.Exit(130 if report.interrupted else 0)
    if report.interrupted:
        out.print("[yellow]interrupted[/yellow]: what was found so far is written")
    out.print(f"[bold]reportkit ci[/bold]: {report.failed_cases} of {report.total_cases} tests failed, "
              f"{len(report.failures)} distinct failure(s) ({report.wall_time:.0f} s)")
    for f in report.failures:
        where = f.bundle_dir or f.note
        out.print(f"  [bold]{f.fingerprint}[/bold]  {f.verdict:<14} {escape(f.headline[:100])}")
        out.print(f"  {'':16}  {len(f.tests)} test(s), e.g. {escape(f.tests[0])}")
        if where:
            out.print(f"  {'':16}  {escape(str(where))}")
    if report.not_examined:
        out.print(f"  not examined (--max-tests): {len(report.not_examined)} test(s)")
    if report.budget_exhausted:
        out.print(f"  [yellow]time budget used up[/yellow] ({report.budget:g} s): the work in flight was cut")
    out.print(f"  manifest  {escape(outputs['manifest'])}")
    if report.interrupted:
        raise typer.Exit(130)


@app.command()
def publish(
    out_dir: Path = typer.Argument(..., help="Output directory of `reportkit ci` (holds reportkit-ci.json)."),
    repo: Optional[str] = typer.Option(None, "--repo", help="OWNER/NAME to file issues in "
                                       "(default: $GITHUB_REPOSITORY)."),
    labels: Optional[List[str]] = typer.Option(None, "--label", "-l", help="Label for new issues (repeatable, or "
                                               "separated by commas or newlines); a label that does not exist is "
                                               "created, or reported and left out when that is not allowed."),
    dedup_label: str = typer.Option("reportkit", "--dedup-label", help="Label put on every issue reportkit files; "
                                    "existing issues are found by it (all states) and their hidden fingerprint "
                                    "marker. Empty: find them by GitHub's search only."),
    on_regression: str = typer.Option("reopen", "--on-regression", help="A failure whose issue is closed: "
                                      "'reopen' it with a \"regressed\" comment, or file a 'new' issue linking it."),
    max_comments: int = typer.Option(10, "--max-comments", min=0, help="At most this many comments per run "
                                     "(seen again / regressed); one per issue per run in any case."),
    max_comments_per_issue: int = typer.Option(20, "--max-comments-per-issue", min=0, help="No more comments on an "
                                               "issue that has this many reportkit comments already."),
    gh: Optional[str] = typer.Option(None, "--gh", help="The gh (GitHub CLI) executable (default: gh on PATH)."),
    artifact_name: Optional[str] = typer.Option(None, "--artifact-name", help="Name of the CI artifact that holds "
                                                "the bundles, for the pointer in issues and comments."),
    artifact_url: Optional[str] = typer.Option(None, "--artifact-url", help="URL of that artifact (the upload "
                                               "step's artifact-url), linked from issues and comments."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Look up existing issues but create or comment nothing."),
    max_new: Optional[int] = typer.Option(None, "--max-new-issues", min=0, help="Open at most this many new issues "
                                          "(the rest are skipped with a notice; comments are not limited)."),
    as_json: bool = JsonOpt,
) -> None:
    """File a GitHub issue for every confirmed or flaky failure of a `reportkit ci` run, through `gh`
    (without gh: GitHub's REST API with GH_TOKEN / GITHUB_TOKEN, $GITHUB_API_URL for GitHub Enterprise).

    Issues are found by the dedup label and the hidden fingerprint marker in their body. A failure with
    an open issue gets a short "seen again" comment (capped per run and per issue); one whose issue is
    closed reopens it ("regressed") or gets a new issue linking it; two jobs filing one failure at once
    end with one issue (the later closes its own). Mentions and #references from the job's text are
    neutralised. No gh and no token, a read-only token or a fork pull request skip with a notice
    (exit 0); exit 1 when a gh call failed otherwise.
    """
    from reportkit.ci import publish as pub

    try:
        manifest = pub.load_manifest(out_dir)
        if on_regression not in ("reopen", "new"):
            raise UserError(f"--on-regression must be reopen or new, not {on_regression!r}")
        options = pub.PublishOptions(repo=repo, labels=pub.split_labels(labels), gh=gh, dry_run=dry_run,
                                     max_new=max_new, artifact_name=artifact_name, artifact_url=artifact_url or None,
                                     dedup_label=dedup_label.strip() or None, on_regression=on_regression,
                                     max_comments=max_comments, max_comments_per_issue=max_comments_per_issue)
        report = pub.publish(manifest, options)
        pub.write_github_files(report)
    except UserError as exc:
        _fail(exc)
        return
    if pub.in_github_actions(os.environ):
        for line in pub.workflow_commands(report):
            print(line, file=raw_err, flush=True)
    else:
        for n in report.notices:
            err.print(f"[bold]reportkit publish:[/bold] {n.level}: {escape(n.message)}")
    if as_json:
        out.print_json(json.dumps(report.to_dict()))
    else:
        for line in pub.format_table(report):
            out.print(escape(line))
    raise typer.Exit(report.exit_code)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("reportkit: interrupted")
        sys.exit(130)
