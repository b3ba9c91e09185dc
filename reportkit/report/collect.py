"""Stage *collect* of ``reportkit bundle``: gather every piece of evidence a bug report needs.

:func:`collect` runs the reproducer (never importing torch in this process) and returns a
:class:`Collected`: plain dataclasses, each item with ``status`` (``collected`` / ``not-collected``)
and a ``reason`` when it could not be collected. What runs, all in the target interpreter:

1. the environment probe (``_env_probe.py``, by path, with a timeout), concurrently with
2. the *debug run*: the script with ``TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 TORCH_SPYRE_DEBUG=1
   TORCH_COMPILE_DEBUG=1 TORCH_SPYRE_FFDC=1`` and the log settings (:data:`DEBUG_ENV`,
   :data:`BACKEND_LOG_ENV`), ``TORCH_COMPILE_DEBUG_DIR=.`` (the scratch copy it runs in) and a private
   ``TORCHINDUCTOR_CACHE_DIR`` (and ``SPYRE_LOG_FILE`` if the user had one), so its artifacts are
   found reliably and nothing of the user's is touched. It is the reference failure;
3. the evidence collectors (:data:`COLLECTORS`, see :mod:`reportkit.report.evidence`), in order: fx graphs,
   Torch-Spyre settings / logs / sdsc / FFDC (in :mod:`reportkit.report.spyre`), the backend ladder (the
   unchanged script again with the compile backend forced by ``_backend_boot.py``, a wrapper of
   ``_boot.py``, each run compared with the reference failure by
   :func:`reportkit.failure.signature.same_failure`; :func:`run_variant` is the one place that reruns it), the
   spyre vs sendnn comparison, the hang.

Everything collected here is raw (not redacted); :mod:`reportkit.report.render` redacts before anything
is written.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from reportkit import __version__
from reportkit.failure.check import Check, establish
from reportkit.failure.signature import FailureKind, MatchPolicy, Reproduction, Signature, shown_message
from reportkit.io import load_artifact_json, read_artifact, remove_tree, scrub_tree
from reportkit.redact import redact_code
from reportkit.reduce.standalone import conftest_chain
from reportkit.report import spyre
from reportkit.report.evidence import COLLECTED, NOT_COLLECTED, Collector, Comparison, Variant, VariantDef
from reportkit.run import sandbox as protect
from reportkit.run.gitinfo import GitInfo, repo_info
from reportkit.run.runner import (
    BACKEND_BOOT_FILE,
    BOOT_FILE,
    PROBE_FILE,
    WORKSPACE_PREFIX,
    Sandbox,
    build_env,
    claim,
    kill_tree,
    two_stage,
)
from reportkit.run.spec import PYTEST_NODE_ENV, RunResult, RunSpec

if TYPE_CHECKING:
    from reportkit.reduce.minimize import MinimizeReport

PROBE_TIMEOUT = 120.0

# Torch-Spyre's debugging guide, steps 2 and 3 (docs/source/user_guide/debugging/index.md: "Full debug run"):
# TORCH_SPYRE_FFDC=1 TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 TORCH_SPYRE_DEBUG=1 TORCH_COMPILE_DEBUG=1. Its unified
# logging (unified_logging_framework.md) is TORCH_LOGS=+torch_spyre (TORCH_SPYRE_DEBUG=1 is its deprecated
# spelling, SPYRE_INDUCTOR_LOG / SPYRE_INDUCTOR_LOG_LEVEL are no longer read): _backend_boot.py adds it only when
# torch_spyre is installed (REPORTKIT_SPYRE_LOGS), since TORCH_LOGS naming a module that does not import breaks
# `import torch`; the command shown has it then (:func:`spyre_torch_logs`).
DEBUG_ENV = {
    "TORCH_SPYRE_FFDC": "1",
    "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1",
    "TORCH_SPYRE_DEBUG": "1",
    "TORCH_COMPILE_DEBUG": "1",
}
SPYRE_LOGS = "+torch_spyre"
# The back-end's log levels, which torch_spyre turns down when unset (TORCH_SENDNN_LOG=CRITICAL,
# DT_DEEPRT_VERBOSE=-1, DTLOG_LEVEL=error: torch-spyre's README / docs/source/user_guide/profiling/
# environment_variables.md). Raised only when asked (--spyre-verbose-backend): on a card the logs are huge.
BACKEND_LOG_ENV = {"TORCH_SENDNN_LOG": "DEBUG", "DT_DEEPRT_VERBOSE": "1", "DTLOG_LEVEL": "info"}
# Environment variables worth reporting (names starting with these), besides the ones given by --env.
# The Torch-Spyre ones: torch_spyre/_inductor/config.py and the compiler / runtime it drives (LX_PLANNING,
# DXP_LX_FRAC_AVAIL, KTIR_DEVICE_MLIR, BUNDLE_*, DTCOMPILER_*, USE_SPYRE_PROFILER, LOCAL_RANK, ...).
ENV_PREFIXES = ("TORCH", "PYTORCH", "SPYRE", "SENCORES", "SENLIB", "DT_", "DTLOG", "DEEPRT", "FLEX_", "AIU",
                "DUMP_SPYRE", "BUNDLE_", "LX_", "HBM_", "DXP_", "LAYOUT_", "KTIR_", "DBO_", "FRONTEND_POOL",
                "DTCOMPILER", "DEEPTOOLS", "USE_SPYRE", "LOCAL_RANK", "LIB_VERSION_FILE", "CUDA_", "NCCL_", "OMP_", "MKL_", "KMP_", "PYTHONPATH", "LD_PRELOAD",
                "LD_LIBRARY_PATH", "HF_", "VLLM_", "COMPILATION_MODE")


@dataclass
class CollectOptions:
    ladder: bool = True
    rungs: Optional[tuple] = None  # names of the LADDER variants to run (default: all)
    collect_env: bool = True  # run torch.utils.collect_env in the probe
    verbose_backend: bool = False  # the debug run also raises the back end's log levels (BACKEND_LOG_ENV)
    probe_timeout: float = PROBE_TIMEOUT


# --------------------------------------------------------------------------- data


@dataclass
class PackageInfo:
    name: str
    status: str = NOT_COLLECTED  # collected: installed and described
    reason: str = ""
    version: Optional[str] = None
    location: Optional[str] = None
    editable: bool = False
    source_url: Optional[str] = None
    vcs_commit: Optional[str] = None  # pip install git+...@<sha> (direct_url.json)
    git: Optional[GitInfo] = None  # the git checkout the package is imported from
    origin: Optional[str] = None  # the file the import finds (a package's __init__.py, or a module file)
    shadows: Optional[str] = None  # the installed distribution's package dir, where the import finds another first
    dist_version: Optional[str] = None  # the installed distribution's version

    @property
    def commit(self) -> Optional[str]:
        return (self.git.commit if self.git else None) or self.vcs_commit


@dataclass
class EnvInfo:
    status: str = NOT_COLLECTED
    reason: str = ""
    python: Optional[str] = None
    executable: Optional[str] = None
    os: Optional[str] = None
    platform: Optional[str] = None
    machine: Optional[str] = None
    libc: Optional[str] = None
    torch: PackageInfo = field(default_factory=lambda: PackageInfo("torch"))
    torch_git_version: Optional[str] = None  # torch.version.git_version
    torch_cuda: Optional[str] = None
    torch_hip: Optional[str] = None
    accelerators: dict = field(default_factory=dict)
    torch_spyre: PackageInfo = field(default_factory=lambda: PackageInfo("torch_spyre"))
    torch_sendnn: PackageInfo = field(default_factory=lambda: PackageInfo("torch_sendnn"))
    packages: dict = field(default_factory=dict)  # distribution -> version (installed ones)
    lib_version_file: Optional[str] = None
    lib_versions: dict = field(default_factory=dict)
    lib_reason: str = ""
    script_git: Optional[GitInfo] = None
    collect_env: str = ""  # torch.utils.collect_env output
    collect_env_reason: str = ""
    env_vars: dict = field(default_factory=dict)  # relevant variables of the run environment (raw)
    spyre_config: dict = field(default_factory=dict)  # the probe's spyre_config stage (see _env_probe.py)
    spyre_stack: Optional[spyre.SpyreStack] = None  # image stamp, back-end RPMs, PF/VF mode (torch_spyre installed)
    probe_errors: dict = field(default_factory=dict)

    @property
    def deeptools(self) -> Optional[str]:
        return self.lib_versions.get("ibm-deeptools")

    @property
    def flex(self) -> Optional[str]:
        return self.lib_versions.get("ibm-flex")


@dataclass
class DebugRun:
    status: str = NOT_COLLECTED
    reason: str = ""
    env: dict = field(default_factory=dict)  # the debug variables set for the run
    command: str = ""
    duration: float = 0.0
    returncode: Optional[int] = None
    signal: Optional[int] = None
    timed_out: bool = False
    stdout: str = ""
    stderr: str = ""
    error_output: str = ""  # the traceback as printed (or the tail of the output)
    compile_calls: list = field(default_factory=list)  # torch.compile calls the script made
    compiled_calls: int = 0  # calls of the functions it compiled
    last_compiled_call: Optional[dict] = None  # the last one before the failure ({"call", "compile", "caller"})
    workdir: str = ""


@dataclass
class FxGraph:
    name: str
    directory: str
    order: int
    readable: Optional[str] = None  # fx_graph_readable.py
    output_code: Optional[str] = None
    files: list = field(default_factory=list)
    ops: list = field(default_factory=list)
    shapes: list = field(default_factory=list)
    sources: list = field(default_factory=list)  # "file.py:93 in fn" from the "# File:" comments
    score: int = 0
    why: list = field(default_factory=list)


@dataclass
class FxArtifacts:
    status: str = NOT_COLLECTED
    reason: str = ""
    run_dirs: list = field(default_factory=list)
    graphs: list = field(default_factory=list)  # FxGraph, compile order
    selected: Optional[str] = None  # FxGraph.name
    why: list = field(default_factory=list)
    excerpt: str = ""
    output_code_excerpt: str = ""


@dataclass
class HangInfo:
    status: str = NOT_COLLECTED
    reason: str = ""
    stacks: str = ""  # all threads, innermost first, as faulthandler dumped them
    last_stdout: list = field(default_factory=list)
    last_stderr: list = field(default_factory=list)
    last_print: str = ""
    hint: str = ""
    gdb: str = ""
    gdb_reason: str = ""


@dataclass
class Collected:
    """Everything ``collect`` gathered: the run, the environment, and each collector's evidence in
    ``evidence`` (by collector name; ``c.fx`` is ``c.evidence["fx"]``)."""

    script: str
    script_name: str
    args: list
    python: str
    source: str  # the reproducer in the bundle (the minimized one with --minimize)
    policy: str
    signature: Signature
    env: EnvInfo
    debug_run: DebugRun
    evidence: dict = field(default_factory=dict)  # collector name -> its evidence
    user_env: dict = field(default_factory=dict)  # --env overrides (None = unset)
    pytest_node: Optional[str] = None  # pytest targets: the test inside the module (script_name::pytest_node)
    test_id: str = ""  # pytest targets: the node id from the rootdir (tests/test_x.py::test_y[1])
    conftests: list = field(default_factory=list)  # pytest targets: [path relative to the rootdir, text]
    standalone: Optional[str] = None  # pytest targets with --minimize: a plain script failing the same way
    original_source: Optional[str] = None
    minimized: Optional[MinimizeReport] = None  # with --minimize
    timings: dict = field(default_factory=dict)
    created: str = ""
    reportkit_version: str = __version__

    def __getattr__(self, name: str):
        evidence = self.__dict__.get("evidence")
        if evidence is None or name not in evidence:
            raise AttributeError(name)
        return evidence[name]

    def to_dict(self) -> dict:
        """``dataclasses.asdict`` with the evidence at the top level (bundle.json's ``collected``)."""
        data = dataclasses.asdict(self)
        if self.signature is not None and self.signature.kind is FailureKind.EXCEPTION:  # (as Signature.to_dict)
            data["signature"]["message"] = shown_message(self.signature)  # normalized after redaction
        return {**{k: v for k, v in data.items() if k != "evidence"}, **data["evidence"]}


# --------------------------------------------------------------------------- workspace


class Workspace:
    """Private scratch space of one collection: debug/cache dirs, logs."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=WORKSPACE_PREFIX))
        claim(self.root)  # (a killed bundle's is removed by the next reportkit, as its session is)
        self.started = time.time()
        self.debug_dir = self.root / "compile-debug"
        self.cache_dir = self.root / "inductor-cache"
        self.ladder_cache = self.root / "inductor-cache-ladder"
        self.spyre_log = self.root / "spyre.log"
        self.gdb_out = self.root / "gdb.txt"
        self.probe_dir = self.root / "probe"  # the probe's sandbox: the one place it may write
        self.probe_out = self.probe_dir / "probe.json"
        self.probe_note = ""  # why the probe ran without collect_env, where reportkit chose so
        self.call_log = self.root / "calls.jsonl"
        self.sandboxes: list[Sandbox] = []

    def sandbox(self, spec: RunSpec) -> Sandbox:
        """A sandbox removed with the workspace (the debug run's scratch dir is read after the run)."""
        box = Sandbox(spec.script, spec.isolate_file, spec.root)
        self.sandboxes.append(box)
        return box

    def compile_log(self, name: str) -> Path:
        return self.root / f"compile-{name}.jsonl"

    def cleanup(self) -> None:
        for box in self.sandboxes:
            box.cleanup()
        remove_tree(self.root)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc) -> None:
        self.cleanup()


def read_compile_log(path: Path) -> list[dict]:
    records = []
    try:
        text = read_artifact(path)
    except OSError:  # (missing, or a link or a FIFO the run left: not read)
        return []
    for line in text.splitlines():
        try:
            records.append(json.loads(line))
        except (ValueError, RecursionError):
            continue
    return records


# --------------------------------------------------------------------------- environment


HOOK_ONLY_COLLECT_ENV = ("not run: the sandbox here is the audit hook alone (no bubblewrap, no Landlock with scoped "
                         "signals), which refuses the shells collect_env starts; install bubblewrap")


def hook_only(prot: protect.Protection) -> bool:
    """Whether the audit hook is all that would hold the probe's signals (the fallback without Landlock ABI 6, which
    scopes them): then the probe keeps the hook, as a run does, and runs without ``collect_env`` (the hook refuses
    the shells it starts). Elsewhere the kernel's layers confine the probe and the hook is left out."""
    return prot.mode == "fallback" and prot.landlock < 6


def start_probe(spec: RunSpec, ws: Workspace, options: CollectOptions) -> subprocess.Popen:
    """Start the environment probe sandboxed as a run is (it imports what the script's directory holds: a
    project's own ``torch.py`` or ``subprocess.py`` runs in it), without network, in two stages as a run given
    start-up code is (:func:`reportkit.run.runner.two_stage`): the interpreter starts isolated (``-I -S``: no site, no
    ``PYTHON*`` variable, nothing of the project; the loader's ``LD_*`` set aside), the probe confines itself,
    then starts again as the script would (``PYTHONPATH``, ``site``, a ``sitecustomize`` act confined)."""
    ws.probe_dir.mkdir(exist_ok=True)
    cmd = [spec.python, str(PROBE_FILE), str(ws.probe_out), str(spec.script.parent)]
    prot = protect.protection()
    hooked = hook_only(prot)
    if hooked and options.collect_env:
        ws.probe_note = HOOK_ONLY_COLLECT_ENV
    if not options.collect_env or hooked:
        cmd.append("--no-collect-env")
    cmd, env = two_stage(cmd, build_env(spec.env))
    wrapped, env = protect.wrap(cmd, env, writable=[ws.probe_dir], scratch=ws.probe_dir, network=False, prot=prot)
    if not hooked and env.pop(protect.GUARD_ENV, None) is not None:  # (no audit hook: it refuses collect_env's
        # shell calls; Landlock, seccomp and the mount namespace confine the probe)
        path = [p for p in env.pop("PYTHONPATH", "").split(os.pathsep) if p and p != str(protect.GUARD_SITE)]
        if path:
            env["PYTHONPATH"] = os.pathsep.join(path)
    return protect.start(wrapped, cwd=ws.probe_dir, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def finish_probe(proc: subprocess.Popen, ws: Workspace, deadline: float) -> tuple[dict, str]:
    """Wait for the probe until ``deadline``; return (its data, why it is incomplete or "")."""
    why = ""
    try:
        _, err = proc.communicate(timeout=max(0.1, deadline - time.monotonic()))
        if proc.returncode:
            why = f"the probe exited with {proc.returncode}: {(err or b'').decode(errors='replace')[-300:]}"
    except subprocess.TimeoutExpired:
        kill_tree(proc)
        why = "timed out"
    finally:
        kill_tree(proc)
    try:
        data = load_artifact_json(ws.probe_out)
    except (OSError, ValueError):
        return {}, why or "the probe wrote nothing"
    if ws.probe_note and isinstance(data.get("errors"), dict):
        data["errors"].setdefault("collect_env", ws.probe_note)
    if why == "timed out":
        why = f"timed out during stage '{data.get('stage')}'"
    return data, why


def relevant_env(env: dict, user_keys) -> dict:
    keep = {k: v for k, v in env.items() if k.startswith(ENV_PREFIXES) or k in user_keys}
    return {k: keep[k] for k in sorted(keep) if not k.startswith("REPORTKIT_")}


def _package(name: str, located: dict, python: str) -> PackageInfo:
    info = PackageInfo(name)
    if not located.get("installed"):
        info.reason = f"{name} is not installed for {python}"
        if located.get("error"):
            info.reason += f" ({located['error']})"
        return info
    info.status = COLLECTED
    for key in ("version", "location", "editable", "source_url", "vcs_commit", "origin", "shadows", "dist_version"):
        setattr(info, key, located.get(key))
    if info.location:
        info.git = repo_info(Path(info.location), require_tracked=True)
    return info


def _lib_versions(env: EnvInfo, run_env: dict) -> None:
    path = run_env.get("LIB_VERSION_FILE")
    if not path:
        env.lib_reason = "LIB_VERSION_FILE is not set (no Spyre software stack in this environment)"
        return
    env.lib_version_file = path
    if not Path(path).is_file():
        env.lib_reason = f"LIB_VERSION_FILE names {path}, which is not a readable file"
        return
    env.lib_versions = spyre.read_lib_versions(Path(path))
    missing = [n for n in ("ibm-deeptools", "ibm-flex") if n not in env.lib_versions]
    if missing:
        env.lib_reason = f"{path} has no {' / '.join(missing)} line"


def build_env_info(data: dict, why: str, spec: RunSpec) -> EnvInfo:
    run_env = build_env(spec.env)
    env = EnvInfo(env_vars=relevant_env(run_env, set(spec.env)), probe_errors=dict(data.get("errors", {})))
    basics = data.get("basics") or {}
    env.status = COLLECTED if basics else NOT_COLLECTED
    env.reason = f"environment probe: {why}" if why else ""
    env.python, env.executable = basics.get("python_version"), basics.get("executable") or spec.python
    env.os, env.platform = basics.get("os"), basics.get("platform")
    env.machine, env.libc = basics.get("machine"), basics.get("libc")
    packages = data.get("packages") or {}
    env.packages = dict(packages.get("versions") or {})
    located = packages.get("located") or {}
    env.torch = _package("torch", located.get("torch") or {}, spec.python)
    env.torch_spyre = _package("torch_spyre", located.get("torch_spyre") or {}, spec.python)
    env.torch_sendnn = _package("torch_sendnn", located.get("torch_sendnn") or {}, spec.python)
    _torch_details(env, data, why)
    env.spyre_config = dict(data.get("spyre_config") or {})
    _lib_versions(env, run_env)
    stack = spyre.spyre_stack(run_env)
    env.spyre_stack = stack if env.torch_spyre.status == COLLECTED or stack.found else None
    env.script_git = repo_info(spec.script.parent)
    return env


def _torch_details(env: EnvInfo, data: dict, why: str) -> None:
    torch = data.get("torch")
    errors = data.get("errors") or {}
    if torch:
        env.torch.version = torch.get("version") or env.torch.version
        env.torch_git_version = torch.get("git_version")
        env.torch_cuda, env.torch_hip = torch.get("cuda"), torch.get("hip")
        env.accelerators = {k: v for k, v in torch.items()
                            if k not in ("version", "git_version", "cuda", "hip", "debug", "location")}
    elif env.torch.status == COLLECTED:
        env.torch.status = NOT_COLLECTED
        env.torch.reason = ("import torch failed: " + errors["torch"]) if "torch" in errors else \
            f"import torch did not finish ({why or 'unknown reason'})"
    if data.get("collect_env"):
        env.collect_env = str(data["collect_env"])
    else:
        env.collect_env_reason = (HOOK_ONLY_COLLECT_ENV if errors["collect_env"] == HOOK_ONLY_COLLECT_ENV else
                                  "torch.utils.collect_env failed: " + str(errors["collect_env"])) \
            if "collect_env" in errors else ("torch is not importable" if not torch else
                                             f"not run ({why or 'disabled'})")


# --------------------------------------------------------------------------- the debug run


def _gdb_delay(timeout: float) -> Optional[float]:
    """When the watchdog attaches gdb: a margin before the runner's own timeout kill."""
    if not shutil.which("gdb") or timeout < 3:
        return None
    return timeout - _gdb_margin(timeout)


def _gdb_margin(timeout: float) -> float:
    return min(30.0, max(3.0, 0.4 * timeout))


def debug_env(spec: RunSpec, options: CollectOptions) -> dict:
    """The variables the debug run sets for the script (besides reportkit's private dirs)."""
    env = dict(DEBUG_ENV)
    if options.verbose_backend:
        env.update({k: v for k, v in BACKEND_LOG_ENV.items() if k not in spec.env})
    return env


def spyre_torch_logs(value: Optional[str]) -> str:
    """TORCH_LOGS as _backend_boot.spyre_logs leaves it when torch_spyre is installed."""
    return value if value and "torch_spyre" in value else ",".join(x for x in (value, SPYRE_LOGS) if x)


def debug_spec(spec: RunSpec, ws: Workspace, options: Optional[CollectOptions] = None) -> RunSpec:
    env = dict(spec.env)
    env.update(debug_env(spec, options or CollectOptions()))
    env["REPORTKIT_SPYRE_LOGS"] = "1"
    env["REPORTKIT_SHELL_PARENT"] = "1"  # torch_spyre's fork detection: see _backend_boot.shell_parent
    # torch_compile_debug/ in the script's working directory, reportkit's scratch copy: private, and where
    # FFDC looks for the artifacts it lists (torch_spyre/profiler/_ffdc.py searches <cwd>/torch_compile_debug)
    env["TORCH_COMPILE_DEBUG_DIR"] = "."
    env["TORCHINDUCTOR_CACHE_DIR"] = str(ws.cache_dir)
    if build_env(spec.env).get("SPYRE_LOG_FILE"):
        env["SPYRE_LOG_FILE"] = str(ws.spyre_log)  # the user's log file stays untouched
    env["REPORTKIT_COMPILE_LOG"] = str(ws.compile_log("debug"))
    env["REPORTKIT_CALL_LOG"] = str(ws.call_log)
    delay = _gdb_delay(spec.timeout)
    if delay is not None:
        env["REPORTKIT_GDB_AFTER"] = f"{delay:.1f}"
        env["REPORTKIT_GDB_OUT"] = str(ws.gdb_out)
        # gdb must be done (or is stopped) before the timeout's faulthandler dump: it holds the process stopped
        env["REPORTKIT_GDB_LIMIT"] = f"{max(1.0, _gdb_margin(spec.timeout) - 1.0):.1f}"
    return replace(spec, boot_wrapper=BACKEND_BOOT_FILE, env=env, keep_workdir=True)


def run_debug(spec: RunSpec, source: str, policy: MatchPolicy, ws: Workspace,
              sandbox: Sandbox, options: Optional[CollectOptions] = None) -> Reproduction:
    """The reference run; raises UserError (via establish) when nothing fails."""
    dspec = debug_spec(spec, ws, options)
    try:
        return establish(dspec, policy, runs=1, source=source, sandbox=sandbox)
    finally:  # the run wrote its logs and caches there: read only what it wrote (io.scrub_tree)
        scrub_tree(ws.root)


_CHAIN_SEPARATORS = ("The above exception was the direct cause of the following exception:",
                     "During handling of the above exception, another exception occurred:")


def error_output(result: RunResult, sig: Signature, tail: int = 40) -> str:
    """The error as the user saw it: the final traceback (with its chain), else the output's tail."""
    lines = result.stderr.splitlines()
    if sig.kind == FailureKind.EXCEPTION:
        starts = [i for i, ln in enumerate(lines) if ln.startswith("Traceback (most recent call last):")]
        if starts:
            start = starts[-1]
            while True:
                j = start - 1
                while j >= 0 and not lines[j].strip():
                    j -= 1
                earlier = [s for s in starts if s < j]
                if j < 0 or lines[j].strip() not in _CHAIN_SEPARATORS or not earlier:
                    break
                start = earlier[-1]
            return "\n".join(lines[start:]).strip()
    text = "\n".join(lines[-tail:]).strip()
    if sig.kind == FailureKind.HANG:
        out = "\n".join(result.stdout.splitlines()[-tail // 2:]).strip()
        return f"[timed out after {result.duration:.0f} s: hang]\n--- stdout (tail)\n{out}\n--- stderr (tail)\n{text}"
    if sig.kind == FailureKind.SIGNAL:
        return f"{text}\n[{sig.headline()}]".strip()
    return text


def _command(spec: RunSpec, source_name: str, extra_env: dict) -> str:
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in extra_env.items() if v is not None)
    if spec.pytest_node is not None:
        return " ".join(x for x in (env, "python -m pytest", shlex.quote(spec.target_name(source_name))) if x)
    args = " ".join(shlex.quote(a) for a in spec.args)
    return " ".join(x for x in (env, "python", shlex.quote(source_name), args) if x)


def shown_debug_env(spec: RunSpec, ws: Workspace, options: CollectOptions, env: EnvInfo) -> dict:
    """Every variable the debug run set for the script, as the issue shows them: the guide's, TORCH_LOGS
    when _backend_boot added +torch_spyre, and reportkit's private directories."""
    dspec = debug_spec(spec, ws, options)
    shown = {k: v for k, v in dspec.env.items()
             if (k in DEBUG_ENV or k in BACKEND_LOG_ENV or k in ("TORCH_COMPILE_DEBUG_DIR", "TORCHINDUCTOR_CACHE_DIR",
                                                               "SPYRE_LOG_FILE")) and spec.env.get(k) != v}
    if env.torch_spyre.status == COLLECTED:
        shown["TORCH_LOGS"] = spyre_torch_logs(build_env(spec.env).get("TORCH_LOGS"))
    return shown


def make_debug_run(rep: Reproduction, spec: RunSpec, ws: Workspace, options: Optional[CollectOptions] = None,
                   env: Optional[EnvInfo] = None) -> DebugRun:
    result = rep.results[0]
    options = options or CollectOptions()
    shown = shown_debug_env(spec, ws, options, env or EnvInfo())
    # the command a reader runs: the run's own variables (--env), then what reportkit set, its private dirs as
    # fresh ones of the reader's
    command_env = {k: v for k, v in spec.env.items() if v is not None and k not in shown and k != PYTEST_NODE_ENV}
    command_env.update({k: ("spyre.log" if k == "SPYRE_LOG_FILE" else v) for k, v in shown.items()
                        if k != "TORCHINDUCTOR_CACHE_DIR"})
    command = _command(spec, spec.script.name, command_env)
    if "TORCHINDUCTOR_CACHE_DIR" in shown:
        command = 'TORCHINDUCTOR_CACHE_DIR="$(mktemp -d)" ' + command
    calls = read_compile_log(ws.call_log)
    numbered = [c for c in calls if "caller" in c]
    return DebugRun(
        status=COLLECTED, env=shown, command=command,
        duration=result.duration, returncode=result.returncode, signal=result.signal,
        timed_out=result.timed_out, stdout=_strip_workdir(result.stdout, result),
        stderr=_strip_workdir(result.stderr, result),
        error_output=_strip_workdir(error_output(result, rep.signature), result),
        compile_calls=[_strip_call(c, result) for c in read_compile_log(ws.compile_log("debug"))],
        compiled_calls=len(numbered),
        last_compiled_call=_strip_call(numbered[-1], result) if numbered else None,
        workdir=result.workdir,
    )


def _strip_workdir(text: str, result: RunResult) -> str:
    return text.replace(result.workdir + "/", "").replace(result.workdir, ".") if result.workdir else text


def _strip_call(call: dict, result: RunResult) -> dict:
    return {k: _strip_workdir(v, result) if isinstance(v, str) else v for k, v in call.items()}


# --------------------------------------------------------------------------- failure clues


@dataclass
class Clues:
    """What the failure itself says about where to look: op names, sizes, script lines."""

    ops: list = field(default_factory=list)
    numbers: list = field(default_factory=list)
    script_lines: list = field(default_factory=list)  # (file basename, line)


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def failure_clues(result: RunResult, run: DebugRun) -> Clues:
    exc = result.exception
    text = run.error_output
    if exc is not None:
        text += "\n" + exc.message + "".join("\n" + c.message for c in exc.chain)
    clues = Clues(ops=spyre.extract_op_names(text))
    message = exc.message if exc is not None else ""
    numbers = {int(n) for n in _NUMBER.findall("\n".join(message.splitlines()[:12]))}
    clues.numbers = sorted(n for n in numbers if n > 1)
    frames = list(exc.frames) if exc is not None else []
    for stack in result.stacks:
        frames.extend(stack.frames)
    seen = {(os.path.basename(f.file), f.line) for f in frames if f.line and f.file.startswith(result.workdir)}
    clues.script_lines = sorted(seen)
    return clues


# --------------------------------------------------------------------------- fx graphs (TORCH_COMPILE_DEBUG)

FX_FILES = ("fx_graph_readable.py", "fx_graph_transformed.py", "fx_graph_runnable.py", "ir_pre_fusion.txt",
            "ir_post_fusion.txt", "output_code.py")
_FX_OP = re.compile(r"torch\.ops\.(\w+)\.(\w+)")
_FX_SHAPE = re.compile(r'"([a-z]+\d*\[[^\]"]*\])"')
_FX_SOURCE = re.compile(r"#\s*File:\s*(?P<file>.+?):(?P<line>\d+) in (?P<fn>[\w<>.]+)")
_GRAPH_ORDER = re.compile(r"\.(\d+)$")


def find_debug_run_dirs(*roots: Path) -> list[Path]:
    found: list[Path] = []
    for root in roots:
        if root and root.is_dir():
            found += sorted(p for p in root.glob("**/torch_compile_debug/run_*") if p.is_dir())
    return found


def parse_fx_graph(directory: Path, position: int) -> FxGraph:
    m = _GRAPH_ORDER.search(directory.name)
    graph = FxGraph(name=directory.name, directory=str(directory), order=int(m.group(1)) if m else position)
    graph.files = [str(directory / f) for f in FX_FILES if (directory / f).is_file()]
    readable = directory / "fx_graph_readable.py"
    output = directory / "output_code.py"
    graph.output_code = str(output) if output.is_file() else None
    if readable.is_file():
        graph.readable = str(readable)
        try:
            text = read_artifact(readable)
        except OSError:  # (not a regular file reached without a link: not read)
            text = ""
        graph.ops = list(dict.fromkeys(spyre.normalize_op_name(f"{ns}.{op}") for ns, op in _FX_OP.findall(text)))
        graph.shapes = list(dict.fromkeys(_FX_SHAPE.findall(text)))
        graph.sources = list(dict.fromkeys(f"{os.path.basename(s['file'])}:{s['line']} in {s['fn']}"
                                           for s in _FX_SOURCE.finditer(text)))
    return graph


def find_fx_graphs(run_dirs: list[Path]) -> list[FxGraph]:
    dirs = []
    for run_dir in run_dirs:
        dirs += [p for p in (run_dir / "torchinductor").glob("*") if p.is_dir()]
    graphs = [parse_fx_graph(d, i) for i, d in enumerate(sorted(dirs, key=lambda p: p.stat().st_mtime))]
    return sorted(graphs, key=lambda g: g.order)


def _shape_numbers(shape: str) -> set[int]:
    dims = [int(n) for n in re.findall(r"\d+", shape.split("[", 1)[1])] if "[" in shape else []
    numbers = set(dims)
    if dims:
        numel = 1
        for d in dims:
            numel *= d
        numbers.add(numel)
    return numbers


def score_graph(graph: FxGraph, clues: Clues, last: bool) -> None:
    ops = [op for op in clues.ops if op in graph.ops]
    if ops:
        graph.score += 3 * len(ops)
        graph.why.append(f"op(s) {', '.join(ops)} named in the error")
    lines = {f"{f}:{n}" for f, n in clues.script_lines}
    sources = [s for s in graph.sources if s.split(" in ")[0] in lines]
    if sources:
        graph.score += 4
        graph.why.append(f"compiled from {sources[0]} (a line in the traceback)")
    numbers = set()
    for shape in graph.shapes:
        numbers |= _shape_numbers(shape)
    hits = [n for n in clues.numbers if n in numbers][:3]
    if hits:
        graph.score += 2 * len(hits)
        graph.why.append(f"size(s) {', '.join(map(str, hits))} from the error message match its tensor shapes")
    if last:
        graph.score += 1
        graph.why.append("the last graph compiled before the failure")


def _excerpt_lines(text: str, max_lines: int) -> str:
    lines = text.rstrip().splitlines()
    if len(lines) <= max_lines:
        return "\n".join(lines)
    return "\n".join(lines[:max_lines] + [f"# ... {len(lines) - max_lines} more lines in the bundle"])


def output_code_excerpt(path: Optional[str], max_lines: int = 60) -> str:
    """Kernel names and the ``call`` function of an Inductor ``output_code.py``."""
    if not path:
        return ""
    try:
        lines = _redacted_whole(path).splitlines()
    except OSError:
        return ""
    kernels = [ln.split("=", 1)[0].strip() for ln in lines if "= async_compile." in ln and not ln.startswith(" ")]
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s*def call\(", ln)), None)
    body: list[str] = []
    if start is not None:
        indent = len(lines[start]) - len(lines[start].lstrip())
        body = [lines[start]]
        for ln in lines[start + 1:]:
            if ln.strip() and len(ln) - len(ln.lstrip()) <= indent:
                break
            body.append(ln)
    head = [f"# kernels: {', '.join(kernels)}"] if kernels else []
    return _excerpt_lines("\n".join(head + [ln for ln in body]).strip(), max_lines)


def collect_fx(run_dirs: list[Path], clues: Clues, compile_calls: list) -> FxArtifacts:
    fx = FxArtifacts(run_dirs=[str(p) for p in run_dirs])
    fx.graphs = find_fx_graphs(run_dirs)
    readable = [g for g in fx.graphs if g.readable]
    if not readable:
        fx.reason = ("no fx_graph_readable.py: " + ("TORCH_COMPILE_DEBUG produced no Inductor graph (the script's "
                     "backend does not go through Inductor)" if compile_calls else
                     "the script does not call torch.compile"))
        return fx
    for graph in readable:
        score_graph(graph, clues, last=graph is readable[-1])
    best = max(readable, key=lambda g: (g.score, g.order))
    fx.status, fx.selected, fx.why = COLLECTED, best.name, list(best.why)
    try:
        fx.excerpt = _excerpt_lines(_redacted_whole(best.readable), 120)
    except OSError:
        fx.excerpt = ""
    fx.output_code_excerpt = output_code_excerpt(best.output_code)
    return fx


def _redacted_whole(path: str) -> str:
    """An artifact's text redacted whole, before an excerpt is cut from it: a secret the cut would split (a private
    key's body without its header, the second half of a console's fold at 80 columns) is found in the whole text
    only, and the bundle's edge redacts the excerpt on its own (round 21 of planted secrets). A file with NUL bytes
    is no Python source (CPython refuses it): no excerpt (OSError), and no minute spent redacting 64 MiB of them."""
    text = read_artifact(path)
    if "\x00" in text:
        raise OSError(errno.EINVAL, f"{path}: NUL bytes, not Python source")
    return redact_code(text)


# --------------------------------------------------------------------------- hangs

# seed 001, "If It Hangs": the last print before the hang tells where it is stuck
LAST_PRINT_HINTS = (
    (re.compile(r"About to call at::mm", re.I), "the hang is in entering the dispatcher"),
    (re.compile(r"About to call (?:entry\.)?lookup\(\)", re.I), "the hang is in the dispatcher's lookup function"),
    (re.compile(r"dispatch table index=\d+", re.I), "the hang is in the kernel validity check"),
    (re.compile(r"about to (?:call kernel\.callBoxed\(\)|invoke)", re.I),
     "the hang is in kernel invocation: the kernel was called and never returned (inside the kernel)"),
    (re.compile(r"TORCH_META_FUNC\(\w+\)\] (?!Meta function complete)", re.I),
     "the hang is inside the meta kernel"),
    (re.compile(r"RETURNED", re.I), "the kernel returned: the hang is after the call, in the code that follows"),
)


def last_print_hint(line: str) -> str:
    for pattern, hint in LAST_PRINT_HINTS:
        if pattern.search(line):
            return hint
    record = spyre.parse_debug_log(line, "")
    if record and record[0].function:
        return f"the last Torch-Spyre call logged is {record[0].function}: the hang is in or right after it"
    return "the hang is after this line: look at the code that runs right after it"


def _format_stacks(result: RunResult) -> str:
    boot = (str(BOOT_FILE), str(BACKEND_BOOT_FILE))
    out = []
    for stack in result.stacks:
        main = stack.thread_id == result.main_thread_id
        out.append(f"Thread 0x{stack.thread_id:x}{' (main thread)' if main else ''} (most recent call first):")
        for frame in stack.frames:
            if frame.file in boot or frame.file.endswith("runpy.py") or frame.file == "<frozen runpy>":
                continue
            out.append(f'  File "{_strip_workdir(frame.file, result)}", line {frame.line} in {frame.function}')
            if frame.text:
                out.append(f"    {frame.text}")
        out.append("")
    return "\n".join(out).strip()


def _last_lines(text: str, n: int = 10) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines() if ln.strip()][-n:]


def collect_hang(rep: Reproduction, run: DebugRun, ws: Workspace) -> HangInfo:
    if rep.signature.kind != FailureKind.HANG:
        return HangInfo(reason=f"not a hang (the failure is: {rep.signature.kind})")
    result = rep.results[0]
    hang = HangInfo(status=COLLECTED, stacks=_format_stacks(result))
    hang.last_stdout, hang.last_stderr = _last_lines(run.stdout), _last_lines(run.stderr)
    hang.last_print = (hang.last_stderr or hang.last_stdout or [""])[-1]
    hang.hint = last_print_hint(hang.last_print) if hang.last_print else "nothing was printed before the hang"
    if not hang.stacks:
        hang.reason = "faulthandler dumped no stacks before the kill"
    if ws.gdb_out.exists():
        try:
            hang.gdb = read_artifact(ws.gdb_out)
        except OSError:
            hang.gdb = ""
        if "#0 " not in hang.gdb:
            hang.gdb_reason = "gdb ran but printed no backtrace (ptrace not permitted?)"
    else:
        hang.gdb_reason = ("gdb is not installed" if not shutil.which("gdb") else
                           "gdb had no time to attach before the timeout (give a longer --timeout)")
    return hang


# --------------------------------------------------------------------------- backend ladder / Spyre comparison


LADDER = (
    VariantDef("no-dynamo", "TORCHDYNAMO_DISABLE=1", "eager PyTorch (torch.compile disabled)",
               env=(("TORCHDYNAMO_DISABLE", "1"),)),
    VariantDef("eager", 'backend="eager"', "dynamo (graph capture)", backend="eager"),
    VariantDef("aot_eager", 'backend="aot_eager"', "AOT autograd", backend="aot_eager"),
    VariantDef("inductor", 'backend="inductor"', "inductor", backend="inductor"),
)
STANDARD_BACKENDS = {"eager", "aot_eager", "inductor"}


def run_variant(vdef: VariantDef, ctx: CollectContext) -> Variant:
    """Rerun the unchanged script with ``vdef``'s backend / environment; compare with the reference failure."""
    variant = Variant(vdef.name, vdef.label, vdef.stage)
    env = dict(ctx.spec.env)
    env.update(dict(vdef.env))
    env["TORCHINDUCTOR_CACHE_DIR"] = str(ctx.ws.ladder_cache)
    log = ctx.ws.compile_log(vdef.name)
    env["REPORTKIT_COMPILE_LOG"] = str(log)
    env["REPORTKIT_SHELL_PARENT"] = "1"
    if vdef.backend:
        env["REPORTKIT_BACKEND"] = vdef.backend
    if vdef.imports:
        env["REPORTKIT_BACKEND_IMPORT"] = vdef.imports
    spec = replace(ctx.spec, boot_wrapper=BACKEND_BOOT_FILE, env=env, keep_workdir=vdef.keep_workdir,
                   # a handful of runs, some compiling cold with Inductor: the user's timeout, not the
                   # per-candidate one minimize derives from the original's (maybe eager) run time
                   timeout=ctx.spec.timeout)
    ctx.note(f"ladder: {vdef.label} (timeout {spec.timeout:.0f} s)")
    outcome = Check(spec, ctx.policy, ctx.sandbox, expected=ctx.rep.signature).run(ctx.source)
    scrub_tree(ctx.ws.root)  # the run wrote its logs and caches there: read only what it wrote (io.scrub_tree)
    result, sig = outcome.result, outcome.signature
    variant.signature, variant.duration = sig, result.duration
    variant.stdout, variant.stderr = _strip_workdir(result.stdout, result), _strip_workdir(result.stderr, result)
    variant.compile_calls = [_strip_call(c, result) for c in read_compile_log(log)]
    variant.returncode = result.returncode
    variant.workdir = result.workdir if vdef.keep_workdir else ""
    if outcome.ok:
        variant.outcome, variant.headline = "fails", sig.headline()
    elif sig.failed:
        variant.outcome, variant.headline = "fails-differently", sig.headline()
    else:
        variant.outcome = "passes"
    return variant


def original_backends(calls: list) -> list[str]:
    return list(dict.fromkeys(c.get("backend", "?") for c in calls if c.get("api") != "import"))


def run_ladder(ctx: CollectContext, calls: list, rungs: tuple = LADDER, on_spyre: bool = False) -> Comparison:
    ladder = Comparison()
    if not calls:
        ladder.reason = ("the script made no torch.compile / torch._dynamo.optimize call before it failed: "
                         "there is no compiler to bisect")
        return ladder
    ladder.status = COLLECTED
    ladder.variants.append(Variant("original", f"the script's own backend ({', '.join(original_backends(calls))})",
                                   "the reference failure", outcome="fails",
                                   headline=ctx.rep.signature.headline(), duration=ctx.rep.max_duration,
                                   signature=ctx.rep.signature, compile_calls=list(calls)))
    first = None
    for vdef in rungs:
        if first is not None:
            ladder.variants.append(Variant(vdef.name, vdef.label, vdef.stage,
                                           reason=f"not run: the failure already appears with {first.label}"))
            continue
        variant = ctx.run_variant(vdef)
        ladder.variants.append(variant)
        if variant.outcome == "fails":
            first = variant
    ladder.stage, ladder.verdict = ladder_verdict(ladder.variants, original_backends(calls), on_spyre)
    return ladder


def ladder_verdict(variants: list, backends: list[str], on_spyre: bool = False) -> tuple[Optional[str], str]:
    rungs = [v for v in variants if v.name != "original"]
    if not rungs:
        return None, "no rung run besides the script's own backend: nothing to compare it with"
    first = next((v for v in rungs if v.outcome == "fails"), None)
    if first is not None:
        return _first_failure_on_spyre(first, rungs) if on_spyre else _first_failure(first, rungs)
    different = [v for v in rungs if v.outcome == "fails-differently"]
    note = ("; " + ", ".join(f"{v.label} fails differently ({v.headline})" for v in different)) if different else ""
    custom = [b for b in backends if b not in STANDARD_BACKENDS]
    passed = [v.label for v in rungs if v.outcome == "passes"]
    if custom and passed:
        return "custom backend", _custom_backend_text(custom, passed) + note
    return None, f"inconclusive: no variant reproduces the failure, not even the script's own backend rerun{note}"


def _first_failure(v: Variant, rungs: list) -> tuple[str, str]:
    if v.name == "no-dynamo":
        return "eager", ("fails without torch.compile (TORCHDYNAMO_DISABLE=1): not a compiler bug; the "
                         "failure is in eager PyTorch or in the script itself")
    earlier = ", ".join(r.label for r in rungs[:rungs.index(v)] if r.outcome == "passes")
    return v.stage, (f"the failure first appears with {v.label}: {v.stage}"
                     + (f" ({earlier} pass{'es' if ',' not in earlier else ''})" if earlier else ""))


# On Spyre, eager ops run through Torch-Spyre and many of them compile internally (docs/source/user_guide/debugging/
# op_spec_lab.md: "many eager Spyre ops are themselves implemented by compiling"): a failure without
# torch.compile does not clear Torch-Spyre's compiler or the back end, and the inductor rung is where Torch-Spyre
# compiles the script's graph for the device (front end, then DeepTools).
SPYRE_EAGER = "eager (Torch-Spyre's eager ops)"
SPYRE_COMPILE = "Torch-Spyre compile (front end or DeepTools)"


def _first_failure_on_spyre(v: Variant, rungs: list) -> tuple[str, str]:
    if v.name == "no-dynamo":
        return SPYRE_EAGER, ("fails without torch.compile too (TORCHDYNAMO_DISABLE=1): it is not the script's graph "
                             "capture (Dynamo, AOT autograd, Inductor); on Spyre, eager ops run through Torch-Spyre "
                             "and many compile internally, so Torch-Spyre's compiler and the back end are not ruled "
                             "out")
    if v.name == "inductor":
        earlier = ", ".join(r.label for r in rungs[:rungs.index(v)] if r.outcome == "passes")
        return SPYRE_COMPILE, ("the failure first appears with backend=\"inductor\", when Torch-Spyre compiles the "
                               "graph for the device" + (f" ({earlier} pass)" if earlier else "")
                               + ": its front end or the DeepTools back end")
    return _first_failure(v, rungs)


def _custom_backend_text(custom: list, passed: list) -> str:
    names = ", ".join(f"`{b}`" for b in custom)
    listed = ", ".join(passed[:-1]) + (" and " if len(passed) > 1 else "") + passed[-1]
    return (f"fails only with the custom backend {names}: {listed} "
            f"{'all pass' if len(passed) > 1 else 'passes'}, so the bug is in that backend")


# --------------------------------------------------------------------------- the generic collectors


def _skipped_ladder(ctx: CollectContext) -> Optional[str]:
    return None if ctx.options.ladder else "skipped (--no-ladder)"


class FxCollector(Collector):
    """TORCH_COMPILE_DEBUG's fx graphs: the one the failure points at, excerpted."""

    name = "fx"
    title = "Failing graph"
    layout = {"fx": "artifacts/torch_compile_debug"}

    def collect(self, ctx: CollectContext) -> FxArtifacts:
        result = ctx.rep.results[0]
        run_dirs = find_debug_run_dirs(ctx.ws.debug_dir, Path(result.workdir))
        fx = collect_fx(run_dirs, ctx.clues, ctx.calls)
        # the graphs' "# File:" comments name the scratch copy the script ran in: as the script's own name
        fx.excerpt = _strip_workdir(fx.excerpt, result)
        fx.output_code_excerpt = _strip_workdir(fx.output_code_excerpt, result)
        return fx

    def files(self, ev: FxArtifacts, layout: dict):
        for graph in ev.graphs:
            for path in map(Path, graph.files):
                yield f"{layout['fx']}/{graph.name}/{path.name}", path


class LadderCollector(Collector):
    """The unchanged script rerun with torch.compile's backend switched (where the failure first appears)."""

    name = "ladder"
    title = "Backend ladder"
    layout = {"ladder": "logs/ladder"}

    def collect(self, ctx: CollectContext) -> Comparison:
        skipped = _skipped_ladder(ctx)
        if skipped:
            return Comparison(reason=skipped)
        rungs = tuple(v for v in LADDER if ctx.options.rungs is None or v.name in ctx.options.rungs)
        logs = ctx.evidence.get("spyre_logs")
        on_spyre = spyre.involves_spyre(ctx.env, ctx.source, getattr(logs, "records", ()))
        return run_ladder(ctx, ctx.calls, rungs, on_spyre)

    def files(self, ev: Comparison, layout: dict):
        return variant_logs(ev, layout["ladder"])


def variant_logs(comp: Comparison, base: str):
    for v in comp.variants:
        if v.name != "original" and (v.stdout or v.stderr):
            yield f"{base}/{v.name}.stdout.txt", v.stdout
            yield f"{base}/{v.name}.stderr.txt", v.stderr


class HangCollector(Collector):
    """For a hang: all-thread Python stacks, the last print and its meaning, gdb's native backtrace."""

    name = "hang"
    title = "Hang"
    layout = {"hang_stacks": "hang/stacks.txt", "gdb": "hang/gdb.txt"}

    def collect(self, ctx: CollectContext) -> HangInfo:
        return collect_hang(ctx.rep, ctx.run, ctx.ws)

    def files(self, ev: HangInfo, layout: dict):
        if ev.status == COLLECTED:
            yield layout["hang_stacks"], ev.stacks + "\n"
            if ev.gdb:
                yield layout["gdb"], ev.gdb


# Collection order: a collector may read the evidence of those before it (sdsc reads fx's graph). The
# issue shows each one's block in this order within its section, and the checklist lists their lines so.
COLLECTORS: tuple = (spyre.SpyreSettingsCollector(), FxCollector(), spyre.SpyreLogsCollector(), spyre.SdscCollector(),
                     spyre.FfdcCollector(), LadderCollector(), spyre.SendnnComparisonCollector(),
                     spyre.OpSpecCollector(), HangCollector())


def collector_layout() -> dict:
    """Every collector's bundle files (key -> relative path)."""
    layout: dict = {}
    for collector in COLLECTORS:
        layout.update(collector.layout)
    return layout


# --------------------------------------------------------------------------- the stage


@dataclass
class CollectInput:
    spec: RunSpec
    source: str
    policy: MatchPolicy
    original_source: Optional[str] = None
    minimized: Optional[MinimizeReport] = None


@dataclass
class CollectContext:
    """What a collector sees: the reference (debug) run, the environment, the evidence so far."""

    spec: RunSpec
    source: str
    policy: MatchPolicy
    rep: Reproduction
    run: DebugRun
    env: EnvInfo
    ws: Workspace
    sandbox: Sandbox
    options: CollectOptions
    clues: Clues
    evidence: dict = field(default_factory=dict)
    on_step: Optional[Callable[[str], None]] = None

    @property
    def calls(self) -> list:
        return self.run.compile_calls

    @property
    def run_env(self) -> dict:
        """The environment the script ran with."""
        return build_env(self.spec.env)

    def note(self, message: str) -> None:
        if self.on_step:
            self.on_step(message)

    def run_variant(self, vdef: VariantDef) -> Variant:
        return run_variant(vdef, self)


def collect(inp: CollectInput, ws: Workspace, options: Optional[CollectOptions] = None,
            on_step: Optional[Callable[[str], None]] = None, collectors: tuple = COLLECTORS) -> Collected:
    """Run the debug run and the probe, then every collector; raises UserError when the script does not fail."""
    options = options or CollectOptions()
    spec = inp.spec
    timings: dict[str, float] = {}
    sandbox = ws.sandbox(spec)
    probe = start_probe(spec, ws, options)
    probe_deadline = time.monotonic() + options.probe_timeout
    try:
        step = _timer(timings, on_step)
        with step("debug run", f"debug run: {' '.join(f'{k}={v}' for k, v in debug_env(spec, options).items())} "
                               f"TORCH_LOGS={spyre_torch_logs(build_env(spec.env).get('TORCH_LOGS'))} where "
                               f"torch_spyre is installed (timeout {spec.timeout:g} s)"):
            rep = run_debug(spec, inp.source, inp.policy, ws, sandbox, options)
        with step("environment", "environment probe (in the target interpreter)"):
            env = build_env_info(*finish_probe(probe, ws, probe_deadline), spec)
        run = make_debug_run(rep, spec, ws, options, env)
        ctx = CollectContext(spec, inp.source, inp.policy, rep, run, env, ws, sandbox, options,
                             failure_clues(rep.results[0], run), on_step=on_step)
        for collector in collectors:
            with step(collector.name, None):
                ctx.evidence[collector.name] = collector.collect(ctx)
        return _assemble(inp, ctx, timings)
    finally:
        kill_tree(probe)


def _assemble(inp: CollectInput, ctx: CollectContext, timings: dict) -> Collected:
    spec = inp.spec
    pytest = spec.pytest_node is not None
    root = spec.root or spec.script.parent
    return Collected(
        script=str(spec.script), script_name=spec.script.name, args=list(spec.args), python=spec.python,
        source=inp.source, policy=inp.policy.describe(), signature=ctx.rep.signature, env=ctx.env,
        debug_run=ctx.run, evidence=dict(ctx.evidence),
        user_env={k: v for k, v in spec.env.items() if k != PYTEST_NODE_ENV}, pytest_node=spec.pytest_node,
        test_id=spec.target_name(os.path.relpath(spec.script, root)) if pytest else "",
        conftests=[list(c) for c in conftest_chain(root, spec.script.parent)] if pytest else [],
        original_source=inp.original_source, minimized=inp.minimized, timings=timings,
        created=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    )


class _timer:
    """``with step(name, message):`` reports the message and records the step's wall time."""

    def __init__(self, timings: dict, on_step: Optional[Callable[[str], None]]) -> None:
        self.timings, self.on_step = timings, on_step
        self.name, self.start = "", 0.0

    def __call__(self, name: str, message: Optional[str]) -> _timer:
        self.name = name
        if message and self.on_step:
            self.on_step(message)
        return self

    def __enter__(self) -> _timer:
        self.start = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        self.timings[self.name] = round(time.monotonic() - self.start, 2)
