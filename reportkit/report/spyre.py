"""Torch-Spyre specific evidence: debug logs, compiler artifacts, FFDC reports, versions.

Everything here reads files/text produced by Torch-Spyre; nothing imports torch or
torch_spyre, so it works on a machine without Spyre hardware (or without torch).

Formats (as written by the public torch-spyre/torch-spyre sources):

* Legacy C++ debug prints (``TORCH_SPYRE_DEBUG=1``, ``torch_spyre/csrc/logging.h``):
  ``DEBUGINFO(...)`` writes ``"[" __func__ "] " args...`` to **stdout**, every piece
  followed by one space, so a line looks like ``[ spyre_copy_from ]  self ( Half ) is on: cpu``.
* ``TORCH_LOGS=+torch_spyre`` (the replacement of ``TORCH_SPYRE_DEBUG``, debugging guide step 2): torch's
  own formatter (``torch/_logging/_internal.py``, ``TorchLogsFormatter``) writes
  ``<L><MMDD> <HH:MM:SS.us> <pid> torch_spyre/<module>.py:<line>] [trace id] <message>`` to **stderr**.
* Unified logging, the older ``[LEVEL] [module]`` format (``torch_spyre/logging_config.py``,
  ``torch_spyre/csrc/logging_config.cpp``, ``SPYRE_INDUCTOR_LOG=1``):
  Python records ``[%(levelname)s] [%(name)s] %(message)s`` (loggers ``spyre.inductor.*``);
  C++ records ``[LEVEL] [spyre.runtime] YYYY-mm-dd HH:MM:SS <func>: <msg>``. Both go to
  **stderr**, or to ``SPYRE_LOG_FILE`` / ``logging_config.set_log_file()``.
* Compiler artifacts: ``<inductor cache>/inductor-spyre/<hex8>_<kernel>_<rand>/`` holding
  ``sdsc_<N>.json``, ``bundle.mlir`` and ``spyreCodeDir/spyrecode.json``
  (``torch_spyre/_inductor/runtime/async_compile.py``, ``codegen/bundle.py``).
* FFDC: ``<inductor cache>/torch-spyre/ffdc_reports/ffdc_<category>_<YYYYmmddTHHMMSS>_<us>_<pid>.json``,
  or ``<tempdir>/torch-spyre-ffdc/`` when that is not writable (``torch_spyre/profiler/_ffdc.py``,
  ``docs/source/user_guide/profiling/ffdc.md``); ``failure.traceback`` and ``hardware_state`` in each.
* ``$LIB_VERSION_FILE``: ``name:version`` lines, e.g. ``ibm-deeptools:2.0.0-...``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shlex
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from reportkit.io import load_artifact_json, read_artifact
from reportkit.report.evidence import (
    COLLECTED,
    NOT_COLLECTED,
    CheckItem,
    Collector,
    Comparison,
    Variant,
    VariantDef,
)
from reportkit.run.gitinfo import GitInfo, repo_info

# ---------------------------------------------------------------------------
# Debug log parsing
# ---------------------------------------------------------------------------

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "NOTSET")

# "[ func ]  args" -- PrintLog emits "[", func, "] " each followed by a space.
_CPP_LINE = re.compile(r"^\[ (?P<func>[^\s\]]+) \] {0,2}(?P<msg>.*)$")
_LOGGING_LINE = re.compile(
    r"^\[(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL|NOTSET)\] \[(?P<comp>[\w.\-]+)\] (?P<rest>.*)$"
)
_TORCH_LOGS_LINE = re.compile(  # torch/_logging/_internal.py TorchLogsFormatter
    r"^(?:\[rank\d+\]:)?(?P<lvl>[VDIWEC])(?P<day>\d{4}) (?P<time>\d\d:\d\d:\d\d\.\d+) \d+ "
    r"(?P<path>[^\s:]+\.py):(?P<line>\d+)\](?: \[[^\]]*\])*(?: (?P<msg>.*))?$"
)
_TORCH_LOGS_LEVELS = {"V": "DEBUG", "D": "DEBUG", "I": "INFO", "W": "WARNING", "E": "ERROR", "C": "CRITICAL"}
_CPP_TIMESTAMP = re.compile(r"^(?P<ts>\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) (?P<msg>.*)$")
_CPP_FUNC_PREFIX = re.compile(r"^(?P<func>[A-Za-z_~][\w~]*|operator\(\)): (?P<msg>.*)$")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_SPYRE_COMPONENT = re.compile(r"^(?:torch_)?spyre(?:\.|$)")
_MAX_CONTINUATION_LINES = 500


@dataclass
class SpyreLogRecord:
    """One Torch-Spyre debug/log record."""

    stream: str  # "stdout" | "stderr" | "log_file"
    format: str  # "cpp" (legacy DEBUGINFO line) | "logging" ("[LEVEL] [component] ...") | "torch_logs"
    level: str
    component: Optional[str]  # e.g. "spyre.runtime"; None for legacy cpp lines
    function: Optional[str]  # C++ __func__ when known (legacy lines and unified C++ records)
    message: str
    raw: str
    line_no: int  # 1-based line number of the record's first line in its stream
    timestamp: Optional[str] = None  # only unified C++ records carry one


def _torch_logs_record(stream: str, line: str, line_no: int, spyre_only: bool) -> Optional[SpyreLogRecord]:
    m = _TORCH_LOGS_LINE.match(line)
    if not m:
        return None
    module = m["path"][:-3].replace("/", ".").removesuffix(".__init__")
    if spyre_only and not _SPYRE_COMPONENT.match(module):
        return None
    return SpyreLogRecord(stream, "torch_logs", _TORCH_LOGS_LEVELS[m["lvl"]], module, None, (m["msg"] or "").rstrip(),
                          line, line_no, f"{m['day']} {m['time']}")


def _new_record(stream: str, line: str, line_no: int, spyre_only: bool) -> Optional[SpyreLogRecord]:
    m = _CPP_LINE.match(line)
    if m:
        return SpyreLogRecord(stream, "cpp", "DEBUG", None, m["func"], m["msg"].rstrip(), line, line_no)
    if line[:1] in _TORCH_LOGS_LEVELS or line.startswith("[rank"):
        record = _torch_logs_record(stream, line, line_no, spyre_only)
        if record is not None:
            return record
    m = _LOGGING_LINE.match(line)
    if not m or (spyre_only and not _SPYRE_COMPONENT.match(m["comp"])):
        return None
    message, function, timestamp = m["rest"], None, None
    ts = _CPP_TIMESTAMP.match(message)
    if ts:
        timestamp, message = ts["ts"], ts["msg"]
        fn = _CPP_FUNC_PREFIX.match(message)
        if fn:
            function, message = fn["func"], fn["msg"]
    return SpyreLogRecord(
        stream, "logging", m["level"], m["comp"], function, message, line, line_no, timestamp
    )


def _open_brackets(text: str) -> int:
    return text.count("{") + text.count("[") - text.count("}") - text.count("]")


def _any_record(line: str) -> bool:
    """A log record of any component (another library's too): it ends the record before it."""
    return bool(_CPP_LINE.match(line) or _LOGGING_LINE.match(line) or _TORCH_LOGS_LINE.match(line))


def _continues(current: SpyreLogRecord, line: str, depth: int) -> bool:
    """Whether ``line`` belongs to ``current``: a payload still inside brackets (a JSON dump), or for a
    ``[LEVEL] [component]`` / TORCH_LOGS record an indented line (a message with newlines is one record over
    several lines: upstream's Python formatter and the C++ LogStream write it as is)."""
    if depth > 0:
        return True
    if current.format == "cpp" or not line[:1].isspace() or not line.strip():
        return False
    return not line.lstrip().startswith('File "')


def _parse_stream(text: str, stream: str, spyre_only: bool) -> list[SpyreLogRecord]:
    records: list[SpyreLogRecord] = []
    current: Optional[SpyreLogRecord] = None
    depth = continuation = 0
    for line_no, raw_line in enumerate(text.splitlines(), start=1):
        line = _ANSI.sub("", raw_line).rstrip("\r")
        record = _new_record(stream, line, line_no, spyre_only)
        if record is not None:
            records.append(record)
            current, depth, continuation = record, _open_brackets(record.message), 0
        elif (current is not None and not _any_record(line) and continuation < _MAX_CONTINUATION_LINES
              and _continues(current, line, depth)):
            current.message += "\n" + line
            current.raw += "\n" + line
            depth += _open_brackets(line)
            continuation += 1
        else:
            current = None
    return records


def parse_debug_log(
    stdout: str, stderr: str, log_file_text: str | None = None, *, spyre_only: bool = True
) -> list[SpyreLogRecord]:
    """Parse Torch-Spyre debug output from a run.

    All three sources are scanned for both formats (a user may have merged stderr into
    stdout). With ``spyre_only`` (default) ``[LEVEL] [name]`` records are kept only when
    ``name`` is ``spyre``/``torch_spyre`` or below it, so other libraries using the same
    formatter are ignored. Records are returned per stream in stream order
    (stdout, stderr, log file).
    """
    records = _parse_stream(stdout or "", "stdout", spyre_only)
    records += _parse_stream(stderr or "", "stderr", spyre_only)
    if log_file_text:
        records += _unseen(_parse_stream(log_file_text, "log_file", spyre_only), records)
    return records


def _record_key(record: SpyreLogRecord) -> tuple:
    return (record.format, record.level, record.component, record.function, record.message)


def _unseen(log_file: list[SpyreLogRecord], seen: list[SpyreLogRecord]) -> list[SpyreLogRecord]:
    """The SPYRE_LOG_FILE records not already seen on stdout/stderr (a record written to both counts once)."""
    counts: dict[tuple, int] = {}
    for record in seen:
        counts[_record_key(record)] = counts.get(_record_key(record), 0) + 1
    kept = []
    for record in log_file:
        key = _record_key(record)
        if counts.get(key):
            counts[key] -= 1
        else:
            kept.append(record)
    return kept


# C++ functions in torch_spyre/csrc that log host<->device copies, allocation and layouts
# (spyre_mem.cpp, spyre_stream.cpp, spyre_allocator.cpp).
TRANSFER_FUNCTIONS = frozenset(
    {
        "spyre_copy_from",
        "copy_host_to_device",
        "copy_device_to_host",
        "create_dma_graph",
        "generate_dci",
        "get_device_stride_infos",
        "to_with_layout",
        "spyre_empty",
        "spyre_empty_strided",
        "spyre_empty_with_layout",
        "empty_with_layout",
        "py_empty_with_layout",
        "spyre_set_storage",
        "copyAsync",
        "copyAsyncImpl",
        "copy_async",
        "copy_async_impl",
        "copyProgramAsync",
        "allocate",
        "copy_data",
        "ReportAndDelete",
    }
)
_TRANSFER_MESSAGE = re.compile(
    r"SpyreTensorLayout|DataConversionInfo|Host2Sen|Sen2Host|mapped onto device|"
    r"\ballocating\b|\bcopy(?:ing)?\b.*\b(?:device|spyre|host|cpu)\b|\bDMA\b",
    re.IGNORECASE,
)


def is_transfer_record(record: SpyreLogRecord) -> bool:
    """True if the record is about host<->device copies, device allocation or tensor layouts."""
    if record.function in TRANSFER_FUNCTIONS:
        return True
    return bool(_TRANSFER_MESSAGE.search(record.message))


def transfer_records(records: Iterable[SpyreLogRecord]) -> list[SpyreLogRecord]:
    """Select the data-transfer related records (copies, allocation, layouts)."""
    return [r for r in records if is_transfer_record(r)]


@dataclass
class TensorLayoutInfo:
    """A ``SpyreTensorLayout(...)`` as printed by ``SpyreTensorLayout::toString()``."""

    device_size: list[int] = field(default_factory=list)
    dim_map: Optional[list[int]] = None
    stride_map: Optional[list[int]] = None
    device_dtype: Optional[str] = None
    extra: dict[str, str] = field(default_factory=dict)  # num_stick_dims, format, ...


_LAYOUT_TEXT = re.compile(r"SpyreTensorLayout\((?P<body>[^()]*)\)")
_LAYOUT_LIST = re.compile(r"(?P<key>\w+) ?= ?\[(?P<values>[^\]]*)\]")
_LAYOUT_SCALAR = re.compile(r"(?P<key>\w+) ?= ?(?P<value>[^,\[\]]+)")


def _int_list(values: str) -> list[int]:
    return [int(v) for v in re.findall(r"-?\d+", values)]


def parse_tensor_layout(text: str) -> Optional[TensorLayoutInfo]:
    """Parse the first ``SpyreTensorLayout(...)`` in ``text`` (all known toString variants)."""
    m = _LAYOUT_TEXT.search(text)
    if not m:
        return None
    info = TensorLayoutInfo()
    body = m["body"]
    lists = {lm["key"]: _int_list(lm["values"]) for lm in _LAYOUT_LIST.finditer(body)}
    info.device_size = lists.pop("device_size", [])
    info.dim_map = lists.pop("dim_map", None)
    info.stride_map = lists.pop("stride_map", None)
    info.extra.update({k: str(v) for k, v in lists.items()})
    for sm in _LAYOUT_SCALAR.finditer(_LAYOUT_LIST.sub("", body)):
        key, value = sm["key"], sm["value"].strip().strip('"')
        if key == "device_dtype":
            info.device_dtype = value.split(".")[-1]
        else:
            info.extra[key] = value
    return info


# ---------------------------------------------------------------------------
# Inductor cache / compiler artifacts
# ---------------------------------------------------------------------------


def _user_name(env: Mapping[str, str]) -> str:
    # Same lookup order as getpass.getuser(), but against ``env``.
    for name in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        if env.get(name):
            return env[name]
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError, OSError, AttributeError):
        getuid = getattr(os, "getuid", None)
        return f"uid_{getuid()}" if callable(getuid) else "unknown_user"


