"""Stage 2, *signature*: describe how a run failed, precisely enough to tell "the same failure".

A :class:`Signature` is derived from a :class:`~reportkit.run.spec.RunResult`. Kinds:

``exception``  uncaught exception: fully-qualified type, normalized message, raising location
``exit``       non-zero exit without an uncaught exception (``sys.exit(3)``, ``os._exit``)
``signal``     killed by a signal (segfault, abort): signal number and the crashing frame
``hang``       timed out: where the main thread was blocked, what the other threads wait in (faulthandler dump)
``output``     only with ``--match``: the regex matched stdout/stderr
``passed``     none of the above: nothing to reproduce

:func:`same_failure` decides whether a candidate run fails the same way as the original, under a
:class:`MatchPolicy` (strict by default; ``--match``, ``--exit-code``, ``--any-exception`` loosen it).
"""

from __future__ import annotations

import ast
import io
import keyword
import os
import re
import signal as _signal
import sysconfig
import tokenize
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from enum import Enum
from pathlib import Path

from reportkit.failure import generated as _generated
from reportkit.run.spec import ExceptionInfo, Frame, RunResult

MESSAGE_KEY_MAX = 300
#: An assertion message's lines kept as what the check measured (Signature.measured): how many, how long
MEASURED_LINES, MEASURED_LINE_MAX = 12, 300

_ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_HEX_RE = re.compile(r"\b0x[0-9a-fA-F]+\b")
# the tail of an address in a repr pytest shortened in the middle: ``<test_dicttoo...x7f1493370f90>``
_HEX_TAIL_RE = re.compile(r"(?<=\.\.\.)(?:0?x)?[0-9a-fA-F]{6,}(?=>)")
# a UUID, a digest or an id in hex (16+ digits of one case, letters and digits both): one value as a whole, as an
# address is (digit runs made N would leave a drawn-looking token the redaction edge then takes for a secret; a
# request's id differs from run to run)
_UUID_RE = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_HEX_RUN_RE = re.compile(r"\b(?=[0-9a-f]{0,511}[a-f])(?=[0-9a-f]{0,511}[0-9])[0-9a-f]{16,512}\b"
                         r"|\b(?=[0-9A-F]{0,511}[A-F])(?=[0-9A-F]{0,511}[0-9])[0-9A-F]{16,512}\b")
_FLOAT_RE = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")
# Identifiers keep their digits (aten::_unique2, float16); in tokens that start with a digit
# (sizes, shapes like 64x576, timestamps like 17T03, counts) every digit run becomes N.
_TOKEN_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d[A-Za-z0-9_]*")
_DIGITS_RE = re.compile(r"\d+")
_TMP_RE = re.compile(r"(?:/private)?/(?:tmp|var/tmp|var/folders)/[^\s'\"():,]*")
# A directory name made for one run: it has digits (pids, counters: pytest-12, run-3) or ends in the
# random part tempfile gives (tmpk3j_x8a1, rk-corpus-kqjxbmae).
_SCRATCH_DIR_RE = re.compile(r".*\d.*|tmp[a-z0-9_]{8}|.*[-_.][a-z0-9_]{8}")
_SPACE_RE = re.compile(r"[ \t]+")
_SITE_RE = re.compile(r".*/(?:site|dist)-packages/")
_STDLIB_RE = re.compile(r".*/lib(?:64)?/python\d+\.\d+/")


class FailureKind(str, Enum):
    """How a run ended (see the module docstring). A ``str``: compares and serializes as its value."""

    EXCEPTION = "exception"
    EXIT = "exit"
    SIGNAL = "signal"
    HANG = "hang"
    OUTPUT = "output"
    PASSED = "passed"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


@dataclass(frozen=True)
class Location:
    """A frame in normalized form: ``file`` relative to site-packages / the stdlib / the script dir."""

    file: str
    function: str
    line: int | None = None
    text: str = ""  # the source line (normalized); identifies a raise site inside the user's script
    in_script: bool = False
    user_code: bool = False  # the script or another file of its directory
    source: str = ""  # the source line as written (shown to people; ``text`` is what is compared)
    op: str = ""  # exceptions: the frame's bytecode instruction when it raised (CALL: inside a called function)
    expr: str = ""  # exceptions: that instruction's source (normalized), the sub-expression that raised

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where} in {self.function}"

    @property
    def shown(self) -> str:
        """The line as the user wrote it (``text``, normalized, for signatures made before ``source``)."""
        return self.source or self.text


@dataclass
class SourceMap:
    """Where lines of a generated script came from: the local modules folded into it
    (:mod:`reportkit.reduce.flatten`). With it, the folded script's run gets the signature the original
    got, frames of folded lines back in their modules (:func:`signature_of`).

    ``lines``: script line -> (file, its line there, the line as written). ``file`` is absolute, or
    relative to the directory the run's scratch copy mirrors: then it is taken inside the run's
    workdir, where the original run had it. ``names``: (file, function name in the script) -> its
    name in that file, for definitions folding renamed.
    """

    lines: dict[int, tuple[str, int, str]] = field(default_factory=dict)
    names: dict[tuple[str, str], str] = field(default_factory=dict)

    def frame(self, frame: Frame, result: RunResult) -> Frame:
        origin = self.lines.get(frame.line) if frame.line is not None else None
        if origin is None or not result.script_path or \
                os.path.abspath(frame.file) != os.path.abspath(result.script_path):
            return frame
        file, line, text = origin
        return Frame(file=file if os.path.isabs(file) else os.path.join(result.workdir, file), line=line,
                     function=self.names.get((file, frame.function), frame.function), module=frame.module,
                     text=text, training=frame.training)

    def apply(self, result: RunResult) -> RunResult:
        """``result`` with every frame of a folded line put back in its module."""
        def exc(info: ExceptionInfo) -> ExceptionInfo:
            return replace(info, frames=[self.frame(f, result) for f in info.frames],
                           chain=[exc(c) for c in info.chain])

        return replace(result, exception=exc(result.exception) if result.exception else None,
                       thread_exceptions=[exc(e) for e in result.thread_exceptions],
                       stacks=[replace(s, frames=[self.frame(f, result) for f in s.frames]) for s in result.stacks])


