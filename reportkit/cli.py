"""The command line: thin wrappers that parse options and call the pipeline stages."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import List, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from reportkit import __version__
from reportkit.constants import AUTO_TEMPLATE, CHECK_SCHEMA_VERSION, MINIMIZE_SCHEMA_VERSION, TEMPLATE_NAMES
from reportkit.errors import UserError, sigterm_as_interrupt, was_interrupted
from reportkit.failure.signature import FailureKind, MatchPolicy, Reproduction, Signature, shown_message
from reportkit.io import check_writable, output_file, read_run_text, readable_by_runs
from reportkit.redact import (
    RedactingStream,
    clip_words,
    live_display,
    protect,
    redact_argv,
    redact_data,
    remember_argv,
    remember_code,
    remember_env,
)
from reportkit.run.runner import kill_active, target_spec
from reportkit.run.spec import RunSpec


class HelpGroup(TyperGroup):
    """The root's --help: flags (--help, --install-completion, ...) without a raw ``<bool>`` type."""

    def format_help(self, ctx, formatter) -> None:
        for param in self.get_params(ctx):
            if getattr(param, "is_flag", False):
                param.metavar = ""
        super().format_help(ctx, formatter)


app = typer.Typer(
    cls=HelpGroup,
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
# --confirm-runs' default: reportkit.failure.check.CONFIRM_RUNS (that module is imported when a command runs)
CONFIRM_RUNS_DEFAULT = 7


def _json(data: object) -> str:
    """``--json``'s document: its strings redacted as the texts they are before it is serialised (a secret on
    a message's second line is not glued to a ``\\n`` escape); the console's edge then sees the whole."""
    return json.dumps(redact_data(data, home=""))


def _edit_distance(a: str, b: str) -> int:
    """Damerau-Levenshtein distance (adjacent transpositions count 1; optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def near_miss(name: str, known: list[str]) -> Optional[str]:
    """The reportkit ``--long`` option that ``name`` (a ``--long`` option) looks like a typo of, or None:
    Damerau-Levenshtein distance <= 2 (<= 1 for names of up to 5 letters, so that a script's short
    options such as ``--lr`` or ``--ops`` are not taken for reportkit's)."""
    if not name.startswith("--") or len(name) < 4:
        return None
    bare = name[2:]
    limit = 1 if len(bare) <= 5 else 2
    scored = sorted((_edit_distance(bare, k[2:]), k) for k in known if k.startswith("--") and k != name)
    return scored[0][1] if scored and scored[0][0] <= limit else None


class HelpCommand(TyperCommand):
    """typer's command with a cleaner --help: the usage line names the arguments by their metavars
    (``SCRIPT [ARGS]...``, not ``{script} [args]...``), the arguments panel shows no raw types
    (``<str>``), ``--help`` no ``<bool>`` (and sits in the Output panel where there are panels)."""

    def collect_usage_pieces(self, ctx) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if getattr(param, "param_type_name", "") == "argument":
                pieces.append(param.metavar or param.name.upper())
        return pieces

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.metavar = ""
            if self.name in PANELLED:
                option.rich_help_panel = "Output"
        return option

    def format_help(self, ctx, formatter) -> None:
        for param in self.get_params(ctx):
            if getattr(param, "param_type_name", "") == "argument":
                param.display_type_rich = lambda ctx: None  # the metavar in the name column says it
        super().format_help(ctx, formatter)


class ScriptCommand(HelpCommand):
    """A command that runs SCRIPT with its own arguments (``reportkit check [OPTIONS] SCRIPT [ARGS]...``).

    Unknown options are passed on to the script, so a mistyped reportkit option would silently become the
    script's (or, before SCRIPT, be taken for it). Before SCRIPT every unknown option is an error; after it,
    a near miss of a reportkit option is (pass it to the script after ``--``), anything else goes to the
    script as before."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            problem = _unknown_option(self, ctx, args)
            if problem:
                err.print(f"[bold red]reportkit:[/bold red] {escape(problem)}")
                err.print(f"(reportkit {self.name} --help lists the options)")
                raise typer.Exit(2)
        return super().parse_args(ctx, args)


def _unknown_option(command, ctx, args: list[str]) -> Optional[str]:
    """What is wrong with an unknown option in ``args`` (see :class:`ScriptCommand`), or None."""
    takes_value: dict[str, bool] = {}
    for param in command.get_params(ctx):
        if getattr(param, "param_type_name", "") != "option":
            continue
        value = not (getattr(param, "is_flag", False) or getattr(param, "count", False))
        for opt in (*param.opts, *param.secondary_opts):
            takes_value[opt] = value
    root = [o for p in (ctx.parent.command.params if ctx.parent else []) for o in p.opts]
    seen_script, i = False, 0
    while i < len(args):
        token = args[i]
        i += 1
        if token == "--":
            return None
        if not token.startswith("-") or token == "-":
            seen_script = True
            continue
        name = token.split("=", 1)[0]
        if name in takes_value:
            i += takes_value[name] and "=" not in token
            continue
        if not name.startswith("--") and all(f"-{c}" in takes_value for c in name[1:]):
            continue  # short flags together (-qv), or a short option with its value attached (-j4)
        if not name.startswith("--") and f"{name[:2]}" in takes_value and takes_value[name[:2]]:
            continue
        if name in root:
            return (f"{name} is an option of reportkit itself: put it before the command "
                    f"(reportkit {name} {command.name} ...)")
        guess = near_miss(name, list(takes_value))
        if seen_script and guess is None:
            continue  # the script's own option
        hint = f"; did you mean {guess}?" if guess else ""
        if seen_script:
            hint += (f" (to pass {name} to the script, put it after `--`: "
                     f"reportkit {command.name} [OPTIONS] SCRIPT -- {name} ...)")
        return f"no such option: {name}{hint}"
    return None
SCRIPT_HELP = ("The failing Python script (never modified), or a pytest test: path/to/test_x.py::test_y, "
               "...::TestClass::test_y, ...::test_y\\[param-id] (runs with pytest from its rootdir).")
ARGS_HELP = "Arguments passed to the script. Put `--` before them if they look like reportkit options."

ScriptArg = typer.Argument(..., metavar="SCRIPT", help=SCRIPT_HELP, show_default=False)
ArgsArg = typer.Argument(None, metavar="[ARGS]...", help=ARGS_HELP, show_default=False)
PythonOpt = typer.Option(None, "--python", help="Interpreter that runs the script (default: the one running reportkit).")
TimeoutOpt = typer.Option(None, "--timeout", min=0.1, help="Seconds per run; a run that takes longer is a hang "
                          "(default: 300).")
IsolateOpt = typer.Option(False, "--isolate-file", help="Copy only the script into the scratch dir, "
                          "not its whole directory.")
MatchOpt = typer.Option(None, "--match", help="Regex searched in stdout+stderr; when given, a run counts as "
                        "failing the same way iff it matches (replaces strict matching).")
ExitCodeOpt = typer.Option(None, "--exit-code", help="A run counts as failing the same way iff it exits with this code.")
AnyExcOpt = typer.Option(False, "--any-exception", help="Any uncaught exception counts, whatever its type, "
                         "message or location.")
EnvOpt = typer.Option(None, "--env", "-e", help="KEY=VALUE set for the script's runs (repeatable; an empty VALUE unsets KEY).")
KeepEnvOpt = typer.Option(None, "--keep-env", metavar="NAME", help="Pass this secret-bearing variable (a token, "
                          "password, key, credential URL ...) from your environment to the script's runs "
                          "(repeatable, or NAME,NAME; also $REPORTKIT_KEEP_ENV). By default the runs do not see "
                          "them.")
JsonOpt = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")
ExecutorOpt = typer.Option("local", "--executor", help="Where candidates run: local (this machine) "
                           "or ray: one Ray actor per -j slot, each with its own warm server and "
                           "compile cache (pip install 'reportkit\\[ray]'; see docs/cluster.md).")
RayAddressOpt = typer.Option(None, "--ray-address", help="With --executor ray: the cluster to "
                             "join (default: $RAY_ADDRESS, else a local one started for this run).")
RayResourcesOpt = typer.Option(None, "--ray-resources", help="With --executor ray: "
                               "NAME=AMOUNT (repeatable) each slot needs, e.g. spyre=1; "
                               "Ray places slots on hosts that have them.")


#: One exit-code table for every command (README: "Exit codes"); each command's --help epilog names its rows.
EXIT_CODES = {
    0: "done: the failure reproduces on every run (check); the result is written (minimize, bundle); "
       "it ran (ci, publish)",
    1: "flaky: the failure does not reproduce on every run (check; minimize and bundle --minimize refuse it "
       "without --retries); minimize's result no longer fails the same way; publish: a gh call failed",
    2: "bad input: unknown option, missing or unreadable file, syntax error, interpreter or module not found, "
       "nothing to reproduce (the script exits 0)",
    130: "interrupted (Ctrl-C, SIGTERM): what was found so far is kept",
}
COMMAND_EXIT_CODES = {
    "check": {0: "the failure reproduces on every run", 1: "it is flaky (the rate is printed)",
              2: "bad input or nothing fails", 130: "interrupted"},
    "minimize": {0: "the result is written and fails the same way", 1: "flaky (refused without --retries), or "
                 "the result no longer fails the same way", 2: "bad input or nothing fails",
                 130: "interrupted (the best result so far is kept)"},
    "bundle": {0: "the bundle is written", 1: "with --minimize: the failure is flaky (refused without --retries)",
               2: "bad input or nothing fails", 130: "interrupted"},
    "ci": {0: "it ran, whatever it found", 2: "bad input", 130: "interrupted (what was found so far is written)"},
    "publish": {0: "filed, or skipped with a notice", 1: "a gh call failed", 2: "bad input"},
}


def exit_epilog(command: str) -> str:
    """The --help epilog of ``command``: its exit codes (rows of :data:`EXIT_CODES`)."""
    return "Exit codes: " + "; ".join(f"{code} {what}" for code, what in COMMAND_EXIT_CODES[command].items()) + "."


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


def _config(target: Optional[str], cwd: Optional[Path] = None):
    """``[tool.reportkit]`` for ``target`` (reportkit/config.py); its ``sandbox`` applies unless
    $REPORTKIT_SANDBOX is set, and only where it does not weaken the sandbox: the file is the project's (a
    downloaded bug repro's, a pull request's in ``ci``), whose code the runs confine, so its ``fallback`` (the
    weaker mode) is not applied; the user chooses it with the variable. Nor is its ``keep_env`` (blind sandbox
    attacks round 33): it would pass the user's secret-bearing variables to that code."""
    from reportkit.config import load
    from reportkit.run.sandbox import FORCE_ENV

    cfg = load(target, cwd)
    asked = cfg.get("sandbox")
    if asked and FORCE_ENV not in os.environ:
        if asked == "fallback":
            err.print(escape(f"[tool.reportkit] sandbox = \"fallback\" in {cfg.path} is not applied: the project's "
                             f"own file cannot weaken the sandbox its code runs in; set {FORCE_ENV}=fallback to choose "
                             "that mode"))
        else:
            os.environ[FORCE_ENV] = asked
    if cfg.get("keep_env"):  # (a downloaded project's file would hand your tokens to its code, network on)
        err.print(escape(f"[tool.reportkit] keep_env in {cfg.path} is not applied: the project's own file cannot "
                         "hand your secrets to its code; pass --keep-env NAME (or set REPORTKIT_KEEP_ENV) to keep one"))
    return cfg


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _parse_env(pairs: Optional[List[str]], option: str = "--env") -> dict[str, str | None]:
    env: dict[str, str | None] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise UserError(f"{option} takes KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        if not _ENV_NAME.fullmatch(key):
            raise UserError(f"{option}: {key!r} is not a variable name (letters, digits and _, not first a digit)")
        env[key] = value if value else None
    return env


def _keep_env(names: Optional[List[str]]) -> None:
    """``--keep-env NAME`` (repeatable, or NAME,NAME): these secret-bearing variables reach the runs."""
    from reportkit.run.runner import keep_env

    kept = [n.strip() for item in names or [] for n in item.split(",") if n.strip()]
    for name in kept:
        if not _ENV_NAME.fullmatch(name):
            raise UserError(f"--keep-env takes a variable's NAME (its value is taken from your environment), "
                            f"not {name!r}")
    keep_env(kept)


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
    """The run spec of a target: a script, or a pytest node id (``tests/test_x.py::test_y[1]``). Its
    secrets (``--env`` values, credentials in its arguments) become known values of the redaction edge."""
    overrides = _parse_env(env)
    remember_env(overrides, overrides=True)
    remember_argv(list(args or []))
    path = Path(script.split("::", 1)[0])  # literals the script binds to secret names (SECRET_KEY = "..."): known too
    if readable_by_runs(path):  # (target_spec says what is wrong with the path: a FIFO, /dev/zero, another's file)
        remember_code(read_run_text(path, follow=True))
    return target_spec(script, list(args or []), python=python, timeout=timeout or default_timeout,
                       isolate_file=isolate_file, env=overrides)


def _loc_line(sig: Signature) -> list[tuple[str, str]]:
    rows = []
    if sig.location:
        label = {FailureKind.HANG: "blocked at", FailureKind.SIGNAL: "crashed at"}.get(sig.kind, "raised at")
        rows.append((label, str(sig.location) + (f": {sig.location.shown}" if sig.location.in_script else "")))
    if sig.script_frame and sig.script_frame != sig.location:
        rows.append(("in script", f"{sig.script_frame}: {sig.script_frame.shown}"))
    if sig.generated:  # (compared: generated.site)
        rows.append(("in generated code", sig.generated))
    if sig.modes:  # (compared: a candidate in the other mode fails differently)
        rows.append(("mode", ", ".join(f"{mode} in {where}" for where, mode in sig.modes.items())))
    return rows


STRICT_SHORT = "strict: same kind, exception type, message and raising frame (-v: the details)"


def print_reproduction(rep: Reproduction, policy: MatchPolicy, script: str, verbose: bool = True,
                       withheld: list[str] | None = None) -> None:
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
    rows.append(("signature", shown_message(sig) if sig.kind is FailureKind.EXCEPTION else sig.headline()))
    rows.append(("matching", policy.describe() if verbose or not policy.strict else STRICT_SHORT))
    rows.append(("sandbox", _protection()))
    if withheld:
        rows.append(("withheld env", f"{', '.join(withheld)} (secret-bearing: not passed to the runs; "
                                     "--keep-env NAME passes one)"))
    _print_rows(rows)


def _print_withheld_hint(spec: RunSpec, source: str | None, sig: Signature | None) -> None:
    """On stderr: the withheld variables the script reads, and how to keep them (nothing if none)."""
    from reportkit.failure.check import withheld_hint

    hint = withheld_hint(spec, source, sig)
    if hint:
        err.print(f"[bold]note:[/bold] {escape(hint)}")


def _protection() -> str:
    """Which protection the runs had (bubblewrap or the fallback guard), for check/minimize output."""
    from reportkit.run import sandbox

    try:
        gaps = sandbox.gaps_seen()
        return sandbox.protection().describe() + (f" — {gaps}" if gaps else "")
    except UserError as exc:
        return exc.message


def _fail(exc: UserError) -> None:
    err.print(f"[bold red]reportkit:[/bold red] {escape(exc.message)}")
    raise typer.Exit(exc.exit_code)


@app.command(cls=ScriptCommand, context_settings=SCRIPT_CONTEXT, epilog=exit_epilog("check"))
def check(
    script: str = ScriptArg,
    args: Optional[List[str]] = ArgsArg,
    python: Optional[str] = PythonOpt,
    timeout: Optional[float] = TimeoutOpt,
    runs: Optional[int] = typer.Option(None, "--runs", min=1, help="Runs in fresh interpreters (default: 2); while "
                                       "they all fail the same way, more runs (warm, cheap) follow until 7 did (a 50% "
                                       "flake passes that with p < 1%; hangs: --runs only)."),
    confirm_runs: int = typer.Option(CONFIRM_RUNS_DEFAULT, "--confirm-runs", min=1, metavar="N",
                                     help="The failure is confirmed when N runs in all fail the same way (the "
                                     "runs after --runs stop at the first that differs; a torch.compile script "
                                     "compiles anew in each, so a lower N saves minutes there)."),
    isolate_file: bool = IsolateOpt,
    match: Optional[str] = MatchOpt,
    exit_code: Optional[int] = ExitCodeOpt,
    any_exception: bool = AnyExcOpt,
    env: Optional[List[str]] = EnvOpt,
    keep_env: Optional[List[str]] = KeepEnvOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run SCRIPT and print how it fails: kind, exception, message, raising location (its signature)."""
    from reportkit.failure.check import Check, establish_original, withheld_variables

    try:
        cfg = _config(script)
        python, timeout, runs = cfg.pick("python", python), cfg.pick("timeout", timeout), cfg.pick("runs", runs, 2)
        policy = _policy(match, exit_code, any_exception)
        _keep_env(keep_env)  # (not [tool.reportkit]'s: see _config)
        spec, source = _spec(script, args, python, timeout, isolate_file, env, default_timeout=300.0)
        if not as_json:
            more = f", then up to {confirm_runs} in all while they fail the same way" if runs < confirm_runs else ""
            err.print(f"running {escape(script)} {runs}x{more} (timeout {spec.timeout:g} s per run) ...")
        with RunProgress(max(runs, confirm_runs), quiet=as_json) as progress:
            rep = establish_original(Check(spec, policy), runs, on_run=progress.on_run, target=confirm_runs)
    except UserError as exc:
        _fail(exc)
        return
    withheld, needed = withheld_variables(spec, source)
    if as_json:
        out.print_json(_json({
            "schema_version": CHECK_SCHEMA_VERSION, "script": script, "runs": rep.runs, "failures": rep.failures, "deterministic": rep.deterministic,
            "durations": [round(r.duration, 3) for r in rep.results],
            "signature": rep.signature.to_dict(), "policy": policy.describe(), "sandbox": _protection(),
            "withheld_env": withheld, "withheld_needed": needed,
        }))
    else:
        print_reproduction(rep, policy, script, withheld=withheld)
    _print_withheld_hint(spec, source, rep.signature)
    raise typer.Exit(0 if rep.deterministic else 1)


def _default_output(spec: RunSpec) -> Path:
    if spec.pytest_node is not None:  # an importable module name that pytest's default patterns do not collect
        return spec.script.with_name("min_" + spec.script.name)
    return spec.script.with_name(spec.script.stem + ".min.py")


@app.command(cls=ScriptCommand, context_settings=SCRIPT_CONTEXT, epilog=exit_epilog("minimize"))
def minimize(
    script: str = ScriptArg,
    args: Optional[List[str]] = ArgsArg,
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Where to write the result "
                                          "(default: SCRIPT with .min.py next to it)."),
    python: Optional[str] = PythonOpt,
    timeout: Optional[float] = typer.Option(None, "--timeout", min=0.1, help="Seconds a run may take before "
                                            "it counts as a hang (default 300). For a hanging script, candidates "
                                            "blocked where the original hangs are decided early; those that "
                                            "hang elsewhere cost this: set it to a few times the time the "
                                            "script needs to reach the hang."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, show_default=False,
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
    runs: Optional[int] = typer.Option(None, "--runs", min=1, help="Runs of the original in fresh interpreters "
                                       "(default: 2); then, while they all fail the same way, more on the "
                                       "candidates' executor until 7 did (a 50% flake passes that with p < 1%; "
                                       "hangs: --runs only)."),
    retries: int = typer.Option(1, "--retries", min=1, help="A candidate must fail the same way N times out "
                                "of N (needed for flaky failures)."),
    isolate_file: bool = IsolateOpt,
    match: Optional[str] = MatchOpt,
    exit_code: Optional[int] = ExitCodeOpt,
    any_exception: bool = AnyExcOpt,
    env: Optional[List[str]] = EnvOpt,
    keep_env: Optional[List[str]] = KeepEnvOpt,
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
        cfg = _config(script)
        python, timeout, runs = cfg.pick("python", python), cfg.pick("timeout", timeout), cfg.pick("runs", runs, 2)
        jobs = cfg.pick("jobs", jobs, os.cpu_count() or 1)
        policy = _policy(match, exit_code, any_exception)
        _keep_env(keep_env)  # (not [tool.reportkit]'s: see _config)
        spec, source = _spec(script, args, python, timeout, isolate_file, env, default_timeout=300.0)
        kind = _executor_choice(executor, cold, ray_address, ray_resources, jobs)
        out_path = output_file(output or _default_output(spec), "--output")
        if out_path == spec.script:
            raise UserError("the output would overwrite the input script; choose another --output")
        check_writable(out_path, "--output")
        good_code = _good_rev(spec, good, no_good_check)
        if not as_json:
            out.print(f"[bold]reportkit minimize[/bold] {escape(script)}: running the original {runs}x ...")
        rep = reproduce(Check(spec, policy), runs)
        _print_withheld_hint(spec, source, rep.signature)
        require_deterministic(rep, retries)  # and minimize confirms it with more runs (reportkit.failure.check)
        if not as_json:
            print_reproduction(rep, policy, script, verbose=verbose)
        options = MinimizeOptions(output=out_path, jobs=jobs, budget=budget, retries=retries,
                                  passes_with=_parse_env(passes_with, "--passes-with") or None,
                                  executor=kind, good=good_code, good_auto=good is None and not no_good_check,
                                  keep_values=keep_values)
        report = _run_with_progress(spec, source, rep, policy, options, quiet=as_json or quiet, verbose=verbose,
                                    run_minimize=run_minimize)
    except UserError as exc:
        _fail(exc)
        return
    if as_json:
        out.print_json(_json({"schema_version": MINIMIZE_SCHEMA_VERSION, **report.to_dict()}))
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


class RunProgress:
    """Progress of the original's runs (check's up to 7): on a terminal a live line ``run 3/7, 12 s``
    (redrawn in place, elapsed time ticking, cut to the terminal's width); without one (CI logs, pipes)
    one plain line per finished run; nothing when ``quiet``."""

    def __init__(self, total: int, quiet: bool = False) -> None:
        import time

        self.total, self.quiet, self.done, self.start, self._clock = total, quiet, 0, time.monotonic(), time.monotonic
        self.last = ""
        self.live = None
        self._drawing = contextlib.ExitStack()
        if err.is_terminal and not quiet:
            from rich.live import Live

            self.live = Live(console=err, transient=True, refresh_per_second=2, get_renderable=self._line)

    def _line(self):
        from rich.text import Text

        text = f"run {min(self.done + 1, self.total)}/{self.total}, {self._clock() - self.start:.0f} s"
        return Text(text, no_wrap=True, overflow="ellipsis")

    def on_run(self, i: int, result, signature) -> None:
        self.done = i + 1
        if self.live is None and not self.quiet:
            what = signature.headline().splitlines()[0] if signature is not None else ""
            what, self.last = ("" if what == self.last else f": {what}"), what  # said once while it stays the same
            line = f"run {self.done}/{self.total}, {self._clock() - self.start:.0f} s{what}"
            width = max(20, err.width)
            err.print(escape(clip_words(line, width, "…")), soft_wrap=True)

    def __enter__(self) -> RunProgress:
        if self.live is not None:
            self._drawing.enter_context(live_display())
            self._drawing.enter_context(self.live)  # (Live: start on enter, stop on exit)
        return self

    def __exit__(self, *exc) -> None:
        self._drawing.close()


def _run_with_progress(spec, source, rep, policy, options, *, quiet: bool, run_minimize, verbose: bool = False):
    """Run minimize with progress on stderr: a live line on a terminal (redrawn in place); without one (CI
    logs, pipes) a plain line when the result shrinks and when a phase ends (``verbose``: also at every
    phase start and every 15 s), never a carriage-return redraw; nothing with ``quiet``."""
    import time

    from rich.live import Live
    from rich.text import Text

    from reportkit.failure.check import CONFIRM_RUNS
    from reportkit.reduce.minimize import count_lines, count_statements

    start = time.monotonic()
    lines0 = count_lines(source)
    last = {"phase": "", "best": lines0, "at_start": lines0, "printed": start, "text": "", "first": True,
            "live": f"confirming the original: more runs on the candidates' executor, up to {CONFIRM_RUNS} in all"}

    def live_line() -> Text:  # the elapsed time first: a line cut at the terminal's width loses the least
        return Text(f"{time.monotonic() - start:.0f} s | {last['live']}", no_wrap=True, overflow="ellipsis")

    live = Live(console=err, transient=True, refresh_per_second=4, get_renderable=live_line) \
        if err.is_terminal and not quiet else None

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
        core = (f"{lines0} -> {lines} lines, {count_statements(p.source)} statements | "
                f"tests {log.runs}, cache hits {p.stats.cache_hits}, skipped unparsable {p.stats.invalid_skipped}")
        slots = _ray_slots()
        ray = f" | Ray slots busy {slots[0]}/{slots[1]}" if slots else ""
        text = f"{core} | {now - start:.0f} s{ray}"
        if live is not None:
            last["live"] = f"{p.phase} | {core}{ray}"
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
            with live_display(), live:
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


def _phases(report) -> str:
    """`` (prepare 12 s, reduce 80 s: hdd 50 s, literals 9 s, ...; verify 3 s)``: where the wall time went."""
    phases = report.seconds_by_phase
    if not phases:
        return ""
    passes = sorted(report.seconds_by_pass.items(), key=lambda kv: -kv[1])
    shown = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in passes[:3] if seconds >= 0.5)
    reduce = f"reduce {phases.get('reduce', 0):.0f} s" + (f" — candidates' runs by pass: {shown}" if shown else "")
    return f" (prepare {phases.get('prepare', 0):.0f} s, {reduce}; verify {phases.get('verify', 0):.0f} s)"


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
        ("wall time", f"{report.wall_time:.1f} s" + _phases(report)),
    ]
    if report.original_runs:
        rate = report.original_failures / report.original_runs
        rows.insert(1, ("original", f"{report.original_failures}/{report.original_runs} runs failed the same way"
                        + (" (deterministic)" if report.original_failures == report.original_runs else
                           f" — FLAKY ({rate:.0%})")))
    if report.pytest_node is not None:
        node = f"{report.output}::{report.pytest_node}" if report.pytest_node else str(report.output)
        rows.insert(1, ("run it", shlex.join(["python", "-m", "pytest", node])))
        rows.append(("standalone", report.standalone + f"  ({shlex.join(['python', report.standalone])})"
                     if report.standalone else report.standalone_note))
    if report.folded_note:
        rows.append(("local code", report.folded_note))
    if report.keeps:
        rows.append(("keeps", report.keeps))
    if report.needs_env:
        them = "it" if len(report.needs_env) == 1 else "them"
        rows.append(("needs env", f"{', '.join(report.needs_env)} (read from the environment, never written "
                                  f"into the result: set {them} to run it)"))
    if report.needs_args:
        rows.append(("needs args", "the script's arguments (read from sys.argv, never written into the result as "
                                   "literals: run it with the same arguments)"))
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
    if report.steady_note:
        rows.append(("random data", report.steady_note))
    if report.verified is not None:
        rows.append(("re-checked", "fails the same way" if report.verified else report.verify_note or
                     "DOES NOT fail the same way any more (flaky?); see --retries"))
    _print_rows(rows)


TEMPLATE_CHOICES = (AUTO_TEMPLATE, *TEMPLATE_NAMES)


@app.command(cls=ScriptCommand, context_settings=SCRIPT_CONTEXT, epilog=exit_epilog("bundle"))
def bundle(
    script: str = ScriptArg,
    args: Optional[List[str]] = ArgsArg,
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
    good: Optional[str] = typer.Option(None, "--good", metavar="REV", help="With --minimize: the fix check, as "
                                       "`reportkit minimize --good`: the result must pass on REV's code (without "
                                       "it: on HEAD when the repository has uncommitted changes)."),
    template: Optional[str] = typer.Option(None, "--template", help="Issue template: auto (default: chosen from what is "
                                 "installed and what the failure involves), torch-spyre (Torch-Spyre's issue form "
                                 "+ bug-report checklist), pytorch-compile (PyTorch's compile form: backend ladder, "
                                 "TORCH_TRACE), pytorch (describe the bug + versions) or generic (no torch)."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Write the bundle's files without redaction (secrets, home directory); the console is still redacted."),
    ladder: bool = typer.Option(True, "--ladder/--no-ladder", help="Rerun the script with the torch.compile "
                                "backend switched (eager, aot_eager, inductor); with Torch-Spyre installed also "
                                "the spyre vs sendnn comparison (when torch_sendnn is installed) and the OpSpec "
                                "capture (tests/op_specs/capture.py of its checkout)."),
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
    keep_env: Optional[List[str]] = KeepEnvOpt,
) -> None:
    """Collect a checklist-complete bug report for SCRIPT into a bundle directory (and a .tar.gz).

    Runs the script with Torch-Spyre / Inductor debugging on (TORCH_SPYRE_FFDC=1,
    TORCHINDUCTOR_FORCE_DISABLE_CACHES=1, TORCH_SPYRE_DEBUG=1, TORCH_COMPILE_DEBUG=1, TORCH_LOGS=+torch_spyre
    when torch_spyre is installed, private cache dirs), probes the environment in the target interpreter,
    reruns it with the torch.compile backend switched, and collects logs, fx graphs, sdsc files, FFDC
    reports and the captured OpSpec kernels.
    Secrets and the home directory are redacted from everything written.
    """
    from reportkit.report.bundle import BundleOptions, make_bundle

    try:
        cfg = _config(script)
        python, timeout, template = cfg.pick("python", python), cfg.pick("timeout", timeout), \
            cfg.pick("venue", template, AUTO_TEMPLATE)
        if template not in TEMPLATE_CHOICES:
            raise UserError(f"--template must be one of {', '.join(TEMPLATE_CHOICES)}, not {template!r}")
        policy = _policy(match, exit_code, any_exception)
        _keep_env(keep_env)  # (not [tool.reportkit]'s: see _config)
        spec, source = _spec(script, args, python, timeout, isolate_file, env, default_timeout=300.0)
        if good is not None and not do_minimize:
            raise UserError("--good is the fix check of --minimize: add --minimize")
        options = BundleOptions(out=out_dir, issue=issue, title=title, template=template, redact=not no_redact,
                                ladder=ladder, verbose_backend=spyre_verbose_backend,
                                minimize=do_minimize, budget=budget, retries=retries,
                                good=_good_rev(spec, good, False) if good else None,
                                command=shlex.join(redact_argv(["reportkit", "bundle", *sys.argv[2:]])))
        err.print(f"[bold]reportkit bundle[/bold] {escape(script)}")
        result = make_bundle(spec, source, policy, options, on_step=lambda msg: err.print(f"  {escape(msg)}"))
    except UserError as exc:
        _fail(exc)
        return
    _print_bundle_summary(result)
    _print_withheld_hint(spec, source, result.collected.signature)


LONG_REPRODUCER = 30  # non-blank lines above which the bundle summary suggests --minimize


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
            ("archive", f"{rel(result.archive)} ({result.archive.stat().st_size / 1024:.0f} KiB; private, mode "
                        f"{result.archive.stat().st_mode & 0o777:04o}, like logs/ and env/: they hold the runs' output "
                        "and the environment, redacted; read them before sharing)")]
    if result.issue is not None:
        rows.append(("issue", f"{rel(result.issue)} ({len(result.issue.read_text(encoding='utf-8')):,} characters)"))
    rows += [("json", rel(result.bundle_json)), ("failure", c.signature.headline().splitlines()[0])]
    issue_repo, check_first = result.issue_repo, False
    if result.issue is not None:
        from reportkit.report.venue import choose

        venue = choose(c)
        if venue.template == result.template:  # chosen by --template auto (or agreeing with it)
            issue_repo = venue.repo
        rows.append(("venue", f"{issue_repo or 'the tracker of the code that failed'} ({result.template} form)"
                              + (f": {venue.reason}" if venue.template == result.template else "")))
        if venue.check_first:
            rows.append(("note", venue.check_first))
            check_first = True
    if result.template == "torch-spyre":  # the checklist is Torch-Spyre's; the pytorch form has none
        rows.append(("checklist", f"{len(done)}/{len(result.checklist)} ticked"))
        rows += [("  missing", f"{i.label}: {i.detail}") for i in result.checklist if not i.done]
    from reportkit.report.render import single_verdict

    verdict = single_verdict(c)  # the ladder's and the spyre vs sendnn comparison's, as one (as issue.md has it)
    if verdict:
        rows.append(("verdict", verdict))
    rows.append(("time", ", ".join(f"{k} {v:.0f} s" for k, v in result.timings.items())))
    lines = len([ln for ln in (c.source or "").splitlines() if ln.strip()])
    if result.issue is not None and not c.minimized and lines > LONG_REPRODUCER:
        rows.append(("shorten", f"the reproducer has {lines} lines: `reportkit bundle --minimize --issue ...` "
                                "bundles a minimized one (what maintainers read first)"))
    if result.issue is not None and not check_first:  # no ready-made upstream command for a likely usage error
        import shlex

        repo = f"--repo {shlex.quote(issue_repo)} " if issue_repo else ""
        # composed from parts redacted before (the title went through the bundle's redactor): kept whole
        rows.append(("file it", protect(f"gh issue create {repo}--title {shlex.quote(result.title)} "
                                        f"--body-file {shlex.quote(rel(result.issue))}")))
    _print_rows(rows)


@app.command(cls=HelpCommand, epilog=exit_epilog("ci"))
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
    timeout: Optional[float] = typer.Option(None, "--timeout", min=0.1, help="Seconds per test run before it counts as "
                                  "a hang (default: 600).", show_default=False),
    template: Optional[str] = typer.Option(None, "--template", help="Issue template of the bundles: auto (default; chosen per "
                                 "failure), torch-spyre, pytorch-compile, pytorch or generic."),
    ladder: bool = typer.Option(True, "--ladder/--no-ladder", help="Rerun compiled tests with the backend "
                                "switched (eager, aot_eager, inductor) in the bundles."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, show_default=False, help="With --minimize: candidates "
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
    keep_env: Optional[List[str]] = KeepEnvOpt,
    merge: Optional[List[Path]] = typer.Option(None, "--merge", metavar="DIR", help="Final matrix job: combine the "
                                               "--only jobs' output directories (or directories holding them; "
                                               "repeatable) into --out, as one ci run writes it."),
    good: Optional[str] = typer.Option(None, "--good", metavar="REV", help="A revision where the tests passed "
                                       "(the PR's base, a push's `before`, the last green run; `auto`: the merge "
                                       "base with the default branch): each failed test's culprit is searched in "
                                       "git diff REV (delta debugging over the hunks, single tests only, inside "
                                       "--budget) and the failures are grouped by culprit: one issue per bug."),
    confirm_runs: int = typer.Option(CONFIRM_RUNS_DEFAULT, "--confirm-runs", min=1, metavar="N", help="A failure "
                                     "is confirmed when N runs in all fail the same way (the job's own JUnit "
                                     "rerun records count); re-running stops at the first run that differs."),
    as_json: bool = JsonOpt,
) -> None:
    """Turn a failed CI job's JUnit XML into one confirmed, bundled failure per fingerprint.

    Failed tests are grouped by what the XML says, one test per group is re-run with pytest
    (as `reportkit check PATH::TEST` would: twice, then while it fails the same way up to 7 times), groups whose re-runs fail the same way are merged, and each
    distinct failure gets a bundle with issue.md. Writes reportkit-ci.json (read by `reportkit publish`)
    and summary.md; in GitHub Actions also the job summary ($GITHUB_STEP_SUMMARY) and the step outputs
    bundle-dir, count, fingerprints ($GITHUB_OUTPUT).

    With --good REV the failures are grouped by their culprit change instead (delta debugging over the
    hunks of git diff REV): one issue per bug, naming the change; failures that also fail on REV are
    pre-existing and grouped apart.

    As a GitHub Actions matrix (one job per distinct failure): --plan prints the matrix, each job runs
    --only ID, a final job runs --merge DIR... (see docs/cluster.md).
    """
    from reportkit.ci.ci import annotations, write_outputs

    in_actions = os.environ.get("GITHUB_ACTIONS") == "true"
    progress = _CiProgress(as_json, in_actions)
    try:
        options = _ci_options(junit=junit, repo_root=repo_root, out_dir=out_dir, python=python, max_tests=max_tests,
                              budget=budget, do_minimize=do_minimize, timeout=timeout, template=template,
                              ladder=ladder, jobs=jobs, executor=executor, ray_address=ray_address,
                              ray_resources=ray_resources, plan=plan, only=only, keep_env=keep_env, merge=merge,
                              good=good, confirm_runs=confirm_runs)
        if plan:
            _print_ci_plan(junit, options, max_tests)
            return
        report = _run_ci_step(junit, merge, only, options, out_dir, progress)
        outputs = write_outputs(report, out_dir)
    except UserError as exc:
        _fail(exc)
        return
    if in_actions and only is None:  # a matrix's failures are annotated once, by the --merge job
        for line in annotations(report, os.environ.get("GITHUB_WORKSPACE")):
            print(protect(line), file=raw_out, flush=True)  # composed from redacted parts
    if as_json:
        out.print_json(_json(report.to_manifest()))
        raise typer.Exit(130 if report.interrupted else 0)
    _print_ci_report(report, outputs)
    if report.interrupted:
        raise typer.Exit(130)


class _CiProgress:
    """ci's progress lines on stderr; in GitHub Actions each failure's re-run is folded in a log group."""

    def __init__(self, quiet: bool, in_actions: bool) -> None:
        self.quiet = quiet
        self.in_actions = in_actions
        self.open = False

    def on_step(self, message: str) -> None:
        """Print one progress message (nothing with --json)."""
        if self.quiet:
            return
        if self.in_actions and message.startswith("re-running"):  # fold each failure's log in the job's output
            if self.open:
                print("::endgroup::", file=raw_err, flush=True)
            print(f"::group::reportkit: {_one_line(message)}", file=raw_err, flush=True)
            self.open = True
            return  # the group's title says it: not repeated as a plain line
        err.print(escape(_one_line(message)))

    def close(self) -> None:
        """End the open log group, if any."""
        if self.open:
            print("::endgroup::", file=raw_err, flush=True)


def _ci_options(*, junit, repo_root, out_dir, python, max_tests, budget, do_minimize, timeout, template, ladder,
                jobs, executor, ray_address, ray_resources, plan, only, keep_env, merge, good, confirm_runs):
    """ci's options, with [tool.reportkit]'s defaults; UserError for a bad or contradictory flag."""
    from reportkit.ci.ci import CiOptions

    cfg = _config(None, repo_root)
    python, timeout = cfg.pick("python", python), cfg.pick("timeout", timeout, 600.0)
    template, jobs = cfg.pick("venue", template, AUTO_TEMPLATE), cfg.pick("jobs", jobs, os.cpu_count() or 1)
    _check_ci_steps(template, plan, only, merge, junit)
    # (not the repository's keep_env, see _config: the job runs the code under test, whose pyproject.toml a pull
    # request writes; it would hand the job's secrets to that code. --keep-env is the workflow's)
    _keep_env(keep_env or [])
    kind = _executor_choice(executor, False, ray_address, ray_resources, jobs)
    if executor != "local" and not do_minimize:
        raise UserError("--executor says where --minimize's candidates run: add --minimize (the re-runs and "
                        "bundles always run here)")
    return CiOptions(out_dir=out_dir, repo_root=repo_root, python=python, max_tests=max_tests, budget=budget,
                     minimize=do_minimize, timeout=timeout, template=template, ladder=ladder,
                     executor=kind, jobs=jobs, good=good, confirm_runs=confirm_runs)


def _check_ci_steps(template: str, plan: bool, only: Optional[str], merge: Optional[List[Path]],
                    junit: Optional[List[Path]]) -> None:
    """UserError for an unknown --template, or for matrix steps (--plan/--only/--merge) given together."""
    if template not in TEMPLATE_CHOICES:
        raise UserError(f"--template must be one of {', '.join(TEMPLATE_CHOICES)}, not {template!r}")
    if sum((plan, only is not None, bool(merge))) > 1:
        raise UserError("--plan, --only and --merge are the three matrix steps: give one of them")
    if merge and junit:
        raise UserError("--merge reads the jobs' outputs (their manifests hold the plan); drop --junit")


def _print_ci_plan(junit: Optional[List[Path]], options, max_tests: int) -> None:
    """ci --plan: print the matrix as JSON on stdout, and a one-line count on stderr."""
    from reportkit.ci.ci import MATRIX_LIMIT, make_plan, resolve_repo_root, write_plan

    the_plan = make_plan(list(junit or []), resolve_repo_root(options), max_tests, limit=MATRIX_LIMIT)
    print(write_plan(the_plan), file=raw_out, flush=True)
    err.print(f"reportkit ci --plan: {the_plan.failed_cases} of {the_plan.total_cases} tests failed, "
              f"{len(the_plan.groups)} group(s) to examine"
              + (f", {len(the_plan.not_examined)} test(s) not examined" if the_plan.not_examined else ""))


def _run_ci_step(junit: Optional[List[Path]], merge: Optional[List[Path]], only: Optional[str], options,
                 out_dir: Path, progress: _CiProgress):
    """Run ci (or one --only job of its matrix), or --merge the matrix jobs' outputs: the report."""
    from reportkit.ci.ci import merge_parts, run_ci

    try:
        if merge:
            return merge_parts(list(merge), out_dir, on_step=progress.on_step)
        return run_ci(list(junit or []), options, on_step=progress.on_step, only=only)
    finally:
        progress.close()


def _print_ci_report(report, outputs: dict[str, str]) -> None:
    """ci's human report: the counts, one entry per distinct failure, the search's cost and what was cut."""
    if report.interrupted:
        out.print("[yellow]interrupted[/yellow]: what was found so far is written")
    out.print(f"[bold]reportkit ci[/bold]: {report.failed_cases} of {report.total_cases} tests failed, "
              f"{len(report.failures)} distinct failure(s) ({report.wall_time:.0f} s)")
    for f in report.failures:
        _print_ci_failure(f)
    if report.culprit_search:
        cs = report.culprit_search
        out.print(f"  culprit search against {escape(cs['good'])}: {cs['hunks']} hunk(s), {cs['tests']} test(s) "
                  f"searched, {cs['runs']} run(s), {cs['seconds']:g} s" + (f"; {escape(_one_line(cs['note']))}" if cs["note"]
                                                                           else ""))
    if report.not_examined:
        out.print(f"  not examined (--max-tests): {len(report.not_examined)} test(s)")
    if report.budget_exhausted:
        out.print(f"  [yellow]time budget used up[/yellow] ({report.budget:g} s): the work in flight was cut")
    out.print(f"  manifest  {escape(outputs['manifest'])}")


# every line break a terminal, a log viewer or Python's str.splitlines knows: LF, CR, VT, FF, FS/GS/RS, NEL, LS, PS
_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _escaped_break(m: re.Match[str]) -> str:
    code = ord(m.group())
    return {10: "\\n", 13: "\\r"}.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def _one_line(text: str) -> str:
    """A name or message from a run on one line: its line breaks written out (a test id holding ``\\n::add-path::``
    must not start a line, where the Actions runner reads workflow commands; an exception's class or a frame's file
    name holding ``\\n  sandbox  NONE`` must not add a row to a report)."""
    return _LINE_BREAK.sub(_escaped_break, text)


def _print_rows(rows: list[tuple[str, object]]) -> None:
    """A report's ``key  value`` rows, one line each: a value's line breaks (a name from the run: an exception's
    class, a frame's file or function) are written out as escapes, as its control sequences are."""
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        out.print(f"  [bold]{key.ljust(width)}[/bold]  {escape(_one_line(str(value)))}")


def _print_ci_failure(f) -> None:
    """One distinct failure of ci's human report: fingerprint, verdict, headline, a test, where its bundle is."""
    where = f.bundle_dir or f.note
    out.print(f"  [bold]{f.fingerprint}[/bold]  {f.verdict:<14} {escape(_one_line(clip_words(f.headline, 100)))}")
    out.print(f"  {'':16}  {len(f.tests)} test(s), e.g. {escape(_one_line(f.tests[0]))}")
    if f.regression == "pre-existing":
        out.print(f"  {'':16}  pre-existing: fails the same way on the good revision")
    if where:
        out.print(f"  {'':16}  {escape(_one_line(str(where)))}")


@app.command(cls=HelpCommand, epilog=exit_epilog("publish"))
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
        labels = _config(None).pick("labels", labels)
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
        out.print_json(_json(report.to_dict()))
    else:
        for line in pub.format_table(report):
            out.print(escape(line))
    raise typer.Exit(report.exit_code)


# --------------------------------------------------------------------------- --help

#: metavars by option (else by type: numbers N / SECONDS, paths PATH, text TEXT; flags none)
METAVARS = {
    "--python": "PATH", "--match": "REGEX", "--exit-code": "CODE", "--env": "KEY=VALUE", "--passes-with": "KEY=VALUE",
    "--ray-resources": "NAME=AMOUNT", "--ray-address": "ADDRESS", "--executor": "local|ray", "--template": "NAME",
    "--title": "TEXT", "--repo": "OWNER/NAME", "--label": "LABEL", "--dedup-label": "LABEL",
    "--on-regression": "reopen|new", "--gh": "PATH", "--artifact-name": "NAME", "--artifact-url": "URL",
    "--out": "DIR", "--junit": "XML", "--repo-root": "DIR", "--output": "PATH",
}
_SECONDS = ("--timeout", "--budget")
#: option panels (typer's rich_help_panel) by parameter name, for the commands with many options
PANELS = {
    "Run": ("python", "timeout", "runs", "isolate_file", "env", "keep_env", "ladder", "spyre_verbose_backend"),
    "Matching (what counts as the same failure)": ("match", "exit_code", "any_exception", "passes_with", "good",
                                                   "no_good_check", "retries"),
    "Reduction": ("budget", "keep_values", "do_minimize"),
    "Executors": ("jobs", "cold", "executor", "ray_address", "ray_resources"),
    "Output": ("output", "out_dir", "issue", "title", "template", "no_redact", "quiet", "verbose", "as_json"),
}
_PANEL_OF = {name: panel for panel, names in PANELS.items() for name in names}
PANELLED = ("check", "minimize", "bundle")


def _metavar(info, annotation) -> str:
    opts = [d for d in getattr(info, "param_decls", None) or () if d.startswith("--")]
    kind = str(annotation)
    if any(o in METAVARS for o in opts):
        return next(METAVARS[o] for o in opts if o in METAVARS)
    if "bool" in kind:
        return ""
    if any(o in _SECONDS for o in opts):
        return "SECONDS"
    if "int" in kind or "float" in kind:
        return "N"
    if "Path" in kind:
        return "PATH"
    return "TEXT"


def _reflow(doc: str) -> str:
    """A docstring as typer should show it: each paragraph one line (the terminal wraps it)."""
    import inspect

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(doc).split("\n\n"))


def _polish_help() -> None:
    """Metavars instead of raw types (<bool>, <list[str]>), panels for the many options of check, minimize
    and bundle, docstrings reflowed (no ragged wraps). Run once, before typer builds the commands."""
    import inspect
    import typing

    from typer.models import OptionInfo

    for command in app.registered_commands:
        fn = command.callback
        hints = typing.get_type_hints(fn)
        name = command.name or fn.__name__
        for pname, param in inspect.signature(fn).parameters.items():
            info = param.default
            if not isinstance(info, OptionInfo):
                continue
            if info.metavar is None:
                info.metavar = _metavar(info, hints.get(pname))
            if name in PANELLED and pname in _PANEL_OF:
                info.rich_help_panel = _PANEL_OF[pname]
        if fn.__doc__:
            fn.__doc__ = _reflow(fn.__doc__)
        if name in PANELLED:  # typer shows the panels in the order of their first option: Run first
            order = {panel: i for i, panel in enumerate(PANELS)}
            sig = inspect.signature(fn, eval_str=True)
            params = sorted(sig.parameters.values(), key=lambda p: (
                -1 if not isinstance(p.default, OptionInfo) else order.get(_PANEL_OF.get(p.name), len(order))))
            fn.__signature__ = sig.replace(parameters=params)


_polish_help()


def _interrupted() -> NoReturn:
    kill_active()  # runs other threads started (a command's own paths end theirs)
    err.print("reportkit: interrupted")
    sys.exit(130)


def main() -> None:
    import signal

    # Ctrl-C / SIGINT stops every command (exit 130), also when reportkit was started with SIGINT ignored
    # (a shell script's background job, some CI wrappers): Python would leave it ignored until the end
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

    # everything else that reaches the console (warnings, a traceback, a library's print) passes the edge too
    sys.stdout = RedactingStream(lambda out=sys.stdout: out)  # type: ignore[assignment]
    sys.stderr = RedactingStream(lambda err=sys.stderr: err)  # type: ignore[assignment]
    try:
        with sigterm_as_interrupt():  # (SIGTERM, SIGHUP: the runs in progress end with reportkit, exit 130)
            app()
    except KeyboardInterrupt:
        _interrupted()
    except SystemExit as exc:  # typer makes an interruption that reaches it exit 130 before it gets here
        if exc.code == 130 and was_interrupted():
            _interrupted()
        raise
    except OSError as exc:  # the machine refused a write (a full disk, a quota): one line, not a traceback
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO):
            raise
        err.print(f"reportkit: {escape(exc.strerror or str(exc))}" + (f": {escape(str(exc.filename))}" if exc.filename else ""))
        sys.exit(2)