def _temp_dir(env: Mapping[str, str]) -> str:
    # Same candidates as tempfile.gettempdir(), but against ``env``.
    candidates = [env.get(name, "") for name in ("TMPDIR", "TEMP", "TMP")]
    candidates += ["/tmp", "/var/tmp", "/usr/tmp"] if os.name != "nt" else []
    for candidate in candidates:
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK):
            return os.path.abspath(candidate)
    return tempfile.gettempdir() if env is os.environ else os.getcwd()


def inductor_cache_dir(env: Mapping[str, str] = os.environ) -> Path:
    """Inductor's cache root exactly as ``torch._inductor.runtime.cache_dir_utils`` computes it.

    ``$TORCHINDUCTOR_CACHE_DIR`` (made absolute) if set, else
    ``<tempdir>/torchinductor_<user>`` with ``\\ / : * ? " < > |`` in the user name
    replaced by ``_``. Nothing is created.
    """
    if "TORCHINDUCTOR_CACHE_DIR" in env:
        return Path(os.path.abspath(env["TORCHINDUCTOR_CACHE_DIR"]))
    user = re.sub(r'[\\/:*?"<>|]', "_", _user_name(env))
    return Path(_temp_dir(env)) / f"torchinductor_{user}"


_SDSC_FILE = re.compile(r"^sdsc(?:_(?P<idx>\d+)(?:_[\w.\-]+)?)?\.json$")


def sdsc_index(path: Path) -> Optional[int]:
    """Index N of ``sdsc_N.json`` / ``sdsc_N_<op>.json`` (0 for legacy ``sdsc.json``), else None."""
    m = _SDSC_FILE.match(path.name)
    if not m:
        return None
    return int(m["idx"]) if m["idx"] is not None else 0


@dataclass
class SpyreKernelArtifacts:
    """Compiler output of one Spyre kernel (one ``get_output_dir()`` directory)."""

    directory: Path
    kernel_name: Optional[str]
    sdsc_paths: list[Path]  # sorted by index
    bundle_mlir: Optional[Path]
    spyrecode_json: Optional[Path]
    mtime: float
    other_files: list[Path] = field(default_factory=list)  # <kernel>.ktir, provenance JSON, next to sdsc_*.json


def kernel_name_from_dir(name: str) -> Optional[str]:
    """Recover the kernel name from ``<hex8>_<kernel>_<rand8>`` (or legacy ``<kernel>_<rand8>``)."""
    if len(name) <= 9 or name[-9] != "_":
        return None
    base = name[:-9]
    m = re.match(r"^[0-9a-f]{8}_(.+)$", base)
    return m.group(1) if m else base


def _kernel_artifacts(directory: Path) -> Optional[SpyreKernelArtifacts]:
    try:
        files = [p for p in directory.iterdir() if p.is_file()]
    except OSError:
        return None
    sdsc = sorted((p for p in files if sdsc_index(p) is not None), key=lambda p: (sdsc_index(p), p.name))
    bundle = directory / "bundle.mlir"
    spyrecode = directory / "spyreCodeDir" / "spyrecode.json"
    has_bundle, has_code = bundle.is_file(), spyrecode.is_file()
    if not (sdsc or has_bundle or has_code or any(p.suffix == ".ktir" for p in files)):
        return None
    # the KTIR path writes <kernel>.ktir into the same per-kernel dir (runtime/async_compile.py); provenance
    # JSON sits beside the specs (torch_spyre/_inductor/provenance_writer.py)
    other = sorted(p for p in files if p.suffix == ".ktir" or (p.suffix == ".json" and sdsc_index(p) is None))
    found = [*sdsc, *([bundle] if has_bundle else []), *([spyrecode] if has_code else []), *other]
    mtime = max(_mtime(p) for p in [directory, *found])
    return SpyreKernelArtifacts(
        directory,
        kernel_name_from_dir(directory.name),
        sdsc,
        bundle if has_bundle else None,
        spyrecode if has_code else None,
        mtime,
        other,
    )


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _walk_dirs(root: Path, max_depth: int) -> Iterable[Path]:
    yield root
    if max_depth <= 0:
        return
    try:
        children = sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return
    for child in children:
        if child.name != "spyreCodeDir":
            yield from _walk_dirs(child, max_depth - 1)


def find_spyre_artifacts(cache_dir: Path, *, max_depth: int = 3) -> list[SpyreKernelArtifacts]:
    """Kernel artifact directories under ``<cache_dir>/inductor-spyre*/``, newest first.

    A directory qualifies if it holds ``sdsc_*.json``, ``bundle.mlir`` or
    ``spyreCodeDir/spyrecode.json``. Missing/unreadable directories give an empty list.
    """
    try:
        roots = sorted(p for p in Path(cache_dir).glob("inductor-spyre*") if p.is_dir())
    except OSError:
        return []
    found: dict[Path, SpyreKernelArtifacts] = {}
    for root in roots:
        for directory in _walk_dirs(root, max_depth):
            artifacts = _kernel_artifacts(directory)
            if artifacts is not None:
                found[directory] = artifacts
    return sorted(found.values(), key=lambda a: (-a.mtime, str(a.directory)))


# ---------------------------------------------------------------------------
# SuperDSC (sdsc_N.json)
# ---------------------------------------------------------------------------

_ATEN_PREFIX = re.compile(r"^(?:torch\.ops\.)?(?:aten|prims|spyre)(?:\.|::)")
_PY_PREFIX = re.compile(r"^(?:torch\.(?:Tensor\.|nn\.functional\.|special\.|linalg\.|fft\.)?|F\.|Tensor\.)")


def normalize_op_name(name: str) -> str:
    """``aten.clone.default`` / ``aten::clone`` / ``torch.ops.aten.clone`` / ``clone`` -> ``clone``.

    The overload (``.default``, ``.Tensor``...) is dropped, in-place variants map to the
    functional name (``add_`` -> ``add``), and a leading ``<index>_`` as in sdsc kernel
    keys (``0_add``) is removed.
    """
    text = name.strip().strip("'\"`")
    text = _ATEN_PREFIX.sub("", text)
    text = _PY_PREFIX.sub("", text)
    text = text.split(".")[0]
    text = re.sub(r"^\d+_", "", text)
    return text.rstrip("_").lower()


_OP_IN_TEXT = re.compile(r"(?:torch\.ops\.)?(?:aten)(?:\.|::)(?P<op>[A-Za-z_][A-Za-z0-9_]*)")