@dataclass
class Signature:
    kind: FailureKind  # a plain string is converted
    exc_type: str | None = None
    # normalized first line of the message (a graph break's explanation too: _key_lines): what strict
    # matching compares
    message: str | None = None
    full_message: str | None = None  # normalized, whole (bounded)
    raw_message: str | None = None  # as raised, first lines (for people)
    exact_message: str | None = None  # message (as above) with its numbers as raised (paths, addresses normalized)
    location: Location | None = None  # raising frame: innermost frame (library frame if any)
    script_frame: Location | None = None  # innermost frame inside the target script
    exit_code: int | None = None
    signal: int | None = None
    last_stderr: str | None = None  # normalized last stderr line (``exit`` kind)
    matched: str | None = None  # with --match: the matched text
    thread_exceptions: list[str] = field(default_factory=list)  # "Type: message" of other threads
    # pytest targets: where the test's failure happened ("collect": importing its module; "setup",
    # "call", "teardown": the test ran)
    pytest_phase: str | None = None
    # hangs: what the leaf child processes waited in when it was caught (reportkit.run.runner.child_waits);
    # None: not compared (not known, or it differed between the original's runs)
    child_waits: list[str] | None = None
    # the exception class's name in its module when the script or a module of its project defines it
    # (``ConfigError`` of ``app.errors.ConfigError``): folded into a reproducer, the same class is
    # ``__main__.ConfigError``
    local_type: str | None = None
    # hangs: what the threads other than the main one waited in, those in the user's code (_thread_waits),
    # over all the original's runs; a candidate's threads may wait in nothing else (new_thread_waits).
    # None: not compared
    thread_waits: list[str] | None = None
    # an assertion's message, line by line, as the check reported it (Normalizer.measured_lines): its
    # integers as raised (counts, sizes, indices: "Mismatched elements: 1 / 65"), floating-point values N
    measured: list[str] = field(default_factory=list)
    # exceptions: "file:function" of a library frame -> "train"/"eval", the mode of its module it read before the
    # exception passed through it (batch norm's statistics, dropout: the flag chose the path that failed)
    modes: dict[str, str] = field(default_factory=dict)
    # exceptions raised in code torch generated from the script (an FX GraphModule's forward): the generated
    # statement where it arose (reportkit.failure.generated), compared by what it does (generated.site)
    generated: str | None = None

    def __post_init__(self) -> None:
        self.kind = FailureKind(self.kind)

    @property
    def failed(self) -> bool:
        return self.kind is not FailureKind.PASSED

    def headline(self) -> str:
        kind = self.kind
        if kind is FailureKind.EXCEPTION:
            return f"{self.exc_type}: {self.raw_message or ''}".rstrip(": ")
        if kind is FailureKind.EXIT:
            return f"exit code {self.exit_code}" + (f" ({self.last_stderr})" if self.last_stderr else "")
        if kind is FailureKind.SIGNAL:
            return f"killed by {signal_name(self.signal)}"
        if kind is FailureKind.HANG:
            return ("hang (timed out)" + (f" in {self.location}" if self.location else "")
                    + (f"; child processes waiting in {', '.join(self.child_waits)}" if self.child_waits else ""))
        if kind is FailureKind.OUTPUT:
            return f"output matched: {self.matched}"
        return "passed (exit code 0)"

    def to_dict(self) -> dict:
        data = asdict(self)
        data["kind"] = self.kind.value
        data["headline"] = self.headline()
        if self.kind is FailureKind.EXCEPTION:  # normalized after redaction (see shown_message)
            data["message"] = shown_message(self)
        return data


@dataclass
class MatchPolicy:
    """What a candidate must share with the original. Strict unless an override is set."""

    match: str | None = None  # regex on stdout+stderr; replaces the strict comparison
    exit_code: int | None = None  # the candidate must exit with this code
    any_exception: bool = False  # any uncaught exception counts, whatever type/message/location

    @property
    def strict(self) -> bool:
        return self.match is None and self.exit_code is None and not self.any_exception

    def describe(self) -> str:
        if self.strict:
            return ("strict: same kind; exceptions: same type, message (first line, and a graph break's "
                    "explanation; numbers/paths/addresses normalized) and raising frame (in code torch generated "
                    "from the script, an FX forward: a statement doing the same), the same train/eval mode where a "
                    "library frame read its module's; hangs: same blocked "
                    "frame of the main thread, inside the script's code or at exit as the original's, what its "
                    "child processes wait in, no other thread waiting in the script's code where none did; signals: "
                    "same signal and crashing frame; exits: same code and last stderr line; no new exception type in "
                    "other threads")
        parts = []
        if self.match is not None:
            parts.append(f"output matches /{self.match}/")
        if self.exit_code is not None:
            parts.append(f"exit code is {self.exit_code}")
        if self.any_exception:
            parts.append("any uncaught exception")
        return " and ".join(parts)


def signal_name(num: int | None) -> str:
    if num is None:
        return "?"
    try:
        return _signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


# --------------------------------------------------------------------------- normalization


