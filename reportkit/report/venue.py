"""Where a bug report belongs, and with which issue template (``bundle --issue`` with ``--template auto``).

Decided from what is installed in the target interpreter and what the failure involves, never from the
script's name: a failure that involves a Spyre device or backend goes to Torch-Spyre's form; one that
involves ``torch.compile`` to PyTorch's compile form (with the backend ladder and how to get a
``TORCH_TRACE``); other PyTorch failures to PyTorch's bug form; a script without torch to a generic
form. A failure raised in the script's own code with no library frame on the way looks like the
script's own bug: the report says so and suggests fixing it rather than filing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from reportkit.failure.signature import FailureKind, library_argument_check, raised_by_script

REPOS = {"torch-spyre": "torch-spyre/torch-spyre", "pytorch-compile": "pytorch/pytorch",
         "pytorch": "pytorch/pytorch", "generic": None}
AUTO = "auto"  # = constants.AUTO_TEMPLATE
# the labels each venue's issue form puts on a new issue (torch-spyre: .github/ISSUE_TEMPLATE/bug-report.yml)
FORM_LABELS = {"torch-spyre": ("type/bug",)}

_IMPORTS_TORCH = re.compile(r"^\s*(?:import|from)\s+torch\b", re.MULTILINE)
_SPYRE = re.compile(r"""["']spyre["']|torch_spyre|\bspyre\b""")
_COMPILE = re.compile(r"\btorch\.compile\b|\b_dynamo\b|\bdynamo\.optimize\b")
_LIBRARY_FRAME = re.compile(r'^\s*File "([^"]*(?:site-packages|dist-packages|/lib/python\d[^"]*))"', re.MULTILINE)


@dataclass
class Venue:
    template: str  # one of REPOS
    repo: Optional[str]  # OWNER/NAME to file at, or None: the tracker of the library that failed
    reason: str  # why this venue, for people
    own_bug: Optional[str] = None  # why it looks like the script's own bug (then: fix it, do not file)
    usage: Optional[str] = None  # why it looks like a usage error: a library rejected what the script gave it

    @property
    def check_first(self) -> Optional[str]:
        """What to check before filing anything upstream (then no ready-made upstream command), or None."""
        return self.own_bug or self.usage


def _library_frames(c) -> bool:
    return bool(_LIBRARY_FRAME.search(c.debug_run.error_output or c.debug_run.stderr or ""))


def own_bug(c) -> Optional[str]:
    """Why the failure looks like the script's own bug, or None: an exception (not an assertion) raised in
    the script's own code, with no library frame in its traceback; or any failure while a module of the project
    is imported as torch in place of the installed one."""
    torch = getattr(getattr(c, "env", None), "torch", None)
    if torch is not None and getattr(torch, "shadows", None):
        return (f"`import torch` imports the project's {torch.origin or torch.location}, which hides the installed "
                f"torch ({torch.shadows}): rename it and run again before filing")
    sig = c.signature
    if sig.kind != FailureKind.EXCEPTION or sig.location is None or not sig.location.user_code:
        return None
    if (sig.exc_type or "").split(".")[-1] in ("AssertionError", "KeyboardInterrupt") or _library_frames(c):
        return None
    return (f"{sig.exc_type} is raised in the script's own code ({sig.location}) and no library frame is on "
            "the way: this looks like a bug of the script rather than of a library; check it before filing")


#: The messages of library input checks: an op refusing the shapes, sizes, dtypes or devices it was given
#: (``F.linear``'s ``mat1 and mat2 shapes cannot be multiplied``, ``conv2d``'s ``Given groups=1, weight of size
#: ..., expected input[...] to have 3 channels``, ``load_state_dict``'s ``size mismatch for ...``, ``view``'s
#: ``shape '[...]' is invalid for input of size``, broadcasting's ``The size of tensor a (4) must match``).
_INPUT_CHECK = re.compile(
    r"mat1 and mat2 shapes cannot be multiplied|mat1 and mat2 must have the same dtype|"
    r"\bExpected\b.*\bchannels\b|\bexpected input\b.*\bto have\b|size mismatch|"
    r"shape '\[[^\]]*\]' is invalid for input of size|The size of tensor a \(\d+\) must match|"
    r"Expected all tensors to be on the same device|Expected \d+D\b|Dimension out of range|"
    r"index -?\d+ is out of bounds|Target size .* must be the same as input size|"
    r"Expected input batch_size \(\d+\) to match target batch_size|Input type .* and weight type .* should be the same",
    re.IGNORECASE)
_SHAPES = re.compile(r"\d+(?:\s*x\s*\d+)+|\[\d+(?:,\s*\d+)*\]")


def usage_error(c) -> Optional[str]:
    """Why the failure looks like a usage error, or None: a library's input check (a known op check message,
    or its own ``assert`` on its arguments) rejected values the script built, in eager code (no torch.compile
    in the script, or the backend ladder says it fails without it too), with no Spyre device involved.
    What to check: the op and its arguments' shapes from the message, at the script's line that called it."""
    sig = c.signature
    if sig.kind != FailureKind.EXCEPTION or sig.location is None or raised_by_script(sig):
        return None
    message = (sig.raw_message or sig.message or "").strip()
    if not (_INPUT_CHECK.search(message) or library_argument_check(sig)):
        return None
    source = "\n".join(s for s in (c.source, c.original_source) if s)
    compiled = bool(c.debug_run.compile_calls) or bool(_COMPILE.search(source))
    if compiled and c.ladder.stage != "eager":
        return None
    first = message.splitlines()[0] if message else sig.exc_type or "an input check"
    op = sig.location.function if not sig.location.user_code else ""
    where = f"{sig.location.file}" + (f" ({op})" if op and op != "<module>" else "")
    call = ""
    if sig.script_frame is not None and sig.script_frame != sig.location:
        call = f", called from {sig.script_frame}: `{sig.script_frame.shown}`"
    shapes = _SHAPES.findall(first)
    what = f"the shapes {' and '.join(shapes)}" if shapes else "the arguments"
    return (f"likely a usage error: {where} rejected what the script gave it ({first}){call}; "
            f"check {what} the script passes there before filing")


def choose(c) -> Venue:
    """The venue for a :class:`~reportkit.report.collect.Collected`."""
    source = "\n".join(s for s in (c.source, c.original_source) if s)
    location = c.signature.location.file if c.signature.location else ""
    torch_installed = c.env.torch.status == "collected" or bool(c.env.torch.version)
    uses_torch = bool(_IMPORTS_TORCH.search(source)) or location.startswith("torch")
    spyre_installed = bool(c.env.torch_spyre.version) or c.env.torch_spyre.status == "collected"
    spyre = location.startswith(("torch_spyre", "torch_sendnn")) or (
        spyre_installed and (bool(_SPYRE.search(source)) or bool(getattr(c.spyre_logs, "records", None))))
    compiled = bool(c.debug_run.compile_calls) or bool(_COMPILE.search(source)) \
        or location.startswith(("torch/_dynamo", "torch/_inductor"))
    mine = own_bug(c)
    venue = _choose(c, torch_installed, uses_torch, spyre, compiled, mine)
    if venue.template != "torch-spyre" and not mine:
        venue.usage = usage_error(c)
    return venue


def _choose(c, torch_installed: bool, uses_torch: bool, spyre: bool, compiled: bool, mine) -> Venue:
    custom = c.ladder.stage == "custom backend" and not spyre  # fails with the script's own backend only
    if not (torch_installed and uses_torch):
        return Venue("generic", None, "the script does not use torch: a generic report for the tracker of the "
                                      "library that failed", mine)
    if spyre:
        return Venue("torch-spyre", REPOS["torch-spyre"], "the failure involves a Spyre device or backend", mine)
    if custom:
        return Venue("pytorch-compile", None, f"{c.ladder.verdict}: the report is for that backend's owners, "
                                              "not PyTorch", mine)
    if compiled and c.ladder.stage == "eager":
        return Venue("pytorch", REPOS["pytorch"], "fails without torch.compile too (TORCHDYNAMO_DISABLE=1): "
                                                  "PyTorch's plain bug form", mine)
    if compiled:
        return Venue("pytorch-compile", REPOS["pytorch-compile"], "the script uses torch.compile and "
                                                                  "torch_spyre is not involved", mine)
    return Venue("pytorch", REPOS["pytorch"], "plain PyTorch (no torch.compile, no Spyre device)", mine)


def template_for(requested: str, c) -> str:
    """``requested`` unless it is ``auto``."""
    return choose(c).template if requested == AUTO else requested


# --------------------------------------------------------------------------- concise bodies (jinja filters)

_CARETS = re.compile(r"^\s*[~^]+\s*$")
_SITE = re.compile(r'"[^"]*/(?:site|dist)-packages/')
_MODULE_CALL = re.compile(r'^\s*File "[^"]*torch/nn/modules/module\.py", line \d+, in _(?:wrapped_)?call_impl$')
_ENV_DROP = re.compile(r"^(?:Vulnerability |Flags:|Architecture:|BogoMIPS:|CPU op-mode|Address sizes:|Byte Order:|On-line CPU|"
                       r"Vendor ID:|CPU family:|Model:|Thread\(s\)|Core\(s\)|Socket\(s\)|Stepping:|Hypervisor|"
                       r"Virtualization|L\d\w? cache:|NUMA |Frequency boost|CPU max MHz|CPU min MHz|CPU\(s\) scaling)")
_NOT_APPLICABLE = re.compile(r"^(?:Is )?([^:\n]+?)(?: available)?:\s*(?:N/A|Could not collect|None|False)\s*$"
                             r"|^(\[\w+\]) Could not collect$")
_PADDED = re.compile(r"^([A-Za-z][^:\n]{0,40}:)\s{2,}")


def short_traceback(text: str) -> str:
    """A traceback without the noise: caret lines, nn.Module call plumbing, site-packages prefixes."""
    out, skipped, lines, i = [], 0, (text or "").splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if _MODULE_CALL.match(line):
            skipped += 1
            i += 2  # the frame and its source line
            while i < len(lines) and _CARETS.match(lines[i]):
                i += 1
            continue
        if not _CARETS.match(line):
            out.append(_SITE.sub('"…/site-packages/', line))
        i += 1
    if skipped:
        out.insert(1 if out else 0, f"  ({skipped} frames of torch.nn.Module's call plumbing left out)")
    return "\n".join(out)


def relevant_env(text: str) -> str:
    """``torch.utils.collect_env`` without the CPU vulnerability/flag dump; items that do not apply
    ("N/A", "Could not collect") folded into one line. The full output stays in the bundle."""
    out, folded = [], []
    for line in (text or "").splitlines():
        if _ENV_DROP.match(line):
            continue
        m = _NOT_APPLICABLE.match(line)
        if m and not line.startswith("Is debug build"):
            folded.append((m.group(1) or m.group(2)).strip())
            continue
        out.append(_PADDED.sub(r"\1 ", line))  # lscpu's column padding
    if folded:
        out.append(f"Not available / not applicable: {', '.join(folded)}")
    return "\n".join(out).strip()