def extract_op_names(text: str) -> list[str]:
    """Normalized aten op names mentioned in text (e.g. a traceback), in first-seen order."""
    seen: dict[str, None] = {}
    for m in _OP_IN_TEXT.finditer(text):
        seen.setdefault(normalize_op_name(m["op"]), None)
    return list(seen)


@dataclass
class SdscTensor:
    """One labeled data structure (tensor) of an sdsc op."""

    index: int
    name: str
    role: str  # "input" | "output" | "unknown" (from computeOp_ in/out lists)
    ds_type: Optional[str]  # dsType_ (key into primaryDsInfo_)
    data_format: Optional[str]  # e.g. SEN169_FP16
    word_length: Optional[int]
    memories: list[str]  # memOrg_ components present, e.g. ["hbm", "lx"]
    layout_dim_order: list[str]
    stick_dim_order: list[str]
    stick_size: list[int]


@dataclass
class SdscOp:
    """One design-space config in ``dscs_``."""

    name: str
    compute_ops: list[str]  # computeOp_[].opFuncName
    exec_units: list[str]  # computeOp_[].exUnit (sfp, pt, ...)
    iteration_space: dict[str, int]  # N_ without name_
    per_core_sizes: dict[str, int]  # dataStageParam_ "0".ss_
    num_cores: Optional[int]
    num_corelets: Optional[int]
    tensors: list[SdscTensor]


@dataclass
class SdscSummary:
    """Digest of one ``sdsc_<N>.json`` (SuperDSC kernel spec)."""

    path: Path
    index: Optional[int]
    kernel_keys: list[str] = field(default_factory=list)  # top-level keys, e.g. "0_add"
    ops: list[SdscOp] = field(default_factory=list)
    aten_op: Optional[str] = None  # debug_handle_.aten_op
    debug_id: Optional[str] = None  # debug_handle_.id
    source_file: Optional[str] = None  # debug_handle_.source.file
    source_line: Optional[int] = None  # debug_handle_.source.start_line
    ir_chain: list[str] = field(default_factory=list)
    num_cores: Optional[int] = None  # numCoresUsed_
    work_slices: dict[str, int] = field(default_factory=dict)  # numWkSlicesPerDim_
    error: Optional[str] = None

    @property
    def op_names(self) -> list[str]:
        """Op names as written in the file (dscs_ keys, then compute op names)."""
        names: dict[str, None] = {}
        for op in self.ops:
            names.setdefault(op.name, None)
            for compute in op.compute_ops:
                names.setdefault(compute, None)
        return list(names)

    def normalized_ops(self) -> set[str]:
        """Every name this kernel answers to, normalized with :func:`normalize_op_name`."""
        raw = [*self.op_names, *self.kernel_keys, *([self.aten_op] if self.aten_op else [])]
        return {normalize_op_name(n) for n in raw if n}

    def render_excerpt(self, max_lines: int = 8) -> str:
        """A few human-readable lines: op, source line, cores/work division, tensor layouts."""
        return "\n".join(_excerpt_lines(self)[:max_lines])


def _excerpt_lines(summary: SdscSummary) -> list[str]:
    title = f"{summary.path.name}: {', '.join(summary.op_names) or '?'}"
    if summary.aten_op:
        title += f" ({summary.aten_op})"
    if summary.source_file:
        title += f" at {os.path.basename(summary.source_file)}:{summary.source_line}"
    if summary.error:
        return [title, f"  unreadable: {summary.error}"]
    lines = [title]
    division = " x ".join(f"{k}={v}" for k, v in summary.work_slices.items())
    lines.append(f"  cores: {summary.num_cores}, work division: {division or 'n/a'}")
    for op in summary.ops:
        space = ", ".join(f"{k}={v}" for k, v in op.iteration_space.items())
        units = "/".join(op.exec_units)
        lines.append(f"  {op.name}: iteration space {space or 'n/a'}" + (f" on {units}" if units else ""))
        lines.extend(_tensor_line(t) for t in op.tensors)
    return lines


def _tensor_line(t: SdscTensor) -> str:
    role = {"input": "in ", "output": "out"}.get(t.role, "?  ")
    layout = f"[{', '.join(t.layout_dim_order)}]" if t.layout_dim_order else "[?]"
    stick = ""
    if t.stick_dim_order:
        sizes = "/".join(str(s) for s in t.stick_size) or "?"
        stick = f" stick {'/'.join(t.stick_dim_order)}:{sizes}"
    mem = f" {'+'.join(t.memories)}" if t.memories else ""
    return f"    {role} {t.name} {t.data_format or '?'} {layout}{stick}{mem}"