class Normalizer:
    """Normalizes text and paths of one run (its scratch dir, the home dir, temp paths)."""

    def __init__(self, workdir: str = "", script_path: str = "") -> None:
        self.workdir = workdir.rstrip("/") if workdir else ""
        self.script_path = script_path
        self.script_name = Path(script_path).name if script_path else ""
        self.home = os.path.expanduser("~").rstrip("/")
        paths = sysconfig.get_paths()
        self.stdlib = paths.get("stdlib", "")

    def text(self, text: str) -> str:
        text = _ANSI_RE.sub("", text)
        if self.workdir:
            text = text.replace(self.workdir + "/", "").replace(self.workdir, ".")
        text = _TMP_RE.sub(_tmp_tail, text)
        if self.home and self.home != "/":
            text = re.sub(re.escape(self.home) + r"(?=/|\b)", "~", text)
        text = _HEX_RUN_RE.sub("<hex>", _HEX_TAIL_RE.sub("<hex>", _HEX_RE.sub("<hex>", _UUID_RE.sub("<uuid>", text))))
        text = _FLOAT_RE.sub("N", text)
        text = _TOKEN_RE.sub(_numbers_in_token, text)
        return "\n".join(_SPACE_RE.sub(" ", line).strip() for line in text.splitlines()).strip()

    def message_key(self, message: str) -> str:
        """The normalized first non-blank line of ``message`` (with a graph break's explanation:
        :func:`_key_lines`). An export's dim specialized to 0 or 1 keeps that value (:data:`_SPECIALIZED_0_1`)."""
        return " ".join(_key_lines(self.text(_SPECIALIZED_0_1.sub(_size_0_1, message))))[:MESSAGE_KEY_MAX]

    def exact_key(self, message: str) -> str:
        """:meth:`message_key` with its numbers as they are (the values a failure reports); only what
        differs between runs of the same program (its scratch dir, temp paths, the home dir,
        addresses) is normalized."""
        return " ".join(self._run_free(line) for line in _key_lines(_ANSI_RE.sub("", message)))[:MESSAGE_KEY_MAX]

    def measured_lines(self, message: str) -> list[str]:
        """What a check reported, line by line: the first :data:`MEASURED_LINES` non-blank lines of
        ``message`` with their integers as raised (how many elements differ, of how many, at which
        index, the sizes compared) and every floating-point value ``N`` (the values themselves move with
        any change of the data or the tolerance: ``Greatest absolute difference: N at index (64,)``);
        what differs between runs normalized as in :meth:`exact_key`."""
        lines = [line for line in _ANSI_RE.sub("", message).splitlines() if line.strip()][:MEASURED_LINES]
        return [self._run_free(_FLOAT_RE.sub("N", line))[:MEASURED_LINE_MAX] for line in lines]

    def _run_free(self, line: str) -> str:
        """``line`` without what differs between runs of the same program: its scratch dir, temp paths,
        the home dir, addresses; runs of blanks made one."""
        if self.workdir:
            line = line.replace(self.workdir + "/", "").replace(self.workdir, ".")
        line = _HEX_TAIL_RE.sub("<hex>", _HEX_RE.sub("<hex>", _TMP_RE.sub(_tmp_tail, line)))
        if self.home and self.home != "/":
            line = re.sub(re.escape(self.home) + r"(?=/|\b)", "~", line)
        return _SPACE_RE.sub(" ", line).strip()

    def is_script(self, file: str) -> bool:
        return bool(self.script_path) and os.path.abspath(file) == os.path.abspath(self.script_path)

    def is_user_code(self, file: str) -> bool:
        return bool(self.workdir) and os.path.abspath(file).startswith(self.workdir + "/")

    def path(self, file: str) -> str:
        if self.is_script(file):
            return self.script_name
        if self.is_user_code(file):
            return os.path.relpath(os.path.abspath(file), self.workdir)
        m = _SITE_RE.match(file)
        if m:
            return file[m.end():]
        m = _STDLIB_RE.match(file)
        if m:
            return file[m.end():]
        if self.stdlib and file.startswith(self.stdlib + "/"):
            return file[len(self.stdlib) + 1:]
        if _generated.is_generated(file):  # ``<eval_with_key>.3 from /tmp/.../repro.py:9 in forward``: numbered per run
            return _generated.GENERATED_FILE
        if file.startswith("<"):
            return file
        return _TMP_RE.sub(_tmp_tail, file)

    def location(self, frame: Frame) -> Location:
        in_script = self.is_script(frame.file)
        return Location(file=self.path(frame.file), function=frame.function,
                        line=frame.line, text=self.text(frame.text) if frame.text else "", in_script=in_script,
                        user_code=in_script or self.is_user_code(frame.file), source=frame.text.strip(),
                        op=frame.op, expr=self.text(frame.expr) if frame.expr else "")


def _explanation(lines: list[str]) -> str | None:
    """Dynamo's graph break (``torch._dynamo.exc.Unsupported``): a title shared by many causes
    ("Unsupported context manager" for a ``threading.Lock`` and for an ``int`` alike), then
    ``Explanation:``, ``Hint:`` and ``Developer debug context:`` lines; the explanation names the object."""
    return next((line for line in lines[1:4] if line.startswith("Explanation:")), None)


# torch.export's "You marked dz as dynamic but your code specialized it to be a constant (1)": a dim whose example
# size is 0 or 1 is specialized whatever the code does (torch's 0/1 specialization), so a constant of 0 or 1 is
# another cause than the code specializing the dim to its example (100): shrinking the input to size 1 makes any
# forward, ``pass`` too, fail "the same way" (a held-out report's LSTM export: the forward became ``pass``)
_SPECIALIZED_0_1 = re.compile(r"(specialized it to be a constant) \(([01])\)")


def _size_0_1(m: re.Match) -> str:
    return f"{m.group(1)} ({'zero' if m.group(2) == '0' else 'one'}: a size torch specializes)"


def _first_violation(lines: list[str]) -> str | None:
    """``torch.export``'s ``Constraints violated (dz)! For more information, run with TORCH_LOGS="+dynamic".``
    (``torch/fx/experimental/symbolic_shapes.py``), then one ``- ...`` bullet per violated constraint: the
    first bullet says which (a guard the code generated, or "specialized it to be a constant (1)")."""
    return next((line for line in lines[1:] if line.startswith("- ")), None)


def _raised_line(lines: list[str]) -> str | None:
    """A wrapper whose title names only where the failure was caught: ``backend='inductor' raised:``
    (``BackendCompilerFailed``, ``torch/_dynamo/exc.py``) then ``RuntimeError: ...``; TorchScript's
    ``The following operation failed in the TorchScript interpreter.`` then its traceback, then the error."""
    errors = [line for line in lines[1:] if _ERROR_LINE_RE.match(line)]
    return errors[0] if errors else (lines[1] if len(lines) > 1 else None)


# TorchScript's call that matches no schema (torch/csrc/jit/frontend/schema_matching.cpp): the schema as its first
# line (``ctc_loss(Tensor log_probs, ...) -> Tensor:``), or "Arguments for call are not valid." and the schemas of
# its overloads, each followed by the line that says how the call failed it (``Expected a value of type 'Tensor' for
# argument 'input_lengths' but instead found type 'List[int]'.``): a call with other wrong arguments has the same title
_SCHEMA_LINE_RE = re.compile(r"[\w.:]+\(.*\) -> .+:$")


def _schema_mismatch(lines: list[str]) -> str | None:
    """The line after the first schema line (:data:`_SCHEMA_LINE_RE`): how the call failed that schema."""
    at = next((i for i, line in enumerate(lines) if _SCHEMA_LINE_RE.match(line)), None)
    return lines[at + 1] if at is not None and at + 1 < len(lines) else None


# A message line that is an exception's own: ``RuntimeError: ...``, ``torch._C._LinAlgError: ...``.
_ERROR_LINE_RE = re.compile(r"[A-Za-z_][\w.]*(Error|Exception|Failure|Interrupt|Exit)\b[^:\s]*:")

# Titles a library raises for many different failures, with how to find the line that says which one
# (titles from torch's own sources; a message whose first line is none of these is keyed by that line).
_GENERIC_TITLES: list[tuple[re.Pattern, Callable[[list[str]], str | None]]] = [
    (re.compile(r"Constraints violated \(.*\)!"), _first_violation),
    (re.compile(r"backend=.* raised:$"), _raised_line),
    (re.compile(r"The following operation failed in the TorchScript interpreter\.$"), _raised_line),
    (_SCHEMA_LINE_RE, _schema_mismatch),
    (re.compile(r"Arguments for call are not valid\.$"), _schema_mismatch),
]


# advice after the failure's statement on its line (torch's C++ and Python messages: ``... expected version 1 instead.
# Hint: enable anomaly detection ...`` / ``Hint: the backtrace further above shows ...`` with anomaly mode on): it
# follows the debug modes in force, not the failure, so it is no part of the key
_HINT_TAIL = re.compile(r"(?<=[.!?])\s+Hint: .*$")


def _key_lines(message: str) -> list[str]:
    """The lines of a message that say which failure it is: the first non-blank one (without a trailing
    :data:`_HINT_TAIL`), and where that
    is a title shared by many causes, the line that names the cause: a graph break's ``Explanation:``
    (:func:`_explanation`), an export's first violated constraint (:func:`_first_violation`), the error
    a compiler backend or the TorchScript interpreter raised (:func:`_raised_line`)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return []
    lines[0] = _HINT_TAIL.sub("", lines[0])
    specific = next((pick(lines) for title, pick in _GENERIC_TITLES if title.match(lines[0])), None)
    specific = specific or _explanation(lines)
    return [lines[0]] + ([specific] if specific else [])


def _tmp_tail(m: re.Match) -> str:
    """A temp path without its per-run part: ``<tmp>/`` and the components after the last directory
    made for one run (``/tmp/rk-corpus-k3j8x/site/inflection.py`` -> ``<tmp>/site/inflection.py``), so
    the file stays told apart from others and the same file in another scratch copy matches."""
    parts = m.group(0).split("/")[1:]
    prefix = 2 if parts and parts[0] == "private" else 1
    if parts[prefix - 1:prefix + 1] == ["var", "folders"]:
        prefix += 1
    if parts[prefix - 1:prefix + 1] == ["var", "tmp"]:
        prefix += 1
    rest = [p for p in parts[prefix:] if p]
    if not rest or _is_scratch_name(rest[-1]):
        return "<tmp>"
    *dirs, name = rest
    keep = len(dirs)
    while keep and not _SCRATCH_DIR_RE.fullmatch(dirs[keep - 1]):
        keep -= 1
    return "/".join(["<tmp>", *dirs[keep:], name])


# A file name made for one run: tempfile's (``tmpk3j_x8a1.json``, ``out_k3j8x1ab.csv``: a random part
# with a digit after the prefix) or a content hash (Inductor's generated ``c3xk...q7.py``).
_SCRATCH_FILE_RE = re.compile(r"tmp[a-z0-9_]{8}|.*[-_.](?=[a-z_]*\d)[a-z0-9_]{8}|(?=[a-z]*\d)[a-z0-9]{20,}")


def _is_scratch_name(name: str) -> bool:
    """A last path component made for one run: a directory name like ``_SCRATCH_DIR_RE``'s (no
    extension), or a file name like ``_SCRATCH_FILE_RE``'s (its part before the first dot)."""
    stem, dot, _ = name.partition(".")
    return (not dot and bool(_SCRATCH_DIR_RE.fullmatch(name))) or bool(_SCRATCH_FILE_RE.fullmatch(stem))


def _numbers_in_token(m: re.Match) -> str:
    token = m.group(0)
    return _DIGITS_RE.sub("N", token) if token[0].isdigit() else token


def _innermost(frames: list[Frame], norm: Normalizer, *, script: bool) -> Frame | None:
    for frame in reversed(frames):
        if norm.is_script(frame.file) == script:
            return frame
    return None


def _redacted(message: str) -> str:
    """``message`` through the redaction edge, for what is derived from it only to be shown (normalizing
    turns a token's digits into ``N``, and a secret so changed is no longer recognised at the edge)."""
    from reportkit.redact import redact_text

    if len(message) > 16384:  # (full_message keeps 4000 characters: the rest is not shown; cut at a line end)
        message = message[:max(message.rfind("\n", 0, 16384), 8192)]
    return redact_text(message, home="")


def _exception_signature(exc: ExceptionInfo, norm: Normalizer) -> Signature:
    frames = exc.frames
    raise_frame = frames[-1] if frames else None
    script_frame = _innermost(frames, norm, script=True)
    raw_lines = [ln for ln in exc.message.splitlines() if ln.strip()]
    return Signature(
        kind=FailureKind.EXCEPTION,
        exc_type=exc.type,
        local_type=_local_type(exc, norm),
        message=norm.message_key(exc.message),
        full_message=norm.text(_redacted(exc.message))[:4000],  # shown only: normalized after redaction
        raw_message="\n".join(raw_lines[:3])[:1000],
        exact_message=norm.exact_key(exc.message),
        measured=norm.measured_lines(exc.message) if is_assertion(exc.type) else [],
        location=norm.location(raise_frame) if raise_frame else None,
        script_frame=norm.location(script_frame) if script_frame else None,
        modes={f"{norm.path(f.file)}:{f.function}": f.training for f in frames
               if f.training and not norm.is_user_code(f.file)},
    )


def _same_modes(original: Signature, candidate: Signature) -> bool:
    """A library frame that read its module's ``training`` flag before the exception passed through it, in both
    runs, read the same mode: ``BatchNorm`` in eval mode is another path than in train mode (running statistics
    vs the batch's), which may fail with the same message at the same line for another reason."""
    return all(candidate.modes.get(key, mode) == mode for key, mode in original.modes.items())