def _as_int(value: Any) -> Optional[int]:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _dim_sizes(raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        return {}
    sizes: dict[str, int] = {}
    for key, value in raw.items():
        number = _as_int(value)
        if key.endswith("_") and key != "name_" and number is not None and not isinstance(value, bool):
            sizes[key[:-1]] = number
    return sizes


def _int_dict(raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        return {}
    return {str(k): n for k, n in ((k, _as_int(v)) for k, v in raw.items()) if n is not None}


_LDS_REF = re.compile(r"-idx(\d+)$")


def _lds_indices(refs: Any) -> set[int]:
    out: set[int] = set()
    for ref in refs if isinstance(refs, list) else []:
        m = _LDS_REF.search(str(ref))
        if m:
            out.add(int(m.group(1)))
    return out


def _allocated_layout(dsc: dict, index: int) -> list:
    """layoutDimOrder_ of the scheduleTree_ node allocating tensor ``index`` (when primaryDsInfo_ has none)."""
    for node in dsc.get("scheduleTree_") or []:
        if isinstance(node, dict) and _as_int(node.get("ldsIdx_")) == index and node.get("layoutDimOrder_"):
            return list(node["layoutDimOrder_"])
    return []


def _parse_tensor(lds: dict, dsc: dict, inputs: set[int], outputs: set[int]) -> SdscTensor:
    index = _as_int(lds.get("ldsIdx_"))
    index = -1 if index is None else index
    role = "output" if index in outputs else "input" if index in inputs else "unknown"
    ds_type = lds.get("dsType_")
    primary = (dsc.get("primaryDsInfo_") or {}).get(ds_type) or {}
    layout = list(primary.get("layoutDimOrder_") or []) or _allocated_layout(dsc, index)
    mem_org = lds.get("memOrg_") or {}
    memories = [k for k, v in mem_org.items() if isinstance(v, dict) and v.get("isPresent")]
    return SdscTensor(
        index=index,
        name=str(lds.get("dsName_", f"lds{index}")),
        role=role,
        ds_type=ds_type,
        data_format=lds.get("dataFormat_"),
        word_length=_as_int(lds.get("wordLength")),
        memories=memories,
        layout_dim_order=[str(d) for d in layout],
        stick_dim_order=[str(d) for d in primary.get("stickDimOrder_") or []],
        stick_size=[n for n in (_as_int(s) for s in primary.get("stickSize_") or []) if n is not None],
    )


def _parse_op(name: str, dsc: dict) -> SdscOp:
    compute = [c for c in dsc.get("computeOp_") or [] if isinstance(c, dict)]
    inputs: set[int] = set()
    outputs: set[int] = set()
    for c in compute:
        inputs |= _lds_indices(c.get("inputLabeledDs"))
        outputs |= _lds_indices(c.get("outputLabeledDs"))
    stage = (dsc.get("dataStageParam_") or {}).get("0") or {}
    return SdscOp(
        name=name,
        compute_ops=[str(c["opFuncName"]) for c in compute if c.get("opFuncName")],
        exec_units=sorted({str(c["exUnit"]) for c in compute if c.get("exUnit")}),
        iteration_space=_dim_sizes(dsc.get("N_")),
        per_core_sizes=_dim_sizes(stage.get("ss_") if isinstance(stage, dict) else None),
        num_cores=_as_int(dsc.get("numCoresUsed_")),
        num_corelets=_as_int(dsc.get("numCoreletsUsed_")),
        tensors=[
            _parse_tensor(lds, dsc, inputs, outputs)
            for lds in dsc.get("labeledDs_") or []
            if isinstance(lds, dict)
        ],
    )


def _fill_from_kernel(summary: SdscSummary, kernel: dict) -> None:
    handle = kernel.get("debug_handle_") or {}
    source = handle.get("source") or {}
    summary.aten_op = summary.aten_op or handle.get("aten_op")
    summary.debug_id = summary.debug_id or (str(handle["id"]) if handle.get("id") is not None else None)
    summary.source_file = summary.source_file or source.get("file")
    summary.source_line = summary.source_line or _as_int(source.get("start_line"))
    summary.ir_chain = summary.ir_chain or [str(x) for x in handle.get("ir_chain") or []]
    summary.num_cores = summary.num_cores or _as_int(kernel.get("numCoresUsed_"))
    summary.work_slices = summary.work_slices or _int_dict(kernel.get("numWkSlicesPerDim_"))
    for dsc_entry in kernel.get("dscs_") or []:
        for op_name, dsc in (dsc_entry or {}).items():
            if isinstance(dsc, dict):
                summary.ops.append(_parse_op(op_name, dsc))


def parse_sdsc(path: Path) -> SdscSummary:
    """Digest an ``sdsc_<N>.json``; unreadable/invalid files give a summary with ``error`` set."""
    path = Path(path)
    summary = SdscSummary(path=path, index=sdsc_index(path))
    try:
        data = load_artifact_json(path)
    except (OSError, ValueError) as exc:
        summary.error = f"{type(exc).__name__}: {exc}"
        return summary
    if not isinstance(data, dict):
        summary.error = "top-level JSON is not an object"
        return summary
    for key, kernel in data.items():
        if isinstance(kernel, dict):
            summary.kernel_keys.append(key)
            _fill_from_kernel(summary, kernel)
    return summary


def select_sdsc_for_ops(summaries: Iterable[SdscSummary], op_names: Iterable[str]) -> list[SdscSummary]:
    """The sdsc summaries whose ops match any of ``op_names`` (any spelling, see normalize_op_name)."""
    wanted = {normalize_op_name(n) for n in op_names if n and n.strip()}
    wanted.discard("")
    return [s for s in summaries if wanted & s.normalized_ops()]


# ---------------------------------------------------------------------------
# bundle.mlir and spyrecode.json
# ---------------------------------------------------------------------------


@dataclass
class BundleSummary:
    """What an SDSC ``bundle.mlir`` runs."""

    path: Path
    functions: list[str] = field(default_factory=list)  # func.func symbols, e.g. sdsc_bundle
    sdsc_files: list[str] = field(default_factory=list)  # sdsc_execute {sdsc_filename=...} in order
    input_args: list[str] = field(default_factory=list)  # %arg_N_base_addr parameters
    has_loops: bool = False  # scf.for present (LoopSpec not unrolled)
    error: Optional[str] = None


_MLIR_FUNC = re.compile(r"func\.func\s+@([\w.$\-]+)")
_MLIR_SDSC = re.compile(r'sdsc_filename\s*=\s*"([^"]+)"')
_MLIR_ARG = re.compile(r"%([\w.$\-]+)\s*:\s*!sdscbundle\.input_arg")


def parse_bundle_mlir(path: Path) -> BundleSummary:
    """List the functions, referenced sdsc files and input args of a ``bundle.mlir``."""
    summary = BundleSummary(path=Path(path))
    try:
        text = read_artifact(path)
    except OSError as exc:
        summary.error = f"{type(exc).__name__}: {exc}"
        return summary
    summary.functions = _MLIR_FUNC.findall(text)
    summary.sdsc_files = _MLIR_SDSC.findall(text)
    summary.input_args = list(dict.fromkeys(_MLIR_ARG.findall(text)))
    summary.has_loops = "scf.for" in text
    return summary


@dataclass
class SpyrecodeSummary:
    """Command sequence of a ``spyreCodeDir/spyrecode.json`` job plan."""

    path: Path
    preparation: list[str] = field(default_factory=list)  # JobPreparationPlan commands
    execution: list[str] = field(default_factory=list)  # JobExecPlan commands
    error: Optional[str] = None


def parse_spyrecode(path: Path) -> SpyrecodeSummary:
    summary = SpyrecodeSummary(path=Path(path))
    try:
        data = load_artifact_json(path)
    except (OSError, ValueError) as exc:
        summary.error = f"{type(exc).__name__}: {exc}"
        return summary
    if isinstance(data, dict):
        summary.preparation = _commands(data.get("JobPreparationPlan"))
        summary.execution = _commands(data.get("JobExecPlan"))
    return summary


def _commands(plan: Any) -> list[str]:
    return [str(s.get("command")) for s in plan or [] if isinstance(s, dict) and s.get("command")]


# ---------------------------------------------------------------------------
# FFDC reports
# ---------------------------------------------------------------------------

_FFDC_NAME = re.compile(
    r"^ffdc_(?P<cat>[A-Za-z0-9_\-]+)_(?P<ts>\d{8}T\d{6})_(?P<us>\d{6})_(?P<pid>\d+)\.json$"
)
_FFDC_MAX_BYTES = 5 * 1024 * 1024


@dataclass
class FfdcReport:
    """One FFDC report written by ``torch_spyre.profiler._ffdc.collect``."""

    path: Path
    category: str  # failure.category, else from the file name
    timestamp: Optional[str]  # "YYYYmmddTHHMMSS_micro" from the file name
    pid: Optional[int]
    exception_type: Optional[str] = None
    message: Optional[str] = None
    file: Optional[str] = None
    lineno: Optional[int] = None
    kernel_name: Optional[str] = None
    code_dir: Optional[str] = None
    torch_version: Optional[str] = None
    torch_spyre_version: Optional[str] = None
    artifact_paths: list[str] = field(default_factory=list)
    traceback: str = ""  # failure.traceback
    hardware_state: dict = field(default_factory=dict)
    summary: str = ""
    error: Optional[str] = None


def ffdc_reports_dir(cache_dir: Path) -> Path:
    return Path(cache_dir) / "torch-spyre" / "ffdc_reports"


def _ffdc_summary(report: FfdcReport) -> str:
    text = report.category
    if report.exception_type:
        text += f": {report.exception_type}"
    if report.message:
        first = report.message.strip().splitlines()[0] if report.message.strip() else ""
        text += f": {first[:200]}"
    if report.file:
        text += f" ({os.path.basename(report.file)}:{report.lineno})"
    if report.kernel_name:
        text += f" [kernel {report.kernel_name}]"
    return text


def _fill_ffdc(report: FfdcReport, data: dict) -> None:
    failure = data.get("failure") if isinstance(data.get("failure"), dict) else {}
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    runtime = data.get("runtime") if isinstance(data.get("runtime"), dict) else {}
    artifacts = data.get("artifacts") if isinstance(data.get("artifacts"), dict) else {}
    if isinstance(failure.get("category"), str) and failure["category"]:
        report.category = failure["category"]
    report.exception_type = failure.get("exception_type")
    report.message = failure.get("message")
    report.file = failure.get("file")
    report.lineno = _as_int(failure.get("lineno"))
    report.kernel_name = runtime.get("kernel_name")
    report.code_dir = runtime.get("code_dir")
    report.torch_version = metadata.get("torch_version")
    report.torch_spyre_version = metadata.get("torch_spyre_version")
    report.artifact_paths = [str(p) for p in artifacts.get("paths") or []]
    report.traceback = str(failure.get("traceback") or "")[-8000:]
    state = data.get("hardware_state")
    report.hardware_state = {str(k): v for k, v in state.items()} if isinstance(state, dict) else {}


def parse_ffdc_report(path: Path) -> FfdcReport:
    """Read one FFDC JSON; problems are reported in ``error`` rather than raised."""
    path = Path(path)
    m = _FFDC_NAME.match(path.name)
    category = m["cat"] if m else path.stem.removeprefix("ffdc_")
    report = FfdcReport(path, category, f"{m['ts']}_{m['us']}" if m else None, int(m["pid"]) if m else None)
    try:
        data = load_artifact_json(path, _FFDC_MAX_BYTES)  # (larger: not read; too deep: an error)
        if not isinstance(data, dict):
            raise ValueError("top-level JSON is not an object")
        _fill_ffdc(report, data)
    except (OSError, ValueError) as exc:
        report.error = f"{type(exc).__name__}: {exc}"
    report.summary = _ffdc_summary(report)
    return report


FFDC_FALLBACK_DIR = "torch-spyre-ffdc"  # under the temp dir, when the cache dir is not writable


def find_ffdc_reports(cache_dir: Path, *, limit: int = 20, fallback: Optional[Path] = None,
                      since: float = 0.0) -> list[FfdcReport]:
    """FFDC reports under ``<cache_dir>/torch-spyre/ffdc_reports`` (and those written to the ``fallback``
    dir since ``since``, an mtime: that dir is shared by every run), newest first."""
    paths = _ffdc_files(ffdc_reports_dir(cache_dir))
    if fallback is not None:
        paths += [p for p in _ffdc_files(fallback) if _mtime(p) >= since]

    def key(p: Path) -> tuple[str, float]:
        m = _FFDC_NAME.match(p.name)
        return (f"{m['ts']}_{m['us']}" if m else "", _mtime(p))

    paths.sort(key=key, reverse=True)
    return [parse_ffdc_report(p) for p in paths[:limit]]


def _ffdc_files(directory: Path) -> list[Path]:
    try:
        return [p for p in Path(directory).glob("ffdc_*.json") if p.is_file() and not p.is_symlink()]
    except OSError:
        return []


# ---------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------


def read_lib_versions(path: Path | None = None) -> dict[str, str]:
    """``name -> version`` from a Spyre components file (``$LIB_VERSION_FILE`` by default).

    Lines are ``name:version`` (whitespace around either part ignored), e.g.
    ``ibm-deeptools:2.0.0-0.main.1+2457.d868b05_0.el10`` / ``ibm-flex: 2.0.0-...``.
    Unset variable, missing or unreadable file -> ``{}``; never raises.
    """
    if path is None:
        env_value = os.environ.get("LIB_VERSION_FILE")
        if not env_value:
            return {}
        path = Path(env_value)
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except (OSError, ValueError):
        return {}
    versions: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, version = line.strip().partition(":")
        if sep and name.strip() and not name.lstrip().startswith("#"):
            versions[name.strip()] = version.strip()
    return versions


# How upstream's CI identifies the Spyre software stack of an image: a JSON identity record each component
# layer stamps (.github/scripts/derive_artifact_id.py: SPYRE_ARTIFACT_JSON_FILE = /home/senuser/
# spyre_artifact.json, field "artifact_id"; before it, a bare id in spyre_artifact_id.txt beside
# installed_rpms.txt), and the installed RPMs (.github/actions/gather-runner-info/action.yml prints
# $HOME/installed_rpms.txt; the back end comes as RPMs, .github/scripts/download_rpms.sh).
IMAGE_HOME = "/home/senuser"
ARTIFACT_STAMP = "spyre_artifact.json"
ARTIFACT_ID_FILE = "spyre_artifact_id.txt"
INSTALLED_RPMS = "installed_rpms.txt"
STACK_RPMS = ("ibm-deeptools", "ibm-flex")
# PF / VF: torch_spyre/csrc/spyre_mem.cpp (SpyreAllocator::is_pf_mode) reads FLEX_DEVICE, "PF" or "VF" (any case);
# unset or anything else, the allocator refuses to start. The cards: PCIDEVICE_IBM_COM_AIU_PF (bus IDs set by the
# Kubernetes device plugin), SPYRE_VISIBLE_DEVICES (takes priority; torch_spyre/csrc/spyre_device_enum.cpp).
DEVICE_MODES = {"PF": "physical function", "VF": "virtual function"}


@dataclass
class SpyreStack:
    """The Spyre software stack and device mode, identified the way upstream's CI does."""

    stamp_file: Optional[str] = None  # spyre_artifact.json (or the older spyre_artifact_id.txt) read
    stamp: dict = field(default_factory=dict)  # its record ({"artifact_id": ...} for the bare-id file)
    stamp_reason: str = ""
    rpms: dict = field(default_factory=dict)  # name -> installed NEVRA, or None when not installed
    rpm_source: str = ""  # "rpm -q" / the installed_rpms.txt read
    rpm_reason: str = ""
    flex_device: Optional[str] = None  # FLEX_DEVICE as set
    device_mode: Optional[str] = None  # "PF" / "VF", None when FLEX_DEVICE does not say
    cards: list = field(default_factory=list)  # PCI bus IDs from SPYRE_VISIBLE_DEVICES / PCIDEVICE_IBM_COM_AIU_PF
    cards_from: str = ""

    @property
    def found(self) -> bool:
        return bool(self.stamp or any(self.rpms.values()) or self.flex_device or self.cards)


def read_artifact_stamp(homes: Iterable[Path]) -> tuple[Optional[str], dict, str]:
    """(file, record, why not) of the first image stamp under ``homes``: the JSON record, else the bare id."""
    tried = []
    for home in dict.fromkeys(Path(h) for h in homes):
        for name in (ARTIFACT_STAMP, ARTIFACT_ID_FILE):
            path = home / name
            tried.append(str(path))
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            try:
                data = json.loads(text)
            except ValueError:
                data = {"artifact_id": text.strip()} if name == ARTIFACT_ID_FILE and text.strip() else None
            if isinstance(data, dict) and data:
                return str(path), data, ""
            return str(path), {}, f"{path} holds no identity record"
    return None, {}, f"no image stamp ({', '.join(tried)})"


def stamp_summary(stamp: dict, limit: int = 6) -> str:
    """``artifact_id`` first, then the record's other scalar fields, shortened."""
    keys = ["artifact_id", *[k for k in stamp if k != "artifact_id"]]
    shown = [f"{k} `{str(stamp[k])[:80]}`" for k in keys
             if k in stamp and isinstance(stamp[k], (str, int, float, bool))][:limit]
    rest = [k for k in stamp if not isinstance(stamp[k], (str, int, float, bool))]
    return ", ".join(shown) + (f" (and {', '.join(rest[:6])})" if rest else "")


def query_rpms(path_env: Optional[str], names: tuple = STACK_RPMS, timeout: float = 20.0) -> tuple[dict, str]:
    """{name: NEVRA or None} from ``rpm -q`` (found on ``path_env``), and why not when rpm is not there."""
    import shutil
    import subprocess

    rpm = shutil.which("rpm", path=path_env)
    if rpm is None:
        return {}, "`rpm` is not installed"
    try:
        proc = subprocess.run([rpm, "-q", *names], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
    except (OSError, subprocess.SubprocessError) as exc:
        return {}, f"`rpm -q` failed: {exc}"
    found: dict = {name: None for name in names}
    for line in proc.stdout.splitlines():
        line = line.strip()
        for name in names:
            if line.startswith(name + "-") and "not installed" not in line:
                found[name] = line
    return found, ""


def rpms_from_list(path: Path, names: tuple = STACK_RPMS) -> dict:
    """The NEVRA of each of ``names`` in an installed_rpms.txt (one package per line); {} when unreadable."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").split()
    except OSError:
        return {}
    return {name: next((ln for ln in lines if re.match(re.escape(name) + r"-\d", ln)), None) for name in names}


def spyre_stack(env: Mapping[str, str]) -> SpyreStack:
    """The image stamp, the back-end RPMs and the device mode of the environment ``env`` the script runs in."""
    homes = [Path(env["HOME"])] if env.get("HOME") else []
    stack = SpyreStack()
    stack.stamp_file, stack.stamp, stack.stamp_reason = read_artifact_stamp([*homes, Path(IMAGE_HOME)])
    stack.rpms, stack.rpm_reason = query_rpms(env.get("PATH"))
    if stack.rpms:
        stack.rpm_source = "rpm -q"
    else:
        for home in dict.fromkeys([*homes, Path(IMAGE_HOME)]):
            listed = rpms_from_list(home / INSTALLED_RPMS)
            if any(listed.values()):
                stack.rpms, stack.rpm_source = listed, str(home / INSTALLED_RPMS)
                break
    flex = env.get("FLEX_DEVICE")
    stack.flex_device = flex
    stack.device_mode = flex.upper() if flex and flex.upper() in DEVICE_MODES else None
    for name in ("SPYRE_VISIBLE_DEVICES", "PCIDEVICE_IBM_COM_AIU_PF"):
        if env.get(name):
            stack.cards = [c.strip() for c in env[name].split(",") if c.strip()]
            stack.cards_from = name
            break
    return stack


def device_mode_text(stack: SpyreStack) -> str:
    if stack.device_mode:
        text = f"{stack.device_mode} ({DEVICE_MODES[stack.device_mode]}; `FLEX_DEVICE={stack.flex_device}`)"
    elif stack.flex_device:
        text = (f"`FLEX_DEVICE={stack.flex_device}`: neither PF nor VF (torch_spyre's allocator accepts only "
                "those)")
    else:
        text = "`FLEX_DEVICE` is not set (torch_spyre's allocator needs PF or VF)"
    if stack.cards:
        text += f"; {len(stack.cards)} card(s) in `{stack.cards_from}`: {', '.join(stack.cards[:8])}"
    return text


@dataclass
class TorchSpyreInstall:
    """Where torch_spyre is installed and which source it came from (without importing it)."""

    location: Optional[Path]  # package directory
    version: Optional[str]  # static __version__ / dist version (not informative on its own)
    editable: bool = False
    source_url: Optional[str] = None  # direct_url.json "url"
    vcs_commit: Optional[str] = None  # direct_url.json vcs_info.commit_id (pip install git+...)
    git: Optional[GitInfo] = None  # checkout containing the package, if it is tracked there


def _direct_url(dist_name: str) -> dict:
    try:
        text = importlib.metadata.distribution(dist_name).read_text("direct_url.json")
        data = json.loads(text) if text else {}
        return data if isinstance(data, dict) else {}
    except (importlib.metadata.PackageNotFoundError, OSError, ValueError):
        return {}


def _static_version(package_dir: Path) -> Optional[str]:
    try:
        text = (package_dir / "version.py").read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", text, re.MULTILINE)
    return m.group(1) if m else None


def _dist_version(dist_name: str) -> Optional[str]:
    try:
        return importlib.metadata.version(dist_name)
    except importlib.metadata.PackageNotFoundError:
        return None


def torch_spyre_install(package: str = "torch_spyre") -> Optional[TorchSpyreInstall]:
    """Locate torch_spyre without importing it; its commit comes from git or pip's direct_url.json.

    Returns None when the package is not importable.
    """
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    origin = spec.origin if spec.origin not in (None, "namespace") else None
    locations = list(spec.submodule_search_locations or [])
    location = Path(locations[0]) if locations else Path(origin).parent if origin else None
    direct = _direct_url(package)
    dir_info = direct.get("dir_info") if isinstance(direct.get("dir_info"), dict) else {}
    vcs_info = direct.get("vcs_info") if isinstance(direct.get("vcs_info"), dict) else {}
    version = _static_version(location) if location else None
    return TorchSpyreInstall(
        location=location,
        version=version or _dist_version(package),
        editable=bool(dir_info.get("editable")),
        source_url=direct.get("url"),
        vcs_commit=vcs_info.get("commit_id"),
        git=repo_info(location, require_tracked=True) if location else None,
    )


# ---------------------------------------------------------------------------
# Evidence collectors (see reportkit/report/evidence.py): logs, sdsc, sendnn comparison, FFDC
# ---------------------------------------------------------------------------


@dataclass
class SpyreSettings:
    status: str = NOT_COLLECTED
    reason: str = ""
    file: str = ""  # torch_spyre/_inductor/config.py
    non_default: dict = field(default_factory=dict)  # setting -> {"value", "default"} (reprs)
    env: dict = field(default_factory=dict)  # the variables config.py reads that are set -> value


class SpyreSettingsCollector(Collector):
    """Settings that change what Torch-Spyre compiles: non-default ``torch_spyre._inductor.config`` values
    (read in the target interpreter by the environment probe) and the environment variables it reads."""

    name = "spyre_settings"
    title = "Torch-Spyre compiler settings"
    section = "userenv"

    def collect(self, ctx: Any) -> SpyreSettings:
        env = ctx.env
        if env.torch_spyre.status != COLLECTED:
            return SpyreSettings(reason=env.torch_spyre.reason or "torch_spyre is not installed")
        data = env.spyre_config
        if not data:
            error = env.probe_errors.get("spyre_config")
            return SpyreSettings(reason=f"torch_spyre._inductor.config could not be read: {error}" if error else
                                 "torch_spyre._inductor.config was not read (the probe did not import torch)")
        return SpyreSettings(status=COLLECTED, file=str(data.get("file") or ""),
                             non_default=dict(data.get("non_default") or {}),
                             env={k: v for k, v in (data.get("env_read") or {}).items() if v is not None})


@dataclass
class SpyreLogs:
    status: str = NOT_COLLECTED
    reason: str = ""
    records: list = field(default_factory=list)  # every Torch-Spyre record (SpyreLogRecord)
    transfer: list = field(default_factory=list)  # host<->device copies, allocation, layouts
    log_file: Optional[str] = None  # SPYRE_LOG_FILE contents were read from here
    counts: dict = field(default_factory=dict)  # "<stream>/<format>" -> records


def collect_spyre_logs(run: Any, log_file: Path, env: Any) -> SpyreLogs:
    log_text = None
    logs = SpyreLogs()
    if log_file.exists():
        logs.log_file = str(log_file)
        try:
            log_text = read_artifact(log_file)
        except OSError:
            log_text = None
    logs.records = parse_debug_log(run.stdout, run.stderr, log_text)
    logs.transfer = transfer_records(logs.records)
    for record in logs.records:
        key = f"{record.stream}/{record.format}"
        logs.counts[key] = logs.counts.get(key, 0) + 1
    if logs.records:
        logs.status = COLLECTED
        if not logs.transfer:
            logs.reason = "Torch-Spyre debug records found, none of them about data transfers"
    elif env.torch_spyre.status != COLLECTED:
        logs.reason = f"no TORCH_SPYRE_DEBUG output: {env.torch_spyre.reason or 'torch_spyre is not installed'}"
    else:
        logs.reason = ("no TORCH_SPYRE_DEBUG output although torch_spyre is installed: the script does not "
                       "seem to use the spyre device before it fails")
    return logs


class SpyreLogsCollector(Collector):
    """Torch-Spyre's debug / log records of the debug run; the data-transfer ones are shown."""

    name = "spyre_logs"
    title = "Torch-Spyre data transfer log"
    section = "logs"
    layout = {"spyre_log": "logs/spyre-debug.log", "spyre_transfer": "logs/spyre-transfer.log",
              "spyre_log_file": "logs/SPYRE_LOG_FILE.log"}

    def collect(self, ctx: Any) -> SpyreLogs:
        return collect_spyre_logs(ctx.run, ctx.ws.spyre_log, ctx.env)

    def files(self, ev: SpyreLogs, layout: dict):
        if ev.records:
            yield layout["spyre_log"], "\n".join(r.raw for r in ev.records) + "\n"
            yield layout["spyre_transfer"], "\n".join(r.raw for r in ev.transfer) + "\n"
        if ev.log_file:
            yield layout["spyre_log_file"], Path(ev.log_file)

    def checklist(self, c: Any, files: dict) -> list[CheckItem]:
        label = "Output of `TORCH_SPYRE_DEBUG=1` showing the data transfer log"
        logs = c.spyre_logs
        if logs.transfer:
            return [CheckItem("spyre_debug", label, True, f"{len(logs.transfer)} transfer records of "
                              f"{len(logs.records)} Torch-Spyre debug records, under *Relevant log output*")]
        return [CheckItem("spyre_debug", label, False, logs.reason or "no data transfer records")]


@dataclass
class SdscArtifacts:
    status: str = NOT_COLLECTED
    reason: str = ""
    cache_dir: str = ""
    kernels: list = field(default_factory=list)  # SpyreKernelArtifacts
    summaries: list = field(default_factory=list)  # SdscSummary
    selected: list = field(default_factory=list)  # paths of the selected sdsc files
    why: list = field(default_factory=list)
    excerpt: str = ""


_OUTPUT_CODE_KERNEL = re.compile(r"^(?P<name>\w+) = async_compile\.\w+\(", re.MULTILINE)


def output_code_kernels(path: Optional[str]) -> list[str]:
    """The kernels an Inductor ``output_code.py`` defines (``<name> = async_compile.sdsc(...)``), in order:
    the guide locates the affected ``sdsc_<index>.json`` through them (Torch-Spyre writes each kernel's
    specs to ``inductor-spyre/<hex8>_<kernel>_<rand>/``, runtime/async_compile.py)."""
    try:
        text = read_artifact(path) if path else ""
    except OSError:
        return []
    return list(dict.fromkeys(m["name"] for m in _OUTPUT_CODE_KERNEL.finditer(text)))


def select_sdsc(summaries: list, clues: Any, graph: Any) -> tuple[list, list[str]]:
    """The kernels related to the failure: those the failing graph's output_code.py launches, narrowed by
    op name, then by source line; else the newest one."""
    launched = set(output_code_kernels(graph.output_code if graph is not None else None))
    mine = [s for s in summaries if kernel_name_from_dir(s.path.parent.name) in launched]
    why = [f"launched by {graph.name}'s output_code.py"] if mine else []
    candidates = mine or summaries
    if clues.ops:
        chosen = select_sdsc_for_ops(candidates, clues.ops)
        if chosen:
            return chosen, why + [f"op(s) {', '.join(clues.ops)} named in the error"]
    lines = {f"{f}:{n}" for f, n in clues.script_lines}
    if graph is not None:
        lines |= {s.split(" in ")[0] for s in graph.sources}
    by_line = [s for s in candidates
               if s.source_file and f"{os.path.basename(s.source_file)}:{s.source_line}" in lines]
    if by_line:
        return by_line, why + ["source line (debug_handle_.source) matches the traceback / the failing graph"]
    if mine:
        return mine, why
    if graph is not None and graph.ops:
        chosen = select_sdsc_for_ops(summaries, graph.ops)
        if chosen:
            return chosen, [f"op(s) of the failing graph {graph.name}: {', '.join(graph.ops)}"]
    newest = [s for s in summaries if s.path.parent == summaries[0].path.parent]
    return newest, ["no op or line matched: the most recently written kernel"]


def collect_sdsc(cache_dir: Path, clues: Any, graph: Any, env: Any) -> SdscArtifacts:
    sdsc = SdscArtifacts(cache_dir=str(cache_dir))
    sdsc.kernels = find_spyre_artifacts(cache_dir)
    sdsc.summaries = [parse_sdsc(p) for k in sdsc.kernels for p in k.sdsc_paths]
    if not sdsc.summaries:
        sdsc.reason = ("no Spyre device: sdsc not produced (torch_spyre is not installed)"
                       if env.torch_spyre.status != COLLECTED else
                       "no sdsc_<N>.json under the Inductor cache's inductor-spyre*/ (nothing was compiled for "
                       "the spyre device before the failure)")
        return sdsc
    chosen, sdsc.why = select_sdsc(sdsc.summaries, clues, graph)
    sdsc.status = COLLECTED
    sdsc.selected = [str(s.path) for s in chosen[:3]]
    sdsc.excerpt = "\n\n".join(s.render_excerpt(max_lines=16) for s in chosen[:3])
    return sdsc


class SdscCollector(Collector):
    """The Torch-Spyre compiler's kernel specs (``sdsc_<N>.json``) and the affected one's digest."""

    name = "sdsc"
    title = "sdsc"
    layout = {"sdsc": "artifacts/inductor-spyre"}

    def collect(self, ctx: Any) -> SdscArtifacts:
        fx = ctx.evidence.get("fx")
        graph = next((g for g in fx.graphs if g.name == fx.selected), None) if fx is not None else None
        return collect_sdsc(ctx.ws.cache_dir, ctx.clues, graph, ctx.env)

    def files(self, ev: SdscArtifacts, layout: dict):
        for kernel in ev.kernels:
            base = f"{layout['sdsc']}/{kernel.directory.name}"
            for path in [*kernel.sdsc_paths, kernel.bundle_mlir, *kernel.other_files]:
                if path is not None:
                    yield f"{base}/{path.name}", path
            if kernel.spyrecode_json is not None:
                yield f"{base}/spyreCodeDir/spyrecode.json", kernel.spyrecode_json

    def checklist(self, c: Any, files: dict) -> list[CheckItem]:
        label = "Relevant excerpts from `fx_graph_readable.py` and the affected `sdsc_<index>.json`"
        fx = ("`fx_graph_readable.py` included" if c.fx.status == COLLECTED
              else f"fx_graph_readable.py: {c.fx.reason}")
        sdsc = (f"`{Path(c.sdsc.selected[0]).name}` summarised" if c.sdsc.status == COLLECTED
                else f"sdsc_<index>.json: {c.sdsc.reason}")
        return [CheckItem("excerpts", label, c.fx.status == COLLECTED and c.sdsc.status == COLLECTED,
                          f"{fx}; {sdsc}")]


@dataclass
class FfdcInfo:
    status: str = NOT_COLLECTED
    reason: str = ""
    reports: list = field(default_factory=list)  # FfdcReport, newest first
    artifacts: list = field(default_factory=list)  # the newest report's artifact paths: (bundle file key, path in it)


# FFDC lists the artifacts it found by absolute path (torch_spyre/profiler/_ffdc.py, _collect_artifacts:
# <cwd>/torch_compile_debug/run_*/..., <cache>/inductor-spyre/<kernel>/...): where they are in the bundle
_FFDC_ARTIFACT = (("fx", re.compile(r"torch_compile_debug/run_[^/]+/torchinductor/(?P<rest>[^/]+/[^/]+)$")),
                  ("sdsc", re.compile(r"inductor-spyre[^/]*/(?P<rest>.+)$")))


def ffdc_artifacts_in_bundle(report: FfdcReport) -> list[tuple[str, str]]:
    found = []
    for path in report.artifact_paths:
        for key, pattern in _FFDC_ARTIFACT:
            m = pattern.search(path.replace(os.sep, "/"))
            if m:
                found.append((key, m["rest"]))
                break
    return found


def collect_ffdc(cache_dir: Path, env: Any, fallback: Optional[Path] = None, since: float = 0.0) -> FfdcInfo:
    info = FfdcInfo(reports=find_ffdc_reports(cache_dir, fallback=fallback, since=since))
    if info.reports:
        info.status = COLLECTED
    elif env.torch_spyre.status != COLLECTED:
        info.reason = "no FFDC report: torch_spyre is not installed (it writes them)"
    else:
        info.reason = ("no FFDC report was written (TORCH_SPYRE_FFDC=1 was set): the failure is not one "
                       "Torch-Spyre captures (compile / runtime / unimplemented op)")
    return info


class FfdcCollector(Collector):
    """Torch-Spyre's First Failure Data Capture reports (``TORCH_SPYRE_FFDC=1``)."""

    name = "ffdc"
    title = "FFDC reports"
    layout = {"ffdc": "artifacts/ffdc"}

    def collect(self, ctx: Any) -> FfdcInfo:
        fallback = Path(_temp_dir(ctx.run_env)) / FFDC_FALLBACK_DIR
        info = collect_ffdc(ctx.ws.cache_dir, ctx.env, fallback, ctx.ws.started)
        info.artifacts = ffdc_artifacts_in_bundle(info.reports[0]) if info.reports else []
        return info

    def files(self, ev: FfdcInfo, layout: dict):
        for report in ev.reports:
            yield f"{layout['ffdc']}/{report.path.name}", report.path

    def checklist(self, c: Any, files: dict) -> list[CheckItem]:
        label = "FFDC report path / `failure.category` when `TORCH_SPYRE_FFDC=1` was set"
        if c.ffdc.status != COLLECTED:
            return [CheckItem("ffdc", label, False, c.ffdc.reason)]
        base = files.get("ffdc", "artifacts/ffdc")
        shown = ", ".join(f"`{base}/{Path(r.path).name}`: `{r.category}`" for r in c.ffdc.reports[:3])
        return [CheckItem("ffdc", label, True, shown)]


# Torch-Spyre is involved when torch_spyre is installed and the script names the device or the package, or
# Torch-Spyre logged something in the debug run.
_SPYRE_IN_SOURCE = re.compile(r"""["']spyre["']|torch_spyre|\bspyre\b""")


def involves_spyre(env: Any, source: str, records: Iterable = ()) -> bool:
    return env.torch_spyre.status == COLLECTED and (bool(_SPYRE_IN_SOURCE.search(source or "")) or any(records))


# ---------------------------------------------------------------------------
# Spyre vs sendnn (optional: the older guide's frontend/backend bisection)
# ---------------------------------------------------------------------------

# The debugging guide up to 61d68efe36cbe5a78137d8da4c0d35963bc9818a had a step "Bisect Frontend vs. Backend with
# sendnn"; today's guide (docs/source/user_guide/debugging/index.md) replaced it by the OpSpec replay (step 5).
# reportkit still runs it when torch_sendnn is installed, as an optional piece of evidence, with the semantics of
# torch-spyre's own helpers (tests/_inductor/utils_inductor.py): compare_with_sendnn requires Torch-Spyre's result
# (torch.compile on `spyre` tensors) to equal sendnn's (torch.compile(backend="sendnn") on CPU tensors) at
# atol=rtol=0; compare_with_cpu compares the device result with eager CPU at atol=rtol=0.1. Torch-Spyre is an
# Inductor device backend, not a dynamo backend (backend="spyre" raises InvalidBackend). The run itself is
# _backend_boot.py's REPORTKIT_SPYRE_COMPARE mode, on the call the debug run failed at.
SENDNN_TOLERANCE = (0.0, 0.0)
CPU_TOLERANCE = (0.1, 0.1)
TOLERANCE_TEXT = ("Torch-Spyre vs sendnn at atol=rtol=0 (`compare_with_sendnn`); each vs eager CPU at "
                  "atol=rtol=0.1 (`compare_with_cpu`)")
OPTIONAL_LABEL = "optional (older guide)"
FRONT_END, BACK_END = "Torch-Spyre front-end", "back-end compiler (DeepTools)"
TRANSFER, NUMERICS = "environment or data transfer", "Torch-Spyre front-end (numerics)"
INCONCLUSIVE, NONDETERMINISTIC = "inconclusive", "non-deterministic, not compared"
CONCLUSIVE = (FRONT_END, BACK_END, TRANSFER, NUMERICS)


@dataclass
class SendnnComparison(Comparison):
    tolerance: str = ""  # which result is compared with which, at what tolerance
    function: str = ""  # the compiled function compared, and where the script compiled it
    call: str = ""  # which call of it: the one the debug run failed at
    options: dict = field(default_factory=dict)  # torch.compile options used per path
    finding_stage: str = ""  # what the comparison alone says (stage / verdict are the report's single verdict)
    finding: str = ""
    weighs_ladder: bool = False  # the verdict says what the backend ladder found (the issue need not repeat it)
    command: str = ""  # when it could not be run automatically: what the reporter can run
    stdout: str = ""  # of the comparison run
    stderr: str = ""


def manual_comparison(script: str, where: str) -> str:
    """The comparison as a snippet the reporter adds to the reproducer (then runs ``python <script>``)."""
    return "\n".join([
        "# spyre vs sendnn (torch-spyre's tests/_inductor/utils_inductor.py semantics), on the failing call's inputs",
        "import copy",
        "import torch",
        "import torch_spyre  # noqa: F401  (the spyre device)",
        "import torch_sendnn  # noqa: F401  (the sendnn backend)",
        "",
        "",
        "def compare(fn, *args, **options):",
        "    fresh = lambda: [a.detach().cpu().clone() for a in args]  # every path its own inputs",
        "    expected = fn(*fresh())",
        "    torch._dynamo.reset()",
        '    spyre = torch.compile(copy.deepcopy(fn), **options)(*[a.to("spyre") for a in fresh()]).cpu()',
        "    torch._dynamo.reset()",
        '    sendnn = torch.compile(copy.deepcopy(fn), backend="sendnn")(*fresh()).cpu()',
        "    for what, got, want, tol in ((\"spyre vs sendnn\", spyre, sendnn, 0.0), (\"spyre vs CPU\", spyre, expected, 0.1),",
        "                                 (\"sendnn vs CPU\", sendnn, expected, 0.1)):",
        "        try:",
        "            torch.testing.assert_close(got, want, atol=tol, rtol=tol, equal_nan=True)",
        '            print(what, "equal" if tol == 0 else "close")',
        "        except AssertionError as exc:",
        '            print(what, "DIFFER:", exc)',
        "",
        f"# then, where {os.path.basename(where) if where else script} calls the compiled function:",
        "# compare(<the function given to torch.compile>, <its inputs>, <its torch.compile options>); run: python "
        + script,
    ])


def _not_installed(ctx: Any, comp: SendnnComparison) -> bool:
    missing = [name for name in ("torch_spyre", "torch_sendnn") if getattr(ctx.env, name).status != COLLECTED]
    for name in missing:
        comp.variants.append(Variant(name, name, "", outcome="not-installed", reason=getattr(ctx.env, name).reason))
    if missing:
        comp.reason = ("spyre vs sendnn comparison not possible: "
                       + "; ".join(getattr(ctx.env, n).reason for n in missing))
    return bool(missing)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def run_sendnn_comparison(ctx: Any) -> SendnnComparison:
    comp = SendnnComparison(tolerance=TOLERANCE_TEXT)
    last = ctx.run.last_compiled_call or {}
    comp.command = manual_comparison(ctx.spec.script.name, str(last.get("caller") or ""))
    if _not_installed(ctx, comp):
        return comp
    if not last:
        comp.reason = ("cannot be run automatically: the script called no function compiled with torch.compile "
                       "before it failed, so there is no compiled call to run both ways")
        return comp
    out = ctx.ws.root / "spyre-vs-sendnn.json"
    vdef = VariantDef("spyre-vs-sendnn", "spyre vs sendnn", OPTIONAL_LABEL, imports="torch_spyre",
                      env=(("REPORTKIT_SPYRE_COMPARE", str(out)), ("REPORTKIT_COMPARE_CALL", str(last["call"])),
                           ("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")))
    run = ctx.run_variant(vdef)
    comp.stdout, comp.stderr = run.stdout, run.stderr
    try:
        data = load_artifact_json(out)
    except (OSError, ValueError):
        comp.reason = (f"cannot be run automatically: the rerun did not reach call {last['call']} of the compiled "
                       "functions" + (f" (it failed first: {run.headline})" if run.headline else ""))
        return comp
    return comparison_result(data, ctx.evidence.get("ladder"), comp)


def comparison_result(data: dict, ladder: Any = None, comp: Optional[SendnnComparison] = None) -> SendnnComparison:
    """The evidence from what the comparison run wrote (see _backend_boot.compare_paths) and the ladder."""
    comp = comp if comp is not None else SendnnComparison(tolerance=TOLERANCE_TEXT)
    comp.function = f"`{data.get('function')}` compiled at {os.path.basename(str(data.get('where') or '?'))}"
    comp.call = (f"its call at {os.path.basename(str(data.get('caller') or '?'))}, the "
                 f"{_ordinal(int(data.get('call') or 1))} call of a compiled function and the last one before the "
                 "failure")
    comp.options = dict(data.get("options") or {})
    if data.get("error"):
        comp.reason = f"cannot be run automatically: {comp.function}, {comp.call}: {data['error']}"
        return comp
    comp.status, comp.command = COLLECTED, ""
    comp.finding_stage, comp.finding = judge_comparison(data, comp)
    comp.stage, comp.verdict, comp.weighs_ladder = single_verdict(ladder, comp.finding_stage, comp.finding)
    return comp


def _row(name: str, label: str, stage: str, result: Optional[dict], same: str, differ: str) -> Variant:
    if result is None:
        return Variant(name, label, stage, reason="not compared")
    return Variant(name, label, stage, outcome="passes" if result.get("ok") else "fails",
                   headline=f"{same if result.get('ok') else differ}: {_short(result.get('detail') or '')}".rstrip(": "))


def _short(detail: str) -> str:
    """assert_close's message up to the greatest absolute difference (the relative one is in the bundle's log)."""
    return detail.split(" Greatest relative difference")[0]


def judge_comparison(data: dict, comp: SendnnComparison) -> tuple[str, str]:
    """(stage, finding) of one comparison run's result, and its rows in ``comp.variants``."""
    paths = data.get("paths") or {}
    for name, label in (("spyre", "Torch-Spyre: torch.compile (Inductor) on spyre tensors"),
                        ("sendnn", 'sendnn: torch.compile(backend="sendnn") on CPU tensors')):
        error = (paths.get(name) or {}).get("error")
        if error:
            comp.variants.append(Variant(name, label, "", outcome="raises", headline=error))
    if (data.get("reference") or {}).get("error"):
        return INCONCLUSIVE, (f"the call does not run eagerly on the CPU "
                              f"({data['reference']['error']}), so there is no reference to compare with")
    if data.get("nondeterministic"):
        return NONDETERMINISTIC, ("two eager CPU runs of the call on the same "
                                  "inputs differ (random ops such as dropout or torch.rand*, or uninitialized "
                                  f"memory): {data['nondeterministic']}")
    raised = [v for v in comp.variants if v.outcome == "raises"]
    if raised:
        which = "; ".join(f"the {v.name} path raises {v.headline}" for v in raised)
        return INCONCLUSIVE, f"{which}; an exception is no result, so the paths cannot be compared"
    same = data.get("spyre_vs_sendnn") or {}
    spyre_cpu, sendnn_cpu = data.get("spyre_vs_cpu") or {}, data.get("sendnn_vs_cpu") or {}
    comp.variants += [
        _row("spyre_vs_sendnn", "Torch-Spyre vs sendnn (atol=rtol=0)", "compare_with_sendnn", same, "equal", "differ"),
        _row("spyre_vs_cpu", "Torch-Spyre vs eager CPU (atol=rtol=0.1)", "compare_with_cpu", spyre_cpu, "close",
             "differ"),
        _row("sendnn_vs_cpu", "sendnn vs eager CPU (atol=rtol=0.1)", "", sendnn_cpu, "close", "differ")]
    return _finding(bool(same.get("ok")), bool(spyre_cpu.get("ok")), bool(sendnn_cpu.get("ok")),
                    data.get("mutated_inputs"))


def _finding(equal: bool, spyre_ok: bool, sendnn_ok: bool, mutated: Optional[list]) -> tuple[str, str]:
    also = " (the result and the inputs it changes in place)" if mutated else ""
    if equal and spyre_ok:
        return TRANSFER, (f"Torch-Spyre and sendnn agree bit for bit and match eager CPU{also}: the compiled "
                          "computation is right on these inputs; look at the data transfers or the environment")
    if equal:
        return BACK_END, (f"Torch-Spyre and sendnn agree bit for bit and both differ from eager CPU{also}: the "
                          "back-end compiler (DeepTools), which both run on, computes it wrong")
    if sendnn_ok and not spyre_ok:
        return FRONT_END, (f"sendnn matches eager CPU and Torch-Spyre does not{also}: the bug is in Torch-Spyre's "
                           "front-end (lowering, codegen, stickification or host code)")
    if spyre_ok and sendnn_ok:
        return NUMERICS, ("Torch-Spyre and sendnn differ (compare_with_sendnn fails at atol=rtol=0) but both are "
                          "within compare_with_cpu's 0.1 of eager CPU: a numerical difference Torch-Spyre's "
                          "front-end introduces, not a wrong result at that tolerance")
    if spyre_ok:
        return INCONCLUSIVE, ("Torch-Spyre matches eager CPU, sendnn does not; this is no evidence "
                              "against Torch-Spyre's front-end")
    return BACK_END, ("both differ from eager CPU and from each other: sendnn (DeepTools without Torch-Spyre's "
                      "front-end) is already wrong, so the back-end compiler (DeepTools) is; Torch-Spyre's "
                      "front-end changes the result further")


def _first_failing_rung(ladder: Any) -> Optional[Variant]:
    if ladder is None or ladder.status != COLLECTED:
        return None
    return next((v for v in ladder.variants if v.name != "original" and v.outcome == "fails"), None)


def single_verdict(ladder: Any, stage: str, finding: str) -> tuple[str, str, bool]:
    """The report's one verdict from the comparison's finding and the backend ladder, never contradicting
    either: a conclusive comparison decides (the ladder said what it shows, in Spyre's terms); otherwise the
    ladder's result, with why the comparison does not decide. The last item: the verdict says what the
    ladder found."""
    rung = _first_failing_rung(ladder)
    if stage in CONCLUSIVE:
        if stage == TRANSFER and rung is not None and rung.name == "inductor":
            return INCONCLUSIVE, (f"{INCONCLUSIVE}: the compared call is right in both paths, but the failure "
                                  f"appears only when Inductor compiles (backend ladder); {finding}"), True
        note = {"no-dynamo": "the failure also appears without torch.compile (backend ladder), as it can on Spyre, "
                             "whose eager ops run through Torch-Spyre and many compile",
                "inductor": "the backend ladder agrees: the failure first appears when Inductor compiles for the "
                            "device"}.get(rung.name if rung is not None else "", "")
        return stage, finding + (f"; {note}" if note else ""), bool(note)
    if ladder is not None and ladder.status == COLLECTED and ladder.stage:
        return (ladder.stage, f"{ladder.verdict}; the spyre vs sendnn comparison does not decide ({stage}: "
                              f"{finding})", True)
    return stage, f"{stage}: {finding}", False


class SendnnComparisonCollector(Collector):
    """Optional (the older guide's bisection): the failing call through Torch-Spyre and through sendnn."""

    name = "spyre_comparison"
    title = "spyre vs sendnn"
    layout = {"ladder": "logs/ladder"}

    def collect(self, ctx: Any) -> Comparison:
        if not ctx.options.ladder:
            return SendnnComparison(reason="skipped (--no-ladder)")
        return run_sendnn_comparison(ctx)

    def files(self, ev: SendnnComparison, layout: dict):
        if ev.stdout or ev.stderr:
            yield f"{layout['ladder']}/spyre-vs-sendnn.stdout.txt", ev.stdout
            yield f"{layout['ladder']}/spyre-vs-sendnn.stderr.txt", ev.stderr

    def checklist(self, c: Any, files: dict) -> list[CheckItem]:
        label = f"Result of the `sendnn` comparison (frontend vs. backend bisect), {OPTIONAL_LABEL}"
        cmp = c.spyre_comparison
        if cmp.status == COLLECTED:
            where = "the table under *Anything else we need to know?*" if cmp.variants else cmp.finding
            return [CheckItem("sendnn", label, True, f"{cmp.finding_stage}: {where}")]
        return [CheckItem("sendnn", label, False, cmp.reason)]


# ---------------------------------------------------------------------------
# Step 5 of today's guide: replay the OpSpec
# ---------------------------------------------------------------------------

# docs/source/user_guide/debugging/op_spec_lab.md and tests/op_specs/capture.py: `python tests/op_specs/capture.py
# my_repro.py --out captured/` runs the script unmodified and writes one standalone script per compiled kernel
# (<out>/<kernel>.py, a line "  <path>  (N OpSpec(s), M arg(s))" each); exit 0 all written, 3 written but the
# target raised partway (later kernels missing), 1 nothing written. `python captured/<kernel>.py` replays the
# back-end half alone: also wrong -> the back end mis-executes a faithful spec; correct -> the bug is upstream
# (lowering, fusion, stickification or layout).
CAPTURE_SCRIPT = Path("tests") / "op_specs" / "capture.py"
CAPTURE_OUT = "captured"
_CAPTURED_LINE = re.compile(r"^\s+(?P<path>\S+\.py)\s+\((?P<detail>.*)\)\s*$")
CAPTURE_EXITS = {0: "every kernel written", 3: "partial: the script raised before its end", 1: "nothing written"}


@dataclass
class OpSpecCapture:
    status: str = NOT_COLLECTED
    reason: str = ""
    capture: str = ""  # the checkout's tests/op_specs/capture.py
    command: str = ""  # the command for this reproducer, with the checkout's capture.py if there is one
    guide_command: str = ""  # as the guide gives it, run from the torch-spyre checkout (what the issue shows)
    exit_code: Optional[int] = None
    exit_meaning: str = ""
    kernels: list = field(default_factory=list)  # [file name, "N OpSpec(s), M arg(s)"]
    paths: list = field(default_factory=list)  # the captured scripts (in the run's scratch copy)
    stdout: str = ""
    stderr: str = ""


def find_capture(pkg: Any) -> Optional[Path]:
    """The ``tests/op_specs/capture.py`` of the checkout torch_spyre is imported from (the package's parent
    directory, or the git top level it is tracked in), if there is one."""
    roots = [Path(pkg.location).parent] if pkg.location else []
    if pkg.git is not None and pkg.git.toplevel:
        roots.append(Path(pkg.git.toplevel))
    return next((root / CAPTURE_SCRIPT for root in roots if (root / CAPTURE_SCRIPT).is_file()), None)


def capture_command(capture: Optional[Path], script: str) -> str:
    where = str(capture) if capture else f"<your torch-spyre checkout>/{CAPTURE_SCRIPT.as_posix()}"
    return " ".join(["python", shlex.quote(where), shlex.quote(script), "--out", f"{CAPTURE_OUT}/"])


def _capture(script: str, capture_py: Optional[Path] = None, **fields: Any) -> OpSpecCapture:
    """An OpSpecCapture with both commands: the one for this machine and the guide's (``python
    tests/op_specs/capture.py SCRIPT --out captured/``, from the torch-spyre checkout)."""
    guide = " ".join(["python", CAPTURE_SCRIPT.as_posix(), shlex.quote(script), "--out", f"{CAPTURE_OUT}/"])
    return OpSpecCapture(command=capture_command(capture_py, script), guide_command=guide, **fields)


def run_capture(ctx: Any) -> OpSpecCapture:
    pkg = ctx.env.torch_spyre
    if pkg.status != COLLECTED:
        return _capture(ctx.spec.script.name, reason=f"not possible: {pkg.reason or 'torch_spyre is not installed'}")
    capture = find_capture(pkg)
    ev = _capture(ctx.spec.script.name, capture, capture=str(capture or ""))
    if capture is None:
        ev.reason = (f"not run: torch_spyre ({pkg.location}) is not installed from a checkout with "
                     f"`{CAPTURE_SCRIPT.as_posix()}`; run the command below from one")
        return ev
    run = ctx.run_variant(VariantDef("opspec-capture", "OpSpec capture", "step 5", keep_workdir=True,
                                     env=(("REPORTKIT_OPSPEC_CAPTURE", str(capture)),)))
    ev.stdout, ev.stderr = run.stdout, run.stderr
    ev.exit_code = run.returncode
    ev.exit_meaning = CAPTURE_EXITS.get(run.returncode, f"exit {run.returncode}")
    out_dir = Path(run.workdir) / CAPTURE_OUT if run.workdir else None
    for line in run.stdout.splitlines():
        m = _CAPTURED_LINE.match(line)
        if m and out_dir is not None and (out_dir / Path(m["path"]).name).is_file():
            ev.kernels.append([Path(m["path"]).name, m["detail"]])
            ev.paths.append(str(out_dir / Path(m["path"]).name))
    if ev.kernels:
        ev.status = COLLECTED
    else:
        tail = " ".join((run.stderr.strip().splitlines() or run.stdout.strip().splitlines() or [""])[-2:])[-400:]
        ev.reason = f"capture.py wrote no kernel ({ev.exit_meaning}{': ' + tail if tail else ''})"
    return ev


class OpSpecCollector(Collector):
    """Step 5 of the debugging guide: the failing kernels captured as standalone OpSpec scripts."""

    name = "opspec"
    title = "OpSpec replay"
    layout = {"opspec": "artifacts/captured", "opspec_log": "logs/opspec-capture"}

    def collect(self, ctx: Any) -> OpSpecCapture:
        if not ctx.options.ladder:
            return _capture(ctx.spec.script.name, reason="skipped (--no-ladder)")
        logs = ctx.evidence.get("spyre_logs")
        if ctx.env.torch_spyre.status == COLLECTED and not involves_spyre(ctx.env, ctx.source,
                                                                          getattr(logs, "records", ())):
            return _capture(ctx.spec.script.name, find_capture(ctx.env.torch_spyre),
                            reason="not run: the script does not use the spyre device (nothing to capture)")
        return run_capture(ctx)

    def files(self, ev: OpSpecCapture, layout: dict):
        for path in ev.paths:
            yield f"{layout['opspec']}/{Path(path).name}", Path(path)
        if ev.stdout or ev.stderr:
            yield f"{layout['opspec_log']}.stdout.txt", ev.stdout
            yield f"{layout['opspec_log']}.stderr.txt", ev.stderr