def _local_type(exc: ExceptionInfo, norm: Normalizer) -> str | None:
    module = exc.type_module
    if not module or not exc.type.startswith(module + "."):
        return None
    if module == "__main__" or (exc.type_file is not None and norm.is_user_code(exc.type_file)):
        return exc.type[len(module) + 1:]
    return None


def _same_type(original: Signature, candidate: Signature) -> bool:
    """The same exception class: the same qualified name, or a class of the original's project and one
    of the candidate script with the same name (the reproducer that folded the project's module in)."""
    if original.exc_type == candidate.exc_type:
        return True
    return (original.local_type is not None and original.local_type == candidate.local_type
            and (candidate.exc_type or "").startswith("__main__."))


def _stack_signature(sig: Signature, result: RunResult, norm: Normalizer) -> Signature:
    """Where a hang is blocked / a crash happened: the main thread's innermost frame (and the script's)."""
    stack = result.main_stack
    if stack and stack.frames:
        sig.location = norm.location(stack.frames[0])
        inner_script = next((f for f in stack.frames if norm.is_script(f.file)), None)
        sig.script_frame = norm.location(inner_script) if inner_script else None
    return sig


def _thread_waits(result: RunResult, norm: Normalizer) -> list[str]:
    """What the threads other than the main one waited in when a hang was caught, for each thread in the
    user's code (threads with no frame of it, a server's accept loop or a pool's idle worker, left out):
    the library function its innermost frame there called (``queue.py in get``,
    ``concurrent/futures/_base.py in result``), or, blocked on its own line (a lock's ``with``, a C call),
    that statement's :func:`wait_shape`. Sorted, each once."""
    main = result.main_stack
    waits: set[str] = set()
    for stack in result.stacks:
        if stack is main:
            continue
        i = next((i for i, f in enumerate(stack.frames) if norm.is_script(f.file) or norm.is_user_code(f.file)), None)
        if i is None:
            continue
        if i > 0:
            callee = norm.location(stack.frames[i - 1])
            waits.add(f"{callee.file} in {callee.function}")
        else:
            waits.add(wait_shape(norm.location(stack.frames[i]).text))
    return sorted(waits)


def _generated_statement(result: RunResult, sig: Signature, norm: Normalizer) -> str | None:
    """The statement of the code torch generated from the script where the exception arose
    (:mod:`reportkit.failure.generated`): the raising frame's, the one FX's wrapper reported on stderr when it
    re-raised without the traceback (the raising frame is then its ``__call__``), or the one TorchScript's message
    quotes."""
    loc = sig.location
    if loc is not None and loc.file == _generated.GENERATED_FILE:
        statement: str | None = loc.text
    elif loc is not None and loc.file == "torch/fx/graph_module.py" and loc.function == "__call__":
        statement = _generated.from_stderr(result.stderr)
    else:
        statement = _generated.from_message(result.exception.message) if result.exception else None
    return norm.text(_redacted(statement)) if statement else None  # (shown too: through the redaction edge)


def _same_generated(original: Signature, candidate: Signature) -> bool:
    """Where the original failed in code torch generated from the script, the candidate failed in a generated
    statement that does the same (:func:`reportkit.failure.generated.site`)."""
    if original.generated is None:
        return True
    return candidate.generated is not None and \
        _generated.site(original.generated) == _generated.site(candidate.generated)


def _kind_signature(result: RunResult, norm: Normalizer) -> Signature:
    if result.timed_out:
        return _stack_signature(Signature(kind=FailureKind.HANG, child_waits=result.child_waits,
                                          thread_waits=_thread_waits(result, norm)), result, norm)
    if result.exception is not None and result.exception.type not in ("SystemExit",):
        sig = _exception_signature(result.exception, norm)
        sig.generated = _generated_statement(result, sig, norm)
        return sig
    if result.signal is not None:
        return _stack_signature(Signature(kind=FailureKind.SIGNAL, signal=result.signal), result, norm)
    if result.returncode not in (0, None):
        lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
        return Signature(kind=FailureKind.EXIT, exit_code=result.returncode,
                         last_stderr=norm.text(lines[-1])[:MESSAGE_KEY_MAX] if lines else None)
    return Signature(kind=FailureKind.PASSED, exit_code=result.returncode)


def signature_of(result: RunResult, policy: MatchPolicy | None = None,
                 source_map: SourceMap | None = None) -> Signature:
    """Derive the failure signature of one run (``source_map``: of a script with local modules
    folded in, as the original run would have had it: frames of folded lines in their modules)."""
    policy = policy or MatchPolicy()
    if source_map is not None:
        result = source_map.apply(result)
    norm = Normalizer(result.workdir, result.script_path)
    sig = _kind_signature(result, norm)
    sig.thread_exceptions = [f"{e.type}: {norm.message_key(e.message)}" for e in result.thread_exceptions]
    if result.test_item:
        sig.pytest_phase = result.test_item.get("when")
    if policy.match is not None:
        m = re.search(policy.match, result.stdout + "\n" + result.stderr, re.MULTILINE)
        if m:
            sig.matched = m.group(0)[:MESSAGE_KEY_MAX]
            if sig.kind is FailureKind.PASSED:
                sig.kind = FailureKind.OUTPUT
    return sig


# --------------------------------------------------------------------------- who raised it

# Instructions that call something: an exception at one of them with no deeper Python frame was raised
# by the called C function (a builtin, a C extension such as a torch op), not by the frame's own code.
_CALL_OPS = frozenset({"CALL", "CALL_KW", "CALL_FUNCTION", "CALL_FUNCTION_KW", "CALL_FUNCTION_EX", "CALL_METHOD",
                       "PRECALL"})
# Where a thread waits on another (stdlib, as normalized): a hang blocked there is the script's own.
_WAIT_MODULES = ("threading.py", "queue.py", "multiprocessing/", "concurrent/", "asyncio/", "selectors.py",
                 "subprocess.py", "socket.py")


def shown_message(sig: Signature) -> str:
    """The signature's message as shown to people: normalized from the *redacted* message when redaction
    changes it (normalizing first turns the digits of a token into ``N``, and a secret so changed is no
    longer recognised by the redaction edge: ``webhooks/N/<token>``)."""
    from reportkit.redact import redact_text

    raw = sig.raw_message or ""
    redacted = redact_text(raw, home="")
    if redacted == raw and "<redacted" not in raw:  # (a raw message redacted before: its message was not)
        return sig.message or ""
    return Normalizer().message_key(redacted)


def describe_op(op: str) -> str:
    """What a frame's bytecode instruction (``Frame.op``) was doing, in words a user reads:
    ``RAISE_VARARGS`` -> ``a raise statement``; an unknown instruction -> ``""``."""
    if op in _CALL_OPS:
        return "a call"
    for prefixes, words in _OP_WORDS:
        if op.startswith(prefixes):
            return words
    return ""


_OP_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("RAISE_VARARGS", "RERAISE"), "a raise statement"),
    (("LOAD_ASSERTION_ERROR",), "an assert"),
    (("BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR", "BINARY_SLICE", "STORE_SLICE"), "a subscript"),
    (("LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR"), "an attribute access"),
    (("BINARY_", "INPLACE_", "UNARY_"), "an operator"),
    (("COMPARE_OP", "CONTAINS_OP", "IS_OP"), "a comparison"),
    (("UNPACK_",), "an unpacking"),
    (("GET_ITER", "FOR_ITER", "GET_AITER", "GET_ANEXT"), "iteration"),
    (("LOAD_NAME", "LOAD_GLOBAL", "LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE"), "a name lookup"),
    (("IMPORT_",), "an import"),
    (("BUILD_", "DICT_", "LIST_", "SET_"), "building a container"),
    (("FORMAT_", "CONVERT_VALUE"), "string formatting"),
)


def is_assertion(exc_type: str | None) -> bool:
    exc_type = exc_type or ""
    return exc_type == "AssertionError" or exc_type.endswith(".AssertionError") or exc_type.endswith("AssertionFailure")


#: Where the assertions that compare results live: testing modules and frameworks (``torch/testing/``,
#: ``numpy/testing/``, ``unittest/``, ``_pytest/``, ``pandas/_testing/``, a ``tests`` package).
_TESTING_PART = re.compile(r"(?:^|/)(?:_?testing|unittest|_?pytest|hypothesis|nose2?|tests?|test_[^/]*|[^/]*_tests?\.py)(?:/|$)")


def library_argument_check(sig: Signature) -> bool:
    """Did library code's own ``assert`` reject what it was given (``torch.nn.functional``'s
    ``assert key_padding_mask.shape == ...``, ``torch._assert``)? An ``AssertionError`` whose innermost
    frame is an installed package's or the standard library's code, outside testing modules and
    functions named ``assert*`` (``torch.testing.assert_close``, ``numpy.testing``, ``unittest``'s
    ``assertEqual``: checks of computed results the script asked for). Such a failure is the library
    rejecting its input, like a ``raise ValueError``: not a check of values the script computed."""
    loc = sig.location
    return (sig.kind is FailureKind.EXCEPTION and is_assertion(sig.exc_type) and loc is not None
            and not loc.user_code and not loc.in_script and bool(loc.file)
            and not _TESTING_PART.search(loc.file) and not loc.function.lower().startswith("assert"))


def raised_by_script(sig: Signature) -> bool:
    """Is the failure raised by the script's own code rather than by library code it calls?

    *Own code*: the innermost frame is the user's and its own bytecode raised — an operator, a
    subscript, an attribute lookup, a comparison, ``raise``/``assert`` (pytest's rewritten asserts
    too) — or ``unittest``'s ``assert*`` failed; a hang blocked on the user's own line or in the
    standard library's waiting code (a lock, a queue, a thread join). *Library*: the innermost frame
    is in site-packages / the standard library, or the user's frame was executing a call (``CALL``)
    with no deeper Python frame, i.e. a builtin or a C extension (a torch op) raised (calling a value
    that is not callable, ``None()``, is the script's own). The instruction
    comes from the traceback of the run (``Frame.op``); without it only ``raise``/``assert``
    statements and assertion errors count as the script's own.
    """
    loc = sig.location
    if loc is None:
        return False
    if sig.kind is FailureKind.EXCEPTION:
        if loc.user_code:
            if loc.op in _CALL_OPS:  # a called builtin/C function raised, unless nothing was called at all
                return sig.exc_type == "TypeError" and "object is not callable" in (sig.message or "")
            if loc.op:
                return True
            return is_assertion(sig.exc_type) or loc.text.startswith(("raise", "assert"))
        return is_assertion(sig.exc_type) and loc.file.startswith("unittest/")
    if sig.kind is FailureKind.HANG:
        return loc.user_code or loc.file.startswith(_WAIT_MODULES)
    return False


def raised_by_tensor_operator(sig: Signature) -> bool:
    """Did a tensor operator in the script's own code raise it (``out + res``, ``x @ w``, ``x[m] = y``
    with shapes that do not fit)? An operator, a comparison or a subscript of the user's frame raised a
    ``RuntimeError``: Python's own operators on built-in values never raise that, a C extension's
    (torch's) do. The script's own failure (:func:`raised_by_script`), but its operands are tensors a
    model computed from data."""
    loc = sig.location
    return (raised_by_script(sig) and sig.kind is FailureKind.EXCEPTION and sig.exc_type == "RuntimeError"
            and loc is not None and describe_op(loc.op) in ("an operator", "a comparison", "a subscript"))


# --------------------------------------------------------------------------- fingerprints


def fingerprint_parts(sig: Signature) -> list[str]:
    """What identifies a failure across runs, machines and edits: no line numbers, no directories.

    Kind; for exceptions the type and the normalized first message line; the raising function with
    its file (relative to site-packages or the project, so the same everywhere) and the innermost
    function of the target module; for hangs and crashes the blocked/crashing function; for exits the
    code and the normalized last stderr line.
    """
    def where(loc: Location | None) -> str:
        return f"{loc.file if not loc.in_script else Path(loc.file).name}:{loc.function}" if loc else ""

    parts = [sig.kind.value]
    if sig.kind is FailureKind.EXCEPTION:
        parts += [sig.exc_type or "", sig.message or "", where(sig.location),
                  sig.script_frame.function if sig.script_frame else ""]
    elif sig.kind in (FailureKind.HANG, FailureKind.SIGNAL):
        parts += [str(sig.signal or ""), where(sig.location), sig.script_frame.function if sig.script_frame else ""]
    elif sig.kind is FailureKind.EXIT:
        parts += [str(sig.exit_code), sig.last_stderr or ""]
    elif sig.kind is FailureKind.OUTPUT:
        parts += [sig.matched or ""]
    return parts


def fingerprint(sig: Signature) -> str:
    """A stable 16-hex-digit id of the failure (see :func:`fingerprint_parts`), for de-duplication."""
    import hashlib

    return hashlib.sha256("\x1f".join(fingerprint_parts(sig)).encode()).hexdigest()[:16]


# --------------------------------------------------------------------------- matching


_SITE_TARGET_RE = re.compile(
    r"^(?:return\s+|yield\s+|(?:[A-Za-z_][\w.]*\s*,\s*)*[A-Za-z_][\w.]*\s*(?::[^=]*)?=(?!=)\s*)")
_SELF_RE = re.compile(r"\bself\.")


def statement_site(text: str) -> str:
    """What a statement of the script evaluates, for comparing raise sites: the statement without what
    receives its value (``return E``, ``yield E``, ``x = E``, ``a, b = E`` and ``E`` evaluate the same
    ``E``) and without ``self.`` (an attribute that became a variable when its class was turned into
    module code). A one-use function inlined, or a class whose object was built once made module code,
    still fails at the same operation."""
    return _SITE_TARGET_RE.sub("", _SELF_RE.sub("", text), count=1)


_KEYWORDS = frozenset(keyword.kwlist)


def wait_shape(text: str) -> str:
    """What a statement does, names aside: :func:`statement_site` with every variable name written ``_``
    (attribute and method names kept), so ``with self._lock:`` and ``with lock:`` are both ``with _ :``:
    where a thread blocks on its own line, however the reducer or a person renamed what it waits on."""
    site = statement_site(text)
    out: list[str] = []
    prev = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(site).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.COMMENT, tokenize.INDENT,
                            tokenize.DEDENT):
                continue
            named = tok.type == tokenize.NAME and prev != "." and tok.string not in _KEYWORDS
            out.append("_" if named else tok.string)
            prev = tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return site
    return " ".join(out)


def new_thread_waits(original: list[str] | None, candidate: list[str] | None) -> list[str]:
    """What the candidate's other threads wait in that none of the original's did (:func:`_thread_waits`): a
    pipeline stage now blocked in ``queue.py in get`` on its input, where in the original it had ended.
    Empty when the original's are not compared (None)."""
    if original is None:
        return []
    return [w for w in candidate or [] if w not in original]


def same_location(a: Location | None, b: Location | None) -> bool:
    if a is None or b is None:
        return a is b
    if (a.in_script or a.user_code) and (b.in_script or b.user_code) and (a.in_script or b.in_script):
        # Inside the script line numbers move as it shrinks, and a reproducer is one script where the
        # original raised in a module of its own project (folded in): the statement identifies the site.
        return a.text == b.text or statement_site(a.text) == statement_site(b.text) or _same_operation(a, b)
    if a.in_script != b.in_script:
        return False
    if a.file == b.file == _generated.GENERATED_FILE:  # its lines move with the graph: the statement is the site
        return a.function == b.function and _generated.site(a.text) == _generated.site(b.text)
    if a.user_code and b.user_code and _site_text(a) and _site_text(b):
        # Another file of the user's project (a module next to the script, the code under test of a
        # repository's test suite): the file is the one being changed (a culprit search's candidate trees
        # differ from HEAD's by hunks above the raise), so its line numbers move; the statement in its
        # function identifies the site.
        return (a.file, a.function) == (b.file, b.function) and _site_text(a) == _site_text(b)
    return (a.file, a.function, a.line) == (b.file, b.function, b.line)


# The script's own ``raise``/``assert`` (and a re-raise): its statement is the site, not an operation in it.
_STATEMENT_OPS = frozenset({"", "RAISE_VARARGS", "RERAISE"})


def _same_operation(a: Location, b: Location) -> bool:
    """Two frames of the script that raised in the same operation (:func:`operation_site`) of statements
    that differ around it: the failing call or subscript, its arguments' values and the statement that holds
    it (a variable inlined into it, a loop index made a constant) changed, the operation did not. What it is
    applied to may be spelled through a longer dotted path in one of them (``nn.Module[]`` and
    ``torch.nn.Module[]``: an import gathered into ``import torch``; ``x.size()`` and ``self.x.size()``)."""
    if not (a.in_script and b.in_script) or a.op != b.op or a.op in _STATEMENT_OPS:
        return False
    site, other = operation_site(a.expr), operation_site(b.expr)
    return site is not None and other is not None and (
        site == other or site.endswith("." + other) or other.endswith("." + site))


def operation_site(expr: str) -> str | None:
    """What a raising sub-expression (``Location.expr``) does, its values aside: a call or a subscript of
    what it is applied to (``x[j].item()`` and ``x[0].item()`` are ``x[].item()``, ``a[i:e]`` and
    ``a[i:(i + n)]`` are ``a[]``), an operator with its operands so reduced, an attribute read. None for
    anything else (a segment that is no expression, a lambda...): such a site is the statement."""
    if not expr:
        return None
    try:
        node = ast.parse(expr, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if isinstance(node, ast.Call):
        callee = _applied_to(node.func)
        return None if callee is None else f"{callee}()"
    if isinstance(node, (ast.Subscript, ast.Attribute)):
        return _applied_to(node)
    if isinstance(node, ast.BinOp):
        left, right = _applied_to(node.left), _applied_to(node.right)
        if left is None or right is None:
            return None
        return f"{left} {type(node.op).__name__} {right}"
    return None


def _applied_to(node: ast.expr) -> str | None:
    """A dotted name, subscripts and calls along it kept as ``[]`` and ``()`` (their contents are values);
    a constant is ``N``; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, complex)):
        return "N"
    if isinstance(node, ast.Attribute):
        inner = _applied_to(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    if isinstance(node, ast.Subscript):
        inner = _applied_to(node.value)
        return None if inner is None else f"{inner}[]"
    if isinstance(node, ast.Call):
        inner = _applied_to(node.func)
        return None if inner is None else f"{inner}()"
    return None


def _site_text(loc: Location) -> str:
    """The raise site's statement: as written where known (the user's project modules are not reduced, so
    their numbers stay), else normalized."""
    return " ".join(loc.source.split()) if loc.source else loc.text


def _same_test_phase(original: Signature, candidate: Signature) -> bool:
    """A pytest target whose test ran (failed in its setup, call or teardown) does not fail the same
    way when importing its module fails: that fails "the same way" for any node id, the test unrun
    (a candidate that hoisted the test's body to module level, or removed the test)."""
    if original.pytest_phase is None:
        return True
    return (original.pytest_phase == "collect") == (candidate.pytest_phase == "collect")


def _no_new_thread_errors(original: Signature, candidate: Signature) -> bool:
    """A candidate whose other threads die of an exception type the original's threads did not raise is
    a failure of its own (a worker left with a ``NameError`` after its import was removed stops doing its
    part just as the bug did, but for another reason)."""
    seen = {text.partition(":")[0] for text in original.thread_exceptions}
    return all(text.partition(":")[0] in seen for text in candidate.thread_exceptions)


def interesting(candidate: Signature, policy: MatchPolicy) -> bool:
    """Does the candidate satisfy the *loosened* policy on its own (without an original)?"""
    if policy.match is not None and candidate.matched is None:
        return False
    if policy.exit_code is not None and candidate.exit_code != policy.exit_code:
        return False
    if policy.any_exception and candidate.kind is not FailureKind.EXCEPTION:
        return False
    return True


def same_failure(original: Signature, candidate: Signature, policy: MatchPolicy | None = None) -> bool:
    """True if ``candidate`` fails the same way as ``original`` under ``policy``.

    Strict (default): same kind and
      - exception: same fully-qualified type (a class of the original's project: the same class
        defined in the candidate script), same normalized first message line, same raising frame
        (a library frame: same file, function and line; a frame in another module of the user's project:
        same file, function and statement, wherever its line moved; a frame in the script: the same statement text, or
        the same :func:`statement_site`, as a frame in the original's own project modules is to a frame
        in the candidate script: the reproducer that folded them in; or, both in the script, the same
        failing operation (:func:`operation_site` of the instruction that raised, not the script's own
        ``raise``/``assert``) in a statement rewritten around it); a library frame of both that read its
        module's ``training`` flag before the exception passed through it read the same mode (train/eval);
        where the original arose in code torch generated from the script (an FX forward: :mod:`.generated`),
        the candidate did in a generated statement doing the same;
      - hang: same innermost frame of the main thread, and (where the original's is known) the same
        set of what its leaf child processes wait in (a child blocked on a full pipe vs one starting up),
        no other thread waiting in the user's code where the original's did not (:func:`new_thread_waits`),
        and the main thread blocked inside the script's code where the original's was, after it (at the
        interpreter's exit, joining what is left running) where the original's was;
      - signal: same signal and same crashing frame (when faulthandler caught one);
      - exit: same exit code and same normalized last stderr line;
      - pytest targets: the test ran in both, or its module failed to import in both;
      - and no other thread of the candidate died of an exception type the original's threads did not raise.
    With overrides, only the overrides are checked (they are combined with "and").
    """
    policy = policy or MatchPolicy()
    if not candidate.failed:
        return False
    if not policy.strict:
        return interesting(candidate, policy)
    if original.kind != candidate.kind or not _same_test_phase(original, candidate):
        return False
    if not _no_new_thread_errors(original, candidate):
        return False
    if original.kind is FailureKind.EXCEPTION:
        return (_same_type(original, candidate) and original.message == candidate.message
                and same_location(original.location, candidate.location) and _same_modes(original, candidate)
                and _same_generated(original, candidate))
    if original.kind is FailureKind.HANG and original.child_waits is not None \
            and original.child_waits != (candidate.child_waits or []):
        return False
    if original.kind is FailureKind.HANG and new_thread_waits(original.thread_waits, candidate.thread_waits):
        return False
    if original.kind is FailureKind.HANG and (original.script_frame is None) != (candidate.script_frame is None):
        return False  # hung in the script's code vs after it, at the interpreter's exit (joining threads)
    if original.kind in (FailureKind.HANG, FailureKind.SIGNAL):
        return original.signal == candidate.signal and same_location(original.location, candidate.location)
    if original.kind is FailureKind.EXIT:
        return original.exit_code == candidate.exit_code and original.last_stderr == candidate.last_stderr
    return True


# --------------------------------------------------------------------------- establishing the original


@dataclass
class Reproduction:
    """The original script's failure, measured over several runs."""

    signature: Signature
    runs: int
    failures: int  # runs that failed the same way as the first failing run
    results: list[RunResult] = field(default_factory=list)
    signatures: list[Signature] = field(default_factory=list)
    confirm_runs: int = 0  # of ``runs``: made by the flakiness rule's confirmation (reportkit.failure.check.confirm)
    confirmed_on: str = ""  # the executor those ran on ("warm", "cold")

    @property
    def deterministic(self) -> bool:
        return self.failures == self.runs

    @property
    def rate(self) -> float:
        return self.failures / self.runs if self.runs else 0.0

    @property
    def max_duration(self) -> float:
        return max((r.duration for r in self.results), default=0.0)


def missing_module(sig: Signature) -> str | None:
    """Name of a module the *script itself* failed to import (bad environment, not a bug)."""
    if sig.kind is not FailureKind.EXCEPTION or sig.exc_type not in ("ModuleNotFoundError", "ImportError"):
        return None
    if sig.location is None or not sig.location.user_code:
        return None
    m = re.search(r"No module named '([^']+)'", sig.raw_message or "")
    return m.group(1) if m else None


# pytest's exit codes that mean "no test ran", not "a test failed"
_PYTEST_NO_TEST = {2: "interrupted", 3: "internal error", 4: "usage error (e.g. no such test)",
                   5: "no tests collected"}


def check_pytest_outcome(spec, result: RunResult, sig: Signature) -> None:
    """A pytest target that ran no test at all is bad input, not a failure to reproduce."""
    from reportkit.errors import UserError

    if spec.pytest_node is None or sig.kind is not FailureKind.EXIT or result.test_item is not None:
        return
    if sig.exit_code in _PYTEST_NO_TEST:
        lines = [ln for ln in (result.stdout + "\n" + result.stderr).splitlines() if ln.strip()]
        tail = "\n".join(lines[-4:])
        raise UserError(f"pytest ran no test for {spec.target_name()} "
                        f"(pytest exit code {sig.exit_code}: {_PYTEST_NO_TEST[sig.exit_code]}):\n{tail}")
