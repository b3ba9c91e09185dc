"""The redaction edge: every byte reportkit writes or prints passes here first.

Every replacement leaves a marker ``<redacted:KIND>`` so a reader knows something was there.

**Two rules.**

(a) *Known values* (:func:`known_values`): every value of a secret-bearing environment variable (of
reportkit's own environment and of the run's: :func:`remember_env`), every ``--env NAME=value`` value
that is not a plain setting, and every credential found in the script's arguments (``--token X``,
``--password=X``, ``-pX``, ``-u user:pw``, URL userinfo: :func:`argv_secrets`) is removed *exactly
wherever it appears*, also in the encodings that are cheap to derive: base64 (standard and URL-safe,
at any alignment inside a longer base64 text, of the value and of ``user:pw``), URL-encoding,
JSON-escaping, ``repr``, shell quoting, hex, the value split by a line wrap, UTF-16 output decoded as UTF-8
(NUL-interleaved). Any variable's value with a credential's make-up is known whatever its name
(:func:`credential_value`: ``SETTING_3=<a picked password, 32+ hex, a UUID>``), and so is any argument that
is a password a person picked (:func:`password_made`).

Names say more (:func:`argv_secrets`, :func:`_code_secret_name`): the password options of well-known tools
(``sshpass -p``, ``docker login -p``, ``ldapsearch -w``, ``htpasswd -b``: :data:`_PASSWORD_TOOLS`), an option
with a secret's word anywhere in its name, a vendor's name holding a random value (``MAILGUN = "<32 hex>"``),
and a secret's name followed by ``ENV``/``VAR`` holding something other than a variable's name.

(b) *Patterns*: the vendor token catalogue (:mod:`reportkit.token_table`: the prefixed shapes of gitleaks,
betterleaks and Kingfisher, one prefix dispatch: :func:`_catalogue_spans`), a vendor's token whose prefix no
catalogue knows (:func:`_prefixed_spans`: word, ``_``/``-``, a drawn body), high-confidence shapes (:data:`_PREFIX_TOKENS`: vendor prefixes such as ``ghp_``,
``glpat-``, ``sk_live_``, ``hvs.``, ``AIza``, ``xoxb-``, ``dop_v1_``, ``AGE-SECRET-KEY-1``; JWTs; PEM
private keys, also base64-encoded and JSON-escaped; URL userinfo of any scheme; ``Authorization``
headers; signed-URL and SAS parameters; ``curl -u user:pw``, ``mysql -pPW``, ...; the regex detectors
of detect-secrets, Yelp's maintained scanner) and context rules for text (``NAME=value`` where the
name is secret-bearing, ``--password X``, random-looking option values, detect-secrets' keyword
detectors). ANSI colour codes and NULs are seen through.

**One function per kind of content** (:func:`redact_for` picks by file name):

* :func:`redact_text` (= :func:`redact_output`): logs, messages, JSON, prose: (a) and all of (b), and
  the home directory becomes ``~``.
* :func:`redact_code`: Python source (reproducers, ``.min.py``, excerpts): only (a), the
  high-confidence patterns and detect-secrets' keyword rule for code (a literal bound to a name whose last
  word says secret: :func:`_literal_spans`), never a guess from entropy, and only inside string literals
  and comments (``"sk_live_..."`` becomes ``"<redacted:stripe-access-key>"``, still a string; a named secret
  becomes ``"<redacted>"`` as a whole): identifiers are never touched and a block that parsed still parses.
* :func:`redact_markdown`: issue bodies and summaries: fenced Python blocks as code, the rest as text.

**Composed commands** (the run line of issue.md, the printed ``gh issue create``, workflow commands)
are built from parts that were redacted first, then wrapped in :func:`protect`: the edge strips the
wrapper and applies only rule (a) inside, never the patterns to the whole.

Environment rule (:func:`is_secret_env_name`): a value is secret-bearing when the variable *name*,
split into words on ``_``, ``-`` and ``.`` (case-insensitive),

* contains one of the words ``TOKEN(S) SECRET(S) PASSWORD(S) PASSWD PASS PASSPHRASE
  CREDENTIAL(S) CREDS AUTH COOKIE(S) APIKEY KEY PRIVATEKEY SIGNATURE WEBHOOK DSN``, or
* has a word ending in ``PASSWORD PASSWD PASSPHRASE TOKEN SECRET APIKEY CREDENTIALS WEBHOOK``
  (``PGPASSWORD``, ``GITHUBTOKEN``) or ending in ``PW PWD PASS`` (``SSHPASS``, ``SPYRE_ROOTPW``,
  ``PGPASS_ENTRY``), or the word ``BEARER``, or
* has ``SESSION`` as its last word or followed by ``ID``/``KEY``/``TOKEN``, or ``OP_SESSION`` anywhere
  (1Password), or ``PWD`` after another word (``MYSQL_PWD``), or
* names a connection string of a data store or broker (``REDIS_URL``, ``DATABASE_URL``,
  ``MONGODB_URI``, ``AMQP_URL``, ``*_CONNECTION_STRING``, ``*_CONNSTR``), ends in ``PRIVATE``
  (``JWKS_PRIVATE``), or has ``PAT`` after a forge's or vendor's name (``GITHUB_PAT``),

unless its last word says where or what the secret is rather than being it (``FILE``, ``PATH``, ``DIR``,
``SOCK``, ``TYPE``, ``HEADER``, ``NAME``, ``PREFIX``, ``ENV``, ``LENGTH``, ``TIMEOUT``, ``MODE``, ``VERSION``,
``HASH``, ...: ``SSH_AUTH_SOCK``, ``SIGNATURE_HEADER``). Matching is by whole words, so ``KEYBOARD``,
``TOKENIZERS_PARALLELISM``, ``GIT_ASKPASS``, ``AUTHOR``, ``PWD``/``OLDPWD``, ``XDG_SESSION_TYPE`` and
``DBUS_SESSION_BUS_ADDRESS`` are left alone. All other values still go through :func:`redact_text`.

Each pattern is compiled once, when it is first used (:func:`_rx`); each is a linear scan with bounded quantifiers (patterns
without a literal prefix are skipped when the literal they need is absent), so megabytes are fine.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import contextlib
import functools
import hashlib
import io
import json
import math
import os
import re
import secrets as _secrets
import tempfile
import threading
import tokenize
import urllib.parse
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Callable, Optional

from reportkit.token_table import DOCUMENTED_SHAPES, SIGNED_SHAPES, TOKEN_SHAPES

MARK = "<redacted:{}>"


class _LazyPattern:
    """A regular expression compiled when it is first used. The rules below are some 800 patterns, and a text
    meets only the ones whose literal part it has: compiling them all at import cost each reportkit command
    about 0.25 s before it did anything. ``pattern`` and ``flags`` are read without compiling."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags = pattern, flags
        self._compiled: Optional[re.Pattern[str]] = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def __getattr__(self, name: str):  # search, match, finditer, sub, groupindex, ...
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"_rx({self.pattern!r}, {self.flags})"


def _rx(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile``, deferred to the first use (:class:`_LazyPattern`); a bad pattern raises there."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]  # (it answers every Pattern method)


def _mark(kind: str) -> str:
    return MARK.format(kind)


Span = tuple[int, int, str]  # (start, end, replacement)

# --------------------------------------------------------------------------- views: ANSI codes, NULs

_ANSI = _rx(r"(?:\x1b|\\u001b|\\x1b|\\033)(?:\[[0-?]{0,32}[ -/]{0,4}[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)"
                   r"|[@-Z\\-_])")
_NUL = _rx(r"\x00|\\u0000|\\x00")
# a NUL between two characters that are not, on each side: one that separates words (``/proc/PID/cmdline``'s arguments,
# ``find -print0``), not the every-other-byte NUL of UTF-16, which is seen through. It reads as a space, so
# ``--hub-token\0<value>`` stays a flag and its value instead of one word (round 20 of planted secrets)
_NUL_SEPARATOR = _rx(r"(?<=[^\x00][^\x00])\x00(?=[^\x00][^\x00])")


_ANSI_RAW = _rx(r"\x1b(?:\[[0-?]{0,32}[ -/]{0,4}[@-~]|\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)|[@-Z\\-_])")


def _clean_view(text: str, escapes: bool = True) -> str:
    """``text`` without ANSI escape sequences and NULs (UTF-16 output read as UTF-8 interleaves them);
    ``escapes``: also their escaped forms (``\\u001b[31m`` in JSON, ``\\x00`` in a bytes repr)."""
    if "\x00" in text:
        text = _NUL_SEPARATOR.sub(" ", text)
    if not escapes:
        return _ANSI_RAW.sub("", text).replace("\x00", "") if "\x1b" in text or "\x00" in text else text
    if "\x1b" in text or "\\u001b" in text or "\\x1b" in text or "\\033" in text:
        text = _ANSI.sub("", text)
    if "\x00" in text or "\\u0000" in text or "\\x00" in text:
        text = _NUL.sub("", text)
    return text


# --------------------------------------------------------------------------- protected spans

_NONCE = _secrets.token_hex(6)  # unknown to the runs: a script cannot print a protection of its own
_OPEN, _CLOSE = f"\ue000{_NONCE}\ue001", f"\ue002{_NONCE}\ue003"


def protect(command: str) -> str:
    """Mark ``command`` (built from parts that were redacted first) as composed by reportkit: the edge
    applies only rule (a) inside it, never the patterns to the whole, and strips the mark."""
    return f"{_OPEN}{command}{_CLOSE}"


def _segments(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into (segment, protected) pieces; the marks are dropped."""
    out: list[tuple[str, bool]] = []
    pos = 0
    while True:
        start = text.find(_OPEN, pos)
        if start < 0:
            break
        end = text.find(_CLOSE, start)
        if end < 0:
            break
        out += [(text[pos:start], False), (text[start + len(_OPEN):end], True)]
        pos = end + len(_CLOSE)
    out.append((text[pos:], False))
    return [(s.replace(_OPEN, "").replace(_CLOSE, ""), p) for s, p in out if s]


def unprotect(text: str) -> str:
    """``text`` without protection marks (for writers that do not redact: ``--no-redact``)."""
    return text.replace(_OPEN, "").replace(_CLOSE, "") if "\ue000" in text or "\ue002" in text else text


# --------------------------------------------------------------------------- (a) known values

_MIN_KNOWN = 6
_TRIVIAL = _rx(r"^(?:\d{1,7}|true|false|yes|no|on|off|none|null|nil|enabled?|disabled?)$", re.IGNORECASE)
# an --env value that is a plain setting, not a credential: lowercase words and numbers joined by
# punctuation without a letter next to a digit (+dynamo,recompiles; cuda:0; 0,1), an upper-case word
# (DEBUG), or a path
_PLAIN_SETTING = _rx(r"[a-z0-9_.,:;+=/\- ]*|[A-Z_]+|(?:/|\./|~/)[^\s:@]*")
_LETTER_DIGIT = _rx(r"[a-z][0-9]|[0-9][a-z]")


class _Known:
    """The process-wide register of known secret values (value -> marker kind)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.values: dict[str, str] = {}

    def add(self, value: str, kind: str) -> None:
        if not value or len(value) < _MIN_KNOWN or _TRIVIAL.match(value) or value.startswith("<redacted"):
            return
        with self._lock:
            self.values = {**self.values, value: self.values.get(value, kind)}

    def clear(self) -> None:
        with self._lock:
            self.values = {}


_KNOWN = _Known()


def remember(value: str, kind: str = "known-secret") -> None:
    """Add ``value`` to the known secrets of this process (rule (a); too short or trivial ones are not)."""
    _KNOWN.add(value, kind)


_CODE_SEEN: set[bytes] = set()  # (sources remember_code read)


def forget_known() -> None:
    """Empty the register (tests)."""
    _KNOWN.clear()
    _CODE_SEEN.clear()


def plain_setting(value: str) -> bool:
    """An ``--env`` value that configures something rather than authenticates (``+dynamo``, ``0,1``,
    ``/opt/x``, ``DEBUG``): shown as it is unless the variable's name is secret-bearing."""
    if _FILE_NAME.fullmatch(value) or _PATH_SETTING.fullmatch(value) or _regex_syntax(value):
        return True  # a file's name or path (a wheel's, a cache's), a pattern (^(?=.*[A-Z]).{12,}$)
    if _app_password(value):
        return False  # drawn in groups of four (an app-specific password, a stream key), lower-case as settings are
    if len(value) >= 20 and value.isalpha() and (value.islower() or value.isupper()) and not _sayable(value):
        return False  # 20+ letters of one case that no one could say: drawn (a shipping token of 32 lower-case letters)
    named = _SETTING_ASSIGNED.fullmatch(value)
    if named and not is_secret_env_name(named.group(1)):
        value = named.group(2)  # PYTHONHASHSEED=3978041947: a setting's name and its plain value
    return (len(value) < _MIN_KNOWN or bool(_TRIVIAL.match(value)) or value.isdigit() or _EMAIL.fullmatch(value) is not None
            or (_PLAIN_SETTING.fullmatch(value) is not None and not _LETTER_DIGIT.search(value)
                and "://" not in value) or _setting_pairs(value))


_SETTING_PAIR = _rx(r"([a-z][a-z0-9_]{1,60})[:=]([A-Za-z0-9_.+\-]{1,60})")
_SETTING_WORD = _rx(r"-?[0-9]+(?:\.[0-9]+)?[A-Za-z]{0,3}|[a-z_]+|[A-Za-z][a-z]+(?:[A-Z][a-z]+)*")


def _setting_pairs(value: str) -> bool:
    """Options as ``name:value`` pairs whose values are numbers, booleans or words (``PYTORCH_CUDA_ALLOC_CONF``'s
    ``expandable_segments:True,max_split_size_mb:512``, ``backend:cudaMallocAsync``), no name a secret's."""
    for part in re.split(r"[,;]", value):
        m = _SETTING_PAIR.fullmatch(part)
        if m is None or is_secret_env_name(m.group(1).upper()) or not _SETTING_WORD.fullmatch(m.group(2)):
            return False
    return True


# (file:///a%20b; a Windows path, C:\Users\ci\cache; a storage URL without a user or a query, hf://datasets/x)
_PATH_SETTING = _rx(r"(?:/|\./|~/|file://(?:localhost)?/|(?:hf|s3a?|gs|gcs|az|abfss?|hdfs|dbfs)://|[A-Za-z]:\\)"
                    r"(?:[\w.+\-/~]|(?<=[\w.~])\\(?=\w)|%[0-9A-Fa-f]{2}|(?<=\w)=(?=\w)){1,4096}")  # (epoch=12-val_loss=0.2.ckpt)
_REGEX_TOKENS = _rx(r"\(\?[=!:<]|\.[*+]|\\[dwsbDWS]|\[[^\]]{1,40}\]|\{[0-9]{1,4},[0-9]{0,4}\}|^\^|\$$")


def _regex_syntax(value: str) -> bool:
    """A regular expression (three kinds of its syntax or more, and it compiles): a setting, not a credential."""
    if len({m.group(0)[:2] for m in _REGEX_TOKENS.finditer(value)}) < 3:
        return False
    try:
        re.compile(value)
    except re.error:
        return False
    return True


_FILE_NAME = _rx(r"[A-Za-z0-9][A-Za-z0-9_.+\-]{0,200}\.(?:whl|tar\.gz|tgz|tar|zip|egg|json|ya?ml|toml|txt|cfg|ini|"
                        r"py|pt|pth|bin|ckpt|safetensors|onnx|gguf|csv|parquet|log|so|h5|npz|npy)")
_SETTING_ASSIGNED = _rx(r"([A-Z_][A-Z0-9_]{1,60})=([^\s=]{1,200})")
_EMAIL = _rx(r"[\w.+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})+")  # (an address to write to: MAILTO=)


def env_secrets(env: Mapping[str, Optional[str]]) -> dict[str, str]:
    """The known secrets an environment holds (value -> kind): the values of its secret-bearing variables
    and the credentials inside any value (URL userinfo, signed-URL parameters)."""
    return dict(_env_secrets(tuple(env.items())))


@functools.lru_cache(maxsize=32)
def _env_secrets(items: tuple[tuple[str, Optional[str]], ...]) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    for name, value in items:
        if not value:
            continue
        if holds_named_secret(name, value) and len(value) >= _MIN_KNOWN and not _TRIVIAL.match(value):
            found.setdefault(value, "env-secret")
        elif credential_value(name, value):
            # whatever its name (SETTING_3, DW_CONN): a credential's make-up (random as keys are, a password a
            # person picked, 32+ hex digits or a UUID where the name does not say digest or identifier; never a
            # path, a version or a name made of words), known wherever it travels; its parts that are one too
            found.setdefault(value, "env-secret")
            for part in credential_parts(value):
                found.setdefault(part, "env-secret")
        if "://" in value or "=" in value or "@" in value:
            for cred, kind in credentials_in(value).items():
                found.setdefault(cred, kind)
    return tuple(found.items())


def remember_env(env: Mapping[str, Optional[str]], *, overrides: bool = False) -> None:
    """Remember the secrets of ``env`` (a run's environment). ``overrides``: the user's ``--env`` values:
    every one that is not a :func:`plain_setting` is a known value too."""
    for value, kind in env_secrets(env).items():
        remember(value, kind)
    if overrides:
        for name, value in env.items():
            if override_known(value, name):
                remember(value, "env-value")


def _names_an_identifier(name: str) -> bool:
    """A variable whose name's last word says its value identifies or names something (``GIT_COMMIT``, ``REQUEST_ID``,
    ``HF_SNAPSHOT_SHA``, ``OTEL_TRACE_ID``; :data:`_NAMING_WORDS`) and names no secret: its value is shown (blind
    round 32)."""
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    return bool(words) and (words[-1] in _IDENTIFIER_WORDS or words[-1] in _NAMING_WORDS) \
        and not is_secret_env_name(name)


# a variable's last word that says its value names something (``MODEL_NAME=meta-llama/Llama-3.1-8B``,
# ``CKPT_DIR=runs/exp-3``, ``PYTEST_NODE=tests/test_ops.py::test_a``, ``CRASH_SYMBOL=_ZN2at...``)
_NAMING_WORDS = frozenset({"NAME", "DIR", "PATH", "FILE", "NODE", "SYMBOL", "REPR", "MODEL", "BRANCH", "TAG"})


def override_known(value: Optional[str], name: str = "") -> bool:
    """A user's ``--env`` value that is a known value as a whole: not a :func:`plain_setting`, and not words — a
    value with spaces is not a secret (a version list, a tensor's repr, a checksum line); the credentials inside
    one are known all the same (:func:`env_secrets`: its parts) —, nor the value of a variable ``name`` says is an
    identifier (:func:`_names_an_identifier`: ``GIT_COMMIT``, ``REQUEST_ID``)."""
    return bool(value) and not plain_setting(value) and not any(c.isspace() for c in value.strip()) \
        and not name_slug(value) and not _NAMED_IDENTIFIER.fullmatch(value) and not _DIGEST_REFERENCE.search(value) \
        and not (name and _names_an_identifier(name))


_SLUG = _rx(r"[a-z0-9]{1,16}(?:[-_.][a-z0-9]{1,16}){2,15}")
_WORD_RUN = _rx(r"[a-z]{3,}")


_HEX_PARTS = _rx(r"[0-9a-f._\-]+")
# a key drawn in groups of four: Apple's app-specific password (altool, notarytool: ``abcd-efgh-ijkl-mnop``, four
# groups of letters), YouTube's stream key (``abcd-12ef-gh3i-jk45-lmno``, five groups of letters and digits)
_APP_PASSWORD_SHAPE = _rx(r"[a-z0-9]{4}(?:-[a-z0-9]{4}){3,5}")


def _app_password(value: str) -> bool:
    """The shape, with letters as drawn: a group without a vowel, a group that mixes letters and digits, or a vowel
    per group at most in all (a name of four-letter words, ``bert-base-flax-tiny``, has more)."""
    if _APP_PASSWORD_SHAPE.fullmatch(value) is None:
        return False
    groups = value.split("-")
    return any(not re.search(r"[aeiouy]", g) or (re.search(r"[a-z]", g) and re.search(r"[0-9]", g)) for g in groups) \
        or sum(c in "aeiou" for c in value) <= len(groups)


def name_slug(value: str) -> bool:
    """A run's or a model's name: lower-case parts joined by ``-``, ``_`` or ``.``, most of whose letters are
    words of three or more (``llama-3-8b-instruct``, ``resnet50-lr3e-4-wd0.05-seed1234``), two words at least.
    Not a drawn value (``k3j9xp2m-4qz7w8vb``: letters scattered between digits) nor a UUID."""
    if _SLUG.fullmatch(value) is None or _HEX_PARTS.fullmatch(value) or _app_password(value):
        return False  # (hex digits only: a UUID's "fda"/"ebc" are no words; an app-specific password's groups)
    letters = sum(c.isalpha() for c in value)
    words = [w for w in _WORD_RUN.findall(value) if re.search(r"[aeiouy]", w)]
    return len(words) >= 2 and sum(map(len, words)) * 2 >= letters


def remember_argv(argv: Iterable[str]) -> None:
    """Remember the credentials found in a script's arguments (:func:`argv_secrets`)."""
    for value, kind in argv_secrets(list(argv)).items():
        remember(value, kind)


def remember_code(source: str) -> None:
    """Remember the literals a script binds to secret names (:func:`redact_code`'s rule from names:
    ``SECRET_KEY = "..."``): wherever the value travels (an error message, a call ``minimize`` inlined it
    into), it is a known value. A source read before (the CLI and the run's spec both read the script) is not
    parsed again."""
    digest = hashlib.sha1(source.encode("utf-8", "surrogatepass")).digest() if source else b""
    if digest in _CODE_SEEN:
        return
    tree = _tree(source) if source and len(source) <= 4_000_000 else None
    if tree is None:
        return
    _CODE_SEEN.add(digest)
    for value in named_secret_values(tree):
        whole = [r for a, b, r in _high_spans(value) if (a, b) == (0, len(value))]  # a token of a known format
        remember(value, whole[0][len("<redacted:"):-1] if whole else "secret")
    for value in _literal_findings(tree):
        remember(value)


def remember_output(*texts: str) -> None:
    """Remember what the text rules find in ``texts`` (the original run's output and failure message): a secret
    a run printed or raised is a known value wherever it also stands, the script's literal it came from (code
    gets no guess of its own) and the output of later runs."""
    for text in texts:
        if not text or len(text) > _OUTPUT_READ:
            continue
        out = redact_text(text, home="")
        if out == text:
            continue
        spans = _marker_spans(text, out)
        for a, b, marker in _anchored_marker_spans(text, out) if spans is None else spans:
            value = _SHELL_QUOTE_INSIDE.sub("'", text[a:b])  # (the value a shell word quoted: 'a'"'"'b' is a'b)
            if len(value) > 2 and value[0] == value[-1] and value[0] in "'\"":
                value = value[1:-1]  # (a repr's quotes the marker took: the value travels without them)
            if len(value) < _MIN_KNOWN or "\n" in value:
                continue
            if _credential_made(value):
                remember(value, marker[len("<redacted:"):-1])
            elif _USER_THEN_SECRET.fullmatch(value) \
                    and (_credential_made(secret := value.split(":", 1)[1]) or _long_hex(secret)):
                remember(secret, marker[len("<redacted:"):-1])  # (``-auth user:<token>`` taken whole: the token)


_OUTPUT_READ = 2_000_000  # (characters: a longer log is redacted where it is shown, not read for values here)
_ANCHOR = 24


def _anchored_marker_spans(before: str, after: str) -> list[Span]:
    """Where the markers of ``after`` stand in ``before`` when ``after`` is more than ``before`` with markers
    (a wrapped value joined, colour codes dropped): each marker found between the text beside it, in order, so
    an edit elsewhere loses no marker but those it touches. A value on more than one line is not taken."""
    markers = list(_MARKER.finditer(after))[:4096]
    spans: list[Span] = []
    pos = prev = 0
    lines: dict[int, str] = {}  # (a line's start -> the line redacted: a long line of many markers is redacted once)
    for i, m in enumerate(markers):
        stop = markers[i + 1].start() if i + 1 < len(markers) else len(after)
        left, right = after[max(prev, m.start() - _ANCHOR):m.start()], after[m.end():min(stop, m.end() + _ANCHOR)]
        prev = m.end()
        found = _anchored(before, left, right, pos, lines) if left and right else None
        if found is not None:
            spans.append((*found, m.group(0)))
            pos = found[1]
    return spans


def _anchored(before: str, left: str, right: str, pos: int, lines: dict[int, str]) -> Optional[tuple[int, int]]:
    """The first place from ``pos`` on where ``left``, a value of one line and ``right`` stand and the rules put a
    marker on that value (a few tries: a lookalike line may come first)."""
    at = before.find(left, pos)
    for _ in range(8):
        if at < 0:
            return None
        end = before.find(right, at + len(left))
        if end >= 0 and "\n" not in before[at + len(left):end] and _marked_on_its_line(before, at + len(left), lines, left):
            return at + len(left), end
        at = before.find(left, at + 1)
    return None


def _marked_on_its_line(text: str, at: int, lines: dict[int, str], left: str = "") -> bool:
    """The rules, run on ``at``'s line alone, put a marker at ``at``: the anchors found the value the marker took,
    not a lookalike place elsewhere whose text around it is the same. ``lines``: the lines redacted so far.
    ``left``: the redacted text right before the marker (its anchor); where markers before ``at`` on the line
    changed its length (a list's repr of many secrets), the marker is found after that anchor, not at ``at``."""
    start = text.rfind("\n", 0, at) + 1
    redacted = lines.get(start)
    if redacted is None:
        stop = text.find("\n", at)
        line = text[start:stop if stop >= 0 else len(text)]
        redacted = lines[start] = redact_text(line, home="") if len(line) <= 20_000 else ""
    if redacted[at - start:].startswith("<redacted"):
        return True
    anchor = left.rpartition("\n")[2]
    return len(anchor) >= 8 and anchor + "<redacted" in redacted


def _literal_findings(tree: object) -> list[str]:
    """The secrets the rules read from context inside the script's string literals (``"ENV NAME_APIKEY <value>"``,
    ``"--db-password=<value>"``): the value travels without its context (joined into a message, inlined by
    ``minimize``), so it is a known value too."""
    import ast

    found = []
    for node in ast.walk(tree):  # type: ignore[arg-type]
        text = _literal_text(node)
        if text is None or not 8 <= len(text) <= 4096:
            continue
        view = _literal_view(text)
        spans = _string_keyword_spans(view)
        if not spans:
            continue
        high = _high_spans(view)  # (a token, a key block: the patterns find it wherever it goes)
        found += [value for a, b, _ in spans if b - a >= _MIN_KNOWN and not any(a < d and c < b for c, d, _ in high)
                  and _credential_made(value := view[a:b])]
    return found


def _credential_made(value: str) -> bool:
    """A value with a credential's make-up on its own (a known value is removed wherever it appears, so a name
    or a word that a rule took with it, ``NAME=``, must not become one)."""
    if value.endswith(":") or _env_name_shaped(value):
        return False
    if _CRYPT_FORM.fullmatch(value):
        return True  # (Junos' $9$ encoding of a password, a crypt(3) hash: what a rule took is no word)
    if _random_body(value) or password_made(value) or _password_shaped(value):
        return not value.endswith("=") or _encoded_credential(value) or _padded_key(value)
    # (a token that is a UUID: npm's, Consul's; a random key's base64 with its padding)
    return _encoded_credential(value) or _UUID.fullmatch(value) is not None or _padded_key(value)


_CRYPT_FORM = _rx(r"\$[0-9a-z]{1,2}\$[A-Za-z0-9./$\-]{8,}")
_USER_THEN_SECRET = _rx(r"[A-Za-z0-9_.@\-]{1,64}:[^\s:]{8,512}")


def _padded_key(value: str) -> bool:
    """Base64 of random bytes with its padding (a Ceph keyring's ``AQ…==``, a TSIG secret): no name ends so."""
    return re.fullmatch(r"[A-Za-z0-9+/]{18,}={1,2}", value) is not None \
        and (looks_random(re.sub(r"[+/=]", "", value)) or _binary_base64(value))


_BASE64_TEXT = _rx(r"(?:[A-Za-z0-9+/]{4}){3,4096}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _encoded_credential(value: str) -> bool:
    """Base64 of a credential (a Basic header's ``user:password``, an encoded key): what a rule took as the value
    of an encoding it decoded."""
    decoded = _b64_text(value) if _BASE64_TEXT.fullmatch(value) else None
    if not decoded:
        return False
    user, colon, password = decoded.partition(":")
    return _credential_text(decoded) or bool(colon and user and " " not in user and _credential_made(password))


def known_values(env: Optional[Mapping[str, str]] = None, extra: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """Every known secret (value -> kind): the register, ``env``'s (default: this process's environment)
    and ``extra``."""
    found = {v: k for v, k in env_secrets(os.environ if env is None else env).items()
             if len(v) >= _MIN_KNOWN and not _TRIVIAL.match(v)}
    for source in (_KNOWN.values, extra or {}):
        for value, kind in source.items():
            if len(value) >= _MIN_KNOWN and not _TRIVIAL.match(value):
                found.setdefault(value, kind)
    return found


def _b64_cores(data: bytes) -> list[str]:
    """Base64 texts that appear wherever ``data`` is inside a longer base64 text, whatever the alignment
    (standard and URL-safe alphabets), and the standalone encodings."""
    out = []
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(data).decode("ascii")
        out += [whole, whole.rstrip("=")]
        for k in range(3):
            enc = encode(b"\0" * k + data).decode("ascii")
            start = 4 if k else 0
            stop = 4 * ((k + len(data)) // 3)
            out.append(enc[start:stop])
    return out


def _shell_quoted(value: str) -> str:
    """``value`` as ``shlex.quote`` writes it into a command line (a ``'`` inside becomes ``'"'"'``)."""
    import shlex

    return shlex.quote(value)


def _escaped_forms(value: str, data: bytes) -> list[str]:
    """``value`` written one escape per byte or per character, in both cases of hex."""
    units = value.encode("utf-16-be", "surrogatepass")
    u16 = [units[i:i + 2].hex() for i in range(0, len(units), 2)]
    out = []
    for case in (str.lower, str.upper):
        out += [case("".join(f"%{b:02x}" for b in data)), case(":".join(f"{b:02x}" for b in data)),
                "".join("\\u" + case(u) for u in u16),
                case(units.hex()), case(value.encode("utf-16-le", "surrogatepass").hex()),  # (a wchar dump)
                *(sep.join("0x" + case(f"{b:02x}") for b in data) for sep in (", ", ","))]  # (a C array's bytes)
    return out


@functools.lru_cache(maxsize=4096)
def _variants(value: str) -> tuple[str, ...]:
    """``value`` and its cheap encodings, longest first; derived ones shorter than 8 characters are left
    out (a short base64 core matches anywhere)."""
    derived: set[str] = set()
    data = value.encode("utf-8", "surrogatepass")
    derived.update(_b64_cores(data))  # of user:pw too: HTTP Basic auth sends it so
    derived.update({urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value), urllib.parse.quote(value),
                    json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1],
                    json.dumps(value)[1:-1].replace("/", "\\/"),  # (PHP's and Java's encoders escape "/")
                    json.dumps(json.dumps(value))[3:-3], data.hex(), data.hex().upper(),
                    repr(value)[1:-1], repr(value + '"')[1:-2], _shell_quoted(value),
                    repr(data)[2:-1],  # (a bytes repr: b'caf\xc3\xa9')
                    # what gets a value past a CI log's masking: spaced out, reversed, URL-encoded twice, base32
                    " ".join(value), value[::-1], urllib.parse.quote(urllib.parse.quote(value, safe=""), safe=""),
                    base64.b32encode(data).decode().rstrip("="),
                    # every byte %-escaped, a fingerprint's colon-joined hex, every character \u-escaped (HTML-safe
                    # JSON writers), and base64 of UTF-16-LE (PowerShell's -EncodedCommand)
                    *_escaped_forms(value, data)})
    derived.update(_b64_cores(value.encode("utf-16-le", "surrogatepass")))
    derived.update(_b64_cores(value.encode("utf-16-be", "surrogatepass")))  # (Java's getBytes(UTF_16BE))
    found = {value} | {d for d in derived if len(d) >= 8} | set(_cut_forms(value))
    return tuple(sorted(found, key=len, reverse=True))


# a drawn value's part that still says too much: 12 characters of it or more (a key's first 12 shown to name it,
# ``key[:24]`` in a log, the last 16 as "ending in ..."); up to 64, where a longer one's whole is found anyway
_SHORTEST_CUT, _LONGEST_CUT = 12, 64


def _cut_forms(value: str) -> list[str]:
    """A drawn value (:func:`_random_body`, 20+ characters) cut: its prefixes and suffixes of
    :data:`_SHORTEST_CUT` characters and more, and the value in upper and in lower case (``key.upper()``); a
    written one (a password of words, a URL) has none, its parts are other texts' too."""
    if not 20 <= len(value) <= 512 or not _random_body(value) or shannon_entropy(value) < 3.0:
        return []  # (0b1c repeated is 32+ hex digits, not drawn)
    longest = min(len(value) - 1, _LONGEST_CUT)
    # (a prefix counts its characters after the vendor's words, ghp_, github_pat_, sk-proj-: another key's
    # first 12 would be that key's kind and a digit, and cut off, the rest of it no longer reads as a token)
    lead = len(_VENDOR_LEAD.match(value).group(0))  # type: ignore[union-attr]
    prefixes = [value[:k] for k in range(lead + _SHORTEST_CUT, longest + 1)]
    return prefixes + [value[-k:] for k in range(_SHORTEST_CUT, longest + 1)] + [value.upper(), value.lower()]


_VENDOR_LEAD = _rx(r"(?:[A-Za-z]{1,12}[_\-])*")


# A known value shorter than this is not one: replaced wherever it appears, a password "p" would take every "p" of
# every text (a URL's raw password cut at its first "@" gave one)
_SHORTEST_KNOWN = 4


@functools.lru_cache(maxsize=64)
def _known_table(items: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(variant, marker) of every known value, longest first."""
    table: dict[str, str] = {}
    for value, kind in items:
        if len(value) < _SHORTEST_KNOWN:
            continue
        for variant in _variants(value):
            table.setdefault(variant, _mark(kind))
    return tuple(sorted(table.items(), key=lambda kv: len(kv[0]), reverse=True))


def _merged(table: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``table`` with the (variant, marker) pairs of ``extra`` added, longest first (as :func:`_known_table`)."""
    if not extra:
        return table
    return tuple(sorted(set(table) | set(extra), key=lambda kv: len(kv[0]), reverse=True))


def _table(known: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return _known_table(tuple(sorted(known.items()))) if known else ()


def _known_spans(text: str, table: tuple[tuple[str, str], ...]) -> list[Span]:
    spans: list[Span] = []
    for variant, marker in table:
        start = text.find(variant)
        while start >= 0:
            spans.append((start, start + len(variant), marker))
            start = text.find(variant, start + len(variant))
    return spans


def _replace_known(text: str, table: tuple[tuple[str, str], ...]) -> str:
    for variant, marker in table:
        if variant in text:
            text = text.replace(variant, marker)
    return text


# --------------------------------------------------------------------------- line wraps

# (and what quotes each line of a block: pytest's "E   " before a failure's lines, "> ")
_BREAK = _rx(r"[ \t]+(?:\\?\r?\n|\\n\ue005?)(?:E[ \t]{2,8}|>[ \t])?[ \t]*"
                    r"|(?:\\?\r?\n|\\n\ue005?)(?:E[ \t]{2,8}|>[ \t])?[ \t]*")


class _Joined:
    """``text`` with its line breaks (and the indentation around them) removed, to find a value a wrap
    split; positions map back to ``text``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.view = _BREAK.sub("", text)
        self._starts: Optional[list[int]] = None
        self._removed: list[int] = [0]

    def _index(self) -> None:
        starts, removed = [], [0]
        for m in _BREAK.finditer(self.text):
            starts.append(m.start() - removed[-1])
            removed.append(removed[-1] + m.end() - m.start())
        self._starts, self._removed = starts, removed

    def spans_break(self, start: int, end: int) -> bool:
        if self._starts is None:
            self._index()
        assert self._starts is not None
        return bisect.bisect_right(self._starts, start) != bisect.bisect_right(self._starts, end - 1)

    def breaks_within(self, start: int, end: int) -> list[tuple[int, int]]:
        """(position in the view, length of the line it ended) of the breaks between ``start`` and ``end``."""
        if self._starts is None:
            self._index()
        assert self._starts is not None
        lo, hi = bisect.bisect_right(self._starts, start), bisect.bisect_left(self._starts, end)
        out = []
        for k in range(lo, hi):
            at = self._starts[k] + self._removed[k]  # where the break starts in the text
            out.append((self._starts[k], at - (self.text.rfind("\n", 0, at) + 1)))
        return out

    def original(self, start: int, end: int) -> tuple[int, int]:
        if self._starts is None:
            self._index()
        assert self._starts is not None
        lo = start + self._removed[bisect.bisect_right(self._starts, start)]
        hi = end - 1 + self._removed[bisect.bisect_right(self._starts, end - 1)] + 1
        return lo, hi


def _next_line_goes_on(text: str, at: int) -> bool:
    """After ``at`` (the end of a value joined across a line break), does its line go on with more words?"""
    stop = text.find("\n", at)
    rest = text[at:stop if stop >= 0 else len(text)]
    return rest[:1] in (" ", "\t") and bool(rest.strip())


def _wrapped_spans(text: str, table: tuple[tuple[str, str], ...], patterns: bool) -> list[Span]:
    """Known values (and, with ``patterns``, high-confidence tokens) that a line break splits."""
    if "\n" not in text and "\\n" not in text:  # no newline, real or JSON-escaped
        return []
    joined = _Joined(text)
    if joined.view == text:
        return []
    spans: list[Span] = []
    for start, end, marker in _known_spans(joined.view, tuple(v for v in table if len(v[0]) >= 8)):
        if joined.spans_break(start, end):
            lo, hi = joined.original(start, end)
            spans.append((lo, hi, marker))
    if patterns:
        for kind, pattern in _prefix_tokens(joined.view):
            for m in pattern.finditer(joined.view):
                if joined.spans_break(m.start(), m.end()) and _token_ok(kind, joined.view, m):
                    spans += _wrapped_token(text, joined, pattern, m, _mark(kind))
    return spans


def _wrapped_token(text: str, joined: _Joined, pattern: re.Pattern[str], m: re.Match[str], marker: str) -> list[Span]:
    """The spans of ``text`` a token ``m`` of the joined view covers, which a line break splits."""
    view = joined.view
    # a wrap fills its lines: a line shorter than the first one ended the token, when it is whole there
    # (the next line's words are not part of it)
    breaks = joined.breaks_within(m.start(), m.end())
    end = next((c for c, length in breaks[1:] if length < breaks[0][1] and pattern.fullmatch(view, m.start(), c)),
               m.end())
    first = breaks[0][0]
    if _NEXT_NAME.match(view, first, end):  # (NAME=... on the next line: its own assignment, never a tail)
        return [(*joined.original(m.start(), first), marker)] if pattern.fullmatch(view, m.start(), first) else []
    spans: list[Span] = []
    if not _token_tail(view[first:end]) or _CALLED.match(view, end):  # the next line starts something else (--api-key, a date)
        if pattern.fullmatch(view, m.start(), first) or first - m.start() < 12:
            return []  # whole on its line (the line's own rules take it), or too short to be one
        end = first  # the head of a token a logger wrapped (its tail is past the next line's prefix)
        tail = _tail_after_prefix(text, joined.original(m.start(), end)[1])
        if tail:
            spans.append((*tail, marker))
    if end < len(view) and view[end] in "=:":
        # the last piece is a name being assigned on the next line (NAME=value), not the token's tail
        end = max(c for c, _ in breaks if c < end)
        if end == breaks[0][0] or not pattern.fullmatch(view, m.start(), end):
            return spans
    lo, hi = joined.original(m.start(), end)
    if _next_line_goes_on(text, hi) and pattern.fullmatch(view, m.start(), breaks[0][0]):
        # whole on its first line, and the next line's first word is followed by more words: that
        # word is the next line's own (a log's date, a --flag), not the token's tail
        return spans + [(lo, joined.original(m.start(), breaks[0][0])[1], marker)]
    return spans + [(lo, hi, marker)]


_LINE_BREAK = _rx(r"\r?\n|(?:\\r)?\\n\ue005?")
_NEXT_NAME = _rx(r"[A-Za-z_][A-Za-z0-9_.\-]{0,80}[ \t]{0,3}[=:](?![=:])[ \t]{0,3}(?=\S)")  # (not a base64 tail's "=" pad)


def _tail_after_prefix(text: str, at: int) -> Optional[tuple[int, int]]:
    """A token's head ends its line at ``at`` and the next line repeats the line's start (a logger's timestamp
    and level: ``2026-03-14 09:00:01,123 INFO (cont) <tail>``): where the tail is, the first random word after
    the repeated part (within the next line's first 80 characters), or None."""
    # (a line break, real or escaped in a repr or JSON: "...\\n2026-03-14 ... (cont) <tail>")
    before = [m.end() for m in _LINE_BREAK.finditer(text, max(0, at - 400), at)]
    line_start = before[-1] if before else (text.rfind("\n", 0, at) + 1)
    brk = _LINE_BREAK.search(text, at)
    if brk is None or text[at:brk.start()].strip():
        return None
    nxt = brk.end()
    stop = _LINE_BREAK.search(text, nxt)
    line, following = text[line_start:at], text[nxt:stop.start() if stop else len(text)]
    common = len(os.path.commonprefix([line, following]))
    if common < 8:  # the logger's part may come after another prefix on the token's line ("out: 2026-03-14 ...")
        common = 12 if len(following) >= 12 and following[:12].strip() and following[:12] in line else 0
    if common < 8:
        return None
    for m in re.finditer(r"(?<![^\s(\[{'\"])[A-Za-z0-9_\-+/=.~]{8,}", following[common:common + 80]):
        if _token_tail(m.group(0)):
            start = nxt + common + m.start()
            return start, start + len(m.group(0))
    return None


_CAMEL_WORDS = _rx(r"(?:[A-Z][a-z]{2,}){2,6}")
_CALLED = _rx(r"\(|\.[A-Za-z_]\w{0,60}\(")  # what follows a name that is called: foo(, Client.create(


def _token_tail(piece: str) -> bool:
    """What a wrap carried to the next line of a token: random text (letters with digits or both cases), not
    an option (``--api-key``), a date or a word."""
    piece = re.split(r"[\s]", piece, maxsplit=1)[0]
    if re.fullmatch(r"-{1,2}[A-Za-z][a-z]*(?:-[a-z]+)*|[0-9:\-.,/+]+|[A-Za-z][a-z]+", piece):
        return False  # an option (--api-key, -w), a date or number, a word
    if _CAMEL_WORDS.fullmatch(piece) and all(_sayable(w) for w in re.findall(r"[A-Z][a-z]+", piece)):
        return False  # a name made of words (SearchClient, DataLoader): the next line's code, not a tail
    digits, letters = re.search(r"[0-9]", piece), re.search(r"[A-Za-z]", piece)
    return bool((digits and letters) or (re.search(r"[a-z]", piece) and re.search(r"[A-Z]", piece)))


def _apply(text: str, spans: list[Span]) -> str:
    """Replace the spans (the first and longest wins where they overlap)."""
    if not spans:
        return text
    spans.sort(key=lambda s: (s[0], -s[1]))
    parts, pos = [], 0
    for start, end, replacement in spans:
        if start < pos:
            if end > pos and replacement.startswith("<redacted"):  # overlapping secrets: cover the rest too
                pos = end
            continue
        parts += [text[pos:start], replacement]
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


# --------------------------------------------------------------------------- (b) private keys

# PEM (RFC 7468) and SSH2 (RFC 4716: "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----") armour
_PEM_BEGIN = _rx(r"(?P<dash>-----|---- )BEGIN (?P<label>[A-Z0-9 ]{0,40})PRIVATE KEY(?P<block> BLOCK)?(?:-----| ----)")
# the end of a block whose beginning is not in the text (clipped output): the key lines before it go too
_PEM_ORPHAN_END = _rx(
    r"(?:^[ \t]*(?:[A-Za-z0-9+/=]{16,200}|=[A-Za-z0-9+/]{2,8})[ \t]*\r?\n){1,600}"
    r"[ \t]*(?:-----|---- )END (?:[A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)?(?:-----| ----)",
    re.MULTILINE,
)
# body lines after a header whose END marker is missing (log cut off); JSON-escaped newlines too
# (a piece a time follows is no body line: glog's ``I1203 07:05:33.057123`` that leads the next record)
_PEM_BODY = _rx(  # (escaped once in JSON, twice in the repr of a JSON text)
    r"(?:[ \t]*(?:\r?\n|(?:\\{1,2}r)?\\{1,2}n)[ \t]*"
    r"(?:[A-Za-z0-9+/=]{1,200}(?=\s|$|\\|[\"'])(?![ \t]+[0-9]{1,2}:[0-9]{2})"
    r"|[A-Za-z\-]{1,40}: [^\n\\]{0,200}|(?=\r?\n|\\{1,2}n)))*"
)
_PEM_MAX_BYTES = 32768
# what a block holds between its BEGIN and END lines: base64 lines, escaped line breaks, headers (Proc-Type,
# DEK-Info, Comment: "user@host"), never a marker, another block's BEGIN or other text (the END of another block,
# far below)
# — also behind a comment's or a quote's prefix: "# ", "> ", "// "
_PEM_INSIDE = _rx(r"(?:(?!BEGIN )[A-Za-z0-9+/=\s\\\"':,.@_\-()#>|*;!])*")
_B64_RUN = _rx(r"(?:[A-Za-z0-9+/_\-=]|(?:\\r)?\\n(?=[A-Za-z0-9+/]{16})|\r?\n(?=[A-Za-z0-9+/]{16}))+")


def _b64_needles(phrase: bytes) -> list[str]:
    return [c for c in _b64_cores(phrase) if len(c) >= 8]


_PEM_B64 = _b64_needles(b"PRIVATE KEY-----")


_PUTTY = _rx(r"PuTTY-User-Key-File-[0-9]: .{0,20000}?Private-(?:MAC|Hash): [0-9a-fA-F]{8,128}", re.DOTALL)


# OpenVPN's static key (``--secret``, ``tls-auth``, ``tls-crypt``): 2048 bits as hex lines between its markers
_OPENVPN_KEY = _rx(r"-----BEGIN OpenVPN Static key V1-----(?:\s|\\{1,2}[rn]|[0-9a-fA-F]){16,8192}?"
                   r"-----END OpenVPN Static key V1-----")


def _pem_spans(text: str) -> list[Span]:
    """PEM private key blocks, also JSON-escaped and base64-encoded; PuTTY key files; OpenVPN static keys."""
    spans: list[Span] = []
    marker = _mark("private-key")
    if "OpenVPN Static key" in text:
        spans += [(m.start(), m.end(), marker) for m in _OPENVPN_KEY.finditer(text)]
    if "PuTTY-User-Key-File-" in text:
        spans += [(m.start(), m.end(), marker) for m in _PUTTY.finditer(text)]
    if "PRIVATE KEY" in text:
        for m in _PEM_BEGIN.finditer(text):
            end_marker = f"{m['dash']}END {m['label']}PRIVATE KEY{m['block'] or ''}{m['dash'][::-1]}"
            end = text.find(end_marker, m.end(), m.end() + _PEM_MAX_BYTES)
            if end >= 0 and not _PEM_INSIDE.fullmatch(text, m.end(), end):
                end = -1  # not this block's end (a part of it was replaced already): its body's end is
            stop = end + len(end_marker) if end >= 0 else _PEM_BODY.match(text, m.end()).end()
            spans.append((m.start(), stop, marker))
        if "-----END " in text or "---- END " in text:
            spans += [(m.start(), m.end(), marker) for m in _PEM_ORPHAN_END.finditer(text)]
    for needle in _PEM_B64:
        pos = text.find(needle)
        while pos >= 0:
            start = pos
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "+/_-"):
                start -= 1
            run = _B64_RUN.match(text, start)
            stop = run.end() if run else pos + len(needle)
            spans.append((start, max(stop, pos + len(needle)), marker))
            pos = text.find(needle, stop)
    return spans


# --------------------------------------------------------------------------- (b) token shapes

_E = r"(?![A-Za-z0-9_\-])"  # the token ends here


def _tok(kind: str, body: str, end: bool = True) -> tuple[str, re.Pattern[str]]:
    # no look-behind in front: a pattern that starts with its literal prefix is searched for as fast as
    # str.find; that the match does not start inside a longer word is checked by _starts_word
    return kind, _rx(body + (_E if end else ""))


def _starts_word(text: str, start: int) -> bool:
    # (tokens are ASCII: a letter such as "é" glued to one does not continue it)
    return start == 0 or not ((text[start - 1].isascii() and text[start - 1].isalnum()) or text[start - 1] in "_-")


# High-confidence shapes: a vendor prefix (or structure) plus a token. Order: more specific first.
_PREFIX_TOKENS: list[tuple[str, re.Pattern[str]]] = [
    _tok("github-token", r"gh[pousr]_[A-Za-z0-9]{30,255}"),
    _tok("github-token", r"github_pat_[A-Za-z0-9_]{30,255}"),
    _tok("huggingface-token", r"hf_[A-Za-z0-9]{30,100}"),
    _tok("aws-access-key-id", r"(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"),
    _tok("volcengine-access-key", r"AKLT[A-Za-z0-9_\-]{32,64}"),  # Volcengine's access key id ("ak")
    # an STS session token: base64 of a protobuf that begins "!\n\torigin_ec" (IQoJb3JpZ2luX2Vj), older "FwoGZXIvYXdz"
    _tok("aws-session-token", r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE)[A-Za-z0-9/+]{16,4096}={0,2}"),
    _tok("anthropic-key", r"sk-ant-(?:api|admin|oat|sid)?[0-9]{0,2}-?[A-Za-z0-9_\-]{20,300}"),
    _tok("openai-key", r"sk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_\-]{0,300}[0-9])[A-Za-z0-9_\-]{20,300}"),
    _tok("stripe-access-key", r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,255}"),
    _tok("stripe-access-key", r"whsec_[A-Za-z0-9]{24,255}"),
    _tok("slack-token", r"xox[abposre]-[A-Za-z0-9\-]{10,250}"),
    _tok("slack-token", r"xapp-[0-9]-[A-Za-z0-9\-]{10,250}"),
    _tok("slack-token", r"xoxe\.xox[bp]-[0-9]-[A-Za-z0-9]{100,250}"),
    ("slack-webhook", _rx(r"(?<=hooks\.slack\.com/)(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{8,300}")),
    ("discord-webhook", _rx(r"(?:(?<=discord\.com/api/webhooks/)|(?<=discordapp\.com/api/webhooks/))"
                                   r"[0-9]{5,30}/[A-Za-z0-9_\-]{20,200}")),
    _tok("google-api-key", r"AIza[0-9A-Za-z_\-]{35}", end=False),
    _tok("google-oauth-token", r"ya29\.[0-9A-Za-z_\-]{20,2048}"),
    _tok("vault-token", r"hv[sbr]\.[A-Za-z0-9_\-]{20,400}"),
    _tok("gitlab-token", r"gl(?:pat|dt|ft|soat|rt|cbt|ptt|imt|oas|agent|ffct|wt)-[A-Za-z0-9_\-]{20,1024}"
                         r"(?:\.[0-9a-z]{9})?"),
    _tok("gitlab-token", r"GR1348941[A-Za-z0-9_\-]{20,50}"),
    _tok("databricks-token", r"dapi[a-f0-9]{32}(?:-[0-9]{1,2})?"),
    _tok("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}"),
    _tok("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    _tok("grafana-token", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    _tok("grafana-token", r"glc_[A-Za-z0-9+/]{32,400}={0,2}", end=False),
    _tok("grafana-token", r"eyJrIjoi[A-Za-z0-9+/]{30,400}={0,2}", end=False),
    _tok("doppler-token", r"dp\.(?:st|sa|ct|pt|scim|audit)\.[A-Za-z0-9_.\-]{20,200}"),
    _tok("postman-key", r"PMAK-[A-Za-z0-9]{20,40}-[A-Za-z0-9]{20,40}"),
    _tok("npm-token", r"npm_[A-Za-z0-9]{36}"),
    _tok("pypi-token", r"pypi-[A-Za-z0-9_\-]{50,}"),
    _tok("age-secret-key", r"AGE-SECRET-KEY-1[0-9A-Z]{50,70}"),
    _tok("docker-token", r"dckr_pat_[A-Za-z0-9_\-]{20,100}"),
    _tok("sentry-token", r"sntry[su]_[A-Za-z0-9+/=_\-]{30,400}"),
    _tok("newrelic-key", r"NRAK-[A-Z0-9]{27}"),
    _tok("linear-key", r"lin_api_[A-Za-z0-9]{40}"),
    _tok("atlassian-token", r"ATATT3[A-Za-z0-9_\-=]{50,300}"),
    _tok("rubygems-key", r"rubygems_[a-f0-9]{48}"),
    _tok("groq-key", r"gsk_[A-Za-z0-9]{40,60}"),
    _tok("xai-key", r"xai-[A-Za-z0-9]{60,100}"),
    _tok("replicate-token", r"r8_[A-Za-z0-9]{37}"),
    _tok("perplexity-key", r"pplx-[A-Za-z0-9]{40,60}"),
    _tok("notion-token", r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,50})"),
    _tok("mapbox-token", r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{10,}"),
    _tok("square-token", r"sq0(?:csp|atp)-[0-9A-Za-z_\-]{22,43}"),
    _tok("tailscale-key", r"tskey-[a-z]+-[A-Za-z0-9]{10,}-[A-Za-z0-9]{10,}"),
    _tok("mailgun-key", r"key-[a-f0-9]{32}"),
    _tok("langsmith-key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    _tok("artifactory-key", r"AKCp[0-9][A-Za-z0-9]{60,80}"),
    _tok("telegram-bot-token", r"[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}"),
    # 1Password service accounts: ops_ and base64url of a JSON object; Infisical service tokens: st.<uuid>.<hex>.<hex>
    _tok("1password-token", r"ops_eyJ[A-Za-z0-9+/=_\-]{80,4096}"),
    _tok("infisical-token", r"st\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9a-f]{32}\.[0-9a-f]{32}"),
    _tok("google-client-secret", r"GOCSPX-[A-Za-z0-9_\-]{24,64}"),
    _tok("google-refresh-token", r"1//0[A-Za-z0-9_\-]{40,512}"),
    _tok("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    # Vendor formats from the public catalogues of secret scanners (gitleaks' rule list, MongoDB Kingfisher's
    # rules): a vendor's own prefix or structure, its character set and length; keyword-only rules left out
    _tok("1password-token", r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    _tok("1password-token", r"ops_eyJ[A-Za-z0-9+/]{250,4096}={0,3}", end=False),
    _tok("adafruit-key", r"aio_[A-Za-z0-9]{28}"),
    _tok("adobe-client-secret", r"p8e-[A-Za-z0-9\-]{32}"),
    _tok("airtable-token", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    _tok("alibaba-access-key", r"LTAI[A-Za-z0-9]{20}"),
    _tok("tencent-access-key", r"AKID[A-Za-z0-9]{32}"),
    _tok("artifactory-key", r"cmVmd[A-Za-z0-9]{59}"),
    _tok("aws-bedrock-key", r"ABSK[A-Za-z0-9+/]{109,269}={0,2}", end=False),
    _tok("bitbucket-token", r"ATBB[A-Za-z0-9_\-=]{28,100}"),
    _tok("buildkite-token", r"bkua_[a-z0-9]{40}"),
    _tok("circleci-token", r"CCIPAT_[A-Za-z0-9]{20,30}_[A-Za-z0-9]{40}"),
    _tok("clickup-token", r"pk_[0-9]{7,8}_[0-9A-Z]{32}"),
    _tok("clojars-token", r"CLOJARS_[a-zA-Z0-9]{60}"),
    _tok("cloudflare-origin-ca-key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    _tok("contentful-token", r"CFPAT-[A-Za-z0-9_\-]{43}"),
    _tok("dependency-track-key", r"odt_[A-Za-z0-9]{32,255}"),
    _tok("dropbox-token", r"sl\.[A-Za-z0-9_\-=.]{130,2048}", end=False),
    _tok("duffel-token", r"duffel_(?:test|live)_[A-Za-z0-9_\-=]{43}"),
    _tok("dynatrace-token", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
    _tok("easypost-key", r"EZ[AT]K[A-Za-z0-9]{54}"),
    _tok("facebook-token", r"EAA[MC][A-Za-z0-9]{100,1024}"),
    _tok("figma-token", r"figd_[A-Za-z0-9_\-]{40,100}"),
    _tok("firebase-server-key", r"AAAA[A-Za-z0-9_\-]{7}:[A-Za-z0-9_\-]{100,250}"),
    _tok("flutterwave-key", r"FLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{12,32}(?:-X)?"),
    _tok("flyio-token", r"(?:fo1_[A-Za-z0-9_\-]{43}|fm1[ar]_[A-Za-z0-9+/]{100,2048}={0,3}|fm2_[A-Za-z0-9+/]{100,2048}={0,3})",
         end=False),
    _tok("frameio-token", r"fio-u-[A-Za-z0-9\-_=]{64}"),
    _tok("harness-token", r"[ps]at\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"),
    _tok("heroku-key", r"HRKU-AA[0-9A-Za-z_\-]{58}"),
    _tok("huggingface-token", r"api_org_[A-Za-z]{34}"),
    _tok("infracost-token", r"ico-[A-Za-z0-9]{32}"),
    _tok("intra42-secret", r"s-s4t2(?:ud|af)-[a-f0-9]{64}"),
    _tok("ionic-token", r"ion_[a-z0-9]{42}"),
    _tok("mongodb-atlas-key", r"mdb_sa_sk_[0-9A-Za-z_\-]{40}"),
    _tok("nuget-key", r"oy2[a-z0-9]{43}"),
    _tok("nvidia-key", r"nvapi-[A-Za-z0-9_\-]{64}"),
    _tok("octopus-key", r"API-(?=[A-Z]{0,25}[0-9])[A-Z0-9]{26}"),
    _tok("openshift-token", r"sha256~[A-Za-z0-9_\-]{43}"),
    _tok("pagarme-key", r"ak_live_[A-Za-z0-9]{30}"),
    _tok("pinecone-key", r"pcsk_[A-Za-z0-9]{3,10}_[A-Za-z0-9]{30,120}"),
    _tok("planetscale-token", r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.\-]{32,64}"),
    _tok("posthog-key", r"phx_[A-Za-z0-9]{40,60}"),
    _tok("prefect-token", r"pnu_[A-Za-z0-9]{36}"),
    _tok("pulumi-token", r"pul-[a-f0-9]{40}"),
    _tok("readme-token", r"rdme_[a-z0-9]{70}"),
    _tok("scalingo-token", r"tk-us-[A-Za-z0-9_\-]{48}"),
    _tok("sendinblue-key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    _tok("settlemint-token", r"sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}"),
    _tok("shippo-token", r"shippo_(?:live|test)_[a-fA-F0-9]{40}"),
    _tok("sonarqube-token", r"sq[pua]_[a-f0-9]{40}"),
    _tok("sourcegraph-token", r"sgp_(?:(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|[A-Za-z0-9]{40,64})"),
    _tok("sourcegraph-token", r"slk_[a-f0-9]{64}"),
    _tok("square-token", r"EAAA[A-Za-z0-9_\-]{56,60}"),
    _tok("stackhawk-key", r"hawk\.[A-Za-z0-9_\-]{20}\.[A-Za-z0-9_\-]{20}"),
    _tok("supabase-token", r"sbp_[A-Za-z0-9]{40}"),
    _tok("twilio-key", r"SK[0-9a-fA-F]{32}"),
    _tok("typeform-token", r"tfp_[A-Za-z0-9_\-.=]{40,59}"),
    _tok("ubidots-token", r"BBFF-[0-9A-Za-z]{30}"),
    _tok("voiceflow-key", r"VF\.(?:(?:DM|WS)\.)?[a-fA-F0-9]{24}\.[A-Za-z0-9]{16}"),
    _tok("zoho-token", r"1000\.[a-f0-9]{32}\.[a-f0-9]{32}"),
    # more from the same catalogues (gitleaks, Kingfisher, Nosey Parker): AI inference vendors, registries,
    # payment and observability services
    _tok("together-key", r"tgp_v1_[A-Za-z0-9_\-]{40,64}"),
    _tok("fireworks-key", r"fw_(?=[A-Za-z0-9]{0,63}[0-9])(?=[A-Za-z0-9]{0,63}[A-Z])(?=[A-Za-z0-9]{0,63}[a-z])"
                          r"[A-Za-z0-9]{20,64}"),
    _tok("elevenlabs-key", r"sk_[a-f0-9]{48}"),
    _tok("cratesio-token", r"cio(?=[A-Za-z0-9]{0,31}[0-9])(?=[A-Za-z0-9]{0,31}[A-Z])[A-Za-z0-9]{32}"),
    _tok("braintree-token", r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}"),
    _tok("newrelic-key", r"NR(?:II|JS|RA|SP)-[A-Za-z0-9\-]{19,40}"),
    _tok("rancher-token", r"kubeconfig-u-[a-z0-9]{5,16}:[a-z0-9]{54,64}"),
    _tok("rancher-token", r"token-[a-z0-9]{5}:[a-z0-9]{54,64}"),
    # HubSpot private app tokens (pat-<region><n>-<uuid>)
    _tok("hubspot-token", r"pat-(?:na|eu|ap)[0-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    _tok("discord-bot-token", r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}"),
    _tok("woocommerce-key", r"c[ks]_[a-f0-9]{40}"),  # WooCommerce's REST consumer key and secret
    # a Windows product key: five groups of five from its alphabet (no vowels, no 0, 1, 5)
    _tok("product-key", r"(?:[BCDFGHJKMNPQRTVWXY2346789]{5}-){4}[BCDFGHJKMNPQRTVWXY2346789]{5}"),
    # a BIP32 extended private key (Bitcoin's xprv, testnet's tprv; SLIP-132's yprv/zprv): base58, 111 characters
    *(_tok("wallet-key", head + r"prv[1-9A-HJ-NP-Za-km-z]{100,112}") for head in "xtyz"),
    # Docker Swarm's join token, k3s/RKE2's node token (K10<hex>::<user>:<password>)
    _tok("swarm-token", r"SWMTKN-1-[0-9a-z]{40,60}-[0-9a-z]{20,30}"),
    _tok("k3s-token", r"K10[0-9a-f]{40,128}::[A-Za-z0-9_.\-]{1,64}:[A-Za-z0-9]{8,128}"),
]
# Shapes without a literal prefix of their own (the needle they need is checked first): HashiCorp Terraform
# Cloud/Vagrant tokens (``<14>.atlasv1.<60+>``), Azure AD client secrets (``<3><digit>Q~<31-34>``), MaxMind
# license keys (``<6>_<29>_mmk``), Mailchimp keys (``<32 hex>-us<dc>``)
_SHAPED_TOKENS: list[tuple[str, str, re.Pattern[str]]] = [
    ("terraform-token", ".atlasv1.", _rx(r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,70}" + _E)),
    ("azure-client-secret", "Q~", _rx(r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])")),
    ("maxmind-key", "_mmk", _rx(r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk" + _E)),
    ("mailchimp-key", "-us", _rx(r"[a-f0-9]{32}-us[0-9]{1,2}" + _E)),
    ("newrelic-key", "NRAL", _rx(r"[a-z0-9]{6}[a-f0-9]{30}NRAL" + _E)),  # a license key
    ("azure-devops-token", "AZDO", _rx(r"[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}" + _E)),  # a PAT (84)
    # Asana personal access tokens (<version>/<user id>/<app id>:<32 hex>; the older 1/<id>:<32 hex>)
    ("asana-token", ":", _rx(r"[12]/[0-9]{8,19}(?:/[0-9]{8,19})?:[0-9a-f]{32}" + _E)),
    # Zhipu (GLM) API keys: <32 hex id>.<16 random letters and digits>
    ("zhipu-key", ".", _rx(r"[0-9a-f]{32}\.(?=[A-Za-z0-9]{0,15}[0-9])(?=[A-Za-z0-9]{0,15}[a-z])(?=[A-Za-z0-9]{0,15}[A-Z])"
                                  r"[A-Za-z0-9]{16}" + _E)),
    # ngrok's API keys and authtokens: 2<26 drawn>_<digit><20 drawn> (checked: letters of both cases and digits)
    ("ngrok-token", "_", _rx(r"2[A-Za-z0-9]{26}_[0-9][A-Za-z0-9]{20}" + _E)),
    ("teams-webhook", "webhook.office.com/webhookb2/",
     _rx(r"(?<=webhook\.office\.com/webhookb2/)[A-Za-z0-9@/_\-]{60,400}")),
]
_JWT_LOOSE = _rx(r"eyJ[A-Za-z0-9_\-]{8,}={0,2}\.[A-Za-z0-9_\-]{0,2048}={0,2}(?:\.[A-Za-z0-9_\-+/=]{0,2048}){1,3}")  # JWS, JWE


# keys with their vendor's signature inside at a fixed offset (reportkit/token_table.py's SIGNED_SHAPES: Azure's
# identifiable keys): found by the signature, then the whole shape is matched from the offset before it; the key
# neither starts nor ends inside a longer run of base64
_SIGNED: list[tuple[str, str, int, re.Pattern[str]]] = [
    (kind, sig, count, _rx(before + "{" + str(count) + "}" + re.escape(sig) + after + r"(?![A-Za-z0-9+/=_\-])"))
    for kind, sig, before, count, after, _source in SIGNED_SHAPES]


def _signed_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for kind, sig, count, pattern in _SIGNED:
        at = text.find(sig, count)
        while at >= 0:
            start = at - count
            m = pattern.match(text, start)
            if m and (start == 0 or not (text[start - 1].isascii() and text[start - 1].isalnum())
                      and text[start - 1] not in "+/_-"):
                spans.append((start, m.end(), _mark(kind)))
            at = text.find(sig, at + 1)
    return spans


def _jwt_valid(token: str) -> bool:
    try:
        from detect_secrets.plugins.jwt import JwtTokenDetector
    except ImportError:  # pragma: no cover - a dependency
        return token.count(".") >= 1
    parts = token.split(".")
    if len(parts) == 5:  # a JWE (RFC 7516): its header is JSON naming "alg" and "enc", the rest is encrypted
        return _jwe_header(parts[0])
    return JwtTokenDetector.is_formally_valid(".".join(parts[:2]))


def _b64decode(value: str, urlsafe: bool = False) -> Optional[bytes]:
    """``value`` decoded as base64 (its ``=`` padding may be left out; ``urlsafe``: ``-`` and ``_``), or None."""
    padded = value + "=" * (-len(value) % 4)
    try:
        return base64.urlsafe_b64decode(padded) if urlsafe else base64.b64decode(padded, validate=True)
    except (ValueError, binascii.Error):
        return None


def _b64_text(value: str) -> Optional[str]:
    """``value`` as base64 of UTF-8 text (:func:`_b64decode`), or of UTF-16LE text of ASCII characters (every second
    byte zero: PowerShell's ``-EncodedCommand``, .NET's strings), or None."""
    data = _b64decode(value)
    if data is not None and len(data) >= 16 and len(data) % 2 == 0 and not any(data[1::2]) and all(data[0::2]):
        return data.decode("utf-16-le")
    try:
        return data.decode("utf-8") if data is not None else None
    except UnicodeDecodeError:
        return None


def _jwe_header(part: str) -> bool:
    data = _b64decode(part, urlsafe=True)
    try:
        header = json.loads(data) if data is not None else None
    except ValueError:
        return False
    return isinstance(header, dict) and "alg" in header and "enc" in header


def _prefix_tokens(text: str) -> list[tuple[str, re.Pattern[str]]]:
    """The token shapes whose literal part (:func:`_literal_needle`) ``text`` has (a substring search is far
    cheaper than a pattern's scan)."""
    return [(kind, pattern) for kind, pattern, needle in _PREFIX_NEEDLES if needle is None or needle in text]


def _mixed(part: str) -> bool:
    return bool(re.search(r"[a-z]", part) and re.search(r"[A-Z]", part) and re.search(r"[0-9]", part))


def _discord_bot_token(token: str) -> bool:
    """Discord's three parts: the user id (base64 of its digits), a timestamp, an HMAC; drawn, not written."""
    first, _, rest = token.partition(".")
    if (_b64decode(first, urlsafe=True) or b"").isdigit():
        return True
    return _mixed(first) and _mixed(rest.rpartition(".")[2])


# token shapes without a vendor's literal prefix: also checked as a whole
_TOKEN_CHECKS: dict[str, Callable[[str], bool]] = {
    "discord-bot-token": _discord_bot_token,
    "ngrok-token": lambda token: all(map(_mixed, token.split("_"))),
}


def _token_ok(kind: str, text: str, m: re.Match[str]) -> bool:
    if not (kind.endswith("webhook") or _starts_word(text, m.start())
            or (kind == "telegram-bot-token" and text.endswith("/bot", 0, m.start()))):  # the Bot API's URL: /bot<token>/
        return False
    check = _TOKEN_CHECKS.get(kind)
    return check is None or check(m.group(0))


def _trie(words: Iterable[str]) -> str:
    """One regex alternation of ``words`` as a trie (``ab(?:c|d)``): the engine follows one branch per character
    instead of trying every word at every position."""
    tree: dict = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(sub) if ch else "" for ch, sub in sorted(node.items())]
        if len(alts) == 1:
            return alts[0]
        optional = "" in alts
        alts = [a for a in alts if a]
        body = "(?:" + "|".join(alts) + ")"
        return body + "?" if optional else body

    return emit(tree)


# The catalogue's shapes (reportkit/token_table.py) as one prefix dispatch: a single scan finds every place where
# one of the prefixes starts (a trie alternation), then only the bodies registered for that prefix are tried there.
_CATALOGUE: dict[str, list[tuple[str, str, re.Pattern[str]]]] = {}
for _kind, _prefix, _body, _source in TOKEN_SHAPES + DOCUMENTED_SHAPES:
    _CATALOGUE.setdefault(_prefix[:3], []).append((_prefix, _kind, _rx(_body + _E)))
for _shapes in _CATALOGUE.values():
    _shapes.sort(key=lambda shape: -len(shape[0]))  # the longest prefix first: sk-ant-api03- before sk-
_CATALOGUE_HEADS = _rx(_trie(_CATALOGUE))


def _catalogue_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    end = 0
    for m in _CATALOGUE_HEADS.finditer(text):
        at = m.start()
        if at < end or not _starts_word(text, at):
            continue
        for prefix, kind, body in _CATALOGUE[m.group(0)]:
            if text.startswith(prefix, at):
                token = body.match(text, at + len(prefix))
                if token:
                    spans.append((at, token.end(), _mark(kind)))
                    end = token.end()
                    break
    return spans


# A vendor's token whose prefix no catalogue knows yet: a short word, "_" or "-", and a body drawn at random
# (``KGAT_<32 hex>``, ``nfp_<36 mixed>``, ``esecret_<26 lower+digits>``): the shape vendors use so that scanners
# can find their tokens. The word must begin a word and the body end one (``attn_fwd_bf16_a3f9...`` has a body of
# 16); a word that names a digest, an id or a file (``sha256_``, ``run-``, ``commit_``) holds no secret.
# (the body's further parts, a base64url body's "_"/"-", are read on without backtracking: :func:`_prefixed_end`)
_PREFIXED_TOKEN = _rx(r"(?P<prefix>[A-Za-z][A-Za-z0-9]{1,11}[_\-])(?P<lead>(?:[A-Za-z0-9]{1,19}[_\-]){0,3})"
                             r"(?P<body>[A-Za-z0-9]{12,128})")  # (lead: a base64url body's short first parts)
_BODY_PART = _rx(r"[_\-][A-Za-z0-9]{1,64}")  # (base64url: a last part may be one character)
_NOT_A_VENDOR = frozenset({
    "sha", "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "blake2b", "blake2s", "blake3", "xxh64", "xxh3",
    "crc32", "hash", "digest", "etag", "commit", "rev", "revision", "ref", "id", "uid", "uuid", "guid", "run", "job",
    "build", "trace", "span", "req", "request", "cache", "object", "obj", "file", "blob", "tree", "img", "image",
    "layer", "node", "pod", "chunk", "shard", "ckpt", "checkpoint", "tmp", "temp", "test", "tests", "snapshot", "task",
    "event", "msg", "message", "order", "user", "account", "acct", "item", "doc", "record", "row", "txn", "tx",
    "sess", "cus", "sub", "nonce", "inv", "prod", "price", "evt", "ch", "pi", "pm", "seti", "in", "ii", "cs", "src", "ba",
})
_LETTER_RUN = _rx(r"[A-Za-z]{6,}")  # (runs this long are words in names, chance in keys)


def _drawn_body(body: str) -> bool:
    """A token's body drawn at random: 32+ hex digits with both, letters of both cases and digits mixed as random
    text mixes them (:func:`looks_random`), or one case of letters and digits with no word-long runs of letters."""
    digits = sum(c.isdigit() for c in body)
    if digits < 1 or len(body) - digits < 4:
        return False
    if re.fullmatch(r"[0-9a-f]+|[0-9A-F]+", body):
        return len(body) >= 32  # (shorter hex: a build's or an object's id, a short digest)
    if not (body.islower() or body.isupper()):
        return looks_random(body)
    switches = sum(a.isdigit() != b.isdigit() for a, b in zip(body, body[1:]))
    longest = max(map(len, _LETTER_RUN.findall(body)), default=0)
    entropy = shannon_entropy(body)
    if len(body) >= 24 and entropy >= 3.8 and longest <= 24:
        return True  # long and dense: drawn from 36 symbols (a name that long repeats its letters)
    return digits * 10 >= len(body) and switches * 5 >= len(body) and longest <= 16 and entropy >= 3.5


def _drawn_mixed(value: str) -> bool:
    """20+ letters and digits where something says a token stands (after a vendor-like prefix, in a token's place
    of a URL): two kinds of character at least, 3.9+ bits of entropy, less than half of it in words a person could
    say. Weaker than :func:`looks_random`, which must hold with no such sign: random text has runs of three
    lower-case letters now and then (a quarter of 24-character draws failed it); a name's parts are words."""
    body = re.sub(r"[_\-]", "", value)
    if len(body) < 20 or not (body.isascii() and body.isalnum()) or re.fullmatch(r"[0-9a-fA-F]+", body):
        return False  # (hex: a digest's, judged by its length elsewhere)
    kinds = bool(re.search(r"[a-z]", body)) + bool(re.search(r"[A-Z]", body)) + bool(re.search(r"[0-9]", body))
    if kinds < 2 or shannon_entropy(body) < 3.9:
        return False
    return sum(len(w) for w in _WORDLIKE.findall(value) if _sayable(w)) * 2 < len(body)


def _known_prefix_inside(prefix: str) -> bool:
    """``xghp_``: a known vendor's prefix glued to a longer word (that word is not the vendor's token). A known
    prefix of two letters and its ``_`` is no sign (``opk_`` is OpenPipe's, not Stripe's ``pk_`` in a word):
    most short words end in one."""
    return any(prefix[k:] in _KNOWN_PREFIXES for k in range(1, len(prefix) - 3))


def _prefixed_end(text: str, m: re.Match[str]) -> int:
    """Where the token ``m`` starts ends: its body and up to four ``_``/``-`` parts, then no letter, digit, ``_``
    or ``-`` (-1 when one follows: a longer word, not a token)."""
    end = m.end()
    for _ in range(4):
        part = _BODY_PART.match(text, end)
        if part is None:
            break
        end = part.end()
    if end < len(text) and text[end] in "_-" and (end + 1 == len(text) or not _WORD_GOES_ON.match(text, end + 1)):
        end += 1  # (base64url may end in "_" or "-": bb_live_<26>_)
    if end < len(text) and ((text[end].isascii() and text[end].isalnum()) or text[end] in "_-"):
        return -1
    return end


_WORD_GOES_ON = _rx(r"[A-Za-z0-9_\-]")


def _lead_words(lead: str) -> int:
    """How long the words at the start of a prefixed token's lead are (``live_``, ``test_``: a vendor's, not drawn)."""
    m = re.match(r"(?:[a-z]{2,12}[_\-])*", lead)
    return m.end() if m else 0


_DIGEST_BEFORE = _rx(r"(?i)(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[=:]$")


def _in_param_id(text: str, at: int) -> bool:
    """``at`` starts a parametrized test's id or one of its parts (``test_dropout[<here>`` or ``…-<here>``)."""
    if at == 0 or text[at - 1] not in "[-":
        return False
    opened = text.rfind("[", max(0, at - 200), at)
    return opened > 0 and (text[opened - 1].isalnum() or text[opened - 1] == "_") \
        and "]" not in text[opened:at] and "\n" not in text[opened:at]


# characters of Ascii85/base85 (``base64.b85encode``, PDF streams) that no URL, option, identifier or token has: a run
# that holds several of them is encoded data, in which any stretch may look like a word, ``_`` and a drawn body
_B85_ONLY = frozenset("`{|}^<>!#$;")
_BLOB_RUN = 200


def _in_encoded_blob(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` a stretch of a long run of base85-like data (a ``b85decode("…")`` literal)?"""
    left = max(text.rfind(c, max(0, start - 20_000), start) for c in " \t\n\"'")
    rights = [i for i in (text.find(c, end, end + 20_000) for c in " \t\n\"'") if i >= 0]
    run = text[left + 1:min(rights) if rights else len(text)]
    return len(run) >= _BLOB_RUN and len(_B85_ONLY.intersection(run)) >= 3


def _prefixed_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for m in _PREFIXED_TOKEN.finditer(text):
        if not _starts_word(text, m.start()) or m.group("prefix")[:-1].lower() in _NOT_A_VENDOR \
                or _known_prefix_inside(m.group("prefix")) or _DIGEST_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue  # (sha256=<base64url>: a wheel RECORD's digest, whose "_" or "-" only looks like a prefix's)
        end = _prefixed_end(text, m)
        in_id = end > 0 and _in_param_id(text, m.start())
        if in_id:  # (test_x[rng_state_<hex>-float16-cpu]: "-" joins the ids)
            dash = text.find("-", m.end("body"), end)
            end = dash if dash > 0 else end
        body = text[m.end("prefix"):end]
        # (20+ drawn characters after the prefix and its words: a base64url body's "_" or "-" may cut it anywhere,
        # bb_live_<16>_<10>, bb_live_9_ce-<9>_<12>)
        drawn = re.sub(r"[_\-]", "", text[m.start("lead") + _lead_words(m.group("lead")):end]) if end > 0 else ""
        if len(drawn) >= 20 and (_drawn_body(body.replace("_", "").replace("-", "")) or _drawn_body(drawn)
                                 or _drawn_mixed(body)) \
                and not _PLACEHOLDER.match(text[m.start():end]) \
                and not _DIGEST_BODY.fullmatch(last := re.split(r"[_\-]", body.rstrip("_-"))[-1]) \
                and not (_HEX_ONLY.fullmatch(last) and (in_id or _cache_before(text, m.start()))) \
                and not _in_encoded_blob(text, m.start(), end):
            # (hex: Linux-pip-<sha256>, the <md5> of a cache's key; a seed or a digest in a parametrized test's id,
            # test_dropout[rng_state_<32 hex>-float16-cpu])
            spans.append((m.start(), end, _mark("token")))
    if "live" in text or "test" in text or "prod" in text:
        spans += [(m.start(), m.end(), _mark("token")) for m in _ENV_WORD_TOKEN.finditer(text) if _env_word_token(m)]
        if "…" in text or "..." in text:  # (cut short by a repr: pytest's, reprlib's)
            spans += [(m.start(), m.end(), _mark("token")) for m in _ENV_WORD_CUT.finditer(text)
                      if m.group("prefix").lower() not in _NOT_A_VENDOR]
    return spans


# a vendor's key with an environment's word after its prefix (Stripe's way: sk_live_, rk_test_; bb_live_): the rest,
# however "_" and "-" cut it (a base64url body), is the drawn body: 20+ characters without them, random
_ENV_WORD_TOKEN = _rx(r"(?<![A-Za-z0-9_\-])(?P<prefix>[A-Za-z][A-Za-z0-9]{1,11})[_\-](?:live|test|prod)[_\-]"
                             r"(?P<run>[A-Za-z0-9_\-]{20,200})(?![A-Za-z0-9_\-])")


# the same cut short by a repr (``pdl_live_apikey_010oidx…``, ``rk_test_51Hx8...``): what is left of its drawn body
# (a digit in it) goes; a placeholder (``sk_test_...``) has none
_ENV_WORD_CUT = _rx(r"(?<![A-Za-z0-9_\-])(?P<prefix>[A-Za-z][A-Za-z0-9]{1,11})[_\-](?:live|test|prod)[_\-]"
                    r"(?=[A-Za-z_\-]{0,200}[0-9])[A-Za-z0-9_\-]{6,200}(?=…|\.\.\.)")


def _env_word_token(m: re.Match[str]) -> bool:
    body = re.sub(r"[_\-]", "", m.group("run"))
    return m.group("prefix").lower() not in _NOT_A_VENDOR and len(body) >= 20 and (looks_random(body) or _drawn_body(body)) \
        and not _DIGEST_BODY.fullmatch(body) and not _PLACEHOLDER.match(m.group(0))


# a word, a dash and a digest's hex (sha1 .. sha512: 40, 56, 64, 96, 128 digits of one case) is a named digest
# (pip-<sha256> of a cache key, model-<sha1>), not a token of an unknown vendor: known vendors' hex tokens are in
# the catalogue
_HEX_ONLY = _rx(r"[0-9a-f]+|[0-9A-F]+")
_DIGEST_BODY = _rx(r"(?:[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})"
                          r"|(?:[0-9A-F]{40}|[0-9A-F]{56}|[0-9A-F]{64}|[0-9A-F]{96}|[0-9A-F]{128})")


def _token_spans(text: str) -> list[Span]:
    spans = [(m.start(), m.end(), _mark(kind)) for kind, pattern in _prefix_tokens(text)
             for m in pattern.finditer(text) if _token_ok(kind, text, m)]
    for kind, needle, pattern in _SHAPED_TOKENS:
        if needle in text:
            spans += [(m.start(), m.end(), _mark(kind)) for m in pattern.finditer(text) if _token_ok(kind, text, m)]
    spans += _signed_spans(text)
    if "eyJ" in text:
        spans += [(m.start(), m.end(), _mark("jwt")) for m in _JWT_LOOSE.finditer(text)
                  if _starts_word(text, m.start()) and _jwt_valid(m.group(0))]
    return spans


# --------------------------------------------------------------------------- (b) structural rules

# scheme://user:pass@host (any scheme; the user may be empty: redis://:pw@) and scheme://TOKEN@host
_URL_CREDENTIALS = _rx(r"://(?P<value>[^\s/@:<>\"'`?#\\]{0,256}:[^\s/@<>\"'`\\]{1,256})@")
_URL_TOKEN_USER = _rx(r"://(?P<value>[A-Za-z0-9_\-.~%]{20,256})@")

# a password written raw, holding "@", "/", "+" or quotes (neo4j://u:a@b@host, s3://KEY:a/b+c@bucket): up to the
# last "@" before a host's name that ends at a port, path, query, quote or the end, not across another URL
# (checked by _raw_password)
_URL_RAW_PASSWORD = _rx(r"://(?P<value>[^\s/@:<>\"'`?#\\]{0,256}:(?:(?!://)[^\s<>`]){1,256})"
                               r"@(?=[A-Za-z0-9][A-Za-z0-9.\-]{0,253}(?:[:/?#,;\"'`)\]\\\s]|$))")
# a user that holds "@" itself (an e-mail address as the login: smtps://alice@example.com:PW@smtp.example.com): the
# password between the first ":" after it and the last "@" before the host (checked by _at_user_password)
# the userinfo of a URI whose scheme has no "//" (RFC 3261's SIP: sip:alice:PW@pbx, sips:; XMPP's and H.323's the same
# way): a URL's credentials, in code too
_OPAQUE_URI_CREDENTIALS = _rx(r"(?<![\w.+\-])(?:sips?|xmpp|h323|pres|im):[A-Za-z0-9_.!~*'()%&=+$,;\-]{1,64}:"
                              r"(?P<value>(?!<redacted)[^\s:@/\"'`<>]{1,256})@(?=[A-Za-z0-9][A-Za-z0-9.\-]{0,253})")
_URL_AT_USER = _rx(r"://[^\s/@:<>\"'`?#\\]{1,128}@[A-Za-z0-9.\-]{1,253}:(?P<value>(?!<redacted)(?:(?!://)[^\s<>`]){1,256})"
                          r"@(?=[A-Za-z0-9][A-Za-z0-9.\-]{0,253}(?:[:/?#,;\"'`)\]\\\s]|$))")
# signed URLs and SAS tokens: the signature, credential and token parameters
_URL_PARAMS = _rx(  # (a parameter: after ? & ; or not inside a word, checked by _param_start)
    r"(?P<name>sig|signature|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|"
    r"X-Goog-Signature|X-Goog-Credential|access_token|refresh_token|id_token|client_secret|api_key|apikey|"
    r"private_token|auth_token|Signature|Expires_sig|token|password|passwd|pwd|secret|key|"
    # (an application's key by name: OpenWeather's appid, Azure's subscription-key; not an id of digits alone)
    r"appid|app_key|appkey|app_secret|auth_key|authkey|subscription-key|subscription_key|license_key|licensekey|"
    r"access_key|secret_key|session_id|sessionid)=(?P<value>(?!<redacted)[A-Za-z0-9%+/=_\-.~]{8,2048})",
)
_CONNECTION_STRING = _rx(  # Password=/Pwd= only after a ";" (checked by _connection_part)
    r"(?P<name>AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret|ClientSecret|Password|Pwd)"
    r"=(?P<value>(?!<redacted)\{[^{}\n]{1,1024}\}(?=$|[;\s\"'`])|[^;\s\"'`]{4,1024})",  # ODBC braces a value holding ";": Pwd={a;b}
    re.IGNORECASE,
)
# a header name starts a word, also right after an escaped line break ("\\r\\nAuthorization:" in a bytes repr)
_HEADER_START = r"(?:(?<![A-Za-z0-9_])|(?<=\\[nrt]))"
_AUTH_HEADER = _rx(
    _HEADER_START + r"(?:proxy-)?authorization[\"']?\s{0,5}[:=]\s{0,5}[\"']?(?:(?:bearer|basic|token|digest|bot|apikey|sso-key|ssws)\s{1,5}"
    r"|[A-Za-z][A-Za-z0-9_\-]{1,30}[ ]{1,3}(?=[^\s\"',;\\]{8}))?"  # any other scheme before a credential
    # (a word before a redacted credential is its scheme, not the value: ``Authorization: Api-Key <redacted>``,
    # once a known value went first)
    # (not the first of a scheme's auth-params, ``Digest username="alice", ...``: _AUTH_PARAM takes those)
    r"(?P<value>(?!<redacted)(?!(?:bearer|basic|token|digest|bot)\s)(?![A-Za-z_][\w\-]{0,40}=[\\\"A-Za-z0-9])"
    r"[^\s\"',;\\]{4,})(?![^\s\"',;\\])(?![ ]{1,3}<redacted)(?![ ]{1,3}[A-Za-z_][\w\-]{0,40}=[\\\"A-Za-z0-9])",
    re.IGNORECASE,
)
# a scheme's credentials written as auth-params (RFC 7235 ``name=value, ...``: HTTP Digest, OAuth 1.0, HTTP
# Signatures): the parameters that carry the proof or the token; the user, realm, nonce and uri stay
_AUTH_PARAMS_LINE = _rx(_HEADER_START + r"(?:proxy-)?authorization[\"']?\s{0,5}[:=]\s{0,5}[\"']?[A-Za-z][\w\-]{1,30}"
                               r"\s{1,5}[A-Za-z_][\w\-]{0,40}\s{0,3}=[^\n]{0,4096}", re.IGNORECASE)
_AUTH_PARAM = _rx(r"(?:(?<=[\s,])|(?<=\\[nrt]))(?:response|signature|oauth_signature|oauth_token|token|password|secret)"
                         r"\s{0,3}=\s{0,3}(?:\\{0,2}\")?(?P<value>(?!<redacted)[^\s\"',;\\]{4,})", re.IGNORECASE)
_BEARER = _rx(_HEADER_START + r"(?:bearer|token)\s{1,5}(?P<value>(?!<redacted)(?=[A-Za-z0-9\-._~+/]{0,2048}[0-9])"
                     r"[A-Za-z0-9\-._~+/]{16,2048}=*)", re.IGNORECASE)
# (never right after "//": there it is a URL's user, which the URL rules judge: https://x-access-token:${GITHUB_TOKEN}@)
_API_KEY_HEADER = _rx(_HEADER_START + r"(?<!//)(?:x-api-key|api-key|x-auth-token|x-access-token|private-token|x-goog-api-key)"
                             r"[\"']?\s{0,3}[:=]\s{0,3}[\"']?(?P<value>(?!<redacted)[^\s\"',;\\]{8,})", re.IGNORECASE)
# tools whose option takes a password as its own argument (``sshpass -p PW``, ``docker login -p PW``,
# ``ldapsearch -w PW``): tool -> (options, the sub-command they belong to or "")
_LOGIN_TOOLS = ("docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras", "crane", "regctl", "az")
_PASSWORD_TOOLS: dict[str, tuple[tuple[str, ...], str]] = {
    "sshpass": (("-p",), ""),
    **{tool: (("-p", "--password"), "login") for tool in _LOGIN_TOOLS},
    "redis-cli": (("-a", "--pass", "--password"), ""),
    **{tool: (("-p", "--password"), "") for tool in ("mongo", "mongosh", "mongodump", "mongorestore", "mongoexport",
                                                      "mongoimport", "rabbitmqadmin")},
    **{tool: (("-P",), "") for tool in ("sqlcmd", "bcp", "zip", "unzip", "mosquitto_pub", "mosquitto_sub",
                                        "isql", "osql", "sqsh", "tsql")},  # (Sybase's and FreeTDS' tools)
    "hdbsql": (("-p",), ""),  # SAP HANA's client: hdbsql -n HOST -u USER -p PW
    "nuget": (("-p", "--password", "-Password"), ""),  # dotnet nuget add source URL -u USER -p PW
    **{tool: (("-w",), "") for tool in ("ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami",
                                        "ldappasswd", "ldapcompare")},
    "twine": (("-p", "--password"), ""),
    # IPMI's, Cassandra's shell and Sysinternals' PsExec: ipmitool -U USER -P PW, cqlsh -u USER -p PW, psexec -u USER -p PW
    "ipmitool": (("-P",), ""),
    **{tool: (("-p", "--password"), "") for tool in ("cqlsh", "psexec", "PsExec", "psexec64", "PsExec64")},
    # Apple's upload tools: xcrun altool -u USER -p PW (an app-specific password), notarytool --password PW
    **{tool: (("-p", "--password"), "") for tool in ("altool", "notarytool")},
    # net-snmp's SNMPv3 options: -A the authentication passphrase, -X the privacy passphrase
    **{tool: (("-A", "-X"), "") for tool in ("snmpwalk", "snmpbulkwalk", "snmpget", "snmpgetnext", "snmpbulkget",
                                             "snmpset", "snmptrap", "snmpinform", "snmptable", "snmpstatus", "snmpdf",
                                             "snmpnetstat", "snmpdelta", "snmpusm", "snmpvacm", "snmptest")},
    # httpie's -a/--auth USER:PW, lftp's -u USER,PW (the whole value goes), openssl enc's -k PW
    **{tool: (("-a", "--auth"), "") for tool in ("http", "https", "httpie")},
    "lftp": (("-u", "--user"), ""),
    "openssl": (("-k",), ""),
    # Dell's racadm -u USER -p PW, openfortivpn HOST -u USER -p PW, Vertica's vsql -U USER -w PW, rdesktop -p PW,
    # and the pentest tools a lab script calls: smbmap, crackmapexec/netexec, evil-winrm, hydra -p PW
    **{tool: (("-p",), "") for tool in ("racadm", "rdesktop", "smbmap", "crackmapexec", "netexec", "nxc", "evil-winrm",
                                        "hydra")},
    "openfortivpn": (("-p", "--password"), ""),
    "vsql": (("-w", "--password"), ""),
    "mc": ((), ""),  # mc alias set NAME URL ACCESS_KEY SECRET_KEY (below)
    # -b ... USER PW; -U user%PW; -pPW; add_user USER PW (below)
    **{tool: ((), "") for tool in ("htpasswd", "smbclient", "7z", "7za", "7zz", "7zr", "rabbitmqctl")},
}
_COMMAND_BREAKS = frozenset({";", "&&", "||", "|", "&", "--"})
# tools whose login option takes USER<sep>PW (a value without the separator is not one: an address, a word)
_JOINED_LOGIN = {"http": ":", "https": ":", "httpie": ":", "lftp": ","}


# any other header whose name ends in a credential's word (Ocp-Apim-Subscription-Key, X-Auth-Key, X-Vault-Token,
# X-Client-Secret): its value when it is random-looking (checked by _random_header_value)
# (not a request's idempotency key, a WebSocket handshake nonce, a public key, a page token; the name whole)
_KEY_HEADER = _rx(r"(?:(?<![A-Za-z0-9_\-\\])|(?<=\\[nrt]))(?!(?:idempotency|sec-websocket|public|continuation|"
                         r"page|next-page|x-ms-continuation|sort|partition|primary|foreign|cache)-)"
                         r"(?:[A-Za-z0-9]{1,30}-){1,5}(?:key|token|secret|apikey|signature)[\"']?\s{0,3}:\s{0,3}[\"']?"
                         r"(?P<value>(?!<redacted)[A-Za-z0-9+/=_\-.~]{12,1024})(?![A-Za-z0-9+/=_\-.~])", re.IGNORECASE)


# credentials in command lines: curl -u user:pw / --user user:pw; mysql -pPW; sshpass -p PW; redis-cli -a PW;
# openssl -passin pass:PW
_ARG_SEP = r"(?:\s{1,5}|=|[\"']\s{0,3},\s{0,3}[\"']|[\"']?\s{1,5}[\"']?)"
# a password that starts with "-" (Azure's client secrets may): 12+ characters with a digit and an upper-case letter
# or a symbol, not an option (-v, --verbose, --tenant-id)
_DASHED = r"-(?=[^\s\"'`]{11,})(?![A-Za-z\-]+(?:[\s\"'`=]|$))(?=[^\s\"'`]*[0-9])"
_CLI_CREDENTIALS = [
    _rx(r"(?:-u|--user|--proxy-user)" + _ARG_SEP + r"?[\"']?"
               r"(?P<value>[^\s:\"'`]{1,100}:(?!\d+\b)[^\s\"'`]{1,256})"),
    _rx(r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]{0,300}?"
               r"(?:\s|[\"'],\s{0,3}[\"']|^)-p(?P<value>[^\s\"'`-][^\s\"'`]{0,255})"),
    _rx(r"\bsshpass\b[^\n|;&]{0,100}?\s-p\s{0,3}[\"']?(?P<value>[^\s\"'`]{1,256})"),
    _rx(r"\bredis-cli\b[^\n|;&]{0,300}?\s(?:-a|--pass)\s{1,3}(?P<value>[^\s\"'`]{1,256})"),
    _rx(r"(?:-passin|-passout|-pass|-password)\s{1,3}pass:(?P<value>[^\s\"'`]{1,256})"),
    # keytool -storepass PW / -keypass PW (not -storepass:env NAME)
    # (also in a list's repr, CalledProcessError's "Command '['keytool', ..., '-srcstorepass', 'PW']'")
    _rx(r"(?<![\w-])-(?:src|dest|new)?(?:storepass|keypass)(?:\s{1,3}|[\"']\s{0,3},\s{0,3})[\"']?"
               r"(?P<value>[^\s\"'`-][^\s\"'`]{0,255})"),
    # docker/az/oc/helm ... login -p PW (with a space: only after "login")
    _rx(r"\blogin\b[^\n|;&]{0,200}?\s(?:-p|--password)(?:\s{1,3}|=)[\"']?(?P<value>(?:[^\s\"'`-]|" + _DASHED
               + r")[^\s\"'`]{0,255})"),
    _rx(r"\bwandb\s+login\s+(?:--?[\w-]+\s+){0,3}(?P<value>[0-9a-f]{40})\b"),
    # .netrc: machine HOST login USER password PW
    # (also quoted line by line: pytest's "E   ", "> ", "# ", "| " before each line of a multi-line .netrc)
    _rx(r"\bmachine\s+\S+\s+(?:[A-Z>|#]{1,2}[ \t]+)?(?:login\s+\S+\s+(?:[A-Z>|#]{1,2}[ \t]+)?)?"
               r"password\s+(?P<value>(?!#)\S{1,256})"),  # (a token from "#" on is a comment: netrc's grammar)
    # Oracle's USER/PASSWORD@CONNECT: jdbc:oracle:thin:scott/PW@//host:1521/svc, sqlplus scott/PW@db,
# cx_Oracle.connect("scott/PW@db")
    _rx(r"(?:\boracle:(?:thin|oci8?|kprb):|\bsqlplus\s+(?:-\S{1,20}\s+){0,4}|"
               r"\b(?:cx_Oracle|oracledb)\.connect\(\s{0,3}(?:dsn\s{0,3}=\s{0,3})?[\"'])[\"']?[A-Za-z0-9_$#.]{1,128}/"
               r"(?P<value>[^\s@/\"'`]{1,256})@"),
    # ``aws configure``'s prompts as its transcript shows them: the value set before in brackets (``[None]``,
    # ``[****************ABCD]``), the answer after the colon (blind round 32: its ``+`` and ``/`` hid it from the
    # drawn-token guess)
    _rx(r"\bAWS (?:Secret Access Key|Session Token) \[[^\]\n]{0,64}\]:[ \t]*"
        r"(?P<value>(?!<redacted)[A-Za-z0-9/+=]{16,4096})(?![A-Za-z0-9/+=])"),
]
_CLI_NEEDLES = (("-u", "--user", "--proxy-user"), ("mysql", "mariadb"), ("sshpass",), ("redis-cli",), ("pass:",),
                ("storepass", "keypass"),
                ("login",), ("wandb",), ("machine",), ("oracle:", "sqlplus", "_Oracle.", "oracledb."), ("AWS ",))


def _tool_patterns() -> list[tuple[re.Pattern[str], tuple[str, ...]]]:
    """The password options of :data:`_PASSWORD_TOOLS` in a command line of text (``ldapsearch ... -w PW``,
    ``zip -P PW``, ``mongosh -p PW``, ``smbclient -U user%PW``, ``htpasswd -b FILE USER PW``); sshpass,
    redis-cli and ``login -p`` have their patterns above."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for tool, (options, needs) in _PASSWORD_TOOLS.items():
        if options and not needs and tool not in ("sshpass", "redis-cli") and tool not in _JOINED_LOGIN:
            groups.setdefault(options, []).append(tool)
    out = []
    for options, tools in groups.items():
        names = "|".join(re.escape(t) for t in sorted(tools, key=len, reverse=True))
        # (one pattern per option when the options are two passwords, net-snmp's -A and -X: a match per command
        # line takes the first option's value only)
        for opts in (["|".join(re.escape(o) for o in options)] if options != ("-A", "-X") else list(options)):
            out.append((_rx(r"(?<![\w\-])(?:" + names + r")(?![\w\-])[^\n|;&]{0,300}?\s[\"']?(?:" + opts + r")(?:\s{1,3}|=|[\"']\s{0,3},\s{0,3}(?=[\"']))"
                                   r"[\"']?(?P<value>(?![0-9]{1,9}(?![^\s\"'`]))(?:[^\s\"'`\-]|" + _DASHED
                                   + r")[^\s\"'`]{0,255})"), tuple(tools)))
    out.append((_rx(r"\bsmbclient\b[^\n|;&]{0,300}?\s(?:-U\s{0,3}|--user[= ])[\"']?[^\s%\"'`]{1,100}%"
                           r"(?P<value>[^\s\"'`]{1,256})"), ("smbclient",)))
    out.append((_rx(r"(?<![\w\-])7z[a-z]?(?![\w\-])[^\n|;&]{0,300}?\s-p(?P<value>[^\s\"'`\-][^\s\"'`]{0,255})"),
                ("7z",)))
    out.append((_rx(r"\brabbitmqctl\s+(?:-\S{1,40}\s+){0,4}(?:add_user|change_password)\s+[\"']?[^\s\"'`]{1,100}[\"']?"
                           r"\s+[\"']?(?P<value>[^\s\"'`]{1,256})"), ("rabbitmqctl",)))
    for n, file in (("(?=[A-Za-z]{0,8}n)", ""), ("(?![A-Za-z]{0,8}n)", r"[^\s\-]\S{0,300}\s+")):  # -nb USER PW, -b FILE USER PW
        out.append((_rx(r"\bhtpasswd\s+-" + n + r"(?=[A-Za-z]{0,8}b)[A-Za-z]{1,9}\s+(?:-\S{1,20}\s+){0,3}" + file
                               + r"[^\s\-]\S{0,100}\s+[\"']?(?P<value>[^\s\"'`]{1,256})"), ("htpasswd",)))
    return out


for _pattern, _needles in _tool_patterns():
    _CLI_CREDENTIALS.append(_pattern)
    _CLI_NEEDLES += (_needles,)
# a password in a tool's or a language's own syntax rather than NAME=value: SQL's CREATE/ALTER USER ... IDENTIFIED
# BY '...' / [WITH] PASSWORD '...', the mongo shell's createUser({..., pwd: "..."}), a Redis MONITOR line's "AUTH"
# ["user"] "...", PowerShell's ConvertTo-SecureString "..." -AsPlainText, MinIO's mc alias set NAME URL AK SK
_QUOTED_PW = r"(?P<q>[\"'])(?P<value>(?!<redacted)[^\"'\n]{1,256})(?P=q)"
for _pattern, _needles in (
    (r"(?i)\bidentified\s+(?:with\s+\S{1,60}\s+)?by\s+(?:password\s+)?" + _QUOTED_PW, ("IDENTIFIED", "identified")),
    (r"(?i)\b(?:create|alter)\s+(?:user|role|login)\b[^;\n]{0,200}?\bpassword\s{0,3}=?\s{0,3}" + _QUOTED_PW,
     ("PASSWORD", "password", "Password")),
    (r"\b(?:createUser|updateUser|changeUserPassword|db\.auth)\s{0,3}\([^\n]{0,300}?(?:\bpwd\s{0,3}:\s{0,3}|,\s{0,3})"
     + _QUOTED_PW, ("createUser", "updateUser", "changeUserPassword", "db.auth")),
    (r"(?i)\"auth\"(?:\s{1,3}\"[^\"\n]{1,64}\")?\s{1,3}\"(?P<value>(?!<redacted)[^\"\n]{1,256})\"", ('"AUTH"', '"auth"')),
    (r"(?i)\bConvertTo-SecureString\s{1,3}(?:-String\s{1,3})?" + _QUOTED_PW, ("ConvertTo-SecureString",
                                                                                "convertto-securestring")),
    (r"(?<![\w\-./])(?:https?|httpie)\s(?:[^\n|;&]{0,200}?\s)?(?:-a|--auth)(?:\s{1,3}|=)[\"']?[^\s:\"'`]{1,100}:"
     r"(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("http",)),
    (r"\blftp\s(?:[^\n|;&]{0,200}?\s)?(?:-u|--user)(?:\s{1,3}|=)[\"']?[^\s,\"'`]{1,100},(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("lftp",)),
    # FreeRDP's /p:PW, RAR's -hpPW / -pPW, Bitwarden's bw unlock PW, DB2's CONNECT TO DB USER U USING PW
    (r"(?<![\w\-])(?:xfreerdp3?|wlfreerdp|sdl-freerdp3?)(?![\w\-])[^\n|;&]{0,300}?\s/p:(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("freerdp",)),
    (r"(?<![\w\-])(?:rar|unrar)(?![\w\-])[^\n|;&]{0,300}?\s-h?p(?P<value>(?!<redacted)[^\s\"'`\-][^\s\"'`]{0,255})",
     ("rar",)),
    (r"\bbw\s+unlock\s+(?:--\w+\s+){0,3}(?P<value>(?!<redacted)(?!--)[^\s\"'`$][^\s\"'`]{0,255})", ("bw unlock",)),
    (r"(?i)\bconnect\s+to\s+\S{1,100}\s+user\s+\S{1,100}\s+using\s+(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("using", "USING")),
    # IMAP's tagged LOGIN USER PW and FTP's PASS PW in a protocol transcript (a client's "C:" / "-->" lines)
    (r"(?:^|(?<=[\s>:]))[A-Za-z0-9.]{1,10}[ \t]+LOGIN[ \t]+\S{1,100}[ \t]+(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     (" LOGIN ",)),
    # (after a client's prefix, or on the line after USER: a test runner's "PASS  src/app.test.js" is no password)
    (r"(?:-->|\bC:|>>>?|ftp>)[ \t]{0,3}PASS[ \t]+(?P<value>(?!<redacted)(?!\*+(?:\s|$))(?!oauth:)[^\s\"'`]{1,256})",
     ("PASS ",)),
    (r"\bUSER[ \t]+\S{1,100}[ \t]*(?:\r?\n|(?:\\r)?\\n)[^\n]{0,12}?\bPASS[ \t]+"
     r"(?P<value>(?!<redacted)(?!\*+(?:\s|$))(?!oauth:)[^\s\"'`]{1,256})", ("PASS ",)),
    # a CLI's own secret commands: gh secret set NAME --body VALUE, snyk auth TOKEN, neo4j-admin ...
    # set-initial-password PW, codecov -t TOKEN / --token TOKEN (not gh's other -b/--body: a pull request's text)
    (r"\bgh\s+secret\s+set\b[^\n|;&]{0,200}?\s(?:-b|--body)(?:\s{1,3}|=)[\"']?"
     r"(?P<value>(?!<redacted)(?![$`])[^\s\"'`]{1,4096})", ("gh secret",)),
    (r"\bsnyk\s+auth\s+(?P<value>(?!<redacted)(?!-)[^\s\"'`$]{8,256})", ("snyk auth",)),
    (r"\bset-initial-password\s+(?P<value>(?!<redacted)(?!-)[^\s\"'`$]{1,256})", ("set-initial-password",)),
    (r"\bcodecov(?:[\w\-]{0,20})?\b[^\n|;&]{0,200}?\s(?:-t|--token)(?:\s{1,3}|=)[\"']?"
     r"(?P<value>(?!<redacted)(?![$`])[^\s\"'`]{8,256})", ("codecov",)),
    # Redis's configuration: requirepass PW, masterauth PW (also CONFIG SET requirepass PW)
    (r"(?i)(?<![\w\-])(?:requirepass|masterauth)[ \t]+[\"']?(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("requirepass", "masterauth", "REQUIREPASS", "MASTERAUTH")),
    # Oracle's EZConnect, USER/PW@//HOST[:PORT]/SERVICE or USER/PW@HOST:PORT/SERVICE, wherever it stands (an
    # argument in a list's repr: 'scott/PW@//db:1521/ORCL'; the sqlplus/jdbc forms are above)
    (r"(?<![\w/.\-])[A-Za-z][A-Za-z0-9_$#]{0,29}/(?P<value>(?!<redacted)[^\s@/\"'`]{1,128})"
     r"@(?://[A-Za-z0-9.\-]{1,253}(?::\d{1,5})?|[A-Za-z0-9.\-]{1,253}:\d{1,5})/[A-Za-z0-9_.\-]{1,128}", ("@",)),
    # strongSwan's ipsec.secrets: [selectors] : PSK "secret" (also XAUTH, EAP, NTLM), or the secret as 0x hex / 0s base64
    (r"(?:^|(?<=\s)):[ \t]{1,5}(?:PSK|XAUTH|EAP|NTLM)[ \t]{1,5}" + _QUOTED_PW, ("PSK", "XAUTH", "EAP", "NTLM")),
    (r"(?:^|(?<=\s)):[ \t]{1,5}(?:PSK|XAUTH|EAP|NTLM)[ \t]{1,5}(?P<value>0[xs][A-Za-z0-9+/=]{8,1024})(?![\w+/=])",
     ("PSK", "XAUTH", "EAP", "NTLM")),
    # Sybase's isql/sqsh -PPW (glued, as mysql's -p)
    (r"(?<![\w\-])(?:isql|osql|sqsh|tsql)(?![\w\-])[^\n|;&]{0,300}?\s-P(?P<value>(?!<redacted)[^\s\"'`\-][^\s\"'`]{0,255})",
     ("isql", "sqsh", "osql", "tsql")),
    # Windows' signtool sign /f CERT.pfx /p PW
    (r"(?i)(?<![\w\-])signtool(?:\.exe)?\b[^\n|;&]{0,300}?\s/p[ \t]+[\"']?(?P<value>(?!<redacted)[^\s\"'`/][^\s\"'`]{0,255})",
     ("signtool", "SignTool", "SIGNTOOL")),
    # MinIO's mc admin user add ALIAS USER PW
    (r"\bmc[ \t]+admin[ \t]+user[ \t]+add[ \t]+\S{1,100}[ \t]+\S{1,100}[ \t]+[\"']?(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("admin user add",)),
    # Redis ACLs: ACL SETUSER NAME on >PW ~* +@all (and a users.acl file's "user NAME on >PW ...")
    (r"(?i)(?:\bacl[ \t]+setuser|^[ \t]*user|(?<=\n)[ \t]*user)[ \t]+\S{1,100}(?:[ \t]+[^\s>]\S{0,100}){0,8}?[ \t]+>"
     r"(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("SETUSER", "setuser", "user ")),
    # net-snmp's snmpd.conf: createUser [-e ID] NAME SHA|MD5 AUTHPW [AES|DES PRIVPW]
    (r"\bcreateUser[ \t]+(?:-e[ \t]+\S{1,64}[ \t]+)?\S{1,100}[ \t]+(?:MD5|SHA(?:-?[0-9]{3})?)[ \t]+"
     r"(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("createUser",)),
    (r"\bcreateUser[ \t]+(?:-e[ \t]+\S{1,64}[ \t]+)?\S{1,100}[ \t]+(?:MD5|SHA(?:-?[0-9]{3})?)[ \t]+\S{1,256}[ \t]+"
     r"(?:DES|AES(?:-?[0-9]{3})?)[ \t]+(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("createUser",)),
    # HashiCorp Vault's operator init: "Unseal Key 1: <base64>"
    (r"\bUnseal[ \t]+Key[ \t]+[0-9]{1,2}:[ \t]*(?P<value>(?!<redacted)[A-Za-z0-9+/=]{16,512})", ("Unseal Key",)),
    # STOMP's CONNECT frame: passcode:PW
    (r"(?<![\w\-])passcode:(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("passcode:",)),
    # .curlrc: user = "NAME:PW" (also proxy-user)
    (r"(?:^|(?<=\n))[ \t]*(?:proxy-)?user[ \t]*=[ \t]*\"[^\s:\"]{1,100}:(?P<value>(?!<redacted)(?![0-9]{1,10}\")[^\s\"]{1,256})\"",
     ("user",)),
    # Dovecot's passwd-file: USER:{PLAIN}PW:... (a scheme that stores the password as it is)
    (r"\{(?:PLAIN|CLEARTEXT|PLAIN-TRUNC)\}(?P<value>(?!<redacted)[^\s:\"'`]{1,256})", ("{PLAIN}", "{CLEARTEXT}",
                                                                                      "{PLAIN-TRUNC}")),
    # Nagios' resource.cfg: $USER3$=PW (the macros that hold passwords; not a path: $USER1$=/usr/lib/nagios/plugins)
    (r"\$USER[0-9]{1,3}\$[ \t]*=[ \t]*(?P<value>(?!<redacted)(?![/.~])[^\s\"'`]{1,256})", ("$USER",)),
    # Subversion's auth cache: K 8 / password / V <n> / PW
    (r"\bK [0-9]{1,3}\r?\n(?:password|passphrase)\r?\nV [0-9]{1,4}\r?\n(?P<value>(?!<redacted)[^\r\n]{1,256})",
     ("\nV ",)),
    # GitHub Actions' workflow command ::add-mask::VALUE: what a step masks is a secret by definition
    (r"::add-mask::(?P<value>(?!<redacted)[^\s\"'`]{1,1024})", ("::add-mask::",)),
    # Windows: net user NAME PW [/add ...] ("*" prompts), schtasks ... /RP PW (run as) or /P PW (with /U)
    (r"(?i)(?<![\w\-])net(?:\.exe)?[ \t]+user[ \t]+[\"']?[^\s\"'/]{1,100}[\"']?[ \t]+[\"']?"
     r"(?P<value>(?!<redacted)(?![a-z]{1,40}[\"']?[ \t]*(?:\r?\n|\\n|$))[^\s\"'`/*][^\s\"'`]{0,255})[\"']?"
     r"(?=[ \t]*(?:/\w|\r?\n|\\n|$|[;&|]))",  # (a word of prose at the line's end is none: "net user growth rate")
     ("net user", "NET USER", "Net User", "net.exe user", "NET.EXE USER")),
    (r"(?i)(?<![\w\-])schtasks(?:\.exe)?\b[^\n|;&]{0,300}?\s/R?P[ \t]+[\"']?(?P<value>(?!<redacted)[^\s\"'`/*][^\s\"'`]{0,255})",
     ("schtasks", "SCHTASKS", "SchTasks", "Schtasks")),
    # a password piped to the tool that reads it: echo PW | kinit USER, echo USER:PW | chpasswd, ... | passwd --stdin,
    # ... | docker login --password-stdin, printf PW | docker secret create NAME -
    (r"\b(?:echo|printf)[ \t]+(?:-[neE]{1,3}[ \t]+)?[\"']?(?P<value>(?!<redacted)[^\s\"'`|$<>%][^\s\"'`|]{0,255})[\"']?[ \t]{0,3}\|"
     r"[ \t]{0,3}(?:sudo[ \t]+(?:-\S{1,20}[ \t]+){0,3})?(?:kinit|chpasswd|smbpasswd|cryptsetup|passwd[ \t]+--stdin|"
     r"(?:docker|podman)[ \t]+secret[ \t]+create\b|"
     r"(?:docker|podman|nerdctl|helm|oras|buildah|skopeo)[ \t]+(?:registry[ \t]+)?login\b[^\n|;&]{0,200}--password-stdin)",
     ("kinit", "chpasswd", "smbpasswd", "cryptsetup", "--stdin", "password-stdin", "secret create")),
    # a line that names an access token and gives it after its words and a colon ("New access token expires on Fri
    # Jan 01 2027: <40 hex>", Particle's CLI); not when the words say it is an id, a hash or a commit of one
    (r"(?i)\baccess[ _\-]token\b(?P<words>(?:(?!\b(?:id|ids|hash|digest|sha|commit|revision|fingerprint|name|type)\b)"
     r"[^\n:=]){1,80}):[ \t]*(?P<value>(?!<redacted)[0-9a-f]{32,64}|[0-9A-F]{32,64})(?![0-9A-Za-z])",
     ("access token", "Access token", "ACCESS TOKEN", "access_token", "access-token")),
    # Redis's protocol (RESP) as a client sends it, raw or in a bytes repr: *2 $4 AUTH $N PW (or AUTH USER PW)
    (r"(?i)\bAUTH(?:\\r\\n|\r\n)(?:\$[0-9]{1,3}(?:\\r\\n|\r\n)[^\\\r\n$*]{1,128}(?:\\r\\n|\r\n)(?=\$))?"
     r"\$[0-9]{1,3}(?:\\r\\n|\r\n)(?P<value>(?!<redacted)[^\\\r\n]{1,256})", ("AUTH\\r\\n", "AUTH\r\n", "auth\\r\\n")),
    # a monitoring service's capability URL (the UUID is the key): Healthchecks.io's hc-ping.com/<uuid>
    (r"\bhc-ping\.com/(?P<value>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})", ("hc-ping.com/",)),
    # an error tracker's access token given positionally: rollbar.init('<32 hex>', ...), Bugsnag, Honeybadger, Airbrake
    (r"\b(?:rollbar|bugsnag|honeybadger|airbrake|raygun|logdna)\.(?:init|start|configure|notify)\([ \t]{0,3}[\"']"
     r"(?P<value>(?!<redacted)[0-9a-fA-F]{32,40}|[A-Za-z0-9_\-]{32,64})[\"']", ("rollbar.", "bugsnag.", "honeybadger.",
                                                                               "airbrake.", "raygun.", "logdna.")),
    # Storj's access grant (base58, 100+ characters) given to uplink
    (r"\buplink[ \t]+access[ \t]+(?:import|save)[ \t]+(?:--?\S{1,40}[ \t]+){0,3}\S{1,100}[ \t]+"
     r"(?P<value>(?!<redacted)[1-9A-HJ-NP-Za-km-z]{80,4096})", ("uplink",)),
    # an HCL heredoc under a secret's name: password = <<EOT / VALUE / EOT
    (r"(?i)\b[\w.\-]{0,60}(?:password|passwd|secret|token|api[_\-]?key|private[_\-]?key)[ \t]*=[ \t]*<<-?(?P<tag>[A-Z_]{2,20})"
     r"[ \t]*\r?\n[ \t]*(?P<value>(?!<redacted)[^\s][^\n]{0,255}?)[ \t]*\r?\n[ \t]*(?P=tag)\b", ("<<",)),
    # ZooKeeper's addauth digest USER:PW, Samba's -U USER%PW (net, rpcclient, smbcacls, winexe, mount's user=),
    # a proxy's login=USER:PW (Squid's cache_peer)
    (r"\baddauth[ \t]+digest[ \t]+[^\s:]{1,100}:(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("addauth",)),
    (r"(?:(?<=[\s\"'\[,])|^)(?:-U|--user(?:name)?=)[ \t]{0,3}[\"']?[A-Za-z0-9_.@\\\-]{1,100}%"
     r"(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("-U", "--user")),
    (r"(?:(?<=[\s\"'\[,;?&])|^)login=[A-Za-z0-9_.@\-]{1,100}:(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("login=",)),
    # SNMP communities in a device's or snmpd's configuration: snmp-server community X RO, rocommunity X, rwcommunity X
    (r"\bsnmp-server[ \t]+community[ \t]+(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("snmp-server",)),
    (r"(?<![\w\-])r[ow]community6?[ \t]+(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("community",)),
    # Tor's control port: AUTHENTICATE "PW" (or the cookie's hex); IRC: /msg NickServ IDENTIFY [ACCOUNT] PW
    (r"\bAUTHENTICATE[ \t]+\"(?P<value>(?!<redacted)[^\"\n]{1,256})\"", ("AUTHENTICATE",)),
    (r"\bAUTHENTICATE[ \t]+(?P<value>[0-9A-Fa-f]{16,128})\b", ("AUTHENTICATE",)),
    (r"(?i)\bnickserv\b[^\n]{0,20}?\bidentify[ \t]+(?:[^\s]{1,64}[ \t]+)?(?P<value>(?!<redacted)[^\s\"'`]{1,256})"
     r"(?=[ \t]*(?:\r?\n|\\n|$|[\"'`]))", ("NickServ", "nickserv", "NICKSERV", "Nickserv")),
    # Wi-Fi: wpa_cli set_network N psk '"PW"' (or password, sae_password, wep_keyN), iwconfig DEV key [s:]PW
    (r"\bset_network[ \t]+\d{1,3}[ \t]+(?:psk|password|sae_password|wep_key[0-3])[ \t]+(?P<value>(?!<redacted)[^\s`]{1,256})",
     ("set_network",)),
    (r"\biwconfig\b[^\n|;&]{0,100}?\s(?:key|enc)[ \t]+(?:s:)?(?P<value>(?!<redacted)(?!(?:on|off|open|restricted)\b)"
     r"[^\s\"'`\[]{4,256})", ("iwconfig",)),
    # SAP HANA's hdbuserstore SET KEY HOST:PORT USER PW, Oracle's mkstore -createCredential ALIAS USER PW,
    # Teradata's BTEQ .LOGON [HOST/]USER,PW
    (r"(?i)\bhdbuserstore\b[^\n|;&]{0,100}?\bSET[ \t]+\S{1,100}[ \t]+\S{1,200}[ \t]+\S{1,100}[ \t]+"
     r"(?P<value>(?!<redacted)[^\s\"'`]{1,256})", ("hdbuserstore",)),
    (r"-(?:create|modify)Credential[ \t]+\S{1,200}[ \t]+\S{1,100}[ \t]+[\"']?(?P<value>(?!<redacted)[^\s\"'`]{1,256})",
     ("Credential",)),
    (r"(?i)(?<![\w])\.logon[ \t]+(?:[^\s/,;]{1,100}/)?[^\s,;/]{1,100},(?P<value>(?!<redacted)[^\s;\"'`]{1,256})",
     (".logon", ".LOGON", ".Logon")),
    # a wallet's private key given to the call that loads it: Account.from_key("0x<64 hex>"), new Wallet(...),
    # privateKeyToAccount(...), SigningKey.from_string(bytes.fromhex(...))
    (r"\b(?:from_key|privateKeyToAccount|fromPrivateKey|from_private_key|PrivateKey|Wallet|from_secret_key|"
     r"SigningKey(?:\.from_string)?)\([ \t]{0,3}(?:bytes\.fromhex\([ \t]{0,3})?[\"']?(?P<value>(?:0x)?[0-9a-fA-F]{64})"
     r"(?![0-9a-fA-F])", ("Key(", "key(", "Wallet(", "Account(", "Key.from")),
    (r"\bmc\s+alias\s+set\s+\S{1,100}\s+\S{1,500}\s+[\"']?(?P<value>(?!<redacted)[^\s\"'`]{3,200}[\"']?\s+[\"']?[^\s\"'`]{8,256})",
     ("alias set",)),
):
    _CLI_CREDENTIALS.append(_rx(_pattern))
    _CLI_NEEDLES += (_needles,)
_AWS_SECRET = _rx(
    r"\baws_(?:secret_access_key|session_token|security_token)[\"']?\s{0,5}[=:]\s{0,5}[\"']?"
    r"(?P<value>[A-Za-z0-9/+=]{30,4096})",
    re.IGNORECASE,
)
# WireGuard's [Interface] PrivateKey / [Peer] PresharedKey: 32 bytes in base64
_WIREGUARD_KEY = _rx(r"\b(?:PrivateKey|PresharedKey)\s{0,5}=\s{0,5}(?P<value>[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=)")


def _group_spans(pattern: re.Pattern[str], text: str, kind: str,
                 keep: Optional[Callable[[re.Match[str]], bool]] = None) -> list[Span]:
    """The ``value`` of each match ``keep`` accepts, ended before an escaped line break in it (a repr's or JSON's
    ``\\n``: the value ends there, a marker never takes the escape and the next line's text)."""
    spans = []
    for m in pattern.finditer(text):
        value = m.group("value")
        if value and (keep is None or keep(m)):
            end = m.start("value") + len(_escape_tail(value)[0]) if "\\" in value else m.end("value")
            if end > m.start("value"):
                spans.append((m.start("value"), end, _mark(kind)))
    return spans


def _cli_credential(m: re.Match[str]) -> bool:
    value = m.group("value")
    if value.startswith("<redacted") or not _starts_word(m.string, m.start()) or re.fullmatch(r"[a-z]{1,3}", value):
        return False  # (a prose word after the option: "-k is deprecated")
    if m.group(0).startswith(("-u", "--user")):  # -u user:pw; not docker's -u user:group (root:root, 1000:1000)
        user, _, pw = value.partition(":")
        line = m.string[m.string.rfind("\n", 0, m.start()) + 1:m.start()]
        return user != pw and not re.search(r"\b(?:docker|podman|nerdctl|chown|chgrp|install)\b", line)
    return True


def _not_masked(m: re.Match[str]) -> bool:
    """URL credentials whose password is there, not masked (pip's ``https://__token__:****@pypi...``)."""
    return _NOT_SECRET_VALUE.fullmatch(m.group("value").partition(":")[2]) is None


def _raw_password(m: re.Match[str]) -> bool:
    """Not a port and a path (``http://host:8080/users/@me``), not a second URL."""
    password = m.group("value").partition(":")[2]
    return "://" not in password and not re.match(r"[0-9]{0,5}/", password) and _not_masked(m)


def _placeholder_value(value: str) -> bool:
    """A value that stands for one or is none (``<pad>``, ``{password}``, ``${PW}``, ``***``, ``true``): no secret."""
    return _NOT_SECRET_VALUE.fullmatch(value) is not None or _PLACEHOLDER.match(value) is not None


def _not_placeholder_password(m: re.Match[str]) -> bool:
    return not _placeholder_value(m.group("value"))


def _at_user_password(m: re.Match[str]) -> bool:
    """Not a port or a path (``http://user@host:8080/x@y``, scp's ``git@github.com:org/repo.git@v1``), not masked."""
    value = m.group("value")
    return "/" not in value and not value.isdigit() and _NOT_SECRET_VALUE.fullmatch(value) is None


def _param_start(text: str, start: int) -> bool:
    return start == 0 or text[start - 1] in "?&;" or not (text[start - 1].isalnum() or text[start - 1] in "_-.%")


def _connection_part(m: re.Match[str]) -> bool:
    if _NOT_SECRET_VALUE.match(m.group("value")) or _PLACEHOLDER.match(m.group("value")) \
            or not _starts_word(m.string, m.start()):
        return False
    if m.group("name").lower() in ("password", "pwd"):  # password= alone is the assignment rule's (text)
        return m.string[:m.start()].rstrip(" ").endswith(";")
    return True


_APP_PARAMS = frozenset({"appid", "app_key", "appkey", "app_secret", "auth_key", "authkey", "subscription-key",
                         "subscription_key", "license_key", "licensekey", "access_key", "secret_key", "session_id",
                         "sessionid"})


def _real_param(m: re.Match[str]) -> bool:
    value = m.group("value")
    if not _param_start(m.string, m.start()):
        return False
    if not re.match(r"(?i)sig|signature|x-amz-|x-goog-", m.group("name")) and \
            (m.start() == 0 or m.string[m.start() - 1] not in "?&;"):
        return False  # token=, api_key= ... outside a query string: the assignment rules' (text only)
    if m.group("name").lower() == "token" and not re.search(r"[0-9]", value):
        return False
    if m.group("name").lower() in _APP_PARAMS and not re.search(r"[A-Za-z]", value):
        return False  # (?appid=1234567890: a Facebook app's id, public)
    if m.group("name") == "key":  # ?key= (Google's APIs and many others) when drawn, not ?key=sort_order
        # (a UUID too: WeCom's and Lark's group robots, ``webhook/send?key=<uuid>``)
        return _drawn_body(value.replace("-", "").replace("_", "")) or _UUID.fullmatch(value) is not None
    return not _NOT_SECRET_VALUE.match(value)


def _random_header_value(m: re.Match[str]) -> bool:
    """A keyed header's value that was drawn, not written: :func:`_random_body`, or letters and digits alternating
    often, or a password's make-up with some entropy."""
    value = m.group("value")
    if len(value) < 16:  # (Gotify's application tokens: 15 characters; a short one must look drawn)
        bare = re.sub(r"[+/=_\-.~]", "", value)
        switches = sum(a.islower() != b.islower() for a, b in zip(bare, bare[1:]) if a.isalpha() and b.isalpha())
        words = sum(len(p) for p in _CAMEL_PART.findall(bare) if _sayable(p))
        return _short_key(bare) or (switches >= 3 and not bare.isupper() and not bare.islower()
                                    and words * 2 < sum(c.isalpha() for c in bare))  # (OrderSummaryV2: words)
    changes = sum(a.isdigit() != b.isdigit() for a, b in zip(value, value[1:]) if a.isalnum() and b.isalnum())
    return _random_body(value) or changes * 5 >= len(value) \
        or (_password_shaped(value) and shannon_entropy(value) >= 3.8)  # letters and digits mixed, both cases


def _not_a_word(m: re.Match[str]) -> bool:
    """A header's value that is not prose (``Authorization: required``, ``x-api-key: missing``)."""
    return re.fullmatch(r"[a-z]{1,12}[.,:;!?)]?", m.group("value")) is None


# HTTP Basic credentials: "Basic " and the base64 of user:password
_BASIC_CREDENTIALS = _rx(r"(?<![A-Za-z0-9_\-])Basic\s{1,3}(?P<value>[A-Za-z0-9+/]{8,684}={0,2})(?![A-Za-z0-9+/=])")


def _user_password_b64(m: re.Match[str]) -> bool:
    decoded = _b64_text(m.group("value"))
    if decoded is None:
        return False
    user, colon, password = decoded.partition(":")
    return bool(colon and password) and decoded.isprintable()


# the private members of a JSON Web Key (RFC 7518: "d", "p", "q", "dp", "dq", "qi" of RSA and EC keys, "k" of a
# symmetric one), in a text that says it is a JWK ("kty"); JSON, a Python repr or JSON escaped once more
_JWK_PRIVATE = _rx(r"(?P<q>\\{0,2}[\"'])(?:d|p|q|dp|dq|qi|k)(?P=q)\s{0,3}:\s{0,3}(?P=q)"
                          r"(?P<value>[A-Za-z0-9_\-+/]{16,16384}={0,2})(?P=q)")


# a credential's text encoded once more (no "Basic" in front, no name): hex of a token's characters, base64 of
# user:password. Checked by decoding: a digest or binary data does not decode to printable text that has a
# credential's make-up, so these hold in code too
_HEX_RUN = _rx(r"[0-9a-fA-F]{32,512}(?![0-9A-Za-z])")
_ESCAPED_RUN = _rx(r"(?:\\x[0-9a-fA-F]{2}){8,512}")
# (also a value right after its name's "=", and base64url: those are read as a document only, _b64_document)
_B64_WORD = _rx(r"(?:(?<![A-Za-z0-9+/=_\-])|(?<=[A-Za-z]=))[A-Za-z0-9+/_\-]{12,5464}={0,2}(?![A-Za-z0-9+/=_\-])")
_CONTROL_RUN = _rx(r"[\x00-\x08\x0b-\x1f\x7f]+")
# base32 (RFC 4648: A-Z, 2-7, "=" pad to 8): 16+ characters, so 10+ bytes of text
_B32_RUN = _rx(r"(?<![A-Za-z0-9+/=_\-])[A-Z2-7]{16,1024}={0,6}(?![A-Za-z0-9+/=_\-])")
# (a user may hold "$" and "+": Harbor's robot accounts, ``robot$project+ci``)
_USER_PASSWORD = _rx(r"[A-Za-z0-9_.@$+\-]{1,64}:(?P<pw>\S{6,128})")


def _credential_text(text: str) -> bool:
    """Decoded text that is a credential: a token of a known format, random like a key, or a picked password."""
    if not text.isprintable() or not text.isascii() or any(c.isspace() for c in text):
        return False
    whole = [1 for a, b, _ in _token_spans(text) if b - a >= len(text) - 2]
    if whole or (len(text) >= 16 and looks_random(text)) or password_made(text):
        return True
    # (encoded once more, less randomness says enough: both cases and digits, not words)
    return len(text) >= 12 and _mixed(text) and not _WORDS_ONLY.fullmatch(text) and not _WORDLIKE.fullmatch(text)


def _hex_text(m: re.Match[str]) -> bool:
    value = m.group(0)
    if len(value) % 2 or (m.start() and m.string[m.start() - 1].isalnum()) or not (value.islower() or value.isupper()
                                                                                    or value.isdigit()):
        return False
    try:
        return _credential_text(bytes.fromhex(value).decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        return False


def _b32_text(m: re.Match[str]) -> bool:
    """A base32 run that decodes to a credential's text (a digest or binary data does not decode to one)."""
    value = m.group(0)
    if not any(c in "234567" for c in value):
        return False  # (an upper-case word or constant has none)
    body = value.rstrip("=")
    try:
        decoded = base64.b32decode(body + "=" * (-len(body) % 8))
        return _credential_text(decoded.decode("ascii"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return False


def _b64_document(value: str, decoded: Optional[str] = None) -> bool:
    """Base64 (or base64url, its padding left out) of a text that names a credential with a credential's make-up
    (:func:`_named_inside`): lines, or fields that control characters separate (SASL XOAUTH2's ``\\x01``)."""
    urlsafe = "-" in value or "_" in value
    if urlsafe and ("+" in value or "/" in value) or len(value) < 16 or not _mixed(value):
        return False
    if decoded is None:
        data = _b64decode(value.rstrip("="), urlsafe)
        try:
            decoded = data.decode("utf-8") if data is not None else None
        except UnicodeDecodeError:
            return False
    if decoded is None:
        return False
    text = _CONTROL_RUN.sub("\n", decoded)
    return text.replace("\n", "").replace("\t", "").isprintable() and _named_inside(text)


def _b64_user_password(m: re.Match[str]) -> bool:
    value = m.group(0)
    if len(value) > 684 or "-" in value or "_" in value or (m.start() and m.string[m.start() - 1] == "="):
        return _b64_document(value)
    if value.isalpha() and all(_sayable(w) for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", value)):
        return False  # a word, or words (base64 of text may have no digit: TGluZGVuflJpZGdlMjEz)
    decoded = _b64_text(value)
    if decoded is None:
        return False
    if not decoded.isprintable():
        return _b64_document(value, decoded)
    found = _USER_PASSWORD.fullmatch(decoded)
    if found is not None and (password_made(found["pw"]) or _password_shaped(found["pw"])):
        return True
    # a value of a Kubernetes Secret's data: (any key) or any other base64 of text: checked as the text it is
    # (random like a key, a picked password, a token or URL credentials: not a name, a path or prose)
    return len(value) >= 16 and decoded.isascii() and len(decoded) >= 8 and (
        (len(decoded) >= 16 and looks_random(decoded)) or password_made(decoded) or bool(credentials_in(decoded))
        or bool(_high_spans(decoded)) or _named_inside(decoded))


_SECRET_WORD = _rx(r"(?i)pass|secret|token|key|auth|cred|pwd")


def _named_inside(decoded: str) -> bool:
    """A document under a secret's name (``{"password": "..."}``, ``token=...``) whose value has a
    credential's make-up: a name alone, a placeholder or a count is not enough."""
    if _SECRET_WORD.search(decoded) is None or len(decoded) > 4096:
        return False
    out = _context_rules(decoded)
    if out != decoded and any(_credential_made(decoded[a:b]) for a, b, _ in _marker_spans(decoded, out) or []):
        return True
    # (``auth=Bearer TOKEN``: the name's rule takes the scheme's word, the header's rule the token)
    return any(_credential_made(decoded[a:b]) for a, b, _ in _structural_spans(decoded))


def _encoded_spans(text: str) -> list[Span]:
    spans = [(m.start(), m.end(), _mark("hex-encoded-secret")) for m in _HEX_RUN.finditer(text) if _hex_text(m)]
    spans += [(m.start(), m.end(), _mark("base32-encoded-secret")) for m in _B32_RUN.finditer(text) if _b32_text(m)]
    if "\\x" in text:  # a bytes repr or a C string of \xNN escapes only (b'\x6e\x70\x6d\x5f...')
        spans += [(m.start(), m.end(), _mark("hex-encoded-secret")) for m in _ESCAPED_RUN.finditer(text)
                  if _credential_text(bytes.fromhex(m.group(0).replace("\\x", "")).decode("latin-1"))]
    return spans + [(m.start(), m.end(), _mark("authorization")) for m in _B64_WORD.finditer(text)
                    if len(m.group(0)) % 4 != 1 and _b64_user_password(m)]


def _in_jwk(m: re.Match[str]) -> bool:
    """The member is a JWK's: ``kty`` is named in the same object (within a key's length of it)."""
    return "kty" in m.string[max(0, m.start() - 4096):m.end() + 4096]


# a private key or a PKCS#12 keystore as bare base64 of its DER (no PEM armour: a keystore in an env variable, a
# JSON field, a config): an ASN.1 SEQUENCE whose first element is the version INTEGER 0, 1 (PKCS#1, PKCS#8, SEC1,
# DSA) or 3 (PKCS#12) — a certificate or a public key starts with another SEQUENCE or a long INTEGER. A body wrapped
# at 64/76 columns continues on the next lines.
_DER_BASE64 = _rx(r"(?<![A-Za-z0-9+/])M[A-Za-z0-9+/]{63,16384}={0,2}(?![A-Za-z0-9+/=])"
                         r"(?:\r?\n[A-Za-z0-9+/]{4,76}={0,2}(?=\r?\n|$))*")


def _der_private_key(m: re.Match[str]) -> bool:
    import base64
    import binascii

    try:
        head = base64.b64decode(m.group(0)[:24])
    except (binascii.Error, ValueError):
        return False
    if head[0] != 0x30:
        return False
    i = 2 if head[1] < 0x80 else 2 + (head[1] & 0x7F)
    return i + 3 <= len(head) and head[i] == 0x02 and head[i + 1] == 0x01 and head[i + 2] in (0, 1, 3)


# a password piped to a login that reads it from stdin: ``echo PW | docker login -u u --password-stdin``, also as
# a shell trace (``+ echo PW`` with the login on the next line)
_STDIN_PASSWORD = _rx(r"(?<![\w\-])echo[ \t]+(?:-n[ \t]+)?(?P<q>[\"']?)(?P<value>(?!<redacted)(?![$`])[^\s\"'|;\\]{4,512})"
                             r"(?P=q)(?=[ \t]*\|[^\n]{0,200}?--password-stdin(?![\w\-])|[ \t]*(?:\r?\n|\\n)[^\n]{0,200}?--password-stdin(?![\w\-]))")
# a secret option and its value as two items of a command's list (``['pg_dump', '--password', 'PW']``, a repr)
_LISTED_OPTION = _rx(r"(?P<q>\\?[\"'])--(?P<flag>[A-Za-z][\w\-]{0,60})(?P=q)\s{0,3},\s{0,3}(?P<vq>\\?[\"'])"
                            r"(?P<value>(?!<redacted)[^\"'\\\n]{1,512})(?P=vq)")


def _listed_secret(m: re.Match[str]) -> bool:
    return _SECRET_FLAG.search(m.group("flag")) is not None and _secret_literal(m.group("value"), "strong")


# an incoming webhook's URL: whoever has it posts as the integration; its key is the path after /hook(s)/
# (Mattermost /hooks/<26>, Feishu/Lark /bot/v2/hook/<uuid>, Teams /webhookb2/..., a self-hosted chat's)
_WEBHOOK_PATH = _rx(r"://[^\s/\"'<>]{1,253}(?:/[^\s/\"'?#<>]{1,80}){0,6}/(?:hooks?|webhooks?|webhookb2|"
                           r"incoming-webhooks?)/(?P<value>(?!<redacted)[A-Za-z0-9_@\-]{16,256}(?:/[A-Za-z0-9_@\-]{8,256}){0,3})",
                           re.IGNORECASE)


# the same path without its scheme and host: urllib3's "Max retries exceeded with url: /hooks/<key>", an access
# log's "POST /hooks/<key> HTTP/1.1" (the host stands elsewhere on the line, or nowhere)
_WEBHOOK_BARE_PATH = _rx(r"(?:(?<=[\s\"'(=:])|^)/{1,2}(?:[^\s/\"'?#<>]{1,80}/){0,6}(?:hooks?|webhooks?|webhookb2|"
                                r"incoming-webhooks?)/(?P<value>(?!<redacted)[A-Za-z0-9_@\-]{16,256}(?:/[A-Za-z0-9_@\-]{8,256}){0,3})",
                                re.IGNORECASE | re.MULTILINE)


# a token as a URL's path segment by a service's documented scheme: Anaconda's channels (``/t/<token>/channel``,
# conda's and pip's URLs for a private channel), Telegram's ``/bot<token>/`` (a token rule)
_PATH_TOKEN = _rx(r"://(?:[\w\-]{1,63}\.)*anaconda\.(?:org|com|cloud)/t/(?P<value>(?!<redacted)[A-Za-z0-9_\-]{16,256})(?=/|$|[\s>\"'])",
                         re.IGNORECASE)
# Cloudsmith's entitlement tokens: the first segment of a private repository's download path
# (``https://dl.cloudsmith.io/<token>/<owner>/<repo>/...``; ``public`` and ``basic`` name the other two kinds)
_CLOUDSMITH_PATH = _rx(r"://dl\.cloudsmith\.io/(?P<value>(?!<redacted)(?!(?:public|basic)/)[A-Za-z0-9]{12,64})/")


# a capability URL: a path segment of 48+ characters of base64 that is all the key there is (Sumo Logic's HTTP
# source, ``/receiver/v1/http/<token>``; any service's "secret URL"): whoever has the URL posts as its owner. Letters
# of both cases and digits, drawn (a digest's hex, a package index's 60 hex digits, a route's words stay); from 32 on
# when the segment is letters and digits alone (an RPC provider's ``/v2/<key>``, as the drawn-token rule's 32)
_URL_PATH_KEY = _rx(r"(?<=/)(?P<value>(?!<redacted)(?:[A-Za-z0-9_\-+]{48,512}={0,2}|[A-Za-z0-9]{32,47}))"
                           r"(?=[/?#\s\"'<>)\],;]|$)")


def _scheme_before(text: str, start: int) -> int:
    """Where the ``://`` of a URL stands before ``start`` in the same word (-1: none)."""
    word = max(text.rfind(c, 0, start) for c in " \t\n\"'<>(")
    return text.find("://", word + 1, start)


def _url_path_key(m: re.Match[str]) -> bool:
    """The segment stands in a URL's path (a ``scheme://host/`` before it in the same word) and is drawn."""
    text, start = m.string, m.start()
    url = _scheme_before(text, start)
    if url < 0 or text.find("/", url + 3, start) < 0:
        return False
    body = m.group("value").rstrip("=")
    # (:func:`_drawn_mixed`, which weighs the words: a long CamelCase route's name is no key)
    return bool(re.search(r"[a-z]", body) and re.search(r"[A-Z]", body) and re.search(r"[0-9]", body)) \
        and _drawn_mixed(body)


# a key in a URL's path after a segment that names it (IFTTT's /trigger/E/with/key/<key>, /token/<t>, /apikey/<k>)
# or after an API's version (Infura's and Alchemy's /v3/<key>): drawn, 16+ characters (32+ hex digits)
_URL_NAMED_PATH_KEY = _rx(r"/(?:key|keys|token|tokens|apikey|api[_\-]key|api[_\-]token|access[_\-]token|secret|"
                          r"v[0-9]{1,2})/(?P<value>(?!<redacted)[A-Za-z0-9_\-]{16,256})(?=[/?#\s\"'<>)\],;]|$)")


def _url_named_path_key(m: re.Match[str]) -> bool:
    value = m.group("value")
    if _scheme_before(m.string, m.start()) < 0:
        return False
    if m.group(0).startswith("/v"):  # (after a version: a key's make-up only, not a route's name)
        return _long_hex(value) or (len(value) >= 24 and (_drawn_mixed(value) or looks_random(value)))
    return _long_hex(value) or looks_random(value) or _drawn_mixed(value)


# an API key given as the user with an empty password (``curl -u <key>:``, Stripe's and Checkr's documented form): the
# user is the key when it is drawn (32+ hex digits, random text)
_USER_KEY_ONLY = _rx(r"(?:\s|^|[\"'\[,])(?:-u|--user)(?:\s{1,5}|=|[\"']\s{0,3},\s{0,3}[\"'])[\"']?"
                            r"(?P<value>(?!<redacted)[A-Za-z0-9_\-]{16,128}):(?=[\s\"'`]|$)", re.MULTILINE)


def _drawn_user_key(m: re.Match[str]) -> bool:
    value = m.group("value")
    return _long_hex(value) or looks_random(value) or _drawn_mixed(value)


def _webhook_key(m: re.Match[str]) -> bool:
    """A part of the path is drawn (a UUID, 32+ hex digits, random text), not a route's words (``/hooks/on-push``)."""
    return any(_UUID.search(p) or _long_hex(p) or (len(p) >= 16 and (looks_random(p) or _random_one_case(p)))
               or _drawn_mixed(p) or _ONE_CASE_ID.fullmatch(p) for p in re.split(r"[/@]", m.group("value")))


# letters of one case and digits, 20 or more, no separator (Mattermost's 26-character ids: few digits, no words
# apart): a route's name has its words apart (/hooks/on-push, /hooks/build_status)
_ONE_CASE_ID = _rx(r"(?=[a-z0-9]{20,64}$|[A-Z0-9]{20,64}$)(?=\D*\d)(?=.*[A-Za-z]).*")


# an RTMP(S) publish URL's stream key, its last path segment after the application's (rtmp://a.rtmp.youtube.com/live2/
# <key>, rtmps://live-api-s.facebook.com:443/rtmp/FB-<...>): a stream key is the credential that lets anyone publish
_RTMP_KEY = _rx(r"(?i)\brtmp[est]?://[^\s/\"'<>]{1,253}/(?:[^\s/\"'<>?#]{1,80}/){1,3}"
                r"(?P<value>(?!<redacted)[A-Za-z0-9_\-.=+%]{8,512})(?=[?#\s\"'<>)\],;]|$)")


def _stream_key(m: re.Match[str]) -> bool:
    """Drawn (grouped, random, one case with digits) or carrying digits among letters: ``live``, ``stream`` and a
    show's name of words stay."""
    value = m.group("value")
    return _app_password(value) or looks_random(value) or _random_one_case(value) or _drawn_mixed(value) \
        or (len(value) >= 12 and re.search(r"[0-9]", value) is not None and re.search(r"[A-Za-z]", value) is not None
            and not name_slug(value))


# a secret's id (Consul's and Nomad's ACL token "SecretID", Vault AppRole's secret_id): the id IS the secret
# (the Accessor ID beside it is not); a UUID under that name
_SECRET_ID = _rx(r"(?<![A-Za-z0-9_\-])(?:\\?[\"'])?secret[ _\-]?id(?:\\?[\"'])?[ \t]{0,20}(?:=>|:=|=|:)[ \t]{0,5}"
                 r"(?:\\?[\"'])?(?P<value>(?!<redacted)[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                 r"[0-9a-fA-F]{12})(?![0-9A-Za-z\-])", re.IGNORECASE)


# A password's hash as a password file, a database or a config keeps it (crackable offline: as secret as the
# password): crypt(3)'s MD5/SHA/bcrypt/yescrypt forms (/etc/shadow, htpasswd's $apr1$), passlib's and Argon2's
# PHC strings, Django's algorithm$iterations$salt$hash, PostgreSQL's SCRAM verifier. Each with its salt and hash
# parts, so a shell's ``$1$HOME`` or a price is none.
_B64_PART = r"[A-Za-z0-9+/]"
_PASSWORD_HASH = _rx(
    r"(?<![\w$])(?P<value>(?!<redacted)(?:"
    r"\$(?:1|5|6|apr1|md5)\$(?:rounds=[0-9]{1,9}\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}"
    r"|\$2[abxy]?\$[0-9]{2}\$[./A-Za-z0-9]{53}"
    r"|\$(?:y|gy|7)\$[./A-Za-z0-9]{1,40}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}"
    r"|(?:argon2)?\$argon2(?:id|i|d)\$(?:v=[0-9]{1,3}\$)?m=[0-9]{1,10},t=[0-9]{1,10},p=[0-9]{1,3}\$"
    + _B64_PART + r"{8,}\$" + _B64_PART + r"{16,}"
    r"|\$(?:pbkdf2(?:-sha(?:1|256|512))?|scrypt)\$[0-9a-z=,]{1,40}\$[./A-Za-z0-9+=]{4,}\$[./A-Za-z0-9+=]{16,}"
    r"|(?:pbkdf2_sha(?:1|256)|bcrypt_sha256|scrypt)\$[0-9a-z=,$]{1,40}\$[./A-Za-z0-9+=]{4,}\$[./A-Za-z0-9+=]{16,}"
    r"|SCRAM-SHA-(?:1|256)\$[0-9]{1,7}:" + _B64_PART + r"{8,}={0,2}\$" + _B64_PART + r"{16,}={0,2}:"
    + _B64_PART + r"{16,}={0,2}"
    r"))(?![./A-Za-z0-9+=])")


def _structural_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    low = text.lower()
    if "rtmp" in low:
        spans += _group_spans(_RTMP_KEY, text, "stream-key", _stream_key)
    if "$" in text:
        spans += _group_spans(_PASSWORD_HASH, text, "password-hash")
    if "secret" in low:
        spans += _group_spans(_SECRET_ID, text, "secret")
    if "--password-stdin" in text:
        spans += _group_spans(_STDIN_PASSWORD, text, "secret")
    if "--" in text and "," in text:
        spans += _group_spans(_LISTED_OPTION, text, "secret", _listed_secret)
    if "M" in text:  # (a marker per line: the line breaks stay)
        spans += [(m.start() + line.start(), m.start() + line.end(), _mark("private-key"))
                  for m in _DER_BASE64.finditer(text) if _der_private_key(m) for line in _LINE.finditer(m.group(0))]
    if "kty" in text:
        spans += _group_spans(_JWK_PRIVATE, text, "private-key", _in_jwk)
    if "Basic" in text:
        spans += _group_spans(_BASIC_CREDENTIALS, text, "authorization", _user_password_b64)
    if "hook" in text.lower():
        if "://" in text:
            spans += _group_spans(_WEBHOOK_PATH, text, "webhook", _webhook_key)
        spans += _group_spans(_WEBHOOK_BARE_PATH, text, "webhook", _webhook_key)
    if "anaconda." in text:
        spans += _group_spans(_PATH_TOKEN, text, "anaconda-token", _webhook_key)
    if "cloudsmith.io" in text:
        spans += _group_spans(_CLOUDSMITH_PATH, text, "cloudsmith-token", _webhook_key)
    if "-u" in text:
        spans += _group_spans(_USER_KEY_ONLY, text, "credentials", _drawn_user_key)
    spans += _url_spans(text, low)
    if "authorization" in low:
        spans += [(m.start() + a, m.start() + b, kind) for m in _AUTH_PARAMS_LINE.finditer(text)
                  for a, b, kind in _group_spans(_AUTH_PARAM, m.group(0), "authorization")]
    for pattern, needles, kind in ((_AUTH_HEADER, ("authorization",), "authorization"),
                                   (_BEARER, ("bearer", "token "), "authorization"),
                                   (_API_KEY_HEADER, ("-key", "-token"), "api-key"),
                                   (_KEY_HEADER, ("-key", "-token", "-secret", "-apikey", "-signature"), "api-key"),
                                   (_AWS_SECRET, ("aws_secret", "aws_session", "aws_security"), "aws-secret-key"),
                                   (_WIREGUARD_KEY, ("privatekey", "presharedkey"), "wireguard-key")):
        if any(n in low for n in needles):
            spans += _group_spans(pattern, text, kind, _random_header_value if pattern is _KEY_HEADER else _not_a_word)
    return spans + _cli_spans(text)


def _url_spans(text: str, low: str) -> list[Span]:
    """A URL's credentials: its userinfo (any scheme, an opaque one's too), keys in its path, signed parameters, and
    a connection string's secret fields."""
    spans: list[Span] = []
    if "://" in text:
        spans += _group_spans(_URL_PATH_KEY, text, "url-path-key", _url_path_key)
        spans += _group_spans(_URL_NAMED_PATH_KEY, text, "url-path-key", _url_named_path_key)
        spans += _group_spans(_URL_CREDENTIALS, text, "url-credentials", _not_masked)
        spans += _group_spans(_URL_TOKEN_USER, text, "url-credentials")
        spans += _group_spans(_URL_RAW_PASSWORD, text, "url-credentials", _raw_password)
        spans += _group_spans(_URL_AT_USER, text, "url-credentials", _at_user_password)
    if "@" in text and any(s in low for s in ("sip", "xmpp:", "h323:", "pres:", "im:")):
        spans += _group_spans(_OPAQUE_URI_CREDENTIALS, text, "url-credentials", _not_placeholder_password)
    if "=" in text:
        spans += _group_spans(_URL_PARAMS, text, "signed-url", _real_param)
        spans += _group_spans(_CONNECTION_STRING, text, "connection-string", _connection_part)
    return spans


def _cli_spans(text: str) -> list[Span]:
    """Passwords in tools' command lines and their own syntax (:data:`_CLI_CREDENTIALS`)."""
    spans: list[Span] = []
    for pattern, needles in zip(_CLI_CREDENTIALS, _CLI_NEEDLES):
        if any(n in text for n in needles):
            spans += _group_spans(pattern, text, "credentials", _cli_credential)
    return spans


# --------------------------------------------------------------------------- detect-secrets' detectors

# detect-secrets (Yelp's maintained secret scanner) ships one regex detector per credential format. The
# prefix-shaped ones are high-confidence (also applied inside code); the keyword- and shape-only ones
# (Cloudant, IBM, SoftLayer, Telegram, Mailchimp, Twilio, Discord bot tokens, Artifactory) are applied to
# text only. Left out: its private-key detector (it flags the header only; whole blocks go above), public
# IPs (not secrets), the JWT regex (its validator is used on our JWT matches), the keyword detector (the
# assignment rules below) and the high-entropy detectors (they flag every commit SHA, which reports need).
_DS_SKIP = {"PrivateKeyDetector", "IPPublicDetector", "JwtTokenDetector"}
_DS_HIGH = {"AWSKeyDetector", "AzureStorageKeyDetector", "BasicAuthDetector", "GitHubTokenDetector",
            "GitLabTokenDetector", "NpmDetector", "OpenAIDetector", "PypiTokenDetector", "SendGridDetector",
            "SlackDetector", "SquareOAuthDetector", "StripeDetector"}


def _literal_needle(pattern: re.Pattern[str]) -> Optional[str]:
    """The longest run of literal characters every match must contain (top level of the pattern), or
    None: a pattern whose needle is absent from a text is not run on it."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        import re._parser as sre_parse  # Python >= 3.11
    except ImportError:  # pragma: no cover
        import sre_parse  # type: ignore[no-redef]
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # pragma: no cover - compiled already
        return None
    best, run = "", ""
    for op, arg in parsed:
        if str(op) == "LITERAL":
            run += chr(arg)
            continue
        best, run = max(best, run, key=len), ""
        if str(op) in ("MAX_REPEAT", "MIN_REPEAT") and arg[0] == 0:
            continue
    best = max(best, run, key=len)
    return best if len(best) >= 2 else None


def _ds_read() -> list[tuple[str, str, str, int]]:
    """detect-secrets' regex detectors as (secret type, class name, pattern, flags), read from its plugins."""
    try:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector
    except ImportError:  # pragma: no cover - a dependency; without it the rules above still apply
        return []
    return [(secret_type, cls.__name__, pattern.pattern, pattern.flags)
            for secret_type, cls in sorted(get_mapping_from_secret_type_to_class().items())
            if issubclass(cls, RegexBasedDetector) for pattern in cls.denylist]


def _ds_cache_file() -> Optional[str]:
    """Where :func:`_ds_read`'s answer for the installed detect-secrets is kept: a file in reportkit's cache dir
    named by a digest of its plugins' files (name, size, mtime), so that another version reads its own."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("detect_secrets")
        plugins = os.path.join(list(spec.submodule_search_locations or [])[0], "plugins")  # type: ignore[union-attr]
        stamp = hashlib.sha256()
        with os.scandir(plugins) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    st = entry.stat()
                    stamp.update(f"{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    except (ImportError, AttributeError, IndexError, OSError, ValueError):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "reportkit", f"detect-secrets-{stamp.hexdigest()[:24]}.json")


def _ds_rows() -> list[tuple[str, str, str, int]]:
    """:func:`_ds_read`, through a cache: importing detect-secrets' plugins (and the HTTP client they verify
    with) took each reportkit command about 0.15 s. The cache holds only the detectors' public patterns; one
    that cannot be read or written is read from the plugins again."""
    cache = _ds_cache_file()
    if cache is not None:
        try:
            with open(cache, encoding="utf-8") as fh:
                rows = json.load(fh)
            if isinstance(rows, list) and rows and all(
                    isinstance(r, list) and len(r) == 4 and all(isinstance(v, str) for v in r[:3])
                    and type(r[3]) is int for r in rows):
                return [tuple(r) for r in rows]  # type: ignore[misc]
        except (OSError, ValueError):
            pass
    rows = _ds_read()
    if cache is not None and rows:
        try:
            os.makedirs(os.path.dirname(cache), mode=0o700, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".detect-secrets.", dir=os.path.dirname(cache))
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(rows, fh)
                os.replace(tmp, cache)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        except OSError:  # (a read-only or full home: read from the plugins each time)
            pass
    return rows


def _detect_secrets_patterns() -> list[tuple[str, bool, re.Pattern[str], Optional[str]]]:
    out = []
    for secret_type, name, pattern, flags in _ds_rows():
        if name in _DS_SKIP:
            continue
        kind = re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")
        compiled = _rx(pattern, flags | re.MULTILINE)
        out.append((kind, name in _DS_HIGH, compiled, _literal_needle(compiled)))
    return out


_DS_PATTERNS = _detect_secrets_patterns()
_PREFIX_NEEDLES = [(kind, pattern, _literal_needle(pattern)) for kind, pattern in _PREFIX_TOKENS]
_KNOWN_PREFIXES = frozenset([prefix for _kind, prefix, _body, _source in TOKEN_SHAPES + DOCUMENTED_SHAPES]
                            + [needle for _kind, _pattern, needle in _PREFIX_NEEDLES if needle])
_EDGE_CHARS = " \t\r\n\"'=:[](),;"
# The keyword detectors (Cloudant, IBM, SoftLayer: "<vendor>_<key|pwd|token> = <24+ chars>") try two
# lookbehinds and a long alternation at every position; they run only on the lines where a key/pwd/pass/token
# word is assigned a 24+ character value, which a quick scan finds.
_DS_KEYWORD_PREFIX = "(?:(?<=\\W)|(?<=^))"
_LONG_ASSIGNED = _rx(r"(?:key|pwd|pw|pass|token)[\"'\]]?[ ]*(?:=|:|:=|=>| +|::)[ ]*[\"']?[A-Za-z0-9_\-+/]{24,}",
                            re.IGNORECASE)


def _ds_ranges(text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for m in _LONG_ASSIGNED.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        end = len(text) if end < 0 else end
        if ranges and start <= ranges[-1][1]:
            ranges[-1] = (ranges[-1][0], max(end, ranges[-1][1]))
        else:
            ranges.append((start, end))
    return ranges


def _ds_spans(text: str, high: bool) -> list[Span]:
    spans: list[Span] = []
    keyword_ranges: Optional[list[tuple[int, int]]] = None
    for kind, is_high, pattern, needle in _DS_PATTERNS:
        if is_high != high or (needle is not None and needle not in text):
            continue
        keyword = pattern.pattern.startswith(_DS_KEYWORD_PREFIX)
        if keyword and keyword_ranges is None:
            keyword_ranges = _ds_ranges(text)
        ranges = keyword_ranges if keyword else [(0, len(text))]
        for m in (m for lo, hi in (ranges or []) for m in pattern.finditer(text, lo, hi)):
            if "<redacted:" in m.group(0):
                continue
            groups = [i for i in range(1, (pattern.groups or 0) + 1) if m.group(i) and len(m.group(i)) >= 8]
            if groups:  # the detector's capture group is the secret itself (not a short prefix like "glpat")
                i = max(groups, key=lambda g: m.end(g) - m.start(g))
                start, end = m.start(i), m.end(i)
            else:
                start, end = m.start(), m.end()
                while start < end and text[start] in _EDGE_CHARS:
                    start += 1
                while end > start and text[end - 1] in _EDGE_CHARS:
                    end -= 1
            if start > 0 and text[start - 1].isalnum() and text[start].isalnum():
                continue  # inside a longer word ("xghp_..."): not that credential's format
            if kind in _TOKEN_CHECKS and not _TOKEN_CHECKS[kind](text[start:end]):
                continue  # (a dotted name of Discord's lengths: its parts are words, not drawn)
            if end - start >= 8 and not text.startswith("<redacted", start):
                spans.append((start, end, _mark(kind)))
    return spans


# a template's placeholder: {user}:{password}, %s:%s, %(pw)s, ${PASS}, $PASS (a format string, not a credential)
_TEMPLATE = _rx(r"\{[A-Za-z0-9_.\[\]'\"!:]{0,60}\}|%(?:\([A-Za-z_]\w{0,40}\))?[srd]|\$\{[A-Za-z_]\w{0,60}\}"
                       r"|\$[A-Z_][A-Z0-9_]{0,60}(?![a-z])|<[A-Za-z_][\w\-]{0,40}>")


def _template(value: str) -> bool:
    """The secret part of a match (what follows the last ``:``: ``user:{password}``) is a placeholder."""
    value = value.strip("/@\"' ")
    return _TEMPLATE.fullmatch(value.rsplit(":", 1)[-1].strip("/@\"' ")) is not None


def _not_template(text: str, spans: list[Span]) -> list[Span]:
    """The spans whose secret is a placeholder are left out: ``redis://{user}:{password}@``, ``"%s:%s@" % ...``,
    ``curl -u $USER:$PASS`` are templates (what fills them is not there, and code that formats them must keep
    them)."""
    if not any(c in text for c in "{%$<"):
        return spans
    return [s for s in spans if not _template(text[s[0]:s[1]])]


def _uncovered(spans: list[Span], more: list[Span]) -> list[Span]:
    """The spans of ``more`` that overlap none of ``spans`` (a more specific rule named them first)."""
    if not more or not spans:
        return more
    ordered = sorted((s[0], s[1]) for s in spans)
    starts = [s[0] for s in ordered]
    out = []
    for span in more:
        i = bisect.bisect_left(starts, span[1])  # the spans that start before this one ends
        if not any(ordered[j][1] > span[0] for j in range(max(0, i - 8), i)):
            out.append(span)
    return out


def _high_spans(text: str) -> list[Span]:
    """Every high-confidence match (rule (b) that holds anywhere, code included). The catalogue's shapes and the
    unknown vendor's shape count only where no rule of its own (with its own marker) matched."""
    spans = _pem_spans(text) + _token_spans(text) + _encoded_spans(text) \
        + _not_template(text, _structural_spans(text) + _ds_spans(text, high=True))
    spans += _uncovered(spans, _catalogue_spans(text))
    return spans + _uncovered(spans, _prefixed_spans(text))


# --------------------------------------------------------------------------- (b) context rules (text only)

# NAME = value where NAME ends in a secret-ish word. Long words may be glued to the name
# (accessToken, DB_PASSWORD); short ambiguous ones need a separator or to be the whole
# name (DB_PASS, auth) so compass/oauth-like words are not hit. The value must be a quoted literal,
# or a bare word not followed by "(", "[", "." or "="; numbers, booleans, None, type names, dotted
# identifiers and variables (``self.ntoken = ntoken``, ``password = new_password``) are left alone.
_LONG_SECRET_WORD = (
    r"(?:token|secret|password|passwd|pass[_.\-]?phrase|credentials?|api[_.\-]?key|access[_.\-]?key|"
    r"secret[_.\-]?key|private[_.\-]?key|sdk[_.\-]?key|session[_.\-]?id|"  # (Hadoop's, Java's dotted names: fs.s3a.secret.key)
    r"secret[_.\-]?key[_.\-]?base|authtok|mnemonic|(?:seed|recovery)[_.\-]?phrase)"  # (Rails' and Phoenix's secret_key_base; SSSD's ldap_default_authtok)
)
# (and "pw" glued to a word before it: rootpw, adminpw, BMC_ROOTPW; no English word ends so, and PWD is not it;
# "sk" alone is the secret half of the ak/sk pairs of Chinese clouds' SDKs: Volcengine, Huawei, Baidu; never
# task/disk, nor LANG_SK: a name ending in _SK is an environment variable's, which is_secret_env_name decides)
_SHORT_SECRET_WORD = (r"(?:(?:(?<=[_.\-])|(?<![A-Za-z0-9_.\-]))(?:pass|auth|creds?|cookie|psk)|(?<![A-Za-z0-9_.\-])sk"
                      r"|(?<=[A-Za-z])pw(?![A-Za-z])|(?<=[A-Za-z][_.])pw(?![A-Za-z])"  # (php.ini's mysqli.default_pw)
                      # (a login's password glued to what it is for: offlineimap's remotepass, localpass)
                      r"|(?<![A-Za-z0-9])(?:remote|local|master|root|admin|db|user|bind|smtp|mail|ldap|proxy|ftp|imap|"
                      r"sql|auth)pass(?![A-Za-z]))")
_SECRET_NAME = r"[A-Za-z0-9_.\-]{0,64}?(?:" + _LONG_SECRET_WORD + "|" + _SHORT_SECRET_WORD + r")s?"
_SEPARATOR = (
    # annotated: "token: str = ..." (not a base64 value's padding at a line's end: "password: c2VjcmV0=")
    r"(?:\s{0,5}:\s{0,5}[A-Za-z_][\w\[\], .|]{0,60}?\s{0,5}=(?!=)(?![ \t]*(?:\r?\n|$))"
    r"|\s{0,5}(?::=|=>|=(?!=)|:(?![:=])|:::?(?=[ \t]{1,5}[\"']))|[)\uff09]?\s{0,5}\uff1a)\s{0,5}"  # (=>: Ruby's and Perl's hashes; also a full-width colon)
)
_VALUE = (
    r"(?:(?P<q>[\"'])(?P<qvalue>(?!<redacted)(?:\\[^\n]|(?!(?P=q))[^\\\n]){1,512})(?P=q)"  # escapes: 'a\'b', "a'b"
    # (a bare value not followed by "=" on its line: "a = b = c"; a next line of "=====" is not that; a quote
    # may end it: "NAME=value" as an item of a repr'd list, ['PGPASSWORD=...', ...])
    # and a JSON escape ends it: "...\npassword=VALUE\nnext line"
    # (not a key of its own: "yaml_secret_key:   secret_key: VALUE" names VALUE with the second name)
    r"|(?P<value>(?!<redacted)(?!=)(?![A-Za-z_][\w.\-]{0,80}:(?:\s|$))(?:(?!\\[nrt])[^\s\"'`,;(){}\[\]<>\ue005]){1,512})(?=$|[\s,;)\]}\"']|\\[nrt])"
    r"(?![ \t]{0,5}=))"
)
_ASSIGNMENT = _rx(
    # (the name's quotes may be escaped: \'password\': "..." in the repr of a list of reprs; a subscript's bracket
    # may close it: jsonschema's "On instance['api_token']:" and the value on the next line)
    r"(?P<prefix>(?<![A-Za-z0-9_.\-])(?<!\$\{)(?:--)?(?:\\{0,2}[\"'])?(?P<name>" + _SECRET_NAME + r")(?:\\{0,2}[\"']\]?)?"
    # (a quoted value may sit in a one-item list or a Rust Option: vLLM's 'api_key': ['...'], TGI's Some("..."), also
    # as Rust's {:#?} prints it, on the next line: Some(\n        "...",\n    ))
    + _SEPARATOR + r"(?:\[\s{0,2}(?=[\"'])|Some\((?:\r?\n[ \t]{0,24})?(?=[\"'])|\$(?=')|(?:[rRbBuU]|[rR][bB]|[bB][rR])(?=[\"']))?)"
    + _VALUE,  # ($'...': bash's; r"...", b'...': Python's string prefixes, as a traceback's source line shows them)
    re.IGNORECASE | re.MULTILINE,
)
# a secret's name and a quoted value whose string goes on past its line's end (a JSON string a viewer or a log
# wrapped: "client_secret": "<first part>\n<the rest>"}): the part on the name's line, judged as the quoted value
_OPEN_QUOTED = _rx(
    r"(?P<prefix>(?<![A-Za-z0-9_.\-])(?:\\{0,2}[\"'])?(?P<name>" + _SECRET_NAME + r")(?:\\{0,2}[\"'])?" + _SEPARATOR + r")"
    r"(?P<q>[\"'])(?P<qvalue>(?!<redacted)[^\s\"'\\]{8,512})(?=[ \t]*\r?\n)", re.IGNORECASE)


def _replace_open_value(m: re.Match[str]) -> str:
    out = _replace_value("secret")(m)
    return out if out == m.group(0) else out[:-1]  # (the string's quote closes on a later line)


# (a quick test for the lines _OPEN_QUOTED reads: a separator, a quote and a value that runs to the line's end)
_OPEN_QUOTED_HINT = _rx(r"[:=\uff1a>][ \t]{0,5}[\"'][^\s\"'\\]{8,512}[ \t]*\r?$", re.MULTILINE)


def _open_quoted_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for hint in _OPEN_QUOTED_HINT.finditer(text):
        start = text.rfind("\n", 0, hint.start()) + 1
        end = hint.end() + 1 if hint.end() < len(text) else hint.end()  # (its newline: the lookahead reads it)
        for m in _OPEN_QUOTED.finditer(text, start, end):
            out = _replace_open_value(m)
            if out != m.group(0):
                spans.append((m.start(), m.end(), out))
    return spans


# a shell's default for a secret's variable (${POSTGRES_PASSWORD:-<value>}, ${DB_TOKEN:=<value>}): the default
# is the secret, the expansion's operator stays
_SHELL_DEFAULT = _rx(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]{0,80}):?[-=](?P<value>(?!<redacted)[^}\s]{1,512})\}")


def _shell_default(m: re.Match[str]) -> bool:
    name, value = m.group("name"), m.group("value")
    return is_secret_env_name(name) and not _PLACEHOLDER.match(value) and not _plain_value(value, name) \
        and not value.startswith("$") and len(value) > 3


# NAME=value / NAME: value with an upper-case environment-style name that is secret-bearing
# (:func:`is_secret_env_name`: SSHPASS, OP_SESSION_x, REDIS_URL, FOO_KEY, DISCORD_WEBHOOK)
_ENV_ASSIGNMENT = _rx(
    r"(?P<prefix>(?<![A-Za-z0-9_.\-$])(?<!\$\{)[\"']?(?P<name>[A-Z][A-Z0-9_]{1,80}[A-Za-z0-9_]{0,40})[\"']?\s{0,3}[=:](?![=:])"
    r"\s{0,3}(?:\$(?='))?)" + _VALUE,  # ($'...': bash's ANSI-C quoting)
    re.MULTILINE,
)
_CLI_FLAG = _rx(
    r"(?P<prefix>(?<![A-Za-z0-9_\-])--(?:[a-z0-9]+-){0,4}(?:token|password|passwd|secret|api-?key|access-?key)[ \t]{1,5})"
    r"(?P<value>(?!<redacted)(?!-)[^\s\"']{0,511}[^\s\"'\])}])",  # (argparse's usage: [--hub-token HUB_TOKEN])
    re.IGNORECASE,
)
_NOT_SECRET_VALUE = _rx(
    r"^(?:-?\d+(?:\.\d+)?|0x[0-9a-f]{1,16}|true|false|none|null|nil|yes|no|on|off|enabled?|disabled?|required|optional|"
    r"\*+|x+|str|int|float|bool|bytes|dict|list|tuple|set|any|object|"
    r"[A-Za-z0-9]{0,4}[*•]{4,}[A-Za-z0-9]{0,6}|"  # a masked value: ****************a1b2
    r"[A-Za-z0-9]{1,8}[_\-][*•]{3,}[A-Za-z0-9]{0,6}|"  # a vendor's prefix and a mask: hf_***, ghp_****a1b2
    r"!!?[a-z]{2,12}|"  # a YAML tag (db_password: !!binary <base64>: the value follows it)
    r"[A-Za-z_]\w{0,30}(?:\.[A-Za-z_]\w{0,30})+)$",
    re.IGNORECASE,
)
_SECRET_WORD_END = _rx(r"(?:token|password|passwd|passphrase|secret|key|pass|auth|creds?|cookie|credentials?|"
                              r"pwd|pw)s?$", re.IGNORECASE)
# special tokens of tokenizers and placeholders: pad_token="<pad>", eos_token="</s>", "[MASK]", "{password}";
# and the same-shape placeholder minimize writes for a secret (reduce/passes/materialize.py: letters x/X,
# digits 0, the rest kept: "xx_xxxx_0xX00XxXxx")
_PLACEHOLDER = _rx(r"^(?:<\|?/?[^<>\s]{0,40}\|?>|\[[A-Za-z_]{1,20}\]|\{\w{0,40}\}|%\(?\w{0,40}\)?s|"
                          r"\$\{?\w{1,60}\}?|\*{3,}|<[^<>]{1,60}>|x{3,}|\.{3}|…|"
                          # OmegaConf/Hydra's ${oc.env:NAME} (its MISSING default ???), a sample's words:
                          # your-api-key-here, YOUR_TOKEN, paste_token_here, REPLACE_ME
                          r"\$\{[\w.]{1,40}:\w{1,60}(?:,\s?(?:\?{3}|null|None|''|\"\"|))?\}|"
                          # a reference another tool fills in: PowerShell's $env:NAME, cmd's %NAME%, Terraform's
                          # ${var.name}, a workflow's ${{ secrets.NAME }}
                          r"\$env:\w{1,60}|%\w{1,60}%|\$\{[A-Za-z_][\w.\-]{0,80}\}|\$\{\{\s?[\w.\-]{1,80}\s?\}\}|"
                          r"your[-_ .][a-z0-9_\-. ]{0,60}|[a-z0-9_\-. ]{0,60}[-_ .]here|"
                          r"(?:replace|insert|enter|paste|put)[-_ .](?:me|your|with|key|token|secret|password)[a-z0-9_\-. ]{0,60}|"
                          r"(?=(?:[^x]*x){3})[x0_\-.:/+=~]{6,})$", re.IGNORECASE)
_IDENTIFIER = _rx(r"[A-Za-z_][A-Za-z0-9_]*")


def _reference(value: str, spaced: bool) -> bool:
    """A bare value that names a variable rather than holds a secret: ``ntoken``, ``new_password``,
    ``myToken``, ``self_token`` (a name without digits that ends in a secret word), or after ``NAME = `` a
    lower-case name without digits."""
    if not _IDENTIFIER.fullmatch(value) or re.search(r"[0-9]", value):
        return False
    if _SECRET_WORD_END.search(value):
        return True
    return spaced and re.fullmatch(r"[a-z_]+", value) is not None


_PASSWORD_NAME = _rx(r"pass|pwd|secret|credential", re.IGNORECASE)
_WORD_DIGITS = _rx(r"[A-Za-z]{3,}[0-9]{2,}")


# a number is a setting (KEY_SIZE=2048, max_tokens=4096, token_id=50256, a timestamp under `key`) unless the name's last
# word says the value is the secret itself and the number is long for a setting: a password or PIN of 6 digits or
# more (DB_PASSWORD=938475629384, pin=482910), a secret or a named owner's key of 12 or more (SEG_LICENSE_KEY=5402…,
# bank.account.key=…)
_NUMERIC_PASSWORD_WORDS = frozenset({"PASSWORD", "PASSWD", "PWD", "PASS", "PASSPHRASE", "PASSCODE", "PIN"})
_GLUED_PASSWORD = ("PASSWORD", "PASSWD", "PASSPHRASE", "PASSCODE", "PWD", "PW")
_NUMERIC_KEY_OWNERS = frozenset({"LICENSE", "API", "SECRET", "ACCESS", "PRIVATE", "AUTH", "CLIENT", "APP", "ACCOUNT"})


def _password_word(word: str) -> bool:
    """A name's last word (upper case) that says a password: PASSWORD, PIN, also glued (PGPASSWORD, BMC_ROOTPW)."""
    return word in _NUMERIC_PASSWORD_WORDS or word.endswith(_GLUED_PASSWORD)


def _numeric_secret(value: str, name: str) -> bool:
    """A run of digits after a name that makes it a secret (:data:`_NUMERIC_PASSWORD_WORDS`)."""
    if not value.isdigit():
        return False
    words = _name_words(name)
    if not words:
        return False
    if _password_word(words[-1]):
        return len(value) >= 6
    owned = len(words) > 1 and words[-1] in ("KEY", "TOKEN") and words[-2] in _NUMERIC_KEY_OWNERS
    return (words[-1] == "SECRET" or owned) and len(value) >= 12


def _plain_value(value: str, name: str) -> bool:
    """:func:`_not_secret_value` after ``name``, where a long number under the secret's own name is the secret
    (:func:`_numeric_secret`): what the rules that read a real name ask."""
    return _not_secret_value(value, name) and not _numeric_secret(value, name)


def _not_secret_value(value: str, name: str) -> bool:
    """:data:`_NOT_SECRET_VALUE` (a number, type, flag or dotted name), except that after a password's name
    a dotted word with digits is a password (``Harbor42.north17``), not a module path."""
    if not _NOT_SECRET_VALUE.match(value):
        return False
    if "." in value and (looks_random(value.replace(".", "")) or _random_one_case(value.replace(".", ""))):
        return False  # WUkxWcmwg4NPRh.rwhQyu..., lf5fxf.dltq...: drawn, not a module path (torch.float32, self.ntoken)
    return not ("." in value and _PASSWORD_NAME.search(name) and _WORD_DIGITS.search(value)
                and not re.fullmatch(r"-?[0-9.]+", value))


def _placeholder_connection(value: str) -> bool:
    """A connection string (``Name=value;...``) whose every secret field (AccountKey, Password, ...) holds a
    placeholder or a reference (``<YOUR_ACCOUNT_KEY>``, ``your-key-here``, ``%KEY%``), and at least one does."""
    fields = list(_CONNECTION_STRING.finditer(value))
    return bool(fields) and all(_PLACEHOLDER.match(m.group("value")) for m in fields) and "=" in value


_GO_TEST_NAME = _rx(r"(?:Test|Benchmark|Example|Fuzz)(?:[A-Z0-9_]\w{0,100})?(?:/[\w#.\-=]{1,100}){0,4}")


def _ordinary_value(value: str, quote: str, prefix: str, name: str = "") -> bool:
    """A value after a secret-sounding name that is not a secret: a type, number, placeholder or variable
    (``self.ntoken = ntoken``); after ``name:`` a word (prose: ``read-only token: the action ...``); an
    upper-case word (``KEY=VALUE`` in a message); a short lower-case word after ``name = "`` (code:
    ``token = "rc"``), or after any name that is not a password's (``token="build"``); three characters or
    fewer."""
    if _plain_value(value, name) or _PLACEHOLDER.match(value.strip()) or len(value) <= 3:
        return True
    if "://" in value and _templated_userinfo(value):
        return True  # postgresql://%(user)s:%(password)s@%(host)s/db: a URL whose credentials are a template's fields
    if re.fullmatch(r"[a-z_][a-z_.\-]{0,60}=", value):
        return True  # set-cookie: sessionid=""; (a cookie's name before its empty value; base64's "=" pad has more)
    if ";" in value and _placeholder_connection(value):
        return True  # AccountName=<ACCOUNT>;AccountKey=<YOUR_ACCOUNT_KEY>;...: a sample connection string
    if _HEX_DIGEST.fullmatch(value) and _hash_named(name):
        return True  # a secret's hash, named so: detect-secrets' "hashed_secret", password_sha256, token_digest
    if re.fullmatch(r"[A-Z][A-Z_]*", value):
        return True
    if name == "PASS" and _GO_TEST_NAME.fullmatch(value):
        return True  # go test's "--- PASS: TestParse/empty_input (0.00s)": a test's name
    code_style = bool(re.search(r"\s=|=\s|:\s*[A-Za-z_][\w\[\], .|]*=", prefix))
    if not quote:  # (a word before prose's punctuation: Docker's "Using `--password via` the CLI is insecure")
        if "=" not in prefix and re.fullmatch(r"[A-Za-z][a-z]*[`'.,;:!?]?", value):
            return True
        return _reference(value, spaced=code_style)
    if _generic_token_name(name) and not re.search(r"[0-9]", value) and (len(value) < 16 or " " in value.strip()) \
            and not _short_key(value):
        return True  # {"token": "Paris", "logprob": -0.2}: a tokenizer's token, not a credential (token = "ZPNSLuJx" is)
    if re.fullmatch(r"\s?[a-z]{1,8}\s?", value) is None:
        return False
    return code_style or re.search(r"pass|pwd|secret", name, re.IGNORECASE) is None


# a digest's words (also identifiers' below: a value under them is no secret) and a secret's hash's
_DIGEST_WORDS = frozenset({"SHA", "SHA1", "SHA256", "SHA512", "DIGEST", "CHECKSUM", "MD5"})
_HASH_WORDS = _DIGEST_WORDS | {"HASHED", "FINGERPRINT"}
_HEX_DIGEST = _rx(r"[0-9a-fA-F]{32,128}")


def _templated_userinfo(value: str) -> bool:
    """A URL whose password (or lone token) is a format string's field (``%(password)s``, ``{pw}``, ``${PW}``)."""
    m = re.match(r"[A-Za-z][\w+.\-]{0,30}://([^@/\s]{1,200})@", value)
    return m is not None and _CODE_TEMPLATE.fullmatch(m.group(1).rsplit(":", 1)[-1]) is not None


def _hash_named(name: str) -> bool:
    """A name that says its value is a secret's hash, not the secret: detect-secrets' ``hashed_secret``,
    ``password_sha256``, ``tokenDigest``, ``password_hash`` (``hash_key``, ``hash_secret``: an HMAC's key, are
    secrets)."""
    words = _name_words(name)
    return bool(words) and (words[-1] == "HASH" or not _HASH_WORDS.isdisjoint(words))


# what a credential token is for: access_token, GITHUB_TOKEN, hfToken (pad_token, token, max_tokens are generic)
_TOKEN_OWNERS = frozenset({"access", "refresh", "auth", "api", "bearer", "id", "session", "csrf", "xsrf", "oauth",
                           "github", "gh", "gitlab", "hf", "huggingface", "npm", "pypi", "slack", "bot", "personal",
                           "private", "secret", "service", "client", "app", "user", "admin", "deploy", "registry",
                           "vault", "cloud", "aws", "azure", "gcp", "openai", "wandb", "discord", "telegram", "jwt"})


def _generic_token_name(name: str) -> bool:
    """``name`` ends in "token(s)" and nothing before says it is a credential's."""
    m = re.search(r"tokens?$", name, re.IGNORECASE)
    if not m:
        return False
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name[:m.start()])
    return not words or words[-1].lower() not in _TOKEN_OWNERS


def _prompt_text(prefix: str, quote: str) -> bool:
    """``"Password: "); x = f("``: the name opened a string and is not closed (a prompt, a label), so the quote
    after the separator closes that string; the text up to the next quote is code, not the name's value."""
    head = prefix.lstrip("-").lstrip("\\")
    return head[:1] == quote and quote not in head[1:]


# an escaped line break or tab (a JSON document's, a repr's): an unquoted value ends there
_LINE_ESCAPE = _rx(r"\\+[nrt]")  # (escaped once more: \\n)


def _escape_tail(value: str) -> tuple[str, str]:
    """``value`` cut at its first escaped line break: (the value, what follows it on the next line)."""
    if "\\" not in value:
        return value, ""
    cut = _LINE_ESCAPE.search(value)
    head, tail = (value, "") if cut is None else (value[:cut.start()], value[cut.start():])
    bare = head.rstrip("\\")  # (a value the rule ended inside \\n: its backslashes are the escape's)
    return bare, head[len(bare):] + tail


# an Amazon resource name up to its resource type: ``arn:aws:secretsmanager:us-east-1:123456789012:`` before
# ``secret:prod/db-AbCdEf`` names a secret, it does not hold one (the six characters are AWS's suffix)
_ARN_BEFORE = _rx(r"(?<![\w\-])arn:aws[\w\-]{0,20}:[\w\-]{1,40}:[\w\-]{0,30}:(?:\d{0,12}|N):$")  # (N: normalized)


def _after_arn(m: re.Match[str]) -> bool:
    """``m`` (a name and its value) is an ARN's resource type and name: ``...:secret:prod/db-AbCdEf``."""
    return m.string.find("arn:", max(0, m.start() - 120), m.start()) >= 0 \
        and _ARN_BEFORE.search(m.string, max(0, m.start() - 120), m.start()) is not None


def _value_leads_a_record(m: re.Match[str]) -> bool:
    """The match's value is the start of its next line and that line repeats the name's line's lead (a logger's
    timestamp): the lead of the next record, not a value (the record's message is read with the leads taken off,
    :func:`_led_findings`)."""
    start = m.start("qvalue") if m.groupdict().get("q") else m.start("value")
    text = m.string
    if start < 0 or "\n" not in text[m.start():start]:
        return False
    value_line = text.rfind("\n", 0, start) + 1
    if text[value_line:start].strip():
        return False  # (the value is not at its line's start)
    name_line = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", start)
    return _shared_lead(text[name_line:text.find("\n", name_line)], text[start:end if end >= 0 else None]) > 0


def _replace_value(kind: str) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        if _after_arn(m) or _value_leads_a_record(m):
            return m.group(0)
        groups = m.groupdict()
        quote = groups.get("q") or ""
        value = groups.get("qvalue") if quote else groups.get("value")
        value, tail = _escape_tail(value) if value and not quote else (value, "")
        if not value or _ordinary_value(value, quote, m.group("prefix"), groups.get("name") or m.group("prefix")):
            return m.group(0)
        if value.endswith("\u2026") and len(value) > 1 and _ordinary_value(  # (a line cut at the terminal's width:
                value[:-1], quote, m.group("prefix"), groups.get("name") or m.group("prefix")):  # ``max_tokens=4096…``)
            return m.group(0)
        if quote and _prompt_text(m.group("prefix"), quote):
            return m.group(0)
        return f"{m.group('prefix')}{quote}{_mark(kind)}{quote}{tail}"

    return repl


def _replace_env_value(m: re.Match[str]) -> str:
    name = m.group("name")
    value = m.group("qvalue") if m.group("q") else m.group("value")
    if is_secret_env_name(name):
        if value and _key_alone(name) and _WORDS_ONLY.fullmatch(value):
            return m.group(0)  # SORT_KEY=created_at, PARTITION_KEY=region: a bare KEY's value that is words
        return _replace_value("secret")(m)
    strength = _code_secret_name(name)  # TWILIO=<32 hex>, PGPASSWORD_ENV=<not a variable's name>
    if strength in ("vendor", "env-ref") and value and _secret_literal(value, strength):
        return f"{m.group('prefix')}{m.group('q') or ''}{_mark('secret')}{m.group('q') or ''}"
    return m.group(0)


# --------------------------------------------------------------------------- --flag value in argv

_FLAG_VALUE = _rx(  # (one dash: Go's flags, consul -token X, only for a name that says secret or key)
    r"(?P<prefix>(?<![A-Za-z0-9_\-])[\"']?(?P<dashes>--?)(?P<flag>[A-Za-z][A-Za-z0-9_\-]{0,60})"
    r"(?:[\"']\s{0,3},\s{0,40}[\"']|=|[ \t]{1,5}))"  # "--flag", "value" | --flag=value | --flag value (one line)
    r"(?:(?P<fq>['\"])(?P<fqvalue>(?!<redacted)[^'\"\n]{1,512})(?P=fq)"
    r"|(?P<value>(?!<redacted)(?!-)[^\s\"',;]{0,511}[^\s\"',;\])}]))"  # (argparse's usage: [--token TOKEN])
)
_SECRET_FLAG = _rx(r"(?:^|[-_])(?:pass|passwd|password|passphrase|pw|pwd|secret|token|auth|creds?|p?sk|"
                          r"credentials?|(?:api|access|private|secret|signing|license|master|encryption|client|"
                          r"account|service|auth)[-_]?key)$|(?:password|passwd|secret|token|apikey)$", re.IGNORECASE)


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value`` (the measure detect-secrets' entropy detectors use)."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _char_class(c: str) -> int:
    return 0 if c.islower() else 1 if c.isupper() else 2


_WORDLIKE = _rx(r"[A-Z][a-z]{2,}|[a-z]{3,}")
# one part of a name joined by "-", "_" or ".": a word in one case form (``sft``, ``Llama``, ``GPT``), a word and its
# number (``Llama3``, ``lr3e4``, ``bs32``, ``fp16``), a number (``1``, ``3e4``) or a number and its unit (``8B``, ``32k``)
_NAME_PART = _rx(r"(?P<word>[a-z]+|[A-Z]+|[A-Z][a-z]+)(?:[0-9]+(?:e[0-9]+)?)?|[0-9]+(?:e[0-9]+)?(?:[A-Za-z]{1,2})?")


def _parts_of_a_name(value: str) -> bool:
    """A run's or a model's name: three or more parts joined by ``-``, ``_`` or ``.``, each a short word, a word and
    its number, a number or a number and its unit, one a word that can be said (``sft-Llama3.1-8B-lr3e4-bs32``,
    ``bert-base-uncased-v2``); a random value's parts mix the cases within a part (``aZ3-x9Q``)."""
    parts = [part for part in re.split(r"[-_.]+", value) if part]
    if len(parts) < 3:
        return False
    said = False
    for part in parts:
        m = _NAME_PART.fullmatch(part)
        if m is None or len(part) > 12:
            return False
        word = m.group("word") or ""
        said = said or (len(word) >= 4 and _sayable(word))
    return said


def looks_random(value: str) -> bool:
    """A password/token-like value (an entropy guess, for text only): no whitespace and no path, at
    least 8 characters, lower and upper case and digits, mixed as random text mixes them rather than in
    words (``ResNet50V2``, ``Exp#12_A``, ``Qwen2.5-7B-Instruct``, ``resnet50_v2`` and commit SHAs stay):
    below 16 characters the case or kind changes at 75% of adjacent characters and there is no word of
    3+ letters; from 16 on at 45%, and words make less than half of it; from 20 on, 4.25+ bits of entropy
    per character and 35% changes suffice."""
    if len(value) < 8 or "/" in value or value.startswith("<redacted") or any(c.isspace() for c in value):
        return False
    if _parts_of_a_name(value):
        return False
    segments = re.findall(r"[A-Za-z0-9]+", value)
    alnum = sum(map(len, segments))
    pairs = alnum - len(segments)
    if alnum < 6 or pairs < 4:
        return False
    if not (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) and re.search(r"[0-9]", value)):
        return False
    switches = sum(_char_class(a) != _char_class(b) for s in segments for a, b in zip(s, s[1:]))
    wordy = sum(len(w) for w in _WORDLIKE.findall(value))
    if alnum >= 20 and shannon_entropy(value) >= 4.25 and switches / pairs >= 0.35:
        return True  # long and dense: names that long repeat their letters (CamelCase class names: < 4.1 bits)
    if alnum >= 16:
        return switches / pairs >= 0.45 and wordy * 2 < alnum
    return switches / pairs >= 0.75 and wordy == 0


def _random_one_case(value: str) -> bool:
    """A key drawn from one case of letters and digits (base36: ``csk-9x2m...``), 20+ of them: letters and digits
    change often and evenly, no words (``resnet50_imagenet_v2``, ``bert-base-uncased`` stay)."""
    segments = re.findall(r"[A-Za-z0-9]+", value)
    body = max(segments, key=len, default="")
    if len(body) < 20 or len(segments) > 3 or not (body.islower() or body.isupper()):
        return False
    digits = sum(c.isdigit() for c in body)
    switches = sum(a.isdigit() != b.isdigit() for a, b in zip(body, body[1:]))
    # (a run of letters is a word's when a word could be said: vowels in it, no long cluster of consonants; a
    # base32 key's runs, drawn from an alphabet of six digits, are long and unsayable: "ybdstfkb")
    wordy = sum(len(w) for w in re.findall(r"[A-Za-z]{6,}", body) if _sayable(w))
    return 0.15 <= digits / len(body) <= 0.7 and switches / (len(body) - 1) >= 0.2 and wordy * 2 < len(body) \
        and shannon_entropy(body) >= (3.5 if len(body) < 32 else 3.9)


def _sayable(word: str) -> bool:
    """Letters a person could say as a word: a quarter of them vowels, no five consonants in a row."""
    lower = word.lower()
    vowels = sum(c in "aeiouy" for c in lower)
    return vowels * 4 >= len(lower) and not re.search(r"[^aeiouy]{5}", lower)


_VERSION_LIKE = _rx(r"[vV]?[0-9]+(?:\.[0-9]+)+(?:[a-z]{0,5}[0-9]{0,3})?(?:[+\-][\w.+\-]{0,40})?")


def _password_shaped(value: str) -> bool:
    """A value with a password's make-up where the name or option says little (``-p VALUE``,
    ``DB_PASSWORD_ENV = VALUE``): random (:func:`looks_random`, 32+ hex digits), or letters and digits with
    both cases or a symbol (``Maple207!fjord31``, ``Heron418.tulip66``); not a path, URL, version or number."""
    if not 6 <= len(value) <= 128 or any(c.isspace() or c in "/\\" for c in value) or _VERSION_LIKE.fullmatch(value):
        return False
    if _random_body(value):
        return True
    if not (re.search(r"[A-Za-z]", value) and re.search(r"[0-9]", value)):
        return False
    cases = re.search(r"[a-z]", value) is not None and re.search(r"[A-Z]", value) is not None
    return cases or re.search(r"[!#$%&*?@^~+=]", value) is not None


# what a person picks as a password: words, two or more digits and a symbol (``Harbor+walnut731!xQ2``); not a
# path, a list, a query string (``lr=0.1&bs=32``) or a template (``%s``, ``$HOME``)
_PICKED_SYMBOL = _rx(r"[!#$%&*?@^~]")
_DATE_OR_VERSION = _rx(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[vV]?[0-9]+(?:\.[0-9]+)+")
# (or its tail: a value cut before its "&", ``8080&response_type=code`` after ``redirect_uri=http://localhost:``)
# a template's field in a value with no braces or angle brackets (``%s_%d``, ``$HOME``): a printf field glued to a
# letter or digit after it is a picked password's symbol and letter (``iPMx9sobA%s2Q9If``), not a field (``%s2``
# formats nothing anyone writes)
_PICKED_TEMPLATE = _rx(r"%(?:\([A-Za-z_]\w{0,40}\))?[srd](?![A-Za-z0-9])|\$[A-Z_][A-Z0-9_]{0,60}(?![a-z])")
_QUERY_STRING = _rx(r"(?:[^&=]*&)?(?:[A-Za-z_][\w.\-]*=[^&=]*&)*[A-Za-z_][\w.\-]*=[^&=]*")


def password_made(value: str) -> bool:
    """A value with the make-up of a password a person picked, whatever it is called (rule (a) for the values
    of the environment and of the script's arguments, never a guess in text): 12 to 128 characters without
    whitespace, six or more letters, two or more digits (besides a date's or a version's) and one of
    ``!#$%&*?@^~``; no path, list, query string or template (``Exp#12_A``, ``run#2024-11-29``, ``lr=0.1&bs=32``,
    ``a/b#3``, ``%s_%d`` stay)."""
    if not 12 <= len(value) <= 128 or value[0] == "-" or any(c.isspace() or c in "/:;,<>{}[]()\"`" for c in value):
        return False
    digits = _DATE_OR_VERSION.sub("", value)  # run#2024-11-29, v2.13.0-rc3#12: a tag, not a password
    if len(re.findall(r"[^\W\d_]", value)) < 6 or len(re.findall(r"[0-9]", digits)) < 2 or not _PICKED_SYMBOL.search(value):
        return False
    return _QUERY_STRING.fullmatch(value) is None and _PICKED_TEMPLATE.search(value) is None  # ({}, <>: refused above)


_UUID = _rx(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# the last words of a variable that holds an identifier or a digest, not a credential (GITHUB_SHA, INVOCATION_ID)
_IDENTIFIER_WORDS = _DIGEST_WORDS | {"ID", "IDS", "UUID", "GUID", "UID", "HASH", "COMMIT", "REV", "REVISION", "REF", "ETAG",
                                     "VERSION"}


_BASE64_VALUE = _rx(r"(?=[A-Za-z0-9+]{0,80}/|[A-Za-z0-9/]{0,80}\+)[A-Za-z0-9+/]{24,16384}={0,2}")


def _random_base64(value: str) -> bool:
    """Random bytes in base64 (a storage account's key, an HMAC secret): its ``/`` and ``+`` are not a path's."""
    if _BASE64_VALUE.fullmatch(value) is None:
        return False
    # (a path's letters decode to bytes too: without "+" or padding, no part of it may be a word)
    if _binary_base64(value) and ("+" in value or value.endswith("=") or not _PATH_WORD.search(value)):
        return True
    if not looks_random(re.sub(r"[+/=]", "", value)):
        return False
    # (a leading "/" or a "//": a path's, unless the value is long and no part of it is a word: 3.7% of keys)
    return ("//" not in value and not value.startswith("/")) or (len(value) >= 40 and not _PATH_WORD.search(value))


def _binary_base64(value: str) -> bool:
    """Whole base64 (its length a multiple of 4, padded) of 16 to 512 bytes that are not text: random bytes, as a key
    is (a quarter of 32-byte keys fail :func:`looks_random` on their letters, ``gsujpRzw2eXD48NBtz7nooUA...``); the
    bytes of a word or a path are text."""
    if len(value) % 4 or not 24 <= len(value) <= 684:
        return False
    try:
        raw = base64.b64decode(value, validate=True)
    except ValueError:
        return False
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in raw)
    return len(raw) >= 16 and printable < 0.75 * len(raw)


_PATH_WORD = _rx(r"/[A-Za-z]?[a-z]{2,}[0-9]{0,4}(?=/|$)")


def credential_value(name: str, value: str) -> bool:
    """An environment variable's value that is a credential by its make-up, whatever the name (``SETTING_3``):
    random-looking (:func:`looks_random`, 16+ characters), a password a person picked (:func:`password_made`),
    or, unless the name says identifier or digest (``*_ID``, ``*_SHA``, ``*_HASH``, ``*_COMMIT``), 32+ hex digits
    or a UUID (API keys and CI tokens are drawn so)."""
    value = value.strip()
    if len(value) < 12 or len(value) > 16384:
        return False
    if _NAMED_IDENTIFIER.fullmatch(value) or _DIGEST_REFERENCE.search(value):
        return False  # an identifier by its name (GITHUB_SHA=<hex>), a content digest named by its algorithm
    if (len(value) >= 16 and looks_random(value)) or password_made(value) or _random_base64(value):
        return True
    if len(value) >= 20 and _ALNUM.fullmatch(value) and (_drawn_letters(value) or _drawn_mixed(value)):
        return True  # a 24-character key with few capitals (Vercel's): one draw in ten is below looks_random's bar
    # (also parts joined by ":" or "|": a session id drawn from one case, "<uuid>:<hex>", "42|<128 hex>")
    parts = re.split(r"[:|]", value)
    if not any(_UUID.fullmatch(p) or _long_hex(p) or (len(p) >= 24 and _ALNUM.fullmatch(p) and _drawn_body(p))
               for p in parts[:4]) and not credential_parts(value):
        return False
    return not any(w in _IDENTIFIER_WORDS for w in re.split(r"[_\-.]+", name.upper()))


_PART_SEPARATORS = _rx(r"[:|,;\s]+")


def credential_parts(value: str) -> list[str]:
    """The parts of a value of two to four parts joined by ``:``, ``|``, ``,``, ``;`` or spaces that have a
    credential's make-up on their own — random like a key (16+ characters) or a password a person picked — such
    as ``ml-bot:<password>`` (a user and a password for ``-a``/``-u``), ``<access key> <secret key>``,
    ``partner,<password>``. Each such part is known as well as the whole: a script passes it on alone."""
    parts = [p for p in _PART_SEPARATORS.split(value.strip()) if p]
    if not 2 <= len(parts) <= 4 or _DIGEST_REFERENCE.search(value) or _ID_HEADER_LINE.search(value) \
            or _PUBLIC_KEY_LINE.search(value):
        return []
    return [p for p in parts if not _DIGEST_LIKE.search(p) and not _NAMED_IDENTIFIER.fullmatch(p) and not _b64_prose(p)
            and (password_made(p) or (len(p) >= 16 and looks_random(p)) or _random_base64(p))]


def _b64_prose(value: str) -> bool:
    """Base64 of words (``data: <base64 of a sentence>``, a WebSocket nonce's sample text): text with spaces, not a
    key's random bytes nor a credential's one word."""
    decoded = _b64_text(value) if len(value) >= 12 and len(value) % 4 != 1 else None
    words = " ".join(decoded.split()) if decoded is not None else ""  # (its line breaks too)
    return words.isprintable() and " " in words


# a part that is a digest or an identifier by its name (GITHUB_SHA=<hex>, run_id=<drawn>), as an npm/SRI integrity
# (sha512-<base64>) is by its shape
_NAMED_IDENTIFIER = _rx(r"(?i)(?:[a-z0-9]{1,30}[_.\-]){0,4}(?:" + "|".join(sorted(_IDENTIFIER_WORDS)) + r")[=:][0-9a-z_\-]{4,128}")


_ALNUM = _rx(r"[A-Za-z0-9]+")
# a header that carries an id for tracing a request (``X-Request-Id: req_<drawn>``, ``X-Amzn-Trace-Id: Root=...``):
# its two parts are a header's name and an identifier, not a user and a password
# (also at the end of a longer argument: "[step 3] X-Request-Id: req_<drawn>")
_ID_HEADER_LINE = _rx(r"(?:^|(?<=\s))(?:X-)?(?:[A-Za-z]+-){0,3}(?:Request|Trace|Correlation|Span|Message|Parent)-?Id"
                             r"\s*:\s*\S+\s*$", re.IGNORECASE)
# an OpenSSH public key's line (its type, the base64 body, a comment): published, not a credential
_PUBLIC_KEY_LINE = _rx(r"(?:^|(?<=\s))(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-[\w\-]+@openssh\.com) AAAA")
# a content digest named by its algorithm (an image's python@sha256:<hex>, pip's --hash=sha256:<hex>): its parts
# are an algorithm's name and a digest, not a user and a password
_DIGEST_REFERENCE = _rx(r"(?:^|(?<=[@\s/=]))(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[:=]"
                               r"(?:[0-9a-f]{32,128}|[0-9A-F]{32,128})$")


# an option's value in argparse's usage (dest in capitals: [--hub-token HUB_TOKEN]), in text and in code alike
_METAVAR = _rx(r"[A-Z][A-Z0-9_]*")


# a word of prose after an option's name (Docker's "Using --password via the CLI is insecure", "pass --token
# with the value"): the sentence goes on, no value was given
_PROSE_AFTER_FLAG = frozenset({"via", "with", "from", "the", "is", "in", "on", "for", "to", "or", "and", "of", "as",
                               "at", "by", "was", "are", "be", "not", "instead", "only", "must", "should", "can",
                               "will", "when", "if", "that", "this", "which", "option", "flag", "argument"})


def _flag_value(m: re.Match[str]) -> str:
    value, tail = (m.group("fqvalue"), "") if m.group("fq") else _escape_tail(m.group("value"))
    if not value or "<redacted:" in value or _METAVAR.fullmatch(value):  # (a metavar: --hub-token HUB_TOKEN)
        return m.group(0)
    if not m.group("fq") and value.rstrip("`'.,;:!?") in _PROSE_AFTER_FLAG:  # ("`--password via` the CLI")
        return m.group(0)
    if _SECRET_FLAG.search(m.group("flag")):
        if _not_secret_value(value, m.group("flag")) or _PLACEHOLDER.match(value) \
                or (m.group("dashes") == "-" and not _secret_literal(value, "strong")):  # (prose: "the -token flag")
            return m.group(0)
    elif not ((m.group("dashes") == "--" and looks_random(value))
              or (_key_name(m.group("flag")) and (_short_key(value) or _UUID.fullmatch(value)))  # --setup-key <uuid>
              or (len(value) >= 20 and re.search(r"[+/]", value) and _random_base64(value))):
        return m.group(0)  # (random base64 after any option, one dash too: serf's and consul's -encrypt=<key>)
    quote = m.group("fq") or ""
    return f"{m.group('prefix')}{quote}{_mark('secret-argument')}{quote}{tail}"


# a .pgpass line: hostname:port:database:username:password
_PGPASS = _rx(r"(?<![\w.:/\-])[A-Za-z0-9_.\-*]{1,253}:(?:[0-9]{1,5}|\*):[^\s:]{1,100}:[^\s:]{1,100}:"
                     r"(?P<value>(?!<redacted)[^\s:]{4,256}?)(?=\s|$|[\"'][,)\]}]?(?:\s|$))", re.MULTILINE)
# a credential's name, a space and the credential (``auth token 3f9c...``, ``(secret AbC9/xYz...)``): when
# the value looks random or is a long hex string
# (also in a sentence: "the session token is VALUE.", "API key is “VALUE”", "token to `VALUE`")
_NAMED_THEN_VALUE = _rx(  # (a sub-command that takes the credential: ngrok authtoken X, add-authtoken X)
    r"(?<![A-Za-z0-9_\-])(?:(?:add|set)-|(?:[A-Za-z][A-Za-z0-9]{0,20}_){1,3})?(?:secret|password|passwd|pass[_\-]?phrase|credentials?|token|auth-?token|api[ _.\-]?key|access[ _.\-]?key|hmac|"
    r"secret[ _.\-]?key|private[ _.\-]?key)\s{1,3}(?:(?:is|was|to|as|set\s{1,3}to)\s{1,3})?[`“‘«「]?"
    r"(?P<value>(?!<redacted)[^\s\"'`,;()\[\]{}<>“”‘’«»「」]{15,511}"
    r"[^\s\"'`,;()\[\]{}<>“”‘’«»「」.])",
    re.IGNORECASE,
)


# a password's word, a space (or "is"/"was"/"to") and a value with a picked password's make-up
# (:func:`password_made`: ``login failed for svc with password Harbor42!Xyzw17``): the word says what the value is
_PASSWORD_THEN_PICKED = _rx(
    r"(?<![A-Za-z0-9_\-])(?:[A-Za-z][a-z0-9]{1,20}(?=[A-Z_\-])[_\-]?){0,3}(?:password|passwd|pass[_\-]?phrase|pwd|"
    r"[a-z]{2,12}pw(?![A-Za-z])|"  # ("pw" glued to a word: nslcd's and slapd's ``bindpw``/``rootpw`` lines)
    r"passwort|kennwort|mot[ _]de[ _]passe|contrase[ñn]a|clave[ _]secreta|senha|wachtwoord|has[łl]o|parola|пароль|パスワード|비밀번호)"
    r"(?:\s{0,3}[:：=])?\s{0,3}(?<=[\s:：=])(?:(?:is|was|to|as|ist|est|es|é)\s{1,3})?[`“‘«「\"']?"
    r"(?P<value>(?!<redacted)[^\s\"'`,;()\[\]{}<>“”‘’«»「」]{12,128})", re.IGNORECASE)


# a secret's word, "is" or "was" and a short value: one a service drew (``your access token is NyVJ9Ld4``:
# :func:`_short_key`) or, after a password's word, one with a password's make-up (``the password was Z7op#5T0``:
# :func:`_password_shaped`); 6 to 15 characters (longer ones are :data:`_NAMED_THEN_VALUE`'s)
_NAMED_IS_SHORT = _rx(
    r"(?<![A-Za-z0-9_\-])(?P<word>token|api[ _.\-]?key|access[ _.\-]?key|secret[ _.\-]?key|secret|password|passwd|"
    r"pass[_\-]?phrase|passcode)\s{1,3}(?:is|was|set\s{1,3}to)\s{1,3}[`“‘«「\"']?"
    r"(?P<value>(?!<redacted)[^\s\"'`,;()\[\]{}<>“”‘’«»「」]{6,15})(?=[\s\"'`,;)\]}”’»」]|$)", re.IGNORECASE)


def _short_named(m: re.Match[str]) -> bool:
    value = m.group("value").rstrip(".")
    if m.group("word").lower().startswith("pass"):
        return _password_shaped(value) and not _not_secret_value(value, "password") and _TEMPLATE.search(value) is None
    return _short_key(value)


# a parametrized test named for a credential and the id pytest shows in brackets (``test_password[Größe*Straße342]``,
# also with its escapes of non-ASCII letters, ``[Stra\\xdfe#Stra\\xdfe184]``): the id is the parameter's value, a
# secret when it has a credential's make-up (``test_token[gpt2-int8]`` stays)
_PARAM_ID = _rx(r"(?<![\w])test\w*?(?:password|passwd|passphrase|secret|token|api_?key|credentials?)\w*"
                       r"\[(?P<value>(?!<redacted)[^\]\s]{6,256})\]", re.IGNORECASE)


def _credential_id(m: re.Match[str]) -> bool:
    value = m.group("value")
    return any(_credential_shaped(p) for p in [value, *value.split("-")])


# a secret's name assigned one call of a quoted value (Rust's ``let api_secret = String::from("...")``, pydantic's
# ``SecretStr("...")``, ``Secret::new("...")``): the value when it has a credential's make-up (a call's argument is
# not always the value: getpass("Password: "), open("keys.json"))
_ASSIGNED_CALL = _rx(
    r"(?<![A-Za-z0-9_.\-])(?P<name>" + _SECRET_NAME + r")\s{0,3}(?::\s{0,3}[A-Za-z_][\w:<>]{0,40}\s{0,3})?=\s{0,3}"
    r"&?(?:[A-Za-z_][\w:.]{0,40})\(\s{0,3}(?P<q>[\"'])(?P<value>(?!<redacted)[^\"'\\\n]{6,512})(?P=q)\s{0,3}\)",
    re.IGNORECASE)


_CALL_OF_LITERAL = _rx(r"=\s{0,3}&?[A-Za-z_][\w:.]{0,40}\(\s{0,3}[\"']")  # (a quick test before _ASSIGNED_CALL)


def _credential_shaped(value: str) -> bool:
    """A picked password, 32+ hex digits, a drawn value of 16+ or random base64: what a rule that read a secret's
    name takes as its value."""
    return password_made(value) or _long_hex(value) or (len(value) >= 16 and looks_random(value)) \
        or _random_base64(value)


def _called_credential(m: re.Match[str]) -> bool:
    return _credential_shaped(m.group("value"))


# a credential's name, ":" or "=" and a drawn value that holds brackets or angle brackets (an OCI auth token,
# ``auth token: pgMrH9>crfJ)oYB``), which the assignment rules' values stop at: the run to the next space
_NAMED_THEN_SYMBOLS = _rx(
    r"(?<![A-Za-z0-9_\-])(?:secret|password|passwd|pass[_\-]?phrase|credentials?|token|api[ _.\-]?key|"
    r"access[ _.\-]?key|secret[ _.\-]?key|private[ _.\-]?key)\s{0,3}[:=]\s{0,3}"
    r"(?P<value>(?!<redacted)(?=[^\s\"'`]{0,127}[<>()\[\]{}])[^\s\"'`]{12,128})(?=\s|$)", re.IGNORECASE)


# a drawn path component right under a directory that holds credentials (``/var/cache/creds/<drawn>/session.json``,
# ``/run/secrets/<drawn>``): the component is the credential (or names one); a word or a digest-named file stays
_SECRET_DIR_PART = _rx(r"(?<=/)(?:creds|credentials|secrets|tokens|passwords|api[_\-]?keys)/"
                              r"(?P<value>(?!<redacted)[A-Za-z0-9_\-+=.~%]{16,256})(?=/|$|[\s\"'`,;)\]}])", re.IGNORECASE)


def _drawn_part(m: re.Match[str]) -> bool:
    value = m.group("value")
    return not _LONG_HEX.fullmatch(value) and looks_random(re.sub(r"[+=_\-.~%]", "", value))


def _unbalanced(value: str) -> bool:
    depth: list[str] = []
    for c in value:
        if c in "([{<":
            depth.append(c)
        elif c in ")]}>":
            if not depth or "([{<"[")]}>".index(c)] != depth.pop():
                return True
    return bool(depth)


def _drawn_with_symbols(m: re.Match[str]) -> bool:
    """Drawn (:func:`looks_random`), or letters of both cases switching often around brackets no code would leave
    unbalanced (``LQCPktHq)xeFduQ;Beit``); not a call (``dict(a=1)``) or a type (``Optional[Dict[str, Any]]``)."""
    value = m.group("value")
    if re.search(r"[A-Za-z_]\w*\(", value) and not _unbalanced(value):
        return False
    if _closes_its_container(m):
        return False
    if looks_random(value):
        return True
    letters = re.sub(r"[^A-Za-z0-9]", "", value)
    switches = sum(a.islower() != b.islower() for a, b in zip(letters, letters[1:]) if a.isalpha() and b.isalpha())
    return _unbalanced(value) and len(letters) >= 12 and switches >= 0.3 * (len(letters) - 1) \
        and re.search(r"[a-z]", letters) is not None and re.search(r"[A-Z]", letters) is not None


def _closes_its_container(m: re.Match[str]) -> bool:
    """The value's only brackets end it and close what its line opened before it: a flow mapping's or a call's
    (``{server: ..., password: <value>}``): the brackets are the container's, the value is judged without them."""
    value = m.group("value")
    body = value.rstrip(")]}")
    if body == value or re.search(r"[<>()\[\]{}]", body):
        return False
    line = m.string[m.string.rfind("\n", 0, m.start()) + 1:m.start()]
    return all(line.count(opener) > line.count(closer) for opener, closer in (("(", ")"), ("[", "]"), ("{", "}"))
               if closer in value[len(body):])


# (a quick test before _PASSWORD_THEN_PICKED: one of its words is there)
_PASSWORD_WORD_HINT = _rx(r"(?i)pass|pwd|[a-z]pw(?![a-z])|kennwort|mot[ _]de|contras|clave|senha|wachtw|has[łl]o|parola|пароль|パスワード|비밀번호")


# a password's label in another language, a separator and the value (``şifre: X``, ``lösenord = X``, ``密码：X``, a log's
# or a config's line written in the user's language): the value when it has a password's or a key's make-up
_FOREIGN_PASSWORD_WORDS = (
    "passwort", "kennwort", "mot de passe", "contraseña", "contrasena", "contrasenya", "senha", "wachtwoord", "hasło",
    "haslo", "parola", "parolă", "пароль", "парола", "лозинка", "パスワード", "暗証番号", "비밀번호", "암호", "şifre", "sifre",
    "lösenord", "losenord", "passord", "adgangskode", "kodeord", "salasana", "jelszó", "jelszo", "heslo", "lozinka",
    "geslo", "slaptažodis", "salasõna", "κωδικός", "κωδικος", "συνθηματικό", "mật khẩu", "kata sandi", "kata laluan",
    "密码", "密碼", "口令", "كلمة المرور", "كلمة السر", "סיסמה", "סיסמא", "رمز عبور", "گذرواژه", "पासवर्ड", "รหัสผ่าน",
    "cyfrinair", "pasahitza", "lykilorð", "lykilord", "nenosiri", "პაროლი", "գաղտնաբառ", "கடவுச்சொல்", "ពាក្យសម្ងាត់",
    "পাসওয়ার্ড", "құпия сөз", "құпиясөз", "сырсөз", "нууц үг", "şifrə", "parol", "parole", "fjalëkalim", "پاس ورڈ",
    # an access token's label (the value after it is drawn: _credential_shaped)
    "zugangstoken", "jeton d'accès", "jeton d’accès", "jeton d'acces", "clave de api", "token de acceso",
    "アクセストークン", "访问令牌", "訪問令牌", "токен доступа", "액세스 토큰")
_FOREIGN_PASSWORD = _rx(
    r"(?<![^\W\d_])(?:" + "|".join(sorted(_FOREIGN_PASSWORD_WORDS, key=len, reverse=True)) + r")[^\W\d_]{0,6}"
    r"(?:[ \t]{1,3}[^\W\d_]{2,20}){0,2}[ \t]{0,3}[:：=][ \t]{0,3}[`“‘«「\"']?"
    r"(?P<value>(?!<redacted)[^\s\"'`,;()\[\]{}<>“”‘’«»「」]{6,128})", re.IGNORECASE)


_FOREIGN_STEMS = tuple(sorted({w[:4] for w in _FOREIGN_PASSWORD_WORDS if w.isascii()}))


def _foreign_label_here(text: str, lower: str) -> bool:
    """One of the labels can be in ``text`` (a quick scan before :data:`_FOREIGN_PASSWORD`)."""
    return not text.isascii() or any(stem in lower for stem in _FOREIGN_STEMS)


def _foreign_password(m: re.Match[str]) -> bool:
    value = m.group("value").rstrip(".")
    return (_password_shaped(value) or _credential_shaped(value)) and not _not_secret_value(value, "password") \
        and _TEMPLATE.search(value) is None and _PLACEHOLDER.match(value) is None


def _picked_after_word(m: re.Match[str]) -> bool:
    return password_made(m.group("value").rstrip("."))


# a YAML block scalar under a secret's name (``unseal_key: |`` / ``secret_value: >-`` and the value on the
# indented lines below): every line of the block that has a credential's make-up (drawn, 32+ hex, a picked password);
# also behind the lead a log quotes every line with (pytest's ``E   ``, a ``>`` quote): the same lead on each line
_YAML_BLOCK = _rx(r"^(?P<lead>[E>](?=[ \t])|)(?P<indent>[ \t]*)(?:- )?(?P<name>[A-Za-z_][\w.\-]{0,80}):[ \t]*[|>][+\-]?[0-9]?"
                         r"[ \t]*(?:#[^\n]*)?\n(?P<value>(?:(?P=lead)(?P=indent)[ \t]+\S[^\n]*(?:\n|$))+)", re.MULTILINE)


# (the same after what a logger puts before its message: ``... WARNING etl: secret_value: >-`` and the block's
# lines, indented, below)
_LOGGED_YAML_BLOCK = _rx(r"^[^\n]{0,200}?[ \t](?P<name>[A-Za-z_][\w.\-]{0,80}):[ \t]*[|>][+\-]?[0-9]?[ \t]*\n"
                                r"(?P<value>(?:[ \t]+\S[^\n]*(?:\n|$))+)", re.MULTILINE)


def _yaml_block_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for m in [*_YAML_BLOCK.finditer(text), *_LOGGED_YAML_BLOCK.finditer(text)]:
        if not is_secret_env_name(m.group("name")):
            continue
        lead = len(m.groupdict().get("lead") or "")
        for line in re.finditer(r"[^\n]+", m.group("value")):
            raw = line.group(0)[lead:]
            body = raw.strip()
            if (body and " " not in body and not body.startswith("<redacted")
                    and (password_made(body) or _long_hex(body) or looks_random(re.sub(r"[+/=_\-]", "", body)))):
                start = m.start("value") + line.start() + lead + (len(raw) - len(raw.lstrip()))
                spans.append((start, start + len(body), _mark("secret")))
    return spans


_LONG_HEX = _rx(r"(?=[a-f]{0,511}[0-9])(?=[0-9]{0,511}[a-f])[0-9a-f]{32,512}|(?=[A-F]{0,511}[0-9])[0-9A-F]{32,512}")


def _long_hex(value: str) -> bool:
    """32 or more hex digits (an API key's usual shape; after a name that says key or token, not a digest)."""
    return _LONG_HEX.fullmatch(value) is not None


# the argument of a sub-command that takes a credential (``ngrok authtoken X``, ``ngrok config add-authtoken X``): the
# command says what it is, so any drawn-looking word of both cases goes (a draw of 41 letters can have the vowels and
# the runs of a written word by chance, which the make-up tests below refuse)
_CREDENTIAL_SUB_COMMAND = _rx(r"(?:ngrok|config)\s{1,3}$", re.IGNORECASE)
_SUB_COMMAND_ARGUMENT = _rx(r"(?=[\w\-]*[A-Z])(?=[\w\-]*[a-z])[A-Za-z0-9_\-]{20,512}")


def _random_value(m: re.Match[str]) -> bool:
    value = m.group("value").rstrip(".")
    if (re.match(r"(?:add-)?authtoken\s", m.group(0), re.IGNORECASE) and _SUB_COMMAND_ARGUMENT.fullmatch(value)
            and _CREDENTIAL_SUB_COMMAND.search(m.string, max(0, m.start() - 12), m.start())):
        return True
    # (a value with "/" is a path when a part of it is a word: /home/me/.cache; base64 may start with "/")
    return _long_hex(value) or (not value.startswith(("~", ".")) and not _PATH_WORD.search(value)
                                and (looks_random(value.replace("/", ""))
                                     or (len(value) >= 20 and _ALNUM.fullmatch(value) is not None
                                         and _random_one_case(value))  # Twitch's 30 lower-case letters and digits
                                     or (len(value) >= 24 and re.fullmatch(r"[A-Za-z0-9]+(?:[_\-][A-Za-z0-9]+){1,3}", value)
                                         is not None and _random_body(re.sub(r"[_\-]", "", value)))))  # ngrok's <20>_<21>


# a Dockerfile's ENV/ARG in the form without "=" (``ENV NAME the value``): the rest of the line is the value
# what a log puts before a line it quotes: pytest's "E   ", a CI runner's timestamp, docker build's "Step 3/9 : " and
# BuildKit's "#7 [2/4] " (a rule that reads a line from its start reads on after them)
_LINE_LEAD = (r"(?:(?:E[ \t]{1,8}|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{8,20}Z[ \t]|Step [0-9]{1,4}/[0-9]{1,4} : "
              r"|#[0-9]{1,4} (?:[0-9.]{1,8} )?(?:\[[^\]\n]{1,40}\] )?)[ \t]*){0,2}")
_DOCKERFILE_ENV = _rx(r"(?:^|(?<=\\n)|(?<=\\n\ue005))[ \t]*" + _LINE_LEAD + r"(?:ENV|ARG)[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]{0,80})[ \t]+"
                             r"(?P<value>(?!<redacted)[^\s=\\][^\n=\\]{0,511}?)[ \t]*(?:$|(?=\\n))", re.MULTILINE)


def _dockerfile_secret(m: re.Match[str]) -> bool:
    return is_secret_env_name(m.group("name")) and not _not_secret_value(m.group("value"), "password")


# an AWS secret access key (40 characters of base64) on the line of its access key id (a credentials CSV, the
# text output of ``aws sts`` / ``aws configure``): in text after the key id became a marker, in a string literal
# beside the id itself (:data:`_AWS_KEY_ID` knows both)
_AWS_SECRET_BESIDE = _rx(r"(?:(?<![A-Za-z0-9/+=])|(?<=\\t))[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_AWS_KEY_ID = _rx(r"<redacted:aws-access-key-id|(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])")


def _aws_secret_beside_key_id(text: str) -> list[Span]:
    spans: list[Span] = []
    for line in _LINE.finditer(text):
        if _AWS_KEY_ID.search(line.group(0)):
            spans += [(line.start() + m.start(), line.start() + m.end(), _mark("aws-secret-key"))
                      for m in _AWS_SECRET_BESIDE.finditer(line.group(0)) if _mixed(m.group(0))]
    return spans


_LINE = _rx(r"[^\n]+")


# NAME = value where the name's last word is KEY (``TOGETHER_KEY``, ``key=``, ``storageKey``), not a bare
# secret's word: the value must be drawn (32+ hex digits, a random mix: :func:`_random_body`) and the name must not
# say identifier or digest (``CACHE_KEY`` of a hash, ``*_ID_KEY``)
# (the name's words: each ends at a separator but the last, glued to "key" (apiKey, monkey): one way to split a
# name, where words that may end anywhere tried every split of a long identifier: 20+ s on a 1 MB manifest)
_KEY_ASSIGNMENT = _rx(r"(?<![\w.\-])(?P<name>(?:[A-Za-z][A-Za-z0-9]{0,30}[_.\-]){0,4}"
                             r"(?:[A-Za-z][A-Za-z0-9]{0,30})?(?:key|Key|KEY))"
                             r"[\"'\]]{0,2}\s{0,3}[=:]\s{0,3}(?P<q>[\"']?)"
                             # (a vendor's short prefix and a dot: Flagsmith's ser.…, Mapbox's sk.…)
                             r"(?P<value>(?!<redacted)(?:[a-z]{2,6}\.)?[A-Za-z0-9+/_\-]{12,512}={0,2})"
                             r"(?![A-Za-z0-9+/_\-=])")
_PUBLIC_KEY_ALGORITHMS = {"RSA", "DSA", "ECDSA", "EDDSA", "ED25519", "ED448", "ELG", "ELGAMAL", "CV25519", "NISTP256",
                          "NISTP384", "NISTP521", "BRAINPOOLP256R1", "SECP256K1"}
_DIGEST_NAME_WORDS = _IDENTIFIER_WORDS | {"CACHE", "LOOKUP", "PRIMARY", "FOREIGN", "SORT", "PARTITION",
                                          "PUBLIC", "WEBSOCKET", "IDEMPOTENCY", "CONTINUATION", "PAGE", "NEXT"}


def _cache_line(m: re.Match[str]) -> bool:
    """The line says "cache" before the key (``Cache restored from key: Linux-pip-<sha256>``, Inductor's ``fx graph
    cache hit for key … and ast_key …``): a cache's key is a digest of what it holds."""
    return _cache_before(m.string, m.start())


def _cache_before(text: str, at: int) -> bool:
    start = max(text.rfind("\n", max(0, at - 200), at) + 1, at - 200)
    return "cache" in text[start:at].lower()


def _key_value(m: re.Match[str]) -> bool:
    name, value = m.group("name"), m.group("value")
    words = {w.upper() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name) + re.split(r"[_.\-]", name)}
    if words & _DIGEST_NAME_WORDS or (name.lower() == "key" and _cache_line(m)):
        return False  # (a number of 12+ digits under a named owner's key is one: bank.account.key=<14 digits>)
    body = value.split(".", 1)[1] if "." in value else value  # (after a vendor's prefix: ser.…)
    return _numeric_secret(value, name) or (len(body) >= 16 and (_random_body(body) or _random_base64(body))) \
        or _drawn_after_prefix(value)


def _drawn_after_prefix(value: str) -> bool:
    """A vendor's readable prefix and drawn parts joined by ``/`` (ConfigCat's ``configcat-sdk-1/<22>/<22>``): a
    part after the first that is drawn text (letters of both cases and digits, 16+), not a path (``/``, ``~``,
    ``.`` first) nor an object's name (a part with an extension, a digest's hex)."""
    if value.startswith(("/", "~", ".")) or "/" not in value:
        return False
    parts = value.split("/")
    return any(len(p) >= 16 and "." not in p and not _HEX_ONLY.fullmatch(p) and looks_random(p) for p in parts[1:])


# prose: "key" (after a word that does not name a digest, an id or a lookup), a space or a colon and a value random
# like text drawn from letters of both cases and digits (``# bucket key AbC9...``; not ``cache key <hex>``, ``public
# key AAAA``); after a word that says whose key it is, a short key a service drew (TorchServe's banner: ``Inference
# Key: ZPNSLuJx``)
_KEY_THEN_VALUE = _rx(r"(?<![\w.\-])(?:(?P<owner>[A-Za-z][A-Za-z0-9]{1,30})[ _\-])?(?:key|Key|KEY)"
                             r"(?::[ \t]{0,3}|[ \t]{1,3})"
                             # (a key's id and its secret joined by ":" or "|": fal's <uuid>:<hex>, _joined_credential)
                             r"(?P<value>(?!<redacted)[A-Za-z0-9+/_\-]{8,512}={0,2}(?:[:|][A-Za-z0-9_\-]{8,512}){0,3})"
                             r"(?![A-Za-z0-9+/_\-=.:@])")


def _spaced_key_value(m: re.Match[str]) -> bool:
    owner, value = (m.group("owner") or "").upper(), m.group("value")
    if owner in _DIGEST_NAME_WORDS or _cache_line(m):
        return False  # (Inductor's "fx graph cache hit for key f…", "AOTAutogradCache miss for key …")
    if ":" in value or "|" in value:
        return _joined_credential(value)
    if owner in _PUBLIC_KEY_ALGORITHMS and _HEX_ONLY.fullmatch(value):
        return False  # gpg's "using RSA key <fingerprint>", "EDDSA key <key id>": a public key's name, not a secret
    return (len(value) >= 16 and (looks_random(value) or _drawn_letters(value))) or (bool(owner) and _short_key(value))


_CONTINUED = _rx(r"(?:[(\[][A-Za-z. ]{1,12}[)\]]|\.{2,3}|…|>|\+)?[ \t]{0,3}(?P<tail>[^\s\"'`<>]{6,128})(?=\s|$)")


_WRAP_REST = _rx(r"[A-Za-z0-9_\-]{20,512}")


def _marker_tails(text: str) -> list[Span]:
    """A value redacted at its line's end that the logger carried on to the next line, which repeats the line's
    start (``... password=<first half>`` / ``<same timestamp and logger> (cont) <second half> sslmode=...``): the
    first word after the repeated part (or after a short continuation mark) when it is random text."""
    spans: list[Span] = []
    for m in _MARKER.finditer(text):
        brk = _LINE_BREAK.search(text, m.end())
        if brk is None or text[m.end():brk.start()].strip():
            continue
        before = [b.end() for b in _LINE_BREAK.finditer(text, max(0, m.start() - 400), m.start())]
        line = text[before[-1] if before else text.rfind("\n", 0, m.start()) + 1:m.start()]
        stop = _LINE_BREAK.search(text, brk.end())
        following = text[brk.end():stop.start() if stop else len(text)]
        common = len(os.path.commonprefix([line, following]))
        if common < 12 and len(following) >= 12 and following[:12].strip():
            # (the logger's part may come after another prefix on the value's line: "item 3 out: 2026-...")
            at = line.find(following[:12])
            common = len(os.path.commonprefix([line[at:], following])) if at > 0 else 0
        if common < 12:
            word = following.strip()  # (a console's fold: the value's rest alone on the next line)
            if _WRAP_REST.fullmatch(word) and _token_tail(word) and _drawn_mixed(word):
                at = brk.end() + following.index(word)
                spans.append((at, at + len(word), m.group(0)))
            continue
        tail = _CONTINUED.match(following, common) or _CONTINUED.match(following, common + 1)
        if tail and _token_tail(tail.group("tail")) and not tail.group("tail").startswith("<redacted"):
            spans.append((brk.end() + tail.start("tail"), brk.end() + tail.end("tail"), m.group(0)))
    return spans


# SQLAlchemy's error: the statement and its parameters (``[SQL: INSERT INTO t (name, api_secret) VALUES (%s, %s)]``
# / ``[parameters: ('svc', 'VALUE')]``): a parameter bound to a column whose name says secret
_SQL_ERROR = _rx(r"\[SQL: (?P<sql>[^\]\n]{1,4000})\](?:\s|\\n){0,4}" + _LINE_LEAD + r"\[parameters: \((?P<params>[^\]\n]{1,4000})\)\]")
_SQL_INSERT = _rx(r"(?i)\bINSERT\s+INTO\s+\S+\s*\((?P<cols>[^)]{1,2000})\)\s*VALUES\s*\((?P<vals>[^)]{1,2000})\)")
_SQL_COMPARED = _rx(r"(?P<col>[A-Za-z_][\w.]{0,80})\s*(?:=|<>|!=)\s*(?:%s|\?)")
_SQL_PARAM = _rx(r"\s*(?:(?P<q>\\?[\"'])(?P<value>(?:(?!(?P=q))[^\n\\]|\\[^\n\"']){0,1024})(?P=q)|[^,]{0,200})\s*(?:,|$)")


def _sql_parameter_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for m in _SQL_ERROR.finditer(text):
        insert = _SQL_INSERT.search(m.group("sql"))
        columns = [c.strip().strip('"`[]') for c in insert.group("cols").split(",")] if insert else \
            [c.group("col").rsplit(".", 1)[-1] for c in _SQL_COMPARED.finditer(m.group("sql"))]
        pos, end = m.start("params"), m.end("params")
        for column in columns:
            param = _SQL_PARAM.match(text, pos, end)
            if param is None or param.end() == pos:
                break
            if param.group("q") and _secret_literal(param.group("value"), _code_secret_name(column) or ""):
                spans.append((param.start("value"), param.end("value"), _mark("secret")))
            pos = param.end()
    return spans


def _context_rules(text: str) -> str:
    """The rules that guess from context (text only, never code)."""
    return _apply(text, _marker_tails(text)) if "<redacted:" in (text := _guessed(text)) else text


# a variable set in a shell (export NAME=..., cmd's set "NAME=...", PowerShell's $env:NAME = "..."): a drawn value
# is a secret whatever the name, as an option's is (--flag <random>); the name's identifiers and digests stay
_SHELL_ENV = _rx(r"(?:\bexport[ \t]+|\b(?:set|SET)[ \t]+\"?|\$(?:env|Env|ENV):)(?P<name>[A-Za-z_]\w{0,80})"
                        r"[ \t]{0,3}=[ \t]{0,3}[\"']?(?P<value>(?!<redacted)[A-Za-z0-9+/=_\-.~]{16,1024})(?=[\"'\s]|$)")


def _shell_env_secret(m: re.Match[str]) -> bool:
    value, words = m.group("value"), re.split(r"[_\-.]+", m.group("name").upper())
    if any(w in _IDENTIFIER_WORDS for w in words):
        return False
    return looks_random(value) or _random_one_case(value) or _random_base64(value)


# a tool's ``set NAME VALUE`` (``aws configure set aws_secret_access_key X``, ``gh config set oauth_token X``): the
# words before the name, and a name that says its value is a secret (not a bare ``KEY``'s words: :func:`_key_alone`)
_SET_WORDS = ("set", "config", "configure")


def _set_names_a_secret(name: str) -> bool:
    return is_secret_env_name(name) and not _key_alone(name)


# the same command in a transcript (``atlas config set private_api_key <uuid>``), as the argv rule reads its words
_SET_WORD = "(?:" + "|".join(_SET_WORDS) + r")[ \t]"
# (npm's registry-scoped keys too: npm config set //registry.example.com/:_authToken VALUE)
_SET_NAME_VALUE = _rx(r"(?<![\w\-])" + _SET_WORD + r"+(?P<name>(?!" + _SET_WORD + r")(?://[^\s:]{1,300}:)?[A-Za-z_][\w.\-]{2,80})[ \t]+[\"']?"
                             r"(?P<value>(?!<redacted|-)[^\s\"'`$%{}<>]{6,512})[\"']?(?=\s|$|[,;)\]}]|\\[nrt])")


def _set_secret(m: re.Match[str]) -> bool:
    name = m.group("name").rpartition(":")[2]  # (in text, a name that ends in an id's word names an id: ``api_key_id``)
    return _set_names_a_secret(name) and not _names_a_digest(name) and _secret_literal(m.group("value"), "strong")


# user:password@host without a scheme (a message formatted from parts: "login ml-bot:PW@artifacts.internal failed"),
# or after a scheme without its colon (SQLAlchemy's "Could not parse ... 'postgresql+psycopg2//etl:PW@db:5432/x'"),
# or before Go's MySQL driver's protocol and address (``etl:PW@tcp(db01:3306)/app``, ``@unix(/run/mysqld.sock)``)
_USERINFO_NO_SCHEME = _rx(r"(?:(?<=[A-Za-z0-9]//)|(?<![\w/:.@\-])|(?<=[A-Za-z0-9]:))[A-Za-z0-9_.\-]{1,64}:(?P<value>(?!<redacted)[^\s:@/\"'`]{6,256})"
                                 r"@(?:[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})+(?![\w@])|(?:tcp6?|unix)?\([^\s()]{1,256}\))")


# an opaque URI's scheme right before its userinfo, no "//" between (RFC 3261's ``sip:alice:PW@pbx``, ``sips:``)
_OPAQUE_SCHEME = _rx(r"(?:^|(?<=[^\w/:.@+\-]))[A-Za-z][A-Za-z0-9+.\-]{1,20}:$")


def _userinfo_password(m: re.Match[str]) -> bool:
    value = m.group("value")
    start = m.start()
    if start and m.string[start - 1] == ":" and not _OPAQUE_SCHEME.search(m.string, max(0, start - 24), start):
        return False  # (after a colon only a scheme's: not a third field of a:b:c@host)
    return password_made(value) or looks_random(value)


# a table whose header names a secret's column (CSV, TSV, a Markdown table): that field of the rows below
_TABLE_SEPARATORS = (",", "\t", "|", ";")
_COMMENT_LEAD = _rx(r"[ \t]*#+[ \t]?")
_BOX_BARS = str.maketrans({"\u2502": "|", "\u2503": "|"})
_BOX_RULE = _rx(r"[\u2500-\u257f]+")  # a box table's rule line (┡━━━╇━━━┩)
_MARKDOWN_RULE = _rx(r"\|?\s{0,3}:?-{3,}:?\s{0,3}(?:\|\s{0,3}:?-{3,}:?\s{0,3})*\|?")


def _cells(line: str, sep: str) -> list[tuple[int, int]]:
    """(start, end) of each field of ``line`` split at ``sep``, spaces around a field left out (a Markdown
    table's outer pipes open and close no field)."""
    out, pos = [], 0
    for piece in line.split(sep):
        a = pos + len(piece) - len(piece.lstrip())
        out.append((a, max(a, pos + len(piece.rstrip()))))
        pos += len(piece) + 1
    if sep == "|" and line.strip().startswith("|"):
        out = out[1:]
    if sep == "|" and line.strip().endswith("|"):
        out = out[:-1]
    return out


def _secret_column(name: str) -> bool:
    name = name.strip().strip("`*\"'")
    return bool(re.fullmatch(r"[A-Za-z][\w .\-]{0,40}", name)) and is_secret_env_name(re.sub(r"[ .\-]", "_", name)) \
        and not _key_alone(re.sub(r"[ .\-]", "_", name))


_TABLE_LINE_BREAK = _rx(r"\n|\\n\ue005?")  # (also an escaped one: a table inside a repr'd or JSON string)


def _table_lines(text: str) -> list[tuple[int, str]]:
    """(start, line) of ``text``'s lines without a comment's ``# `` (a table pasted into comments, one per line),
    rich's box bars (``│``, ``┃``) read as ``|``; a string's escaped line breaks (``\\n``) end lines too."""
    lines = []
    pos = 0
    for brk in [*_TABLE_LINE_BREAK.finditer(text), None]:  # (an empty line ends a table)
        end = brk.start() if brk else len(text)
        line = text[pos:end]
        if line != _JOIN.strip("\n"):
            lead = _COMMENT_LEAD.match(line)
            cut = lead.end() if lead else 0
            lines.append((pos + cut, line[cut:].translate(_BOX_BARS)))
        pos = brk.end() if brk else end
    return lines


_COLUMN_NAME = _rx(r"[A-Za-z][\w .\-]{0,40}")
# a message's lead before a table's first column name on the header's line (``RuntimeError: [P0396] NAME``)
_STRING_END = _rx(r"(?<!\\)[\"'][)\]},;]*$")
_LEAD_MAX = 160
_MESSAGE_LEAD = _rx(r"[:\]>][ \t]+[\"']?(?=[A-Za-z])")


def _table_header(header: str) -> Optional[tuple[str, list[tuple[int, int]], list[int], bool]]:
    """A table's header line: its separator, cells, the secret columns and whether its names have spaces; None
    when the line names no secret's column. Every column has a name (not a JSON list's ``"HF_TOKEN",`` line); a
    CSV's names with spaces (``Secret access key``) need three columns at least (not ``return tokens, labels``)."""
    sep = next((c for c in _TABLE_SEPARATORS if header.count(c) >= 2 - (c != "|")), None)
    if sep is None:
        return None
    # a message's lead (a short one) before the first name: "RuntimeError: [P0396] NAME,PROVIDER,API_KEY", a log
    # line's "2026-12-01 10:25:41,630 WARNING app: " (its comma is no column)
    for lead in (None, *_MESSAGE_LEAD.finditer(header, 0, _LEAD_MAX)):
        found = _header_cells(header[lead.end():] if lead else header, sep)
        if found is not None:
            return found
    return None


def _header_cells(header: str, sep: str) -> Optional[tuple[str, list[tuple[int, int]], list[int], bool]]:
    cells = _cells(header, sep)
    names = [header[a:b].strip("`*\"'") for a, b in cells]
    if len(cells) < 2 or not all(_COLUMN_NAME.fullmatch(n) for n in names):
        return None
    spaced = sep != "|" and any(" " in n for n in names)
    secret = [k for k, n in enumerate(names) if _secret_column(n)]
    return (sep, cells, secret, spaced) if secret and not (spaced and len(cells) < 3) else None


def _table_cell_secret(value: str, spaced: bool) -> bool:
    """A secret column's field that holds a value (with a credential's make-up under a spaced CSV header)."""
    return len(value) >= 4 and not value.startswith("<redacted") and not _not_secret_value(value, "password") \
        and not _PLACEHOLDER.match(value) and (not spaced or _near_credential(value) or _long_hex(value))


# a table's rows joined into one line (a one-line message, a JUnit ``message`` attribute): `` ; `` or `` | ``
# between rows of a CSV/TSV whose own separator is another character
_ROW_JOIN = _rx(r" [;|] ")


def _joined_rows(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The rows of the lines that hold a CSV/TSV table joined into one line (:data:`_ROW_JOIN`), each a line of its
    own: ``NAME,PROVIDER,API_KEY ; primary,vultr,<value> ; backup,vultr,none``."""
    out: list[tuple[int, str]] = []
    for start, line in lines:
        if len(line) > _OUTPUT_READ or len(_ROW_JOIN.findall(line)) < 2 or not ("," in line or "\t" in line):
            continue
        pos = 0
        for brk in [*_ROW_JOIN.finditer(line), None]:
            end = brk.start() if brk else len(line)
            out.append((start + pos, line[pos:end]))
            pos = brk.end() if brk else end
        out.append((start + len(line), ""))  # (the joined table ends with its line)
    return out


def _table_spans(text: str) -> list[Span]:
    lines = _table_lines(text)
    return _column_spans(lines) + _column_spans(_joined_rows(lines))


def _column_spans(lines: list[tuple[int, str]]) -> list[Span]:
    spans: list[Span] = []
    for i, (_, header) in enumerate(lines):
        found = _table_header(header)
        if found is None:
            continue
        sep, cells, secret, spaced = found
        for row_start, row in lines[i + 1:i + 200]:
            if sep == "|" and (_MARKDOWN_RULE.fullmatch(row.strip()) or _BOX_RULE.fullmatch(row.strip())):
                continue
            fields = _cells(row, sep)
            if len(fields) != len(cells):
                break
            for a, b in (fields[k] for k in secret):
                value = _STRING_END.sub("", row[a:b]).strip("`\"'")  # (the last row of a table in a string literal)
                if _table_cell_secret(value, spaced):
                    off = row_start + a + row[a:b].find(value)
                    spans.append((off, off + len(value), _mark("secret")))
    return spans


# what a library echoes of a value it rejected: argparse (``argument --hub-token: invalid int value: 'V'``, ``invalid
# choice: 'V'``), pydantic v2 under the field's name (``hub_token`` / ``  ... [type=..., input_value='V', ...]``),
# requests' ``auth`` pair (``'auth': ('user', 'V')``, ``auth=("user", "V")``)
_ARGPARSE_ECHO = _rx(r"argument (?P<flag>-{1,2}[\w\-]{1,60})(?:/-{1,2}[\w\-]{1,60})*: invalid (?:[\w.]{1,40} value|choice): "
                            r"(?P<q>['\"])(?P<value>(?!<redacted)[^'\"\n]{6,512})(?P=q)")
_PYDANTIC_ECHO = _rx(  # (also inside a repr, its lines and quotes escaped: ...\\npassword\\n  ... input_value=\\'V\\')
    r"(?:^|(?<=\\n)|(?<=\\n\ue005))[ \t]*" + _LINE_LEAD + r"(?:[ \t]*#+[ \t]?)?(?P<loc>[A-Za-z_][\w.]{0,120})[ \t]*"
    r"(?:\n|\\n\ue005?)(?:\ue006\n)?" + _LINE_LEAD + r"(?:[ \t]*#)?[ \t]+[^\n]{0,300}?\[type=[\w.]{1,60}, input_value="
    r"(?P<q>\\?['\"])\ue005?(?P<value>(?!<redacted)[^'\"\n\\\ue005]{4,512})(?P=q)", re.MULTILINE)
# Python's own echo of a value it could not convert (``invalid literal for int() with base 10: 'X'``, ``could not
# convert string to float: 'X'``): the value when it looks drawn
_CONVERSION_ECHO = _rx(r"(?:invalid literal for [a-z]{1,10}\(\)(?: with base [0-9]{1,2})?|could not convert string to "
                              r"[a-z]{1,10}): (?P<q>['\"])(?P<value>(?!<redacted)[^'\"\n]{12,512})(?P=q)")
_AUTH_PAIR = _rx(r"(?<![\w])(?:(?P<k>['\"])auth(?P=k)\s{0,3}:|auth\s{0,3}=)\s{0,3}\(\s{0,3}(?P<uq>['\"])[^'\"\n]{1,128}(?P=uq)"
                        r"\s{0,3},\s{0,3}(?P<q>['\"])(?P<value>(?!<redacted)[^'\"\n]{4,256})(?P=q)\s{0,3}\)")


def _echoed_value(m: re.Match[str]) -> bool:
    value = m.group("value")
    return _SECRET_FLAG.search(m.group("flag").lstrip("-")) is not None or looks_random(value) or password_made(value)


def _drawn_echo(m: re.Match[str]) -> bool:
    value = m.group("value")
    return looks_random(value) or password_made(value) or _long_hex(value)


def _pydantic_secret(m: re.Match[str]) -> bool:
    field = m.group("loc").rsplit(".", 1)[-1]
    return is_secret_env_name(field) and not _key_alone(field) and not _not_secret_value(m.group("value"), field)


# a secret's name and its value as the two cells of a row (rich's and PowerShell's tables, ``vault kv get``, a numpy
# array of pairs: ``│ DEPLOY_TOKEN │ <value> │``, ``password    <value>``, ``['api_token' '<value>']``): the value
# when it has a credential's make-up
_ROW_PAIR = _rx(r"(?:^|(?<=[\s│┃|\[(]))(?P<q>['\"]?)(?P<name>[A-Za-z_][\w.\-]{1,80})(?P=q)"
                       r"(?:[ \t]*[│┃|][ \t]*|[ \t]{2,40}|\t|(?<=['\"])[ \t]{1,4}(?=['\"]))"
                       r"(?P<vq>['\"]?)(?P<value>(?!<redacted)[^\s│┃|'\"]{6,512})(?P=vq)(?=[ \t]*(?:[│┃|\]),]|$))", re.MULTILINE)
# a name and a value given as two fields of one record (HAR's and Kubernetes' ``{"name": "X-Api-Key", "value":
# "..."}`` and ``- name: HUB_API_TOKEN`` / ``value: "..."``, a cookie's repr ``name='auth_token', value='...'``,
# a plist's ``<key>APIToken</key> <string>...</string>``)
_NOT_NAME = r"(?!(?<![\w])['\"]?name['\"]?\s{0,3}[:=])"
_NAME_FIELD_THEN_VALUE = _rx(
    r"(?:(?<![\w])(?P<nk>['\"]?)name(?P=nk)\s{0,3}[:=]\s{0,3}(?P<nq>['\"]?)(?P<name>[A-Za-z_][\w.\-]{0,80})(?P=nq)"
    r"|<key>\s{0,3}(?P<pname>[A-Za-z_][\w.\-]{0,80})\s{0,3}</key>)"
    # (not over another record's name: "- name: trainer" / "env: [{name: WANDB_API_KEY, value: ...}]")
    r"(?:(?:" + _NOT_NAME + r"[^\n<]){0,160}?(?:\n(?:" + _NOT_NAME + r"[^\n]){0,160}?)?)"
    r"(?:(?<![\w])(?P<vk>['\"]?)value(?P=vk)\s{0,3}[:=]\s{0,3}|<string>\s{0,3})"
    r"(?P<vq>['\"]?)(?P<value>(?!<redacted)[^\s'\"<>,}]{4,512})")


# a build file's or a header's definition of a secret's name: make's ``REGISTRY_TOKEN ?= ...`` (also ``:=``, ``::=``;
# not ``+=``, ``!=``: Python's augmented assignment and comparison), C's ``#define ACME_LICENSE_KEY "..."``; YAML's ``deploy_token: <drawn>: expires 2027`` (a value
# that a colon follows, quoted by a YAML error: not a nested key when it is drawn)
_DEFINITION = _rx(r"(?:(?<![\w.\-#])#[ \t]*define[ \t]+(?P<dname>[A-Za-z_]\w{0,80})[ \t]+"  # (also behind a log's lead)
                         r"|(?<![\w.\-])(?P<mname>[A-Za-z_][\w.\-]{0,80})[ \t]*(?:\?=|::?=)[ \t]*)"
                         r"(?P<q>[\"']?)(?P<value>(?!<redacted)[^\s\"']{6,512})(?P=q)[ \t]*(?=\n|$)")
_VALUE_THEN_COLON = _rx(r"(?<![\w.\-])(?P<name>" + _SECRET_NAME + r")\s{0,3}:\s{1,3}"
                               r"(?P<value>(?!<redacted)[A-Za-z0-9+/_\-]{16,512})(?=:)", re.IGNORECASE)


_COLON_AFTER_VALUE = _rx(r":\s{1,3}[A-Za-z0-9+/_\-]{16,512}:")  # (a quick test before _VALUE_THEN_COLON)


def _defined_secret(m: re.Match[str]) -> bool:
    name = m.group("dname") or m.group("mname")
    return is_secret_env_name(name.replace("-", "_").replace(".", "_")) and not _key_alone(name) \
        and _credential_shaped(m.group("value"))


def _row_secret(m: re.Match[str]) -> bool:
    name, value = m.group("name"), m.group("value")
    if not is_secret_env_name(name.replace("-", "_").replace(".", "_")) or _key_alone(name) \
            or _not_secret_value(value, name):
        return False
    words = _name_words(name)
    # (a row named a password holds one of any length a password has: DB_PASSWORD   Z7opzT#5T0)
    return credential_value(name, value) or password_made(value) or _long_hex(value) \
        or (bool(words) and _password_word(words[-1]) and _password_shaped(value))


def _named_field_secret(m: re.Match[str]) -> bool:
    name = (m.group("name") or m.group("pname")).replace("-", "_").replace(".", "_")
    value = m.group("value")
    if not is_secret_env_name(name) or _key_alone(name) or _PLACEHOLDER.match(value):
        return False
    return not _plain_value(value, name) and (_numeric_secret(value, name) or _secret_literal(value, "strong")
                                              or _short_key(value))


def _echo_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    if "argument -" in text:
        spans += _group_spans(_ARGPARSE_ECHO, text, "secret", _echoed_value)
    if "invalid literal for" in text or "could not convert" in text:
        spans += _group_spans(_CONVERSION_ECHO, text, "secret", _drawn_echo)
    if "input_value=" in text:
        spans += _group_spans(_PYDANTIC_ECHO, text, "secret", _pydantic_secret)
    if "auth" in text:
        spans += _group_spans(_AUTH_PAIR, text, "secret")
    if any(c in text for c in _TABLE_SEPARATORS + ("\u2502",)) and ("\n" in text or "\\n" in text or " ; " in text
                                                                 or " | " in text):
        spans += _table_spans(text)
    spans += _group_spans(_ROW_PAIR, text, "secret", _row_secret)
    if "?=" in text or ":=" in text or "define" in text:
        spans += _group_spans(_DEFINITION, text, "secret", _defined_secret)
    if _COLON_AFTER_VALUE.search(text):
        spans += _group_spans(_VALUE_THEN_COLON, text, "secret", _random_value)
    if "name" in text or "<key>" in text:
        spans += _group_spans(_NAME_FIELD_THEN_VALUE, text, "secret", _named_field_secret)
    return spans


# a bare ``key`` and a password a person picked (a TACACS+ or RADIUS server's ``key = Harbor42!x…``, a router's
# config): the drawn keys are :data:`_KEY_ASSIGNMENT`'s
_KEY_PICKED = _rx(r"(?<![\w.\-])(?:key|KEY|Key)[ \t]{0,3}[=:][ \t]{0,3}[\"']?(?P<value>(?!<redacted)[^\s\"'`,;]{12,128})")


def _picked_value(m: re.Match[str]) -> bool:
    return password_made(m.group("value"))


# a Cisco IOS password with its type: 7 is a reversible encoding (``username admin password 7 0822455D0A16``), 0 the
# password itself (``password 0 <picked>``)
_CISCO_TYPED = _rx(r"(?<![\w\-])(?:password|secret|key-string|key)[ \t]{1,3}(?P<type>[07])[ \t]{1,3}"
                          r"(?P<value>(?!<redacted)(?:[0-9]{2}(?:[0-9A-Fa-f]{2}){3,60}|[^\s\"']{6,128}))(?![\w\-])")
_CISCO_TYPE7 = _rx(r"[0-9]{2}(?:[0-9A-Fa-f]{2}){3,60}")


def _cisco_typed(m: re.Match[str]) -> bool:
    value = m.group("value")
    return _CISCO_TYPE7.fullmatch(value) is not None if m.group("type") == "7" else password_made(value)


# a config's statement: a secret's name, spaces and the value in quotes (BIND's ``secret "<base64>";``, Junos'
# ``authentication-key "$9$…";``, a ``psk "…"``): a drawn value (its letters and digits random), base64 of random
# bytes or a picked password
_NAME_THEN_QUOTED = _rx(r"(?<![\w.\-])(?P<name>(?:[A-Za-z][A-Za-z0-9]{0,20}[_\-]){0,3}(?:secret|key|password|passwd|"
                               r"passphrase|psk|token))[ \t]{1,4}(?P<q>[\"'])(?P<value>(?!<redacted)[^\s\"']{12,256})(?P=q)",
                               re.IGNORECASE)


def _quoted_config_secret(m: re.Match[str]) -> bool:
    words = set(_name_words(m.group("name")))
    value = m.group("value")
    if words & _DIGEST_NAME_WORDS or words & _PUBLIC_KEY_WORDS or _DIGEST_LIKE.search(value) or _UUID.search(value):
        return False
    if _CRYPT_FORM.fullmatch(value):
        return True  # Junos' $9$ (a reversible encoding of the password), a crypt(3) hash
    return _random_base64(value) or password_made(value) or looks_random(re.sub(r"[^A-Za-z0-9]", "", value))


_PUBLIC_KEY_WORDS = frozenset({"PUBLIC", "PUB", "SSH", "HOST", "TRUSTED", "SIGNING"})


# Unleash's API tokens: <project>:<environment>.<64 hex digits> (``default:production.<hex>``, ``*:*.<hex>``)
_UNLEASH_TOKEN = _rx(r"(?<![\w.\-])(?:\[\]|\*|[\w\-]{1,64}):(?:\*|[\w\-]{1,64})\.(?P<value>[0-9a-f]{64})(?![0-9A-Za-z])")


def _named_guesses(text: str) -> str:
    """The rules that read a value after a word that names it (a vendor, a key, a password, a credential's
    directory) and the lines below a YAML block's name."""
    text = _apply(text, _group_spans(_VENDOR_THEN_VALUE, text, "secret", _vendor_value))
    if "key" in text or "Key" in text or "KEY" in text:
        text = _apply(text, _group_spans(_KEY_ASSIGNMENT, text, "secret", _key_value))
        text = _apply(text, _group_spans(_KEY_THEN_VALUE, text, "secret", _spaced_key_value))
        text = _apply(text, _group_spans(_KEY_PICKED, text, "secret", _picked_value))
    if "\"" in text or "'" in text:
        text = _apply(text, _group_spans(_NAME_THEN_QUOTED, text, "secret", _quoted_config_secret))
    if " 7 " in text or " 0 " in text:
        text = _apply(text, _group_spans(_CISCO_TYPED, text, "secret", _cisco_typed))
    if ":" in text and "." in text:
        text = _apply(text, _group_spans(_UNLEASH_TOKEN, text, "unleash-token"))
    if ":" in text:
        text = _apply(text, [s for s in _group_spans(_PGPASS, text, "credentials")
                             if not _not_secret_value(text[s[0]:s[1]], "password")])  # the field is one
    text = _apply(text, _group_spans(_NAMED_THEN_VALUE, text, "secret", _random_value))
    if _PASSWORD_WORD_HINT.search(text):
        text = _apply(text, _group_spans(_PASSWORD_THEN_PICKED, text, "secret", _picked_after_word))
    if _foreign_label_here(text, text.lower()):
        text = _apply(text, _group_spans(_FOREIGN_PASSWORD, text, "secret", _foreign_password))
    if re.search(r"(?i) (?:is|was|to) ", text):
        text = _apply(text, _group_spans(_NAMED_IS_SHORT, text, "secret", _short_named))
    if "[" in text:
        text = _apply(text, _group_spans(_PARAM_ID, text, "secret", _credential_id))
    if re.search(r"[<>()\[\]{}]", text):
        text = _apply(text, _group_spans(_NAMED_THEN_SYMBOLS, text, "secret", _drawn_with_symbols))
        if _CALL_OF_LITERAL.search(text):
            text = _apply(text, _group_spans(_ASSIGNED_CALL, text, "secret", _called_credential))
    if "/" in text:
        text = _apply(text, _group_spans(_SECRET_DIR_PART, text, "secret", _drawn_part))
    if ": |" in text or ": >" in text:
        text = _apply(text, _yaml_block_spans(text))
    return _apply(text, _echo_spans(text))


# a credential near its name, when the rules above found no shape joining them (a field, a cell, a line apart:
# ``fields { key: "password" value { string_value: "X" } }``, gdb's ``password=0x5555 "X"``,
# ``<td>password</td><td>X</td>``): within 200 characters after a secret's word on its line, a value with a picked
# password's make-up or drawn (random-looking, 16+); never hex, a UUID, a digest's or an SSH public key's shape
_NEAR_WORD = _rx(r"(?<![A-Za-z])(?:password|passwd|passphrase|secret|token|api[ _\-]?key|credentials?|auth)"
                        r"(?![A-Za-z])", re.IGNORECASE)
_NEAR_VALUE_CHAR = _rx(r"[\w\-+/=]")
_NEAR_VALUE = _rx(r"(?<![\w\-+/=.])(?!<redacted)[A-Za-z0-9!#$%&*?@^~+/=_\-.]{12,128}(?![\w\-+/=])")


_DIGEST_LIKE = _rx(r"(?i)^(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[-:_]|@sha(?:1|256|384|512)\b|^\|1\||^AAAA[A-Za-z0-9+/]")


def _near_credential(value: str) -> bool:
    value = value.rstrip(".")
    if _UUID.search(value) or re.fullmatch(r"[0-9a-fA-F]+", value) or _DATE_OR_VERSION.search(value) \
            or _DIGEST_LIKE.search(value):  # an SRI/npm integrity, an image digest, a hashed host, an SSH public key
        return False
    return password_made(value) or (len(value) >= 16 and "/" not in value and looks_random(value))


def _near_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for word in _NEAR_WORD.finditer(text):
        # its line, also as JSON escapes it: a message's lines are one line of bundle.json's text
        limit = word.end() + 200
        end = min((e for e in (text.find("\n", word.end(), limit), text.find("\\n", word.end(), limit)) if e >= 0),
                  default=min(limit, len(text)))
        # (a value may run past the limit: read 129 more, and never take one that the read's end cut)
        stop = min(len(text), end + 129)
        for m in _NEAR_VALUE.finditer(text, word.end(), stop):
            if m.start() >= end:
                break
            if m.end() == stop < len(text) and _NEAR_VALUE_CHAR.match(text, stop):
                continue
            # (a value taken whole with its name, ``request_id=req_AbC…``: the id after its name stays)
            eq = m.group(0).find("=")
            if _near_credential(m.group(0)) and not _named_an_id(text, m.start()) \
                    and not (eq > 0 and (_named_an_id(text, m.start() + eq + 1) or _names_a_digest(m.group(0)[:eq]))):
                value = m.group(0).rstrip(".")
                spans.append((m.start(), m.start() + len(value), _mark("secret")))
    return spans


# the answer to a password prompt on the line after it: Tcl expect's and pexpect's ``expect "password:"`` then
# ``send "<answer>\r"`` / ``child.sendline('<answer>')`` (a variable, ``$pw``, is no answer)
_PROMPT_ANSWER = _rx(r"expect(?:_exact)?[ \t]*\(?[ \t]*(?:-\w+[ \t]+)*(?P<pq>[\"'{])[^\"'}\n]{0,80}?(?:assword|assphrase|"
                            r"asscode|token|secret|PIN)[^\"'}\n]{0,40}(?:\"|'|\})[^\n]{0,40}\n(?:[ \t]*#[^\n]*\n){0,2}[ \t]*"
                            r"(?:[\w.]{1,40}\.)?send(?:line)?[ \t]*\(?[ \t]*(?:--[ \t]+)?(?P<q>[\"'])"
                            r"(?P<value>(?!<redacted)(?:(?!\\[rn](?P=q))[^\n\ue005]){4,256}?)(?:\\[rn])?(?P=q)")
# a terminal's transcript: a line that is a password's prompt and the answer echoed alone on the next line (ftp,
# a script's input() log): a picked password or a drawn value, nothing with a space
_PROMPT_LINE_ANSWER = _rx(r"^[^\n]{0,60}?(?:[Pp]assword|[Pp]assphrase|[Pp]asscode|PASSWORD)(?: for [^\n:]{1,60})?:[ \t]*\n"
                                 r"[ \t]*(?P<value>(?!<redacted)[^\s]{6,128})[ \t]*$", re.MULTILINE)
# pickle's protocol 0 as a bytes repr prints it: a dict's key and its value, each after ``V`` (or ``S'``) and
# before a memo opcode (``\nVpassword\np3\nV<value>\np4``)
_PICKLE0_PAIR = _rx(r"(?:V|S')(?P<name>[A-Za-z_][\w.\-]{0,80})'?(?:\\n|\n)\ue005?[pg][0-9]{1,6}(?:\\n|\n)\ue005?(?:V|S')"
                           r"(?P<value>(?!<redacted)[^\\\n'\ue005]{4,512})")
_PICKLE0_HINT = _rx(r"(?:\\n|\n)\ue005?[pg][0-9]")


def _prompt_answer(m: re.Match[str]) -> bool:
    value = m.group("value")
    return not value.startswith(("$", "%", "{")) and _secret_literal(value, "strong")


def _echoed_answer(m: re.Match[str]) -> bool:
    value = m.group("value")
    return password_made(value) or looks_random(value)


def _named_literal(m: re.Match[str]) -> bool:
    """The match's ``value`` is a credential by the code rule for its ``name`` (a pickled dict's key, gdb's argument)."""
    return _secret_literal(m.group("value"), _code_secret_name(m.group("name")))


def _answer_spans(text: str) -> list[Span]:
    """A value a layout puts away from its name: a prompt's answer, a pickled dict's value."""
    spans: list[Span] = []
    if "send" in text and "expect" in text:
        spans += _group_spans(_PROMPT_ANSWER, text, "secret", _prompt_answer)
    if "ass" in text or "ASS" in text:
        spans += _group_spans(_PROMPT_LINE_ANSWER, text, "secret", _echoed_answer)
    if "V" in text and ("\\n" in text or "\n" in text) and _PICKLE0_HINT.search(text):
        spans += _group_spans(_PICKLE0_PAIR, text, "secret", _named_literal)
    return spans


# a drawn token standing alone in text (a log line, a message, a comment): 24 to 64 letters and digits of both
# cases mixed as random text mixes them (:func:`looks_random`; ``_`` and ``-`` may join them), with no name beside
# it. An entropy guess, so text only, never code. Base64 (``+``, ``/``, ``=``: a digest, encoded data, a public
# key's numbers), a token that decodes to text, an identifier, a UUID, a digest, a mangled C++ symbol, a longer run
# (data, not a key), a token a lower-case word starts (``raysubmit_…``, ``nonce-…``: the unknown vendor's rule's) and
# what an id's name comes right before (``X-Amz-Cf-Id: …``, ``request_id=…``; a session's id is a secret) stay.
_DRAWN_TOKEN = _rx(r"(?<![A-Za-z0-9+/_\-.])(?<![^A-Za-z0-9_]=)(?<!^=)(?!<redacted)[A-Za-z0-9][A-Za-z0-9_\-]{23,63}"
                          r"(?![A-Za-z0-9+/=_\-])", re.MULTILINE)  # (after NAME=: a listing's UPLOAD_CFG=<drawn>)


def _decodes_to_text(token: str) -> bool:
    """``token`` is base64 (standard or URL-safe) of printable text: encoded data, not a drawn key."""
    data = _b64decode(token, urlsafe=True)
    if data is None:
        return False
    return sum(32 <= b < 127 or b in (9, 10, 13) for b in data) >= 0.9 * len(data)


_NAMED_HEX = _rx(r"(?:[A-Za-z]{2,12}[_\-]){1,4}(?:[0-9a-f]{16,}|[0-9A-F]{16,})")  # (Linux-pip-<md5>: words, a digest)


def _drawn_token(token: str) -> bool:
    # (a word first, ``raysubmit_AbC…``, ``nonce-…``: a prefixed token, the unknown vendor's rule's to judge)
    if token.startswith("_Z") or re.match(r"[a-z]{3,}[_\-]", token) or _UUID.search(token) \
            or _DIGEST_LIKE.search(token) or re.fullmatch(r"[0-9a-fA-F_\-]+", token) \
            or _NAMED_HEX.fullmatch(token):
        return False
    return looks_random(token) and not _decodes_to_text(token)


# what an identifier's name comes right before (``X-Amz-Cf-Id: ``, ``request_id=``, ``RequestId ``, ``run id "``): an
# id a service drew, which is no key
_ID_NAME_BEFORE = _rx(r"(?:(?:\b|[_\-.])(?:id|ids)|(?:\b|[_\-.a-z])(?:Id|ID|Ids|IDs))"
                             r"[\"']?[ \t]{0,3}[:=]?[ \t]{0,3}[\"'(\[]?$")


def _names_a_digest(name: str) -> bool:
    """``name``'s last word says its value is an identifier or a digest (``GITHUB_SHA``, ``BUILD_REVISION``)."""
    return re.split(r"[_\-.]+", name.upper())[-1] in _IDENTIFIER_WORDS


def _named_an_id(text: str, start: int) -> bool:
    before = text[max(0, start - 40):start]
    return _ID_NAME_BEFORE.search(before) is not None and "session" not in before.lower()  # (a session's id is one)


def _drawn_spans(text: str) -> list[Span]:
    return [(m.start(), m.end(), _mark("random")) for m in _DRAWN_TOKEN.finditer(text) if _drawn_token(m.group(0))
            and not _named_an_id(text, m.start()) and not _DIGEST_BEFORE.search(text, max(0, m.start() - 12), m.start())]


# a wallet's seed phrase (BIP-39: 12, 15, 18, 21 or 24 words of 3-8 lowercase letters) after a word that names one:
# a value with spaces is not a secret, except this one
_MNEMONIC = _rx(r"(?i:\b(?:mnemonic|(?:seed|recovery|backup|secret|wallet)[ _\-]?(?:phrase|words|seed))\b)[\"']?"
                r"[^\S\n]{0,3}(?:[:=]|\bis\b)[^\S\n]{0,3}[\"']?(?P<value>[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})(?![ \t]*[a-z])")


def _mnemonic(m: re.Match[str]) -> bool:
    return len(m.group("value").split()) in (12, 15, 18, 21, 24)


def _guessed(text: str) -> str:
    text = _named_guesses(text)
    lower = text.lower()
    if "mnemonic" in lower or "phrase" in lower or "words" in lower or "seed" in lower:
        text = _apply(text, _group_spans(_MNEMONIC, text, "secret", _mnemonic))
    if "[parameters: (" in text:
        text = _apply(text, _sql_parameter_spans(text))
    if "ENV" in text or "ARG" in text:
        text = _apply(text, _group_spans(_DOCKERFILE_ENV, text, "secret", _dockerfile_secret))
    if "<redacted:aws-access-key-id" in text:  # (the key ids are markers by now)
        text = _apply(text, _aws_secret_beside_key_id(text))
    if "env:" in text or "export " in text or "set " in text or "SET " in text:
        text = _apply(text, _group_spans(_SHELL_ENV, text, "secret", _shell_env_secret))
    if "set " in text or "config " in text or "configure " in text:
        text = _apply(text, _group_spans(_SET_NAME_VALUE, text, "secret", _set_secret))
    if "@" in text and ":" in text:
        text = _apply(text, _group_spans(_USERINFO_NO_SCHEME, text, "credentials", _userinfo_password))
    if "${" in text:
        text = _apply(text, _group_spans(_SHELL_DEFAULT, text, "secret", _shell_default))
    if "=" in text or ":" in text or "\uff1a" in text:
        text = _ENV_ASSIGNMENT.sub(_replace_env_value, text)
    if "--" in text:
        text = _CLI_FLAG.sub(_replace_value("secret"), text)
    if "-" in text:
        text = _FLAG_VALUE.sub(_flag_value, text)
    if "=" in text or ":" in text or "\uff1a" in text:
        text = _ASSIGNMENT.sub(_replace_value("secret"), text)
        if "\n" in text:
            text = _apply(text, _open_quoted_spans(text))
    text = _apply(text, _call_and_pair_spans(text))
    if "</" in text:  # <password>...</password> (Maven's settings.xml, any XML or HTML element named so)
        text = _apply(text, _group_spans(_XML_ELEMENT, text, "secret", _xml_secret))
        text = _apply(text, _group_spans(_XML_PROPERTY, text, "secret", _xml_secret))
    if "{" in text:  # HCL: acl { tokens { agent = "..." } }
        text = _apply(text, _secret_block_spans(text))
    text = _apply(text, _not_template(text, _ds_spans(text, high=False)))
    text = _apply(text, _near_spans(text) + _answer_spans(text))
    return _apply(text, _drawn_spans(text))


_XML_ELEMENT = _rx(r"<(?P<name>[A-Za-z][\w.\-:]{0,60})(?:\s[^<>]{0,400})?>\s{0,3}(?P<value>(?!<redacted)[^<>\s]{4,1024})\s{0,3}"
                          r"</(?P=name)>")  # (a namespace and attributes: <wsse:Password Type="...#PasswordText">)
# a block of HCL (Consul's, Vault's, Nomad's agent configuration) whose name says that what it holds are secrets:
# acl { tokens { agent = "..." default = "..." } }: every quoted value in it that looks like a credential
_SECRET_BLOCK = _rx(r"(?<![\w.\-])(?:tokens|secrets|credentials|passwords)\s{0,3}=?\s{0,3}\{(?P<body>[^{}]{1,4000})\}")
_BLOCK_ENTRY = _rx(r"(?<![\w.\-])[A-Za-z_][\w\-]{0,60}\s{0,5}=\s{0,5}\"(?P<value>(?!<redacted)[^\"\n\\]{1,512})\"")


def _secret_block_spans(text: str) -> list[Span]:
    return [(e.start("value"), e.end("value"), _mark("secret")) for m in _SECRET_BLOCK.finditer(text)
            for e in _BLOCK_ENTRY.finditer(text, m.start("body"), m.end("body"))
            if _secret_literal(e.group("value"), "strong") and not _SETTING_WORDS.fullmatch(e.group("value"))]


# Hadoop's and Spark's configuration XML: <property><name>fs.s3a.secret.key</name><value>...</value></property>
_XML_PROPERTY = _rx(r"<name>\s{0,3}(?P<name>[A-Za-z][\w.\-]{0,120})\s{0,3}</name>\s{0,40}<value>\s{0,3}"
                           r"(?P<value>(?!<redacted)[^<>\s]{4,1024})\s{0,3}</value>")


# a call that authenticates (its name's last part): HTTPBasicAuth, aiohttp's BasicAuth, IAMAuthenticator, google's
# Credentials, smtplib/ftplib/imaplib's .login, wandb.login, huggingface_hub.login, .authenticate, set_auth
_AUTH_CALLEE = _rx(r"(?:[A-Z][A-Za-z0-9]{0,40})?(?:Auth|Authenticator|Credentials)|(?:[a-z][a-z0-9]{0,20}_)?"
                          r"(?:login|auth|authenticate)")
# under such a call a generic keyword names the credential (wandb.login(key=...), Auth(token=...))
_AUTH_KEYWORDS = frozenset({"key", "token", "password", "passwd", "pwd", "pw", "secret", "apikey", "api_key"})

# Calls that take a credential by position, from their documented signatures (the standard library's ftplib,
# poplib, urllib.request, hmac, hashlib, zipfile, ssl; cryptography, PyJWT/python-jose, itsdangerous, bcrypt,
# PyCryptodome, PyNaCl, pyOpenSSL; boto3, minio, redis-py, python-ldap, ldap3, PyGithub, python-gitlab, hvac,
# Azure identity/core, comet_ml, cohere, tweepy, requests-oauthlib, slack_sdk, keyring, pysftp, smbprotocol,
# paramiko's Transport, SQLAlchemy's URL.create; the database and directory clients: PyMySQL/MySQLdb/pymssql's
# connect(host, user, password, database), cx_Oracle's connect and SessionPool, ldap3's Connection imported bare,
# psycopg2's and pymysql's connections' and paramiko's SSHClient.connect(hostname, port, username, password),
# imaplib's and smtplib's login, poplib's pass_; the cloud SDKs' clients: twilio.rest.Client(sid, token),
# Tencent Cloud's credential.Credential(id, key), Algolia's SearchClient.create(app, key), Huawei Cloud's
# BasicCredentials/GlobalCredentials(ak, sk), Alibaba's AcsClient(ak, secret) and oss2.Auth, OCI's signer.Signer):
# a positional argument is bound to its parameter's name, and a
# parameter marked * is a credential. A dotted key names the module or class the call must be reached through; a
# key ending in "#port" is the signature of a call of that name whose second argument is a port's number (an
# object's connect(host, 22, user, PW) is paramiko's, connect(host, user, PW, db) a database client's).
_CREDENTIAL_SIGNATURES_TEXT = """
FTP host user passwd* acct | FTP_TLS host user passwd* acct | add_password realm uri user passwd* | pass_ pswd*
apop user password* | hmac.new key* msg digestmod | hmac.digest key* msg digest | hmac.HMAC key* msg
hashlib.pbkdf2_hmac hash_name password* salt | hashlib.scrypt password* | setpassword pwd*
load_cert_chain certfile keyfile password* | load_pem_private_key data password* | load_der_private_key data password*
load_key_and_certificates data password* | load_privatekey type buffer passphrase* | Fernet key*
jwt.encode payload key* algorithm | jwt.decode jwt key* | URLSafeTimedSerializer secret_key* salt
URLSafeSerializer secret_key* salt | TimedSerializer secret_key* salt | TimestampSigner secret_key* salt
hashpw password* salt | checkpw password* hashed | PBKDF2 password* salt | AES.new key* mode | DES3.new key* mode
ChaCha20.new key* | SecretBox key* | boto3.Session aws_access_key_id aws_secret_access_key* aws_session_token*
session.Session aws_access_key_id aws_secret_access_key* aws_session_token*
boto3.client service_name region_name api_version use_ssl verify endpoint_url aws_access_key_id aws_secret_access_key* aws_session_token*
boto3.resource service_name region_name api_version use_ssl verify endpoint_url aws_access_key_id aws_secret_access_key* aws_session_token*
Minio endpoint access_key secret_key* session_token* | Redis host port db password* | StrictRedis host port db password*
simple_bind_s who cred* | simple_bind who cred* | bind_s who cred* | ldap3.Connection server user password*
Github login_or_token* password* | gitlab.Gitlab url private_token* oauth_token* job_token* | hvac.Client url token*
AzureKeyCredential key* | AzureNamedKeyCredential name key* | AzureSasCredential signature*
ClientSecretCredential tenant_id client_id client_secret* | UsernamePasswordCredential client_id username password*
comet_ml.Experiment api_key* | comet_ml.ExistingExperiment api_key* | comet_ml.API api_key* | cohere.Client api_key*
cohere.ClientV2 api_key* | OAuth1 client_key client_secret* resource_owner_key* resource_owner_secret*
OAuthHandler consumer_key consumer_secret* access_token* access_token_secret*
OAuth1UserHandler consumer_key consumer_secret* access_token* access_token_secret* | OAuth2BearerHandler bearer_token*
tweepy.Client bearer_token* consumer_key consumer_secret* access_token* access_token_secret* | WebClient token*
set_password service_name username password* | pysftp.Connection host username private_key password*
register_session server username password* | auth_password username password* | URL.create drivername username password*
save_token token* | connect host user passwd* db | pymssql.connect server user password* database
cx_Oracle.connect user password* dsn | cx_Oracle.Connection user password* dsn | cx_Oracle.SessionPool user password* dsn
Connection server user password* | SSHClient.connect hostname port username password* pkey key_filename timeout
connect#port hostname port username password* pkey key_filename timeout | MySQLdb.connect host user passwd* db
pymysql.connect host user password* database | IMAP4.login user password* | SMTP.login user password*
SMBConnection username password* my_name remote_name | ibm_db.connect database user password*
ibm_db.pconnect database user password* | pg8000.connect user host database port password*
rest.Client username password* account_sid | credential.Credential secret_id secret_key* token*
SearchClient.create app_id api_key* | BasicCredentials ak sk* project_id | GlobalCredentials ak sk* domain_id
AcsClient ak secret* region_id | oss2.Auth access_key_id access_key_secret* | signer.Signer tenancy user fingerprint private_key_file_location pass_phrase*
NetworkCredential userName password* domain | DBI.connect data_source username auth* attr
"""


def _credential_signatures(text: str) -> dict[str, tuple[tuple[str, ...], frozenset[int]]]:
    """``name -> (parameter names, the positions of the credentials)`` from :data:`_CREDENTIAL_SIGNATURES_TEXT`."""
    table = {}
    for entry in text.replace("\n", " | ").split("|"):
        if entry.split():
            callee, *params = entry.split()
            table[callee] = (tuple(p.rstrip("*") for p in params),
                             frozenset(i for i, p in enumerate(params) if p.endswith("*")))
    return table


_CREDENTIAL_SIGNATURES = _credential_signatures(_CREDENTIAL_SIGNATURES_TEXT)
_SIGNATURE_NAMES = frozenset(k.rsplit(".", 1)[-1].partition("#")[0] for k in _CREDENTIAL_SIGNATURES)


def _signature(dotted: str, port_second: bool = False) -> Optional[tuple[tuple[str, ...], frozenset[int]]]:
    """The entry of :data:`_CREDENTIAL_SIGNATURES` for a call through ``dotted`` (``ftplib.FTP``, ``jwt.encode``,
    ``boto3.session.Session``): the one of its last two parts, or the bare name's (its ``#port`` entry when the
    call's second argument is a port's number)."""
    parts = dotted.split(".")
    entry = _CREDENTIAL_SIGNATURES.get(".".join(parts[-2:])) if len(parts) > 1 else None
    if entry is None and port_second:
        entry = _CREDENTIAL_SIGNATURES.get(parts[-1] + "#port")
    return entry or _CREDENTIAL_SIGNATURES.get(parts[-1])


def _signature_credentials(dotted: str, count: int, port_second: bool = False) -> list[tuple[int, str]]:
    """(position, parameter name) of the credentials among ``count`` positional arguments of a call through
    ``dotted`` that :data:`_CREDENTIAL_SIGNATURES` knows."""
    entry = _signature(dotted, port_second)
    if entry is None:
        return []
    params, credentials = entry
    return [(i, params[i]) for i in sorted(credentials) if i < count]


# an authenticating call as text (a traceback's source line, a printed or logged command): where :func:`_auth_pairs`
# reads the tree, this reads the literal arguments up to the first that is neither a literal nor a name (a bracketed
# argument, ``jwt.encode({...}, KEY)``, is stepped over)
_AUTH_CALL_TEXT = _rx(r"(?<![\w.])(?P<dotted>(?:[A-Za-z_][\w]{0,40}(?:\(\))?\.){0,4})(?P<fn>" + _AUTH_CALLEE.pattern
                             + "|" + "|".join(sorted(map(re.escape, _SIGNATURE_NAMES), key=len, reverse=True))
                             + r")\(|(?<![\w.])(?:[a-z]{1,12}_)?auth\s{0,3}=\s{0,3}(?P<tuple>[(\[])")
_CALL_ARGUMENT = _rx(r"\s{0,3}(?:(?P<kw>[A-Za-z_]\w{0,30})\s{0,3}=(?!=)\s{0,3})?(?:[bB]?(?P<q>\\?[\"'])"
                            r"(?P<value>(?:(?!(?P=q))[^\n\\]|\\[^\n\"']){0,512})(?P=q)|(?P<expr>-?[\w.]{1,80})"
                            r"|(?P<bracket>[(\[{]))")
_SIGNATURE_CALL = _rx(r"(?<![\w])(?:" + "|".join(sorted(map(re.escape, _SIGNATURE_NAMES), key=len, reverse=True))
                             + r")\(")
_ARGUMENT_END = _rx(r"\s{0,3}([,)\]])")


def _positional_credentials(fn: str, count: int) -> tuple[int, str]:
    """Which of ``count`` positional arguments of the authenticating call ``fn`` are credentials, and how sure:
    every one after the first (the user) of two or more; the one argument of an ``...Authenticator``; the one
    argument of any other (``login(X)``, ``Credentials(X)``) only when random-looking. (first index, strength of
    :func:`_secret_literal`)"""
    if count >= 2:
        return 1, "strong"
    return 0, "strong" if fn.endswith("Authenticator") else "vendor"


def _skip_bracket(text: str, pos: int) -> int:
    """The end of the bracketed argument opening at ``pos`` (quotes respected), -1 if it does not close soon."""
    depth, quote, i = 0, "", pos
    while i < min(len(text), pos + 2048):
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] in ("\"", "'") and quote in ("", c + text[i + 1]):
            quote = "" if quote else c + text[i + 1]  # an escaped quote (a JSON log): a quote one level down
            i += 2
            continue
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "\n":
            return -1
        i += 1
    return -1


def _call_arguments(text: str, pos: int) -> list[Optional[re.Match[str]]]:
    """The arguments of a call whose "(" ends at ``pos``, up to the first that is neither a literal nor a name nor
    a bracketed expression (which counts as an argument, None)."""
    args: list[Optional[re.Match[str]]] = []
    while (arg := _CALL_ARGUMENT.match(text, pos)) is not None:
        after = _skip_bracket(text, arg.start("bracket")) if arg.group("bracket") else arg.end()
        end = _ARGUMENT_END.match(text, after) if after >= 0 else None
        if end is None:
            break
        args.append(None if arg.group("bracket") else arg)
        pos = end.end()
        if end.group(1) != ",":
            break
    return args


def _auth_call_spans(text: str) -> list[Span]:
    """The credentials of :func:`_auth_pairs` in text: ``HTTPBasicAuth("u", "PW")``, ``auth=('u', 'PW')``,
    ``server.login("u", "PW")``, ``wandb.login(key="KEY")``, ``ftplib.FTP(h, "u", "PW")``, also with escaped
    quotes (a JSON log)."""
    spans: set[Span] = set()
    for m in _AUTH_CALL_TEXT.finditer(text):
        fn = m.group("fn") or ""
        args = _call_arguments(text, m.end())
        positional = [a for a in args if a is None or not a.group("kw")]
        if m.group("tuple") and len(positional) != 2:
            continue
        candidates: list[tuple[Optional[re.Match[str]], str]] = []
        if m.group("tuple") or _AUTH_CALLEE.fullmatch(fn):
            candidates += [(a, "strong") for a in args if fn and a is not None and a.group("kw") in _AUTH_KEYWORDS]
            first, strength = _positional_credentials(fn, len(positional))
            candidates += [(a, strength) for a in positional[first:]]
        port = len(positional) > 1 and positional[1] is not None and (positional[1].group("expr") or "").isdigit()
        dotted = (m.group("dotted") or "").replace("()", "")  # (paramiko.SSHClient().connect: SSHClient.connect)
        candidates += [(positional[i], "strong") for i, _ in _signature_credentials(dotted + fn, len(positional), port)]
        spans.update((a.start("value"), a.end("value"), _mark("secret")) for a, strength in candidates
                     if a is not None and a.group("q") and _secret_literal(a.group("value"), strength))
    return sorted(spans)


# a secret's name as one string and its value as the next: environ.setdefault("API_KEY", "..."), putenv, a
# (name, value) pair of a repr'd list, .NET's <add key="StorageAccountKey" value="..."/>, <property name= value=>
_NAME_VALUE_PAIR = _rx(r"(?:(?<![\w\\])[bB]?(?P<q>\\?[\"'])(?P<name>[A-Za-z_][\w.\-]{0,80})(?P=q)\s{0,3},\s{0,3}[bB]?|"
                              r"(?<![\w\-])(?:key|name)\s{0,3}=\s{0,3}(?P<aq>\\?[\"'])(?P<attr>[A-Za-z_][\w.\-]{0,80})(?P=aq)"
                              r"\s{1,3}value\s{0,3}=\s{0,3})(?P<vq>\\?[\"'])(?P<value>(?!<redacted)[^\s\"'\\]{6,1024})(?P=vq)")


def _pair_secret(m: re.Match[str]) -> bool:
    name = (m.group("name") or m.group("attr")).replace("-", "_").replace(".", "_")
    if m.group("name") and re.fullmatch(r"[A-Z_][A-Z0-9_]*", m.group("value")) and _env_name_shaped(m.group("value")):
        return False  # a list of variables' names ("HF_TOKEN", "REDIS_URL"), not a name and its value
    return _secret_literal(m.group("value"), _code_secret_name(name))


def _call_and_pair_spans(text: str) -> list[Span]:
    """:func:`_auth_call_spans` and :data:`_NAME_VALUE_PAIR`, each where the text can hold it at all."""
    spans: list[Span] = []
    if ("(" in text or "[" in text) and ("uth" in text or "login" in text or "Credentials" in text
                                         or _SIGNATURE_CALL.search(text)):
        spans += _auth_call_spans(text)
    if "," in text or "value" in text:
        spans += _group_spans(_NAME_VALUE_PAIR, text, "secret", _pair_secret)
    return spans


def _xml_secret(m: re.Match[str]) -> bool:
    strength = _code_secret_name(m.group("name").rpartition(":")[2].replace("-", "_").replace(".", "_"))
    return strength in ("strong", "weak") and _secret_literal(m.group("value"), strength)


# --------------------------------------------------------------------------- argv




def _tool_secrets(argv: list[str]) -> list[str]:
    """Passwords given to well-known tools in a command line split into arguments (``["sshpass", "-p", PW,
    ...]``, ``htpasswd -b FILE USER PW``, ``smbclient -U user%PW``)."""
    found: list[str] = []
    tool, sub, positional, batch = "", "", [], False
    for i, arg in enumerate(argv + [";"]):
        base = os.path.basename(arg)
        if arg in _COMMAND_BREAKS or base in _PASSWORD_TOOLS:
            found += _positional_password(tool, positional, batch)
            tool, sub, positional, batch = (base if base in _PASSWORD_TOOLS else ""), "", [], False
            continue
        if not tool:
            continue
        options, needs = _PASSWORD_TOOLS[tool]
        flag, eq, value = arg.partition("=")
        if arg.startswith("-"):
            batch = batch or (tool == "htpasswd" and not arg.startswith("--") and "b" in arg[1:])
        elif i and argv[i - 1] not in options:
            positional.append(arg)
            sub = sub or arg
        if needs and sub != needs:
            continue
        if flag in options and eq:
            found.append(value)
        elif arg in options and i + 1 < len(argv):
            if _JOINED_LOGIN.get(tool, "") in argv[i + 1]:
                found.append(argv[i + 1])
        elif tool == "smbclient":
            found += _smbclient_password(arg, argv[i + 1] if i + 1 < len(argv) else "")
        elif tool.startswith("7z") and arg.startswith("-p") and len(arg) > 2:
            found.append(arg[2:])  # 7z x -pPW
    return found


def _positional_password(tool: str, positional: list[str], batch: bool) -> list[str]:
    """``htpasswd -b[c] FILE USER PW`` / ``-nb USER PW``; ``rabbitmqctl add_user|change_password USER PW``."""
    if tool == "htpasswd" and batch and positional:
        return [positional[-1]]
    if tool == "rabbitmqctl" and len(positional) >= 3 and positional[0] in ("add_user", "change_password"):
        return [positional[2]]
    if tool == "mc" and len(positional) >= 6 and positional[:2] == ["alias", "set"]:
        return positional[4:6]  # the access key and the secret key
    return []


def _smbclient_password(arg: str, nxt: str) -> list[str]:
    """``-U user%PW``, ``-Uuser%PW``, ``--user=user%PW``: the password after the ``%``."""
    user = nxt if arg in ("-U", "--user") else arg[2:] if arg.startswith("-U") else \
        arg[len("--user="):] if arg.startswith("--user=") else ""
    return [user.split("%", 1)[1]] if "%" in user else []


def _secret_option(flag: str, value: str) -> bool:
    """An option whose value is a credential: its name ends in a secret's word (``--token``, ``--db-password``),
    has one among its words (``--password-cli``, ``--sshpass-cmd``) and a credential's value, is a vendor's
    (``--twilio <32 hex>``), or ``-p``/``-P`` (the password option of mysql, sshpass, zip, ...) with a value of
    a password's make-up; or any option with a random-looking value."""
    if _SECRET_FLAG.search(flag) or looks_random(value) or password_made(value) or _random_base64(value) \
            or (flag.lower().endswith("key") and (_long_hex(value) or _random_one_case(value))) \
            or (_key_name(flag) and _short_key(value)):  # --inference-key <8 drawn> (TorchServe)
        return True  # --wandb-key <40 hex>, --vendor-key csk-<48 lower-case letters and digits>
    if _joined_credential(value):  # --remember 42|<128 hex>, --session <uuid>:<hex>: a cookie's or a key's parts
        return not any(w in _IDENTIFIER_WORDS for w in re.split(r"[_\-.]+", flag.upper()))
    if flag in ("p", "P"):
        return _password_shaped(value)
    words = [w for w in re.split(r"[_\-.]+", flag.upper()) if w]
    if _vendor_named(words):
        return _random_body(value)
    return is_secret_env_name(flag) and not _key_alone(flag) and _secret_literal(value, "strong")


def _joined_credential(value: str) -> bool:
    """Parts joined by ``|`` or ``:`` that are all numbers, UUIDs, 32+ hex digits or drawn bodies, one of them
    not a number (``42|<hex>``, ``<uuid>:<hex>``: a cookie's id and HMAC, a key's id and secret); a digest's
    algorithm (``sha256:<hex>``) or a word is no such part."""
    parts = re.split(r"[|:]", value)
    if not 2 <= len(parts) <= 4:
        return False
    strong = 0
    for part in parts:
        if _UUID.fullmatch(part) or _long_hex(part) or (len(part) >= 24 and _ALNUM.fullmatch(part) and _drawn_body(part)):
            strong += 1
        elif not re.fullmatch(r"[0-9]{1,20}", part):
            return False
    return strong > 0


# a sub-command that takes a credential as its argument (ngrok's authtoken and config add-authtoken)
_SECRET_SUBCOMMAND = _rx(r"(?:(?:add|set)-)?(?:auth-?token|token|api-?key|password|secret)", re.IGNORECASE)


def _argument_secrets(previous: str, arg: str) -> list[str]:
    """An argument that is a credential by itself: a password a person picked (``ldapsearch -w PW``, ``add_user
    USER PW``), a random value after a sub-command that takes one (``ngrok authtoken X``), ``user:PW``/``partner,PW``/
    ``AK SK`` (the whole and each part that is a credential)."""
    taken = _SECRET_SUBCOMMAND.fullmatch(previous) and (
        _random_body(re.sub(r"[_\-]", "", arg))
        or (re.fullmatch(r"(?:add-)?authtoken", previous, re.IGNORECASE) and _SUB_COMMAND_ARGUMENT.fullmatch(arg)))
    found = [arg] if password_made(arg) or taken else []
    parts = credential_parts(arg)
    return found + ([arg, *parts] if parts else [])


def _text_rule_values(arg: str) -> list[str]:
    """What the text rules take from one argument (a secret-named key's value inside a dict's repr, a password after
    its word): each a known value of its own, found again wherever the argument is shown another way (a command
    line's ``shlex.quote`` writes every ``'`` in it as ``'"'"'``, which no rule's context reads through)."""
    if len(arg) < 12 or not any(c in arg for c in "=: "):
        return []
    out = _text_rules(arg, (), "")
    return list(_replaced(arg, out)) if out != arg else []


def argv_secrets(argv: list[str]) -> dict[str, str]:
    """The credentials in a script's arguments (value -> kind): values of secret-named options
    (``--token X``, ``--password=X``, :func:`_secret_option`), random-looking option values, ``-u user:pw``
    (and ``pw``), ``-pPW``, the passwords of well-known tools (:func:`_tool_secrets`), URL userinfo and every
    high-confidence token (:func:`redact_text`'s patterns)."""
    found: dict[str, str] = {}

    def add(value: str, kind: str = "secret-argument", name: str = "") -> None:
        if value and not _plain_value(value, name) and not _PLACEHOLDER.match(value) \
                and not value.startswith("<redacted"):
            found.setdefault(value, kind)

    for i, arg in enumerate(argv):
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        for value in _argument_secrets(argv[i - 1] if i else "", arg):
            add(value)
        if arg.startswith("-") and not arg.startswith("---"):
            options = _option_secrets(arg, nxt)
            for value, name in options:
                add(value, name=name)
            if not options and not arg.startswith("--") and "=" not in arg and looks_random(arg):
                add(arg)  # (a key given on its own whose first drawn character is '-': no option is so named)
        else:
            for value in _positional_secrets(argv, i):
                add(value)
        for cred, kind in credentials_in(arg).items():
            add(cred, kind)
        for start, end in _unions(_high_spans(arg)):
            add(arg[start:end])
        for value in _text_rule_values(arg):  # (headers={'apiKey': '<key>'}: then known in shlex's quoting too)
            add(value)
    for value in _tool_secrets(argv) + [v for arg in argv if " " in arg.strip() for v in _tool_secrets(_split(arg))]:
        add(value, "credentials", "password")
    if "login" in argv:  # a login's key among its arguments: wandb login --relogin --host URL <40 hex>
        for i in range(argv.index("login") + 1, len(argv)):
            if _drawn_key(argv[i]) and not _ID_OPTION.search(argv[i - 1]):
                add(argv[i])
    return found


_ID_OPTION = _rx(r"^-{1,2}[\w\-]*(?:sha|commit|rev|revision|id|hash|digest|ref)$", re.IGNORECASE)


def _positional_secrets(argv: list[str], i: int) -> list[str]:
    """The credentials an argument that is no option gives by where it stands: ``NAME=value`` to a secret's name,
    a tool's ``set NAME VALUE`` (``aws configure set aws_secret_access_key X``), a key's id and its secret
    (``<uuid>:<hex>``) on its own (after an option it is the option's value: :func:`_option_secrets`)."""
    arg, found = argv[i], []
    if "=" in arg and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", arg):
        name, _, value = arg.partition("=")
        if is_secret_env_name(name) and not _key_alone_words(name, value):
            found.append(value)
    if i >= 2 and argv[i - 2] in _SET_WORDS and _set_names_a_secret(argv[i - 1]):
        found.append(arg)
    alone = not (i and argv[i - 1].startswith("-"))
    if alone and (_joined_credential(arg) or ("=" not in arg.rstrip("=") and (looks_random(arg) or _random_base64(arg)))):
        found.append(arg)  # (a key given on its own: job.py <40 drawn characters>; NAME=value goes by its name)
    return found


def _drawn_key(arg: str) -> bool:
    return not arg.startswith("-") and (_long_hex(arg) or _random_body(re.sub(r"[_\-]", "", arg)))


def _unions(spans: list[Span]) -> list[tuple[int, int]]:
    """(start, end) of each run of overlapping spans: two rules that read one secret to different ends
    (``//u:p@`` and ``u:p@ss/x`` of ``https://u:p@ss/x@host``) give one value, not a short one cut from it."""
    out: list[list[int]] = []
    for start, end, _ in sorted(spans):
        if out and start < out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(start, end) for start, end in out]


def _option_secrets(arg: str, nxt: Optional[str]) -> list[tuple[str, str]]:
    """(value, name) of the credentials an option ``arg`` (and its value ``nxt``) gives: a secret option's value
    (:func:`_secret_option`), ``-u user:pw`` (both), mysql's ``-pPW``."""
    found: list[tuple[str, str]] = []
    flag, eq, value = arg.lstrip("-").partition("=")
    if not eq and nxt is not None and (not nxt.startswith("-") or _dash_drawn(nxt)):
        value = nxt
    elif not eq:
        value = ""
    if value and _secret_option(flag, value):
        found.append((value, flag if flag not in ("p", "P") else "password"))
    if flag in ("u", "user", "proxy-user") and value and ":" in value:
        found += [(value, ""), (value.split(":", 1)[1], "")]
    elif re.fullmatch(r"-u[^\s:]{1,100}:\S+", arg):
        found += [(arg[2:], ""), (arg.split(":", 1)[1], "")]
    elif re.fullmatch(r"-p[^\s\d-]\S{3,}", arg):  # mysql -pPW
        found.append((arg[2:], ""))
    return found


def _dash_drawn(arg: str) -> bool:
    """A drawn value that happens to start with ``-`` (base64url draws one in 64): not an option (those are short
    words, ``-v``, ``--lr``, or a cluster of letters), a credential's value after a secret option."""
    return len(arg) >= 17 and arg[1] != "-" and looks_random(arg[1:])


def _key_alone_words(name: str, value: str) -> bool:
    """``sort_key='created_at' order_by=[...]``: a name secret-bearing by a bare ``KEY`` only (:func:`_key_alone`)
    whose value has spaces — words, a setting's expression, not a secret (a password would follow a name that says
    so: ``db_password=...``)."""
    return _key_alone(name) and any(c.isspace() for c in value.strip())


def _split(command: str) -> list[str]:
    """A command line's words (shell quoting), or its whitespace-separated words where quoting is broken."""
    import shlex

    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def credentials_in(text: str) -> dict[str, str]:
    """Credentials inside a value (value -> kind): URL userinfo (``user:pw`` and ``pw``), signed-URL
    parameters."""
    out: dict[str, str] = {}
    raw = [m for m in _URL_RAW_PASSWORD.finditer(text) if _raw_password(m)] if "@" in text else []
    # (a raw password holding "@" is one value up to the last "@": its part before the first "@" is no password)
    longer = {m.start(): m.end() for m in raw}
    cut = [m for m in _URL_CREDENTIALS.finditer(text) if _not_masked(m) and longer.get(m.start(), 0) <= m.end()]
    for m in [*cut, *raw]:
        userinfo = urllib.parse.unquote(m.group("value"))
        for value in (m.group("value"), userinfo, userinfo.split(":", 1)[1]):
            out.setdefault(value, "url-credentials")
    for m in _URL_TOKEN_USER.finditer(text):
        out.setdefault(m.group("value"), "url-credentials")
    for m in _URL_AT_USER.finditer(text) if "@" in text else ():
        if _at_user_password(m):
            out.setdefault(m.group("value"), "url-credentials")
    if "=" in text:
        for m in _URL_PARAMS.finditer(text):
            if _real_param(m):
                out.setdefault(m.group("value"), "signed-url")
    return {v: k for v, k in out.items() if v and not _template(v)}


def redact_argv(argv: list[str]) -> list[str]:
    """``argv`` with its credentials (:func:`argv_secrets`) redacted, part by part (for a command that is
    composed from them afterwards)."""
    table = _table({**known_values(), **argv_secrets(argv)})
    out = []
    for arg in argv:
        red = _replace_known(arg, table)
        out.append(red if red.startswith("<redacted") else redact_text(red, home=""))
    return out


# --------------------------------------------------------------------------- home directory


def _home_pattern(home: str) -> Optional[re.Pattern[str]]:
    home = home.rstrip("/\\")
    if len(home) < 2 or home in ("/", "~"):
        return None
    # whole path components only: /root must not touch /rootfs or /srv/x-root; a JSON/C escape
    # right before the path (``"\n/root/x"`` in a JSON dump) still starts a new component
    return re.compile(r"(?:(?<![\w.\-~$])|(?<=\\[nrt]))" + re.escape(home) + r"(?![\w.\-])")


@functools.lru_cache(maxsize=16)
def _home_patterns(home: Optional[str], environ_home: str) -> tuple[re.Pattern[str], ...]:
    if home is None:
        homes = [environ_home]
        try:
            real = os.path.realpath(environ_home)
        except OSError:
            real = environ_home
        if real != environ_home:
            homes.append(real)
    else:
        homes = [home]
    found = (_home_pattern(h) for h in sorted(homes, key=len, reverse=True) if h)
    return tuple(p for p in found if p is not None)


# the scratch $HOME a sandboxed run had (reportkit/run/sandbox.py): cold runs' and the warm server's
_SANDBOX_HOME = _rx(
    r"(?<![\w.\-~$])/[^\s\"'<>]{0,200}?/reportkit-(?:session-[\w]+/reportkit-[\w]+/run-[\w]+|warm-[\w]+)/home"
    r"(?![\w.\-])"
)


def _redact_home(text: str, home: Optional[str]) -> str:
    for pattern in _home_patterns(home, os.path.expanduser("~")):
        text = pattern.sub("~", text)
    if home is None and "/home" in text:
        text = _SANDBOX_HOME.sub("~", text)
    return text


# --------------------------------------------------------------------------- text


# An escape in JSON or a repr (``\\n``, ``\\t``, ``\\u00e9``, ``\\x1b``) ends the word before it: the token after it
# starts there, although the escape's last character (``n``, ``9``) touches it. The text rules see a cut
# (:data:`_CUT`, a private-use character, so no word) after each such escape; code sees the escape's
# characters as spaces (:func:`_escape_view`, same length, so positions hold).
_GLUED_ESCAPE = _rx(r"\\(?:[nrtbfv0]|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2})(?=[A-Za-z0-9_\-+/.~])")
_CUT = "\ue005"


def _cut_escapes(text: str) -> str:
    return _GLUED_ESCAPE.sub(lambda m: m.group(0) + _CUT, text) if "\\" in text else text


def _escape_view(text: str) -> str:
    """``text`` with the characters of each escape that touches a word replaced by spaces (same length)."""
    if "\\" not in text:
        return text
    return _GLUED_ESCAPE.sub(lambda m: "\\" + " " * (len(m.group(0)) - 1), text)


def _text_rules(text: str, table: tuple[tuple[str, str], ...], home: Optional[str]) -> str:
    given = text
    if _JOIN_HINT.search(text):  # key = "abc" + "def...": a known value or a token the code composed
        text = _apply(text, _joined_literal_spans(text, table))
    # a known value a line break splits, before a cut of it (its head) takes the first line alone
    text = _apply(text, _wrapped_spans(text, table, patterns=False))
    text = _replace_known(text, table)
    cut = _cut_escapes(text)
    if cut != text:  # a key block's escaped line breaks are its own (seen before the cuts)
        text = _apply(text, _pem_spans(text))
        cut = _cut_escapes(text)
    out = _pattern_rules(cut, table).replace(_CUT, "") if cut != text else _pattern_rules(text, table)
    if "<redacted:" in out and "\n" in out:
        out = _OPEN_MARKER_TAIL.sub(r"\g<q>\g<marker>\g<q>", out)
    return _redact_home(_escapes_kept(given, out), home)


# a quoted value that a line break wrapped (a printed config.json's ``"auth": "<base64>"`` folded at 60 columns): its
# head was redacted, the quote is still open at the line's end, and the next line is the rest of it up to that quote
_OPEN_MARKER_TAIL = _rx(r"(?P<q>[\"'])(?P<marker><redacted:[a-z0-9\-]{1,40}>)\r?\n[A-Za-z0-9+/=_\-.~%]{1,160}(?P=q)")


# An escape sequence of JSON, a repr or a Python literal (``\n``, ``\"``, ``\u00e9``, ``\\``): a marker never
# splits one. A marker after its backslash alone leaves ``\<redacted>`` (an invalid escape: the literal's value
# changes); a backslash taken without the quote it escapes leaves a bare ``"`` (the JSON document no longer parses).
_ESCAPE_SEQUENCE = _rx(r"\\(?:u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)", re.DOTALL)


def _escape_safe(text: str, spans: list[Span]) -> list[Span]:
    """``spans`` of ``text`` with their ends off the escape sequences they split: a span that starts inside one
    starts after it (the escape is not the secret's), a span that ends inside one takes it whole."""
    if "\\" not in text or not spans:
        return spans
    seqs = [(m.start(), m.end()) for m in _ESCAPE_SEQUENCE.finditer(text)]
    starts = [a for a, _ in seqs]
    out: list[Span] = []
    for start, end, replacement in spans:
        if text[start:end] != replacement:  # (a marker already in the text stays as it is)
            i = bisect.bisect_right(starts, start - 1) - 1
            if i >= 0 and seqs[i][0] < start < seqs[i][1]:
                start = seqs[i][1]
            i = bisect.bisect_right(starts, end - 1) - 1
            if i >= 0 and seqs[i][0] < end < seqs[i][1]:
                end = seqs[i][1]
        if start < end:
            out.append((start, end, replacement))
    return out


def _align(before: str, pieces: list[str], min_gap: int = 0) -> Optional[list[tuple[int, int]]]:
    """The gaps between ``pieces`` when ``before`` is ``pieces`` joined by gaps of ``min_gap`` or more characters:
    each piece at its first place after the one before (what lazy groups between them would find; the leftmost
    places leave the most room, so if any alignment exists this finds one), the last at the end. Linear, where a
    regular expression of one lazy group per gap backtracked for minutes on a failed alignment (round 20 of planted
    secrets: ``ci`` took 120 s on one job's output)."""
    first, last = pieces[0], pieces[-1]
    if not before.startswith(first) or not before.endswith(last) or len(before) < len(first) + len(last):
        return None
    pos, last_at, gaps = len(first), len(before) - len(last), []
    for i, piece in enumerate(pieces[1:], 2):
        at = last_at if i == len(pieces) else before.find(piece, pos + min_gap, last_at)
        if at < pos + min_gap:
            return None
        gaps.append((pos, at))
        pos = at + len(piece)
    return gaps


def _marker_spans(before: str, after: str) -> Optional[list[Span]]:
    """Where the markers of ``after`` (``before`` with some spans replaced by markers) stand in ``before``; None
    when ``after`` is not that (another replacement, too many markers to align)."""
    markers = list(_MARKER.finditer(after))
    if not markers or len(markers) > 256:
        return None
    gaps = _align(before, _MARKER.split(after)[::2])  # (split returns the kinds in between)
    return None if gaps is None else [(a, b, marker.group(0)) for (a, b), marker in zip(gaps, markers)]


def _escapes_kept(before: str, after: str) -> str:
    """``after`` (``before`` redacted) with no escape sequence of ``before`` split by a marker (line by line)."""
    if "\\" not in before or after == before or "<redacted" not in after:
        return after
    old, new = before.split("\n"), after.split("\n")
    if len(old) != len(new):
        old, new = [before], [after]
    for i, (line, done) in enumerate(zip(old, new)):
        if line == done or "\\" not in line or len(line) > 1_000_000:
            continue
        spans = _marker_spans(line, done)
        if spans is None:
            continue
        safe = _escape_safe(line, spans)
        if safe != spans:
            new[i] = _apply(line, safe)
    return "\n".join(new)


def _pattern_rules(text: str, table: tuple[tuple[str, str], ...]) -> str:
    # a token a wrap split is found on the same text as the whole ones (its first line alone matches too)
    text = _apply(text, _high_spans(text) + _wrapped_spans(text, table, patterns=True))
    text = _context_rules(text)
    return _SHELL_WORD_TAIL.sub(r"\g<marker>", text) if "<redacted:" in text and "'" in text else text


# the rest of a shell word a marker took the start of: a value with a ``'`` that shlex.quote wrote as
# ``'Harbor4'"'"'Zlco41'`` (or a shell as ``'Harbor4'\''Zlco41'``) is one argument, up to its closing quote
_SHELL_WORD_TAIL = _rx(r"(?P<marker><redacted:[\w\-]{1,60}>)(?:(?:'\"'\"'|'\\'')[^'\n]{0,256}?)+(?=')")
_SHELL_QUOTE_INSIDE = _rx(r"'\"'\"'|'\\''")


def clip_words(text: str, limit: int, tail: str = "") -> str:
    """``text`` cut to at most ``limit`` characters (``tail`` included) at a word's end: a secret is a word, and a
    word cut in two before the edge sees it is no longer the shape the rules know (``glm <hex>.AbC…``); the cut
    word is left out whole."""
    if len(text) <= limit:
        return text
    cut = text[:max(0, limit - len(tail))]
    if not text[len(cut)].isspace():
        space = max(cut.rfind(" "), cut.rfind("\t"), cut.rfind("\n"))
        cut = cut[:space] if space > 0 else ""
    return cut.rstrip() + tail


def redact_text(text: str, *, home: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
                extra: Optional[Mapping[str, str]] = None) -> str:
    """Text and logs: known values (of ``env``, default this process's environment, of the register and
    ``extra``), every pattern, and the home directory (``home``; default the current user's home and its
    realpath; ``""`` keeps paths) becomes ``~``. Protected spans (:func:`protect`) get the known values
    only."""
    if not text:
        return text
    table = _table(known_values(env, extra))
    if "\ue000" in text or "\ue002" in text:
        return "".join(_replace_known(s, table) if protected else _redact_view(s, table, home)
                       for s, protected in _segments(text))
    return _redact_view(text, table, home)


def _json_plain(text: str) -> bool:
    """JSON writes ``text`` as it is (no escapes): the serialised document shows it to the edge unchanged."""
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


def redact_data(data: object, *, home: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
                extra: Optional[Mapping[str, str]] = None) -> object:
    """A JSON-able structure (dicts, lists, strings, numbers) before it is serialised: every string that
    JSON would escape (lines, tabs, quotes, non-ASCII) redacted by :func:`redact_text` as the text it is,
    keys too, so a secret on a message's second line is seen at a line's start rather than after a
    ``\\n`` escape. The serialised document then passes the edge as a whole as well (a value next to its
    name: ``"password": "..."``). Other values are returned as they are."""
    if isinstance(data, str):
        return data if _json_plain(data) else redact_text(data, home=home, env=env, extra=extra)
    if isinstance(data, Mapping):
        return {redact_data(k, home=home, env=env, extra=extra) if isinstance(k, str) else k:
                redact_data(v, home=home, env=env, extra=extra) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        if len(data) > 1 and all(isinstance(v, str) for v in data) and any("-----" in v for v in data):
            lines = _armoured_lines(list(data), env)
            if lines:  # (every item: a line JSON writes as it is is not redacted here otherwise)
                return [redact_text(v, home=home, env=env, extra={**(extra or {}), **lines}) for v in data]
        return [redact_data(v, home=home, env=env, extra=extra) for v in data]
    return data


def _armoured_lines(items: list[str], env: Optional[Mapping[str, str]]) -> dict[str, str]:
    """The lines of an armoured block (PEM, PGP) that a list holds one per item (the first lines of a message kept
    as a list: a key's body lines apart from its ``-----BEGIN`` line are no key to the rules), as known values."""
    joined = "\n".join(items)
    if len(joined) > 20000:
        return {}
    found: dict[str, str] = {}
    for value, kind in _replaced(joined, redact_text(joined, home="", env=env)).items():
        for part in value.split("\n"):
            part = part.strip()
            if len(part) >= 16 and (_BASE64_LINE.fullmatch(part) or part == value):
                found[part] = kind
    return found


# A JSON (or repr) string with escapes: what it says is seen by the rules only once it is unescaped (a notebook's
# ``"source": ["key = \\"...\\"\\n"]``: the escaped quotes hide the literal, the escaped line break glues to the value)
_ESCAPED_STRING = _rx(r'"(?=[^"\n]{0,20000}?\\)((?:[^"\\\n]|\\.){1,20000})"')
_JOIN = "\n\ue006\n"


def _unescaped(literal: str) -> Optional[str]:
    try:
        plain = json.loads(literal)
    except ValueError:
        return None
    return plain if isinstance(plain, str) and _JOIN not in plain else None


_MARKER = _rx(r"<redacted(?::(?P<kind>[A-Za-z0-9_.\-]{1,80}))?>")


# a repr's or a list's item boundary (``', '``, ``", '``): no one value runs over it (a line break may be inside one:
# a key's lines, a value a wrap split)
_ITEM_END = r"[\"'],[ \t]"
_ITEM_BOUNDARY = _rx(_ITEM_END)


def _replaced(plain: str, out: str) -> dict[str, str]:
    """What the markers of ``out`` (``plain`` redacted) took out of ``plain``: ``out`` with each marker made a
    group matches ``plain``. (However many markers: :func:`_align` is linear; a 37 KB repr's piece held 65.)"""
    kinds = [m.group("kind") or "secret" for m in _MARKER.finditer(out)]
    if not kinds or len(plain) > 20000:
        return {}
    gaps = _align(plain, _MARKER.split(out)[::2], min_gap=1)  # (split returns the kinds in between)
    if gaps is None:
        return {}
    values = (plain[a:b].strip() for a, b in gaps)
    # (where the redacted text changed more than its markers — an escape undone, colour dropped — a gap may run past
    # its marker's value, over the items after it, and as a known value it would take them wherever they stand)
    return {value: kind for value, kind in zip(values, kinds) if _MIN_KNOWN <= len(value) <= 4096
            and (kind.startswith("private-key") or _ITEM_BOUNDARY.search(value) is None)}


# (a letter, a digit or "_"; also escaped once more, as a repr or a code literal holds JSON: \\u0070)
_ASCII_ESCAPE = _rx(r"(?<!\\)(?:\\)?\\u00(?:[46][1-9a-fA-F]|[57][0-9aA]|3[0-9]|5[fF])")


def _ascii_letter(m: re.Match[str]) -> str:
    return chr(int(m.group(0)[-2:], 16))


def _escaped_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets the rules find in the unescaped view of the escaped strings of ``text`` (each string's text as
    JSON decodes it), as known values: they are then redacted in ``text`` in whatever encoding it holds them."""
    plains = [p for p in (_unescaped(m.group(0)) for m in _ESCAPED_STRING.finditer(text)) if p]
    if "\\'" in text:  # a repr's single-quoted string: {\'apiKey\': \'<key>\'} (a dict printed inside a message),
        # each line that holds one read unescaped, however long the string (a locals dump's 35 KB repr of an exception)
        plains += [p for line in text.splitlines() if "\\'" in line and len(line) <= _OUTPUT_READ
                   for p in _chunks(_unescape_once(line)) if _JOIN not in p]
    if "\\u00" in text:  # a name written in \\u escapes of letters ({"\\u0070assword": ...}, an HTML-safe writer):
        # each line that holds one read with those letters plain (quotes and backslashes stay escaped: the same
        # strings, the same values)
        plains += [_ASCII_ESCAPE.sub(_ascii_letter, line) for line in text.splitlines()
                   if "\\u00" in line and len(line) <= 20000 and _ASCII_ESCAPE.search(line)]
    if not plains:
        return ()
    outs = _text_rules(_JOIN.join(plains), table, "").split(_JOIN)
    if len(outs) != len(plains):  # a rule took a separator: one string at a time
        outs = [_text_rules(p, table, "") for p in plains]
    found: dict[str, str] = {}
    for plain, out in zip(plains, outs):
        if out == plain:
            continue
        found.update(_replaced(plain, out))
    return _known_table(tuple(sorted(found.items()))) if found else ()


def _chunks(text: str, size: int = 20000) -> list[str]:
    """``text`` in pieces of whole lines of at most ``size`` characters where it can be (what :func:`_replaced`
    aligns: a longer piece is not read for values)."""
    if len(text) <= size:
        return [text]
    out, piece = [], ""
    for line in text.split("\n"):
        if piece and len(piece) + len(line) + 1 > size:
            out.append(piece)
            piece = ""
        piece = f"{piece}\n{line}" if piece else line
    return out + [piece] if piece else out


_ONE_ESCAPE = _rx(r"\\(?:u[0-9a-fA-F]{4}|[\"'\\/bfnrt])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def _unescape_once(text: str) -> str:
    """``text`` with one level of JSON/repr escapes undone (a JSON text inside a repr: ``\\"`` -> ``\"``)."""
    def one(m: re.Match[str]) -> str:
        c = m.group(0)[1]
        return chr(int(m.group(0)[2:], 16)) if c == "u" else _ESCAPES.get(c, c)

    return _ONE_ESCAPE.sub(one, text)


# the seam of a long string that pprint, pytest (``--showlocals``, an assertion's ``where``) or black split into
# adjacent literals, one per line: ``'...BEGIN PRIVATE '`` then ``'KEY-----\\nMIIE...'`` on the next
_SEAM_LEAD = r"(?:E[ \t]+|>[ \t]+)?[ \t]*[rbu]?"  # (what may stand before the next literal's quote: pytest's "E   ")
_REPR_SEAM = _rx(r"(?P<q>['\"])[ \t]*\n" + _SEAM_LEAD + r"(?P=q)")
_BASE64_LINE = _rx(r"[A-Za-z0-9+/]{16,}={0,2}")


def _joined_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets of a string a printer split into adjacent literals over lines (a PEM block that pytest's
    ``--showlocals`` cut at ``PRIVATE '`` / ``'KEY``: round 20 of planted secrets), seen with the seams joined. A
    value found across a seam is known by its lines (``\\n`` apart): each stands whole in ``text``. A private key's
    are its base64 lines; another value's, its parts with a credential's make-up."""
    if len(text) > _OUTPUT_READ or not _REPR_SEAM.search(text):
        return ()
    found: dict[str, str] = {}
    for joined in _seamed_strings(text):
        found.update(_seam_parts(joined, text, table))
    return _known_table(tuple(sorted(found.items()))) if found else ()


def _seamed_strings(text: str) -> Iterator[str]:
    """Each run of lines that seams join (``'...'`` then ``'...'`` on the next line), joined: one printed string
    at a time, however long the log around it (the alignment of a whole log's markers gives up on many)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        j = i
        while j + 1 < len(lines) and _continues(lines[j], lines[j + 1]):
            j += 1
        if j > i:
            block = "\n".join(lines[i:j + 1])
            if len(block) <= 20000:
                yield _REPR_SEAM.sub("", block)
        i = j + 1


_SEAM_END = _rx(r"(['\"])[ \t]*$")
_SEAM_START = _rx(r"[ \t]*" + _SEAM_LEAD + r"(['\"])")


def _continues(line: str, following: str) -> bool:
    end, start = _SEAM_END.search(line), _SEAM_START.match(following)
    return end is not None and start is not None and end.group(1) == start.group(1)


def _seam_parts(joined: str, text: str, table: tuple[tuple[str, str], ...]) -> dict[str, str]:
    found: dict[str, str] = {}
    for value, kind in _replaced(joined, _text_rules(joined, table, "")).items():
        for part in re.split(r"\\+n|\n", value):
            part = part.strip().strip("\\")
            if part.startswith("n") and "\\" + part in text:
                part = part[1:]  # (the span began inside an escaped line break: ``\\n`` is no part of the line)
            if kind == "private-key" and _BASE64_LINE.fullmatch(part) \
                    or len(part) >= 16 and _credential_made(part) and looks_random(part):
                found[part] = kind
    return found


# where a log line's lead ends (``[INFO] [torch_spyre] ``, glog's ``I1203 07:05:33.057123  4242 worker.cc:88] ``,
# logging's ``2026-12-03 07:09:56,591 INFO app: ``, ``ts - name - LEVEL - ``, ``... | ``)
_LOG_LEAD_END = _rx(r"\] |: | - |\| ")
_DIGITS_ALIKE = str.maketrans("123456789", "000000000")


def _shared_lead(line: str, following: str) -> int:
    """The length of the lead two lines share, digits alike (a timestamp, a pid, a line number change from line to
    line), up to the last place a log's lead may end; 0 when it is shorter than 4 characters."""
    a, b = line[:_LEAD_MAX].translate(_DIGITS_ALIKE), following[:_LEAD_MAX].translate(_DIGITS_ALIKE)
    common = len(os.path.commonprefix([a, b]))
    ends = [m.end() for m in _LOG_LEAD_END.finditer(a, 0, common)]
    return ends[-1] if ends and ends[-1] >= 4 else 0


# a record that starts something the rules read over several lines: a key's armour, a password's name or prompt, a
# ``.netrc``'s machine, a name whose value is on the next line (``Password:``, a YAML key)
_LED_START = _rx(r"-----BEGIN |---- BEGIN |[Pp]assword|PASSWORD|[Pp]assphrase|\bmachine[ \t]|:[ \t]*$",
                 re.MULTILINE)
_LED_AFTER = 64  # records read after such a start (a 4096-bit RSA key's armour is 51 lines)


def _led_blocks(text: str) -> Iterator[str]:
    """Each run of lines a logger wrote one per record behind one lead, with the lead taken off every line — from a
    record before one that starts something the rules read over lines (:data:`_LED_START`) to :data:`_LED_AFTER`
    records after it —: a PEM key, a ``.netrc``, a prompt and its answer logged line by line read as printed."""
    lines = text.split("\n")
    i = 0
    while i + 1 < len(lines):
        lead = _shared_lead(lines[i], lines[i + 1])
        if not lead:
            i += 1
            continue
        j = i + 1
        while j + 1 < len(lines) and _shared_lead(lines[j], lines[j + 1]) >= lead:
            j += 1
        k = i
        while k <= j:
            if _LED_START.search(lines[k], lead):
                end = min(j, k + _LED_AFTER)
                block = "\n".join(line[lead:] for line in lines[max(i, k - 1):end + 1])
                if len(block) <= 20000:
                    yield block
                k = end + 1
            else:
                k += 1
        i = j + 1


def _led_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets of lines a logger wrote one per record, behind a lead each (:func:`_led_blocks`), seen with the
    leads taken off: each line of a value found so (a key's base64 lines, a password) is known, and goes wherever it
    stands (blind round 32: a key's last body lines, a ``.netrc``'s password, a prompt's answer behind Torch-Spyre's
    ``[INFO] [torch_spyre] `` lead)."""
    if len(text) > _OUTPUT_READ or "\n" not in text or not _LED_START.search(text):
        return ()  # (every redacted text passes here: a log with nothing that spans lines is not split)
    found: dict[str, str] = {}
    for block in _led_blocks(text):
        for value, kind in _replaced(block, _text_rules(block, table, "")).items():
            for part in value.split("\n"):
                part = part.strip()
                if kind.startswith("private-key") and _BASE64_LINE.fullmatch(part) \
                        or len(part) >= 8 and _credential_made(part):
                    found[part] = kind
    return _known_table(tuple(sorted(found.items()))) if found else ()


def _nested_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets of the lines that hold an escaped JSON text (a repr of a notebook cell: ``\\"`` escapes an
    escape), seen in each such line with one level of escapes undone."""
    found: dict[str, str] = {}
    for line in text.split("\n"):
        if len(line) > 20000 or not ('\\\\"' in line or '\\\\n' in line):
            continue
        inner = _unescape_once(line)
        found.update(_replaced(inner, _text_rules(inner, table, "")))
        found.update((value, marker[10:-1]) for value, marker in _escaped_findings(inner, table))
    return _known_table(tuple(sorted(found.items()))) if found else ()


# a logging record shown with its message template and arguments apart (``msg='login %s:%s@%s failed'
# args=('bot', 'PW', 'host')``, also a record's ``__dict__``): the arguments say what they are only in the message
_RECORD_ARGS = _rx(r"(?P<k>['\"]?)msg(?P=k)\s{0,3}[=:]\s{0,3}(?P<q>['\"])(?P<msg>(?:\\.|(?!(?P=q))[^\\\n]){1,2000})(?P=q)"
                          r"[^\n]{0,300}?(?P<k2>['\"]?)args(?P=k2)\s{0,3}[=:]\s{0,3}(?P<args>\((?:[^()\n]|\([^()\n]*\)){0,2000}\))")


def _record_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets the rules find in each logging record's message formatted with its arguments, as known values."""
    import ast

    found: dict[str, str] = {}
    for m in _RECORD_ARGS.finditer(text):
        try:
            template = ast.literal_eval(m.group("q") + m.group("msg") + m.group("q"))
            args = ast.literal_eval(m.group("args"))
            message = template % (args if isinstance(args, tuple) else (args,))
        except (ValueError, SyntaxError, TypeError, KeyError, MemoryError, RecursionError):
            continue
        if isinstance(message, str) and len(message) <= 20000:
            found.update(_replaced(message, _text_rules(message, table, "")))
    return _known_table(tuple(sorted(found.items()))) if found else ()


_PERCENT_SYNTAX = _rx(r"%(?:3[dDaA]|26|40|2[fF]|22|27|25)")  # an encoded = : & @ / " ' (and %: twice)


def _percent_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets the rules find in the URL-decoded view of the lines that hold URL-encoded syntax
    (``password%3D<value>%26user%3D...``: a form body, a redirect's parameter), as known values."""
    found: dict[str, str] = {}
    for line in text.split("\n"):
        if len(line) > 20000 or not _PERCENT_SYNTAX.search(line):
            continue
        plain = line
        for _ in range(3):  # (encoded twice, a redirect's parameter inside another's: %253D, decoded once more)
            once = urllib.parse.unquote_plus(plain) if "+" not in plain else urllib.parse.unquote(plain)
            if once == plain:
                break
            plain = once
            found.update(_replaced(plain, _text_rules(plain, table, "")))
    return _known_table(tuple(sorted(found.items()))) if found else ()


# a table's row, a cell and the cell after it: a Markdown/ASCII table (``| wandb_key | <40 hex> |``), a ``;``-separated
# record flattened on one line (``api_key ; <value> ; lr ; 0.1``): the name and its value with no ``=``/``:`` between
_CELL_PAIR = _rx(r"(?:^|(?<=[|;]))[ \t]*(?P<name>[A-Za-z_][\w.\-]{0,60})[ \t]*[|;][ \t]*"
                        r"(?P<value>(?!<redacted)[^\s|;]{8,512})[ \t]*(?=[|;]|$)", re.MULTILINE)


def _cell_findings(text: str, table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """The secrets the rules find in a table's cells read as ``name = value`` (a cell that is a secret's name and the
    cell after it), as known values."""
    found: dict[str, str] = {}
    if "|" not in text and ";" not in text:
        return ()
    for m in _CELL_PAIR.finditer(text):
        if _SECRET_WORD.search(m.group("name")) is None:
            continue
        plain = f"{m.group('name')} = {m.group('value')}"  # (a setting's form: ``auth = enabled`` stays)
        found.update(_replaced(plain, _text_rules(plain, table, "")))
    return _known_table(tuple(sorted(found.items()))) if found else ()


def _redact_view(text: str, table: tuple[tuple[str, str], ...], home: Optional[str]) -> str:
    extra: tuple[tuple[str, str], ...] = ()
    if "\\" in text and '"' in text:
        extra = _escaped_findings(text, table) + _nested_findings(text, table)
    elif "\\'" in text:  # (only a repr's single-quoted strings: their escapes)
        extra = _escaped_findings(text, table)
    if "'\n" in text or '"\n' in text:
        extra += _joined_findings(text, table)
    if "args" in text and "msg" in text:
        extra += _record_findings(text, table)
    if "%" in text and _PERCENT_SYNTAX.search(text):
        extra += _percent_findings(text, table)
    extra += _cell_findings(text, table)
    extra += _led_findings(text, table)
    table = _merged(table, extra)
    view = _clean_view(text)
    if view != text:
        out = _text_rules(view, table, home)
        if out != view:  # found something once colour codes and NULs were out of the way
            return out
    return _text_rules(text, table, home)


def redact_output(text: str, *, env: Optional[Mapping[str, str]] = None, home: Optional[str] = None,
                  extra: Optional[Mapping[str, str]] = None) -> str:
    """The text edge of every writer (console, summaries, step summary and outputs, manifests, bundles,
    issue bodies): :func:`redact_text`."""
    return redact_text(text, home=home, env=env, extra=extra)


# --------------------------------------------------------------------------- code


def _code_spans(source: str, table: tuple[tuple[str, str], ...], home: Optional[str]) -> list[Span]:
    spans = _known_spans(source, table) + _wrapped_spans(source, table, patterns=False) + _high_spans(source)
    view = _escape_view(source)
    if view != source:  # "...\\nghp_...": the token after an escape
        spans += _high_spans(view)
    for pattern in _home_patterns(home, os.path.expanduser("~")):
        spans += [(m.start(), m.end(), "~") for m in pattern.finditer(source)]
    return spans


def _line_offsets(source: str) -> list[int]:
    offsets, pos = [0], 0
    for line in source.splitlines(keepends=True):
        pos += len(line)
        offsets.append(pos)
    return offsets


_STRING_PREFIX = _rx(r"[A-Za-z]*(?:'''|\"\"\"|'|\")")


def _literal_regions(source: str) -> Optional[tuple[list[tuple[int, int]], dict[int, int]]]:
    """Where code may be rewritten: the bodies of string literals and comments (start, end), and the
    NUMBER tokens (start -> end); None when the source does not tokenize."""
    offsets = _line_offsets(source)
    regions: list[tuple[int, int]] = []
    numbers: dict[int, int] = {}
    fstring_middle = getattr(tokenize, "FSTRING_MIDDLE", None)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            start = offsets[tok.start[0] - 1] + tok.start[1]
            end = offsets[tok.end[0] - 1] + tok.end[1]
            if tok.type == tokenize.STRING:
                quote = _STRING_PREFIX.match(tok.string)
                width = len(quote.group(0)) if quote else 1
                close = 3 if tok.string.endswith(('"""', "'''")) and len(tok.string) >= width + 3 else 1
                if quote and "f" in quote.group(0).lower():  # Python < 3.12: the {expressions} are code
                    regions += _fstring_text(source, start + width, end - close)
                else:
                    regions.append((start + width, end - close))
            elif tok.type == tokenize.COMMENT:
                regions.append((start + 1, end))  # (after its "#": a key block in comment lines stays comments)
            elif fstring_middle is not None and tok.type == fstring_middle:
                regions.append((start, end))
            elif tok.type == tokenize.NUMBER:
                numbers[start] = end
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return regions, numbers


def _fstring_text(source: str, start: int, end: int) -> list[tuple[int, int]]:
    """The literal parts of an f-string's body ``source[start:end]``: its replacement fields (``{expr!r:>8}``)
    are code; ``{{`` and ``}}`` are text."""
    out, pos, i = [], start, start
    while i < end:
        c = source[i]
        if c in "{}" and i + 1 < end and source[i + 1] == c:
            i += 2
            continue
        if c == "{":
            out.append((pos, i))
            depth, i = 1, i + 1
            while i < end and depth:
                depth += {"{": 1, "}": -1}.get(source[i], 0)
                i += 1
            pos = i
            continue
        i += 1
    out.append((pos, end))
    return [(a, b) for a, b in out if a < b]


_LOOSE_COMMENT = _rx(r"^[^#'\"\n]*(?P<c>#[^\n]*)", re.MULTILINE)


def _prose_pieces(source: str, tree: object) -> list[tuple[int, int]]:
    """(start, end) of the comments and the docstrings' bodies of ``source``: prose, which the program never reads
    (a docstring only through ``__doc__``)."""
    import ast

    offsets = _line_offsets(source)
    pieces: list[tuple[int, int]] = []
    if "#" in source:
        line = 0  # the last line tokenized
        try:
            for tok in tokenize.generate_tokens(io.StringIO(source).readline):
                line = tok.end[0]
                if tok.type == tokenize.COMMENT or (tok.type == tokenize.NL and tok.string.strip()):
                    # (an "empty" line with text after a "\r": a progress bar's frames, which Python skips as blank)
                    pieces.append((offsets[tok.start[0] - 1] + tok.start[1], offsets[tok.end[0] - 1] + tok.end[1]))
        except (tokenize.TokenError, IndentationError, SyntaxError):
            # (source that stops tokenizing, an artifact with a stray line: the comments up to there, and after it
            # what follows a "#" with no quote before it on its line)
            for m in _LOOSE_COMMENT.finditer(source, offsets[min(line, len(offsets) - 1)]):
                pieces.append((m.start("c"), m.end("c")))
    if tree is None:  # (a source that does not parse: its comments; no docstring is known)
        return pieces
    for node in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))]:
        body = getattr(node, "body", None)
        first = body[0] if body else None
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
            continue
        const = first.value
        lines = (source[offsets[const.lineno - 1]:offsets[const.lineno]], source[offsets[const.end_lineno - 1]:
                                                                                   offsets[const.end_lineno]])
        if not (lines[0].isascii() and lines[1].isascii()):
            continue  # (col_offset counts UTF-8 bytes: ASCII lines only)
        start = offsets[const.lineno - 1] + const.col_offset
        end = offsets[const.end_lineno - 1] + const.end_col_offset
        quote = _STRING_PREFIX.match(source, start, end)
        if quote is None or source[end - 1:end] not in ("'", '"'):
            continue
        close = 3 if source[start:end].endswith(('"""', "'''")) and end - start >= len(quote.group(0)) + 3 else 1
        pieces.append((start + len(quote.group(0)), end - close))
    return pieces


def _comment_blocks(source: str, pieces: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """``pieces`` in groups: the comments that stand alone on consecutive lines are one group (a YAML file, a
    table, a log pasted into comment lines, one per line), every other piece a group of its own."""
    def alone(a: int) -> bool:  # a comment with nothing before it on its line
        return source[a:a + 1] == "#" and not source[source.rfind("\n", 0, a) + 1:a].strip()

    groups: list[list[tuple[int, int]]] = []
    for a, b in pieces:
        prev = groups[-1][-1] if groups else None
        if (prev is not None and alone(a) and alone(prev[0]) and source.count("\n", prev[1], a) == 1
                and not source[prev[1]:a].strip()):  # on the next line, nothing between
            groups[-1].append((a, b))
        else:
            groups.append([(a, b)])
    return groups


def _block_text(source: str, group: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int, int]]]:
    """A group of comment lines as one text, without each line's ``#`` lead, and where each line's text starts in
    it and in ``source``: (text start, source start, length)."""
    parts: list[str] = []
    where: list[tuple[int, int, int]] = []
    at = 0
    for a, b in group:
        lead = _COMMENT_LEAD.match(source, a, b)
        start = lead.end() if lead else a
        parts.append(source[start:b])
        where.append((at, start, b - start))
        at += b - start + 1
    return "\n".join(parts), where


def _block_span(where: list[tuple[int, int, int]], s: int, e: int) -> tuple[int, int]:
    """A span of a comment block's text in ``source`` (it may run over line ends: the caller keeps the part of each
    comment)."""
    def at(pos: int, start: bool) -> int:
        for text_start, source_start, length in where:
            if pos < text_start + length or (not start and pos == text_start + length):
                return source_start + max(pos - text_start, 0)
        return where[-1][1] + where[-1][2]
    return at(s, True), at(e, False)


def _prose_spans(source: str, tree: object, table: tuple[tuple[str, str], ...]) -> list[Span]:
    """What the text rules (the context rules too) find in ``source``'s comments and docstrings: prose, where a
    guess changes nothing the program does (``# the staging token is AbC9...``). Comment lines one after another
    are read as one text without their ``#`` (a YAML value on the line below its name)."""
    pieces = [(a, b) for a, b in _prose_pieces(source, tree) if b > a and _JOIN not in source[a:b]]
    if not pieces:
        return []
    blocks = [_block_text(source, g) if len(g) > 1 else (source[g[0][0]:g[0][1]], [(0, g[0][0], g[0][1] - g[0][0])])
              for g in _comment_blocks(source, sorted(pieces))]
    texts = [text for text, _ in blocks]
    joined = _JOIN.join(texts)
    # a table in comments (| db_password | X |); a log quoted in comments, a lead on each line (# [INFO] [x] ...)
    table = _merged(table, _cell_findings(joined, table) + _led_findings(joined, table))
    outs = _text_rules(joined, table, "").split(_JOIN)
    if len(outs) != len(texts):  # a rule took a separator: one piece at a time
        outs = [_text_rules(t, table, "") for t in texts]
    spans: list[Span] = []
    for (text, where), out in zip(blocks, outs):
        if out != text:
            for s, e, r in _marker_spans(text, out) or []:
                a, b = _block_span(where, s, e)
                if source[a:b] != r:
                    spans.append((a, b, r))
    return spans


def _tree(source: str) -> Optional[object]:
    import ast

    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def _parses(source: str) -> bool:
    return _tree(source) is not None


# --------------------------------------------------------------------------- (b) code: literals named as secrets

# detect-secrets' KeywordDetector, for code: a string literal assigned to, passed as, keyed by or compared
# with a name that says it holds a secret is one, whatever its shape. The name decides by its *last* word
# (``db_password``, ``apiKey``, ``client_secret``, ``GITHUB_TOKEN``); an upper-case name is an environment
# variable's and follows :func:`is_secret_env_name`. The value must look like a credential (no whitespace,
# not a placeholder, template, number, path, URL or plain word).
_CODE_SECRET_LAST = frozenset({"PASSWORD", "PASSWORDS", "PASSWD", "PWD", "PASSPHRASE", "SECRET", "SECRETS",
                               "CREDENTIAL", "CREDENTIALS", "CRED", "CREDS", "COOKIE", "COOKIES", "APIKEY", "PRIVATEKEY",
                               "WEBHOOK", "AUTH", "SESSIONID", "SESSIONKEY", "PSK"})
# KEY alone is every dict's and cache's: a secret only after one of these (api_key, secret_key, access_key)
_KEY_QUALIFIERS = frozenset({"API", "AUTH", "SERVICE", "ACCOUNT", "DB", "DATABASE", "PRIV", "PRIVATE", "CLIENT",
                             "SECRET", "ACCESS", "APP", "SIGNING", "MASTER", "ENCRYPTION", "LICENSE", "ADMIN", "SSH",
                             "DEPLOY", "INGEST", "SDK", "HMAC", "SHARED", "STORAGE", "SESSION", "WRITE"})
# the last word says which form of the secret the value is (password_b64, token_value)
_FORM_WORDS = frozenset({"VALUE", "STR", "STRING", "B64", "BASE64", "HEX", "RAW", "DATA", "BYTES", "PLAIN", "TEXT"})
_CODE_TEMPLATE = _rx(r"\{[A-Za-z0-9_.\[\]'\"!:]{0,60}\}|%(?:\([A-Za-z_]\w{0,40}\))?[srd](?![A-Za-z0-9])"
                            r"|\$\{\w{1,60}\}")


def _templated(value: str) -> bool:
    """A format string (``Bearer %s``, ``{token}``, ``${SECRET}``) rather than a credential: what is left without
    its fields is short or not random (a Django key drawn from ``!@#$%^&*(-_=+)`` and letters may hold ``%r``)."""
    if not _CODE_TEMPLATE.search(value):
        return False
    rest = _CODE_TEMPLATE.sub("", value)
    return len(rest) < 16 or not (re.search(r"[0-9]", rest) and re.search(r"[A-Za-z]", rest)
                                  and shannon_entropy(rest) >= 3.5)


_SETTING_WORDS = _rx(r"[a-z]{3,}[0-9]{0,2}(?:[-_.](?:[a-z]{3,}[0-9]{0,2}|[a-z]{0,2}[0-9]{1,3}[a-z]{0,2})){1,7}")
_WORDS_ONLY = _rx(r"[a-z]+(?:[-_.][a-z]+)*|[A-Z][a-z]+(?:[A-Z][a-z]+)*")
_PATH_LIKE = _rx(r"(?:~|\.{1,2})?/[\w.\-/~]*|[A-Za-z]:\\[\w.\-\\ ]*")


# Vendors and services whose name alone says a value is theirs (``TWILIO = "<32 hex>"``, ``stripe_key``): the
# vendors of the token rules above (their kinds' first word) and the owners of well-known tokens. Under such a
# name only a random-looking value counts (:func:`_random_body`), so ``GITHUB_SHA``-like digests under other
# names, and words or numbers under these, stay.
_NOT_VENDOR_WORDS = frozenset({"BASIC", "AGE", "JWT", "LINEAR", "SQUARE", "README", "HARNESS", "OCTOPUS", "DEPENDENCY",
                               "IONIC", "INTRA42", "NEW", "PEM", "DEFINED"})
_VENDOR_NAMES = frozenset(
    {kind.split("-")[0].upper() for kind in [k for k, _ in _PREFIX_TOKENS] + [k for k, _, _ in _SHAPED_TOKENS]
     + [k for k, _, _, _ in _DS_PATTERNS] + [k for k, _, _, _ in TOKEN_SHAPES + DOCUMENTED_SHAPES]} - _NOT_VENDOR_WORDS
    | {"GITHUB", "GITLAB", "HUGGINGFACE", "NPM", "PYPI", "SLACK", "VAULT", "AWS", "AZURE", "GCP", "OPENAI", "WANDB",
       "DISCORD", "TELEGRAM"})
# what may follow the vendor's name in a name that is the vendor's secret (twilio, TWILIO_KEY, stripeApiKey)
_VENDOR_KEY_WORDS = frozenset({"KEY", "KEYS", "API", "APIKEY"})


# text: a vendor's name and a drawn value right after it ("wandb <40 hex>", "cerebras: <key>"); a forge's or a
# hub's name before 40 hex is a commit or a revision, not a key
_FORGES = frozenset({"GITHUB", "GITLAB", "BITBUCKET", "HUGGINGFACE", "GIT", "DOCKER", "GITEA", "SOURCEGRAPH"})
# (not a vendor's name that is also a common word in logs: "weights <sha>", "frame <id>", "segment <hash>")
_COMMON_WORD_VENDORS = frozenset({"weights", "frame", "render", "segment", "teams", "vault", "polar", "ramp", "mercury",
                                  "neon", "notion", "persona", "redirect", "together", "val", "canva", "paddle",
                                  "replicate", "docker", "mongodb", "slack", "prefect", "sentry"})
_VENDOR_THEN_VALUE = _rx(r"(?<![\w.\-])(?P<vendor>" + _trie(sorted({v.lower() for v in _VENDOR_NAMES}
                                                                          - _COMMON_WORD_VENDORS)) + r")"
                                r"[ \t]{1,3}(?:[:=][ \t]{0,3})?(?P<value>(?!<redacted)[A-Za-z0-9+/_\-]{20,256}={0,2})"
                                r"(?![\w+/=\-])", re.IGNORECASE)


def _vendor_value(m: re.Match[str]) -> bool:
    value = m.group("value")
    if _long_hex(value):
        return m.group("vendor").upper() not in _FORGES
    return _random_body(value) and "/" not in value


def _vendor_named(words: list[str]) -> bool:
    """A name that is a vendor's name alone, or with ``KEY``/``API``/``APIKEY`` after it (see
    :data:`_VENDOR_NAMES`)."""
    if len(words) > 1 and words[-1] in _FORM_WORDS:
        words = words[:-1]
    return bool(words) and words[0] in _VENDOR_NAMES and all(w in _VENDOR_KEY_WORDS for w in words[1:])


def _random_body(value: str) -> bool:
    """A value drawn at random rather than written: 32+ hex digits or a random mix (:func:`looks_random`, or
    :func:`_drawn_letters` where a name already says secret)."""
    return _long_hex(value) or looks_random(value) or _drawn_letters(value)


def _drawn_letters(value: str) -> bool:
    """20+ letters of both cases and digits (few or none: a draw from 62 symbols has no digit in 0.3% of
    32-character keys) mixed as a draw mixes them, with the entropy of so many distinct symbols: runs of one case
    short (2.6 letters on average or less, a third of the lower-case runs one letter long), or, with runs up to 4,
    about as many upper- as lower-case letters and few vowels (a fifth, as chance draws them). Names written in
    CamelCase have words of 3+ lower-case letters and a vowel in three (``cusolverDnXgesvdjGetSweeps``,
    ``XLMRobertaTokenizerFast``)."""
    if not 20 <= len(value) <= 512 or _ALNUM.fullmatch(value) is None or value.islower() or value.isupper():
        return False
    lowers, uppers = _LOWER_RUN.findall(value), _UPPER_RUN.findall(value)
    if len(lowers) < 3 or len(uppers) < 3 or shannon_entropy(value) < min(4.3, 3.3 + len(value) / 40):
        return False
    low, up = sum(map(len, lowers)), sum(map(len, uppers))
    if sum(len(r) == 1 for r in lowers) * 3 >= len(lowers) and low < 2.6 * len(lowers) and up < 2.6 * len(uppers):
        return True
    vowels = sum(c in "aeiouAEIOU" for c in value)
    return 0.2 <= up / (low + up) <= 0.85 and vowels < 0.22 * (low + up) and low < 5 * len(lowers) and up < 5 * len(uppers)


_LOWER_RUN, _UPPER_RUN = _rx(r"[a-z]+"), _rx(r"[A-Z]+")
_SHORT_KEY = _rx(r"[A-Za-z0-9]{8,64}")
_CAMEL_PART = _rx(r"[A-Z]?[a-z]{2,}")
_WORD_NUMBER = _rx(r"[A-Za-z]+[0-9]{1,4}|[0-9]{1,4}[A-Za-z]+")


def _short_key(value: str) -> bool:
    """A short key a service drew (TorchServe's 8-character keys, a token spelled short in a config file), for a
    value a name already says is a key or a token: 8 to 64 letters and digits, with letters and digits changing
    three times or more (``kq8m2xzt``, ``9f8e7d6c``), or letters of both cases without a part a person could say
    (``ZPNSLuJx``; not ``HTTPServer``, ``McDonald``); a word with a number (``resnet50``, ``build2024``), a number, a
    word stay."""
    if not _SHORT_KEY.fullmatch(value) or value.isdigit():
        return False
    letters = "".join(c for c in value if c.isalpha())
    drawn_letters = len(letters) >= 6 and not (letters.islower() or letters.isupper()) \
        and not any(map(_sayable, _CAMEL_PART.findall(letters)))
    if _WORD_NUMBER.fullmatch(value):
        return drawn_letters  # (72IfrgjzQA: a number and letters as drawn, not resnet50's word)
    if any(c.isdigit() for c in value):  # (or letters as drawn around few digits: 1ZldPFcLW0)
        return sum(a.isdigit() != b.isdigit() for a, b in zip(value, value[1:])) >= 3 or drawn_letters
    return drawn_letters


def _key_name(name: str) -> bool:
    """A name whose last word is KEY and that does not name a digest, an id or a lookup (``inference-key``,
    ``management_key``; not ``cache-key``, ``sort_key``)."""
    words = _name_words(name)
    return bool(words) and words[-1] == "KEY" and not set(words) & _DIGEST_NAME_WORDS


def _name_words(name: str) -> list[str]:
    """``apiKey`` -> API KEY, ``db_password`` -> DB PASSWORD, ``x-api-key`` -> X API KEY."""
    return [w.upper() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)]


def _code_secret_name(name: str, env: bool = False) -> str:
    """How strongly a name in code says its value is a secret: "strong", "weak" (a token that may be a
    tokenizer's: ``pad_token``; a secret's name followed by a word that says the value is where or what the
    secret is, ``DB_PASSWORD_ENV``, ``X_API_KEY_HEADER``: usually a name, sometimes the secret itself — the
    keyword rule of detect-secrets takes a secret's word anywhere in the name) or "". ``env``: the name of an
    environment variable (``os.environ["X"]``)."""
    strength = _code_secret_name_strength(name, env)
    return "hash" if strength and _hash_named(name) else strength  # (a hex digest stays: see _secret_literal)


def _code_secret_name_strength(name: str, env: bool) -> str:
    strength = _code_secret_name_exact(name, env)
    if strength or not name or len(name) > 100:
        return strength
    words = _name_words(name) if any(c.islower() for c in name) else [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if len(words) > 1 and words[-1] in ("ENV", "VAR") \
            and _code_secret_name_exact("_".join(words[:-1]), env=True):
        return "env-ref"  # DB_PASSWORD_ENV, kaggle_key_env: the variable's name, or else its value
    if len(words) > 1 and words[-1] in _LOCATION_SUFFIXES and _code_secret_name_exact("_".join(words[:-1]), env):
        return "weak"
    return "vendor" if _vendor_named(words) else ""


def _code_secret_name_exact(name: str, env: bool = False) -> str:
    if not name or len(name) > 100:
        return ""
    if env or not any(c.islower() for c in name) or re.match(r"[A-Z][A-Z0-9]*_[A-Z0-9]*_?[A-Za-z0-9]*$", name):
        # an environment variable's name (os.environ["X"], X = ..., OP_SESSION_myaccount)
        if not is_secret_env_name(name) or (not env and _key_alone(name)):
            return ""
        return "weak" if _generic_token_name(name.lower()) else "strong"
    words = _name_words(name)
    if len(words) > 1 and words[-1] in _FORM_WORDS:
        words = words[:-1]
    if not words or words[-1] in _LOCATION_SUFFIXES:
        return ""
    last, before = words[-1], (words[-2] if len(words) > 1 else "")
    if last in _CODE_SECRET_LAST or last.endswith(("PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "APIKEY")) \
            or (last == "PASS" and before) or (last == "KEY" and before in _KEY_QUALIFIERS) \
            or (last in ("ID", "KEY", "TOKEN") and before == "SESSION") or (last == "SK" and not before):
        return "strong"  # (sk alone: an AK/SK pair's secret, TosClient(ak=..., sk=...))
    if last in ("TOKEN", "TOKENS") or last.endswith("TOKEN"):
        return "strong" if before.lower() in _TOKEN_OWNERS or last.lower()[:-5] in _TOKEN_OWNERS else "weak"
    return ""


def _env_name_shaped(value: str) -> bool:
    """A value that reads as an environment variable's name (``PGPASSWORD``, ``db_password``, ``MY_KEY2``):
    one case, letters, digits and ``_``, starting with a letter or ``_``, and not a random draw."""
    return re.fullmatch(r"[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*", value) is not None and not _random_body(value) \
        and len(_LETTER_DIGIT.findall(value.lower())) <= 2


def _key_alone(name: str) -> bool:
    """A constant's name that is secret-bearing only by a ``KEY`` without a qualifier (``CACHE_KEY``)."""
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if "KEY" not in words or any(a in _KEY_QUALIFIERS for a, b in zip(words, words[1:]) if b == "KEY"):
        return False
    return not is_secret_env_name("_".join(w for w in words if w != "KEY") or "X")


_PASSPHRASE = _rx(r"[a-z]{3,12}(?:-[a-z]{3,12}){2,9}")
# words that make a hyphenated value a placeholder or a name rather than a passphrase (your-api-key-here,
# prod-api-secret, use-the-env-var)
_NOT_PASSPHRASE_WORDS = frozenset({
    "your", "here", "replace", "change", "changeme", "example", "sample", "dummy", "fake", "test", "testing", "placeholder",
    "insert", "enter", "put", "set", "use", "the", "from", "env", "var", "variable", "secret", "secrets", "password",
    "passphrase", "token", "key", "api", "default", "none", "null", "empty", "prod", "dev", "staging", "local", "name",
    "value", "todo", "fixme", "xxx", "not", "real", "my", "our", "app", "service", "server", "client", "user", "admin",
    "config", "file", "path", "vault", "manager", "store", "kms", "ssm", "redacted", "hidden", "masked"})


def _word_passphrase(value: str) -> bool:
    """Three or more lower-case words joined by ``-`` (a diceware passphrase, ``tundra-velvet-orbit-mango``), none of
    them a placeholder's or a name's word (``your-api-key-here``, ``prod-db-secret``)."""
    return _PASSPHRASE.fullmatch(value) is not None and not _NOT_PASSPHRASE_WORDS.intersection(value.split("-"))


def _secret_literal(value: str, strength: str) -> bool:
    """A literal's value that is a credential rather than a setting (see :func:`_code_secret_name`)."""
    if not strength or not 6 <= len(value) <= 16384 or any(c.isspace() for c in value):
        return False
    if strength in ("strong", "weak", "env-ref") and _app_password(value):
        return True  # (four drawn groups: the words-only rule below would keep it)
    if value.startswith("<redacted") or _not_secret_value(value, "password" if strength in ("strong", "env-ref") else "") \
            or _PLACEHOLDER.match(value) or _TRIVIAL.match(value) or _templated(value) or "://" in value:
        return False  # URLs: their credentials are the URL rules'
    if strength == "strong" and _word_passphrase(value):
        return True  # tundra-velvet-orbit-mango under api_secret: a passphrase of drawn words (diceware's form)
    if _WORDS_ONLY.fullmatch(value) or (_PATH_LIKE.fullmatch(value) and "/" in value[1:]
                                        and not looks_random(joined := value.replace("/", ""))
                                        and not _drawn_mixed(joined)):
        return False  # (a path; base64 that starts with "/" is drawn: an AWS secret key may, with few digits too)
    if strength == "vendor":
        return _random_body(value)
    if strength == "hash":
        return _HEX_DIGEST.fullmatch(value) is None
    if strength == "env-ref":  # a variable's name, or else the secret (a password's make-up, or as "weak")
        if _env_name_shaped(value):
            return False
        if _password_shaped(value):
            return True
    if strength in ("weak", "env-ref"):  # (not a setting spelled as words: "oauth2-device-code", "gpt-4o-mini")
        return len(value) >= 16 and re.search(r"[0-9]", value) is not None and re.search(r"[A-Za-z]", value) is not None \
            and not _SETTING_WORDS.fullmatch(value)
    return True


_ENV_PREFIX = "\0env:"  # marks an environment variable's name among the names of _named_values


def _target_name(node: object) -> str:
    """The name a value is bound to: ``x``, ``self.x``, ``d["x"]``, ``os.environ["X"]`` (with _ENV_PREFIX)."""
    import ast

    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        base = node.value
        env = (isinstance(base, ast.Attribute) and base.attr == "environ") or \
            (isinstance(base, ast.Name) and base.id in ("environ", "env"))
        return (_ENV_PREFIX if env else "") + node.slice.value
    return ""


def _call_pairs(node: object) -> list[tuple[str, object]]:
    import ast

    assert isinstance(node, ast.Call)
    pairs: list[tuple[str, object]] = [(kw.arg, kw.value) for kw in node.keywords if kw.arg]
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in ("setdefault", "putenv", "__setitem__", "setenv", "set") and len(node.args) >= 2 \
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        receiver = func.value if isinstance(func, ast.Attribute) else None
        env = name in ("putenv", "setenv") or (isinstance(receiver, ast.Attribute) and receiver.attr == "environ") \
            or (isinstance(receiver, ast.Name) and receiver.id == "environ")
        pairs.append(((_ENV_PREFIX if env else "") + node.args[0].value, node.args[1]))  # environ.setdefault("X", "..")
    return pairs + _auth_pairs(name, node)


_RANDOM_PREFIX = "\0random:"  # a value of _named_values that counts only when random-looking (a vendor's rule)


def _auth_pairs(name: str, node: object) -> list[tuple[str, object]]:
    """The credentials a call that authenticates takes by position or under a generic keyword: every
    positional argument after the first of two or more (``HTTPBasicAuth("u", PW)``, ``server.login("u", PW)``),
    the one argument of an ``...Authenticator(KEY)``, the one argument of ``login(X)``/``Credentials(X)`` when
    it is random-looking, ``key=``/``token=``/... (``wandb.login(key=KEY)``), and requests' ``auth=("u", PW)``
    in any call."""
    import ast

    assert isinstance(node, ast.Call)
    pairs: list[tuple[str, object]] = []
    args = [a for a in node.args if not isinstance(a, ast.Starred)]
    if name in _SIGNATURE_NAMES and len(args) == len(node.args):  # (a *starred argument moves the positions)
        port = len(args) > 1 and isinstance(args[1], ast.Constant) and type(args[1].value) is int
        pairs += [("password", args[i]) for i, _ in _signature_credentials(_dotted(node.func), len(args), port)]
    if _AUTH_CALLEE.fullmatch(name):
        first, strength = _positional_credentials(name, len(args))
        label = "password" if strength == "strong" else _RANDOM_PREFIX + "key"  # (a name of that strength)
        pairs += [(label, a) for a in args[first:]]
        pairs += [("password", kw.value) for kw in node.keywords if kw.arg in _AUTH_KEYWORDS]
    for kw in node.keywords:  # auth=, basic_auth=, http_auth=
        if kw.arg and (kw.arg == "auth" or (kw.arg.endswith("_auth") and kw.arg[:-5].isalpha())) \
                and isinstance(kw.value, (ast.Tuple, ast.List)) and len(kw.value.elts) == 2:
            pairs.append(("password", kw.value.elts[1]))
    return pairs


def _argv_pairs(elts: list) -> list[tuple[str, object]]:
    """A command as a list of strings (``["pg_dump", "--password", PW]``): an option that names a secret and
    the item after it."""
    import ast

    pairs: list[tuple[str, object]] = []
    for flag, value in zip(elts, elts[1:]):
        if not (isinstance(flag, ast.Constant) and isinstance(flag.value, str) and flag.value.startswith("-")
                and "=" not in flag.value):
            continue
        name = flag.value.lstrip("-")
        if (flag.value.startswith("--") and _SECRET_FLAG.search(name)) or \
                (_key_name(name) and isinstance(value, ast.Constant) and isinstance(value.value, str)
                 and _short_key(value.value)):  # ["torchserve", "--inference-key", "<8 drawn>"]
            pairs.append(("password", value))
    return pairs


def _dotted(node: object) -> str:
    """``a.b.c`` of a callee written as names and attributes (``""`` for anything else in the chain)."""
    import ast

    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ".".join(reversed(parts))
    return ".".join([node.id, *reversed(parts)])


def _function_pairs(node: object) -> list[tuple[str, object]]:
    import ast

    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [(a.arg, d) for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults)]
    return pairs + [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]


def _named_values(tree: object) -> list[tuple[str, object]]:
    """(name, value node) of every binding in ``tree``: assignments (also to attributes and subscripts),
    keyword arguments, defaults, dict items with a string key, ``setdefault``/``putenv`` calls and
    comparisons (``password == "..."``)."""
    import ast

    pairs: list[tuple[str, object]] = []
    for node in ast.walk(tree):  # type: ignore[arg-type]
        if isinstance(node, ast.Assign):
            pairs += [(_target_name(t), node.value) for t in node.targets]
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            pairs.append((_target_name(node.target), node.value))
        elif isinstance(node, ast.Call):
            pairs += _call_pairs(node)
        elif isinstance(node, ast.Dict):
            pairs += [(k.value, v) for k, v in zip(node.keys, node.values)
                      if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        elif isinstance(node, (ast.List, ast.Tuple)):
            pairs += _argv_pairs(node.elts)
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1 \
                and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            pairs.append((_target_name(node.left), node.comparators[0]))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            pairs += _function_pairs(node)
    return [(name, value) for name, value in pairs if name]


def _named_secrets(tree: object) -> list[object]:
    """The literals of ``tree`` bound to a secret's name whose value looks like a credential."""
    out = []
    for name, value in _named_values(tree):
        text = _bound_text(value)
        env = name.startswith(_ENV_PREFIX)
        strength = "vendor" if name.startswith(_RANDOM_PREFIX) else \
            _code_secret_name(name[len(_ENV_PREFIX):] if env else name, env)
        if text is not None and _secret_literal(_literal_view(text), strength):
            out.append(value)
    return out


def named_secret_values(tree: object) -> list[str]:
    """The values of the literals of ``tree`` bound to a secret's name (the rule of :func:`_literal_spans`)."""
    return [text for text in map(_bound_text, _named_secrets(tree)) if text is not None]


class _Positions:
    """Character offsets of ast positions (line numbers and UTF-8 byte columns)."""

    def __init__(self, source: str) -> None:
        self.lines = source.split("\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def offset(self, lineno: int, col: int) -> int:
        line = self.lines[lineno - 1]
        if not line.isascii():
            col = len(line.encode("utf-8")[:col].decode("utf-8", "replace"))
        return self.starts[lineno - 1] + col

    def span(self, node: object) -> tuple[int, int]:
        return (self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
                self.offset(node.end_lineno, node.end_col_offset))  # type: ignore[attr-defined]


def _literal_text(node: object) -> Optional[str]:
    """A str or bytes constant's text (bytes as Latin-1), None for anything else."""
    import ast

    if not isinstance(node, ast.Constant):
        return None
    if isinstance(node.value, bytes):  # (UTF-8 where it is: a label's letters written as \\xc5\\xbe escapes)
        try:
            return node.value.decode("utf-8")
        except UnicodeDecodeError:
            return node.value.decode("latin-1")
    return node.value if isinstance(node.value, str) else None


def _bound_text(node: object) -> Optional[str]:
    """The text of a literal, or of literals the code adds up (``PASSWORD = "Tr0ub" + "4dor&3"``: the value the
    name holds, whose parts alone look like nothing)."""
    text = _literal_text(node)
    if text is None:
        parts = _added_literals(node)
        if parts and len(parts) >= 2 and len({type(getattr(p, "value", None)) for p in parts}) == 1:
            text = "".join(_literal_text(p) or "" for p in parts)
    return text


def _whole(node: object) -> str:
    return 'b"<redacted>"' if isinstance(getattr(node, "value", None), bytes) else '"<redacted>"'


# a word every name the keyword rules accept contains (a quick test before the rules' regular expressions)
_SECRET_NEEDLES = ("pass", "pw", "secret", "token", "key", "auth", "cred", "cookie", "session", "webhook", "dsn",
                   "bearer", "jwt", "sig", "url", "uri", "conn", "psk", "sk")
# an escape that can hide a token from the source's own scan (colour codes, NULs of UTF-16, \N{...})
_HIDING_ESCAPE = _rx(r"\\(?:x|u|U|N\{|[0-7])")
# literals Python joins into one constant ("abc" "def", across lines in brackets): a secret split between them
_IMPLICIT_JOIN = _rx(r"[\"']\s*(?:\\\n\s*)*[rRbBuU]{0,2}[\"']")  # (also over a line's "\" continuation)


def _named_here(lower: str) -> bool:
    """A secret's word with a ``=``/``:`` soon after it (or an option ``--...word``): where the keyword rules'
    expressions can match at all (a quick scan with ``str.find``)."""
    for needle in _SECRET_NEEDLES:
        i = lower.find(needle)
        while i >= 0:
            j = i + len(needle)
            while j < len(lower) and j - i < 40 and (lower[j].isalnum() or lower[j] in "_-"):
                j += 1  # the rest of the name (db_password_b64)
            k = j
            while k < len(lower) and k - j < 4 and lower[k] in "\"'] \t\uff09":
                k += 1
            if (k < len(lower) and lower[k] in "=:\uff1a") or "--" in lower[max(0, i - 40):i]:
                return True
            i = lower.find(needle, j)
    return False


def _string_keyword_spans(text: str, quoted_only: bool = False) -> list[Span]:
    """Inside a string's text (a command line, a connection string, a config line, JSON): a value after a
    name or option that says it is a secret (``--password=X``, ``"api_key": "X"``, ``PGPASSWORD=X``),
    when it looks like a credential (:func:`_secret_literal`); a call that authenticates and a secret's name
    and value as two strings, written as text (:func:`_auth_call_spans`, :data:`_NAME_VALUE_PAIR`)."""
    lower = text.lower()
    spans = _string_named_spans(text, lower, quoted_only)
    spans += _call_and_pair_spans(text)  # a call that authenticates, a name/value pair, written inside a string
    spans += _format_spans(text, quoted_only)
    if "=" not in text and ":" not in text and "--" not in text and "\uff1a" not in text:
        return spans
    if not _named_here(lower):
        return spans
    for pattern in (_ASSIGNMENT, _ENV_ASSIGNMENT, _CLI_FLAG):
        for m in pattern.finditer(text):
            group = "qvalue" if m.groupdict().get("qvalue") else "value"
            if (quoted_only and group != "qvalue") or not m.group(group):
                continue
            name = m.groupdict().get("name") or re.sub(r"\W+$", "", m.group("prefix")).lstrip("-")
            if (pattern is _CLI_FLAG and _METAVAR.fullmatch(m.group(group))) or _after_arn(m):
                continue  # (as in text: a metavar in argparse's usage, [--hub-token HUB_TOKEN]; an ARN's secret:<name>)
            if _secret_literal(m.group(group), _code_secret_name(name) or _flag_strength(name) or _owned_key(name)):
                spans.append((m.start(group), m.end(group), _mark("secret")))
    return spans


def _owned_key(name: str) -> str:
    """A key named by whose it is (``ABLY_KEY``, ``acme.key``), inside a string's text: "vendor" (its value must be
    drawn, :func:`_secret_literal`), unless a word says digest, identifier or lookup (``CACHE_KEY``, ``SORT_KEY``)."""
    words = [w.upper() for w in re.split(r"[_.\-]+", name) if w]
    if len(words) < 2 or words[-1] != "KEY" or set(words) & _DIGEST_NAME_WORDS:
        return ""
    return "vendor"


def _format_spans(text: str, quoted_only: bool) -> list[Span]:
    """Inside a string's text, the secrets of formats that say where a secret is: a Dockerfile's ``ENV``, SQLAlchemy's
    bound parameters, an AWS secret beside its key id, a command line's options, HCL blocks, a table's row, XML."""
    spans: list[Span] = []
    if "ENV" in text or "ARG" in text:  # a Dockerfile's ENV NAME value
        spans += _group_spans(_DOCKERFILE_ENV, text, "secret", _dockerfile_secret)
    if "[parameters: (" in text:  # SQLAlchemy's error: a parameter bound to a secret's column
        spans += _sql_parameter_spans(text)
    if "A" in text and _AWS_KEY_ID.search(text):  # an AWS secret on its key id's line
        spans += _aws_secret_beside_key_id(text)
    if "-" in text:
        spans += _short_flag_spans(text, quoted_only)
    if "{" in text:  # HCL: acl { tokens { agent = "..." } }
        spans += _secret_block_spans(text)
    if "|" in text or ";" in text:  # a table's row: | wandb_key | <value> |
        spans += [(m.start("value"), m.end("value"), _mark("secret")) for m in _CELL_PAIR.finditer(text)
                  if _secret_literal(m.group("value"), _code_secret_name(m.group("name")))]
    if "</" in text:  # <password>...</password>, Hadoop's <name>...</name><value>...</value>
        spans += _group_spans(_XML_ELEMENT, text, "secret", _xml_secret) + _group_spans(_XML_PROPERTY, text, "secret", _xml_secret)
    return spans


def _string_named_spans(text: str, lower: str, quoted_only: bool) -> list[Span]:
    """Inside a string's text, the prose rules whose word names the value: a secret's name and a drawn value
    (``twilio api key SK... secret <32 random>``, ``rejected credential <drawn>``), a password's word and a picked
    password, ``auth token: <drawn with brackets>``, a YAML block scalar, JSON's ``"key": "<random>"``."""
    spans: list[Span] = []
    if not quoted_only and any(w in lower for w in ("secret", "passw", "token", "key", "hmac", "cred")):
        spans += _group_spans(_NAMED_THEN_VALUE, text, "secret", _drawn_value)
    if not quoted_only and _PASSWORD_WORD_HINT.search(lower):  # "login failed for svc with password Harbor42!xy"
        spans += _group_spans(_PASSWORD_THEN_PICKED, text, "secret", _picked_after_word)
    if not quoted_only and _foreign_label_here(text, lower):
        spans += _group_spans(_FOREIGN_PASSWORD, text, "secret", _foreign_password)  # "şifre: X", "lösenord = X"
    if not quoted_only and re.search(r"[<>()\[\]{}]", text):  # "oci auth token: pgMrH91X>crfJG7)oYBh"
        spans += _group_spans(_NAMED_THEN_SYMBOLS, text, "secret", _drawn_with_symbols)
    if ": |" in text or ": >" in text:  # a YAML block scalar under a secret's name
        spans += _yaml_block_spans(text)
    spans += _echo_spans(text)  # argparse's, pydantic's echo of a value; requests' auth pair; a table's column
    if "key" in lower:  # JSON in a string: kaggle.json's {"username": "...", "key": "<32 hex>"}; storage_key=<drawn>
        spans += [(m.start("value"), m.end("value"), _mark("secret")) for m in _KEY_ASSIGNMENT.finditer(text)
                  if (m.group("q") or _code_secret_name(m.group("name")) == "strong") and _key_value(m)]
        # a key's id and its secret after "key" and a space (FAL_KEY <uuid>:<hex>): the joined parts are its shape
        spans += [(m.start("value"), m.end("value"), _mark("secret")) for m in _KEY_THEN_VALUE.finditer(text)
                  if (":" in m.group("value") or "|" in m.group("value")) and _spaced_key_value(m)]
    if "=0x" in text:  # gdb's frame: password=0x55d4a1f0 "Harbor417!Kqzv53"
        spans += _group_spans(_GDB_STRING_ARG, text, "secret", _named_literal)
    return spans


# a char* argument in gdb's backtrace: its name, the pointer and the string it points to
_GDB_STRING_ARG = _rx(r"(?<![\w.])(?P<name>[A-Za-z_]\w{0,60})=0x[0-9a-f]{1,16} \"(?P<value>(?!<redacted)[^\"\n]{1,512})\"")


def _short_flag_spans(text: str, quoted_only: bool) -> list[Span]:
    """A command line inside a string: a short key after an option named ``...-key`` (``--inference-key
    <8 drawn>``), a credential after an option that names a secret (``gpg --passphrase X``, ``consul ... -token X``,
    also as a list's repr: ``['gpg', '--passphrase', 'X']``)."""
    spans: list[Span] = []
    for m in _FLAG_VALUE.finditer(text):
        group = "fqvalue" if m.group("fq") else "value"
        value, flag = m.group(group), m.group("flag")
        if (quoted_only and group != "fqvalue") or _METAVAR.fullmatch(value):
            continue  # (a metavar in argparse's usage: [--hub-token HUB_TOKEN])
        if (_key_name(flag) and _short_key(value)) or (_SECRET_FLAG.search(flag) and _secret_literal(value, "strong")):
            spans.append((m.start(group), m.end(group), _mark("secret")))
    return spans


def _drawn_value(m: re.Match[str]) -> bool:
    value = m.group("value").rstrip(".")  # (base64 holds "/": a drawn key, not a path, when the rest is drawn)
    return len(value) >= 16 and not value.startswith(("~", ".")) and not _PATH_WORD.search(value) \
        and _random_body(value.replace("/", ""))


def _flag_strength(name: str) -> str:
    return "strong" if _SECRET_FLAG.search(name) else ""


def _literal_view(text: str) -> str:
    """What a literal's value shows when printed: without NULs (UTF-16 bytes) and colour codes, also their escaped
    forms in its text (a bytes repr of UTF-16 pasted into a string: ``"b'n\\x00p\\x00m\\x00_\\x00...'"``)."""
    return _clean_view(text)


def _literal_keyword(view: str, prose: bool) -> tuple[list[Span], bool]:
    """A literal's secrets after a name or a label (none in a docstring or a page of text), and whether its text is a
    query percent-encoded in another that names one (:func:`_percent_named`)."""
    keyword = _string_keyword_spans(view) if not prose and len(view) <= 4096 else \
        _long_literal_keywords(view) if not prose and len(view) <= _LONG_LITERAL else []
    if not keyword and not prose and len(view) <= 4096:  # (a tool's syntax says the value is its password: as in text,
        # read from the literal's value, whatever escapes its source spells it with; ``b'...\n$USER3$=PW\n...'``)
        keyword = [(a, b, r) for a, b, r in _cli_spans(view) if not _template(view[a:b])
                   and not _placeholder_value(view[a:b])]
    percent = not keyword and _percent_named(view, prose)
    if not keyword and not percent and not prose and len(view) <= 4096:
        keyword = _labelled_spans(view)
    return keyword, percent


_LONG_LITERAL = 1 << 20  # (a literal's text read in pieces of lines: a program the script writes out, a config)


def _long_literal_keywords(view: str) -> list[Span]:
    """:func:`_string_keyword_spans` of a literal's text over 4,096 characters, read in pieces of whole lines of at
    most 4,096 (blind round 34b: a Kafka JAAS password in the Python source of a compiled graph the script wrote with
    ``_f.write('...')``, 5,000 characters, was not read at all)."""
    spans: list[Span] = []
    start = 0
    while start < len(view):
        end = min(len(view), start + 4096)
        if end < len(view):
            cut = view.rfind("\n", start, end)
            end = cut + 1 if cut > start else end
        spans += [(start + a, start + b, r) for a, b, r in _string_keyword_spans(view[start:end])]
        start = end
    return spans


def _labelled_spans(view: str) -> list[Span]:
    """A literal's text that holds a config or a command (lines, an option, an element): what the text's rules from
    names and labels find there (``<property name="...password">V</property>``, ``-K KEY``, ``parolă: V``), when the
    value has a credential's make-up on its own (no guess from a value alone: code has none)."""
    if not _PASSWORD_WORD_HINT.search(view) and not _SECRET_WORD.search(view) and not _foreign_label_here(view, view.lower()):
        return []
    out = _context_rules(view)
    if out == view:
        return []
    return [(a, b, _mark("secret")) for a, b, _ in _marker_spans(view, out) or []
            if b - a >= _MIN_KNOWN and (_credential_made(v := view[a:b].strip()) or _random_one_case(v))
            and _label_before(view, a) and not _in_encoded_blob(view, a, b)]


def _label_before(view: str, at: int) -> bool:
    """The words before a value on its line say secret (not a key a qualifier names: ``cache_key=``, ``sort_key=``)."""
    before = view[max(view.rfind("\n", 0, at) + 1, at - 120):at]
    name = re.findall(r"[A-Za-z][\w.\-]*", before)
    words = {w.upper() for w in re.split(r"[_.\-]+", name[-1]) if w} if name else set()
    if "KEY" in words and words & _DIGEST_NAME_WORDS:
        return False
    return bool(_SECRET_WORD.search(before) or _PASSWORD_WORD_HINT.search(before) or _foreign_label_here(before, before.lower()))


def _literal_spans(source: str, tree: object, table: tuple[tuple[str, str], ...]) -> list[Span]:
    """Spans of code that hide secrets inside literals: a literal bound to a secret name (the whole
    literal becomes ``"<redacted>"``), a secret after a keyword inside a literal's text (replaced in place
    when the literal has no escapes, else the whole literal), and a literal whose *value* holds a secret its
    source spells with escapes (``"\\x1b[33mghp_..."``, UTF-16 bytes)."""
    import ast

    pos = _Positions(source)
    spans: list[Span] = []
    named: set[int] = set()
    for value in _named_secrets(tree) + _composed_secrets(tree, table):
        spans.append((*pos.span(value), _whole(value)))
        named.add(id(value))
    nodes = list(ast.walk(tree))  # type: ignore[arg-type]
    skip = {id(v) for node in nodes if isinstance(node, ast.JoinedStr) for v in node.values}
    prose = {id(node.value) for node in nodes if isinstance(node, ast.Expr)}  # docstrings
    for node in nodes:
        text = _literal_text(node)
        if text is None or id(node) in named or id(node) in skip or len(text) < 6:
            continue
        view = _literal_view(text)
        start, end = pos.span(node)
        raw = source[start:end]
        quote = _STRING_PREFIX.match(raw)
        inner = raw[len(quote.group(0)):len(raw) - len(quote.group(0).lstrip("rRbBuUfF"))] if quote else ""
        # a command line, a connection string, a config line: not a docstring, not a page of text
        keyword, percent = _literal_keyword(view, id(node) in prose)
        if not keyword and not percent and "\\u00" in view and _escaped_name_secret(view, id(node) in prose):
            spans.append((start, end, _whole(node)))  # (a name in \u escapes: {"\u0070assword": ...})
            continue
        if inner == text == view and not percent:  # the source spells the value as it is: replace in place
            spans += [(start + len(quote.group(0)) + a, start + len(quote.group(0)) + b, r)  # type: ignore[union-attr]
                      for a, b, r in keyword]
        elif keyword or percent or ((_HIDING_ESCAPE.search(raw) or _IMPLICIT_JOIN.search(inner))
                         and (_high_spans(view) or _known_spans(view, table))) \
                or ("\n" in view and id(node) not in prose and _wrapped_spans(view, (), patterns=True)):
            # (a token a wrap split across the literal's escaped line break: the whole literal)
            spans.append((start, end, _whole(node)))
    return spans + _fstring_spans(nodes, pos, named | prose)


def _escaped_name_secret(view: str, prose: bool) -> bool:
    """A literal's text that names its secret in ``\\u`` escapes of letters (JSON written HTML-safe: ``{"\\u0070assword":
    "..."}``): what the rules from names find with those letters plain."""
    plain = _ASCII_ESCAPE.sub(_ascii_letter, view)
    return plain != view and bool(_literal_keyword(plain, prose)[0])


def _fstring_spans(nodes: list, pos: _Positions, seen: set[int]) -> list[Span]:
    """An f-string whose text (its fields as ``{}``) holds a secret after a name or a label: the whole literal (its
    parts' places in the source are not the value's)."""
    import ast

    spans: list[Span] = []
    for node in nodes:
        if not isinstance(node, ast.JoinedStr) or id(node) in seen:
            continue
        text = "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}" for v in node.values)
        if 6 <= len(text) <= 4096 and any("{}" not in text[a:b] for a, b, _ in
                                          _string_keyword_spans(text) or _labelled_spans(text)):
            spans.append((*pos.span(node), '"<redacted>"'))
    return spans


_PERCENT_SEPARATOR = _rx(r"%(?:3[DdAa]|2[6Ff])")  # = : & / percent-encoded


def _percent_named(view: str, prose: bool) -> bool:
    """A URL's query percent-encoded inside another (``next=%2Fapi%3Faccess_token%3D<V>``): a secret after its
    name there once decoded (the whole literal goes: its source spells the value another way)."""
    if prose or len(view) > 4096 or not _PERCENT_SEPARATOR.search(view):
        return False
    decoded = urllib.parse.unquote(view)
    return decoded != view and bool(_string_keyword_spans(decoded))


def _added_literals(node: object) -> Optional[list[object]]:
    """The string literals a chain of ``+`` adds up (``"abc" + "def" + "ghi"``), None when a part is anything else."""
    import ast

    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _added_literals(node.left), _added_literals(node.right)
        return None if left is None or right is None else left + right
    return [node] if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) else None


def _composed_secrets(tree: object, table: tuple[tuple[str, str], ...]) -> list[object]:
    """The literals of a string the code composes with ``+`` (or that Python joins, ``"abc" "def"``, one constant
    written as several) whose whole holds a known value or a token: each part the secret runs through (its parts
    alone match nothing)."""
    import ast

    out: dict[int, object] = {}
    for node in ast.walk(tree):  # type: ignore[arg-type]
        parts = _added_literals(node) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) else None
        if parts and len(parts) >= 2:
            texts = [_literal_text(p) or "" for p in parts]
            out.update((id(p), p) for p in _parts_with_secrets(parts, texts, table))
    return list(out.values())


def _parts_with_secrets(parts: list, texts: list[str], table: tuple[tuple[str, str], ...]) -> list:
    """The ``parts`` (whose texts are ``texts``) a known value or a token found in their joined text runs
    through."""
    joined = "".join(texts)
    found = _known_spans(joined, table) + _token_spans(joined) + _catalogue_spans(joined)
    starts = [sum(map(len, texts[:i])) for i in range(len(texts))]
    return [p for p, a, t in zip(parts, starts, texts) if any(s < a + len(t) and a < e for s, e, _ in found)]


# a string a message shows composed of literals (a traceback's source line: key = "abc" + "def"): two to nine
# quoted literals joined by "+" or written side by side
# (a space or a "+" between them: a repr of a list whose item holds the other quote, ``"dsn = 'a=b'", 'c'``, has
# ``'"`` glued where one string ends inside another, and no composed string spans an item's ``', '``)
_JOINED_LITERALS = _rx(r"(?:(?P<q>[\"'])(?:(?!(?P=q))(?!" + _ITEM_END + r")[^\\\n]){1,512}(?P=q)"
                              r"(?:[ \t]{1,3}\+?|[ \t]{0,3}\+)[ \t]{0,3}(?=[\"'])){1,8}"
                              r"(?P<l>[\"'])(?:(?!(?P=l))(?!" + _ITEM_END + r")[^\\\n]){1,512}(?P=l)")
_QUOTED_PART = _rx(r"(?P<q>[\"'])(?P<v>(?:(?!(?P=q))[^\\\n]){1,512})(?P=q)")
_JOIN_HINT = _rx(r"[\"'](?:[ \t]{1,3}\+?|[ \t]{0,3}\+)[ \t]{0,3}[\"']")


def _joined_literal_spans(text: str, table: tuple[tuple[str, str], ...]) -> list[Span]:
    """The literals of a composed string (:data:`_JOINED_LITERALS`) that a known value or a token found in the
    joined text runs through, each as a whole."""
    spans: list[Span] = []
    for m in _JOINED_LITERALS.finditer(text):
        parts = list(_QUOTED_PART.finditer(text, m.start(), m.end()))
        if len(parts) >= 2:
            spans += [(p.start("v"), p.end("v"), _mark("known-secret"))
                      for p in _parts_with_secrets(parts, [p.group("v") for p in parts], table)]
    return spans


def _distinct(source: str, spans: list[Span], whole: bool = False) -> list[Span]:
    """Markers that keep what the code compares: the same secret gets the same marker everywhere, two
    different secrets of one kind get different ones (``<redacted:github-token>``, ``<redacted:github-token-2>``),
    so ``a == b`` and dict keys mean what they meant. ``whole``: the spans are literals replaced whole, and two
    different ones become ``"<redacted>"`` and ``"<redacted-2>"`` (blind round 32: two YAML documents under a
    secret's name compared with ``==`` became equal, and the reproducer stopped failing)."""
    seen: dict[str, dict[str, str]] = {}  # (per replacement: a str's and a bytes' literal never compare equal)
    out: list[Span] = []
    for start, end, replacement in sorted(spans, key=lambda s: (s[0], -s[1])):
        if not ("<redacted>" in replacement if whole else replacement.startswith("<redacted:")):
            out.append((start, end, replacement))
            continue
        values = seen.setdefault(replacement, {})
        value = source[start:end]
        if value not in values:
            n = len(values) + 1
            values[value] = replacement if n == 1 else replacement.replace("<redacted>", f"<redacted-{n}>") \
                if whole else f"{replacement[:-1]}-{n}>"
        out.append((start, end, values[value]))
    return out


def _covered(source: str, literal: Span, spans: list[Span]) -> bool:
    """A whole literal's body is inside one of ``spans`` already (``KEY = "sk_live_..."`` keeps its
    ``<redacted:stripe-access-key>``)."""
    start, end, _ = literal
    quote = _STRING_PREFIX.match(source, start, end)
    if quote is None:
        return False
    lo, hi = quote.end(), end - len(quote.group(0).lstrip("rRbBuUfF"))
    return any(s <= lo and hi <= e and r.startswith("<redacted") for s, e, r in spans)


def _embedded_code_findings(source: str) -> tuple[tuple[str, str], ...]:
    """Python held as a JSON string inside a string of ``source`` (a notebook cell's ``"source"`` kept in a
    literal: ``'{"source": ["os.environ[\\\\"X_KEY\\\\"] = \\\\"...\\\\"\\\\n"]}'``): each such string that parses as
    Python is redacted as the code it is, and what that took out becomes a known value of ``source``."""
    found: dict[str, str] = {}
    for line in source.split("\n"):
        if '\\"' not in line or len(line) > 20000:
            continue
        for view in (line, _unescape_once(line)):
            for m in _ESCAPED_STRING.finditer(view):
                plain = _unescaped(m.group(0))
                if not plain or "\\" in plain or not _parses(plain):
                    continue  # (one level at a time: no escapes left in the code it holds)
                found.update(_replaced(plain, redact_code(plain, home="")))
    return _known_table(tuple(sorted(found.items()))) if found else ()


def redact_code(source: str, *, home: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
                extra: Optional[Mapping[str, str]] = None) -> str:
    """Python source: known values and high-confidence patterns only, replaced inside string literals and
    comments (a literal assigned to a secret name counts as one: ``password = "<redacted:secret>"``), never
    in identifiers; a number that is a known value becomes ``"<redacted>"``. Source that parsed still parses.
    Source that does not parse (a clipped excerpt, a syntax error) has every match replaced."""
    if not source:
        return source
    source = unprotect(source)
    table = _table(known_values(env, extra))
    if "\\" in source and '"' in source:
        table = _merged(table, _embedded_code_findings(source))
    view = _clean_view(source, escapes=False)
    if view != source and _code_spans(view, table, home):
        source = view  # something behind colour codes or NULs: show the clean text
    spans = _code_spans(source, table, home)
    tree = _tree(source)
    if tree is None:  # an excerpt, a script with a syntax error: nothing to keep parseable; its comments are prose
        spans += _string_keyword_spans(source, quoted_only=True) + _prose_spans(source, None, table)
        return _apply(source, _escape_safe(source, spans)) if spans else source
    whole = _literal_spans(source, tree, table)
    spans += _prose_spans(source, tree, table)
    if not spans and not whole:
        return source
    found = _literal_regions(source)
    if found is None:  # pragma: no cover - what parses tokenizes
        return _apply(source, spans)
    regions, numbers = found
    starts = [r[0] for r in regions]
    kept: list[Span] = []
    for start, end, replacement in spans:
        i = bisect.bisect_right(starts, start) - 1
        if i >= 0 and regions[i][0] <= start and end <= regions[i][1]:
            kept.append((start, end, replacement))
        elif numbers.get(start) == end and replacement.startswith("<redacted"):
            kept.append((start, end, '"<redacted>"'))
        elif replacement.startswith("<redacted"):
            # across several literals or comments (a key block in comment lines): the part in each of them, the
            # marker in the first
            j, first = max(i, 0), True
            while j < len(regions) and regions[j][0] < end:
                lo, hi = max(start, regions[j][0]), min(end, regions[j][1])
                if lo < hi:
                    kept.append((lo, hi, replacement if first else ""))
                    first = False
                j += 1
    whole = _distinct(source, [w for w in whole if not _covered(source, w, kept)], whole=True)
    out = _apply(source, _escape_safe(source, _distinct(source, kept)) + whole)
    if out != source and not _parses(out):
        # last resort: every literal that held a secret becomes "<redacted>" as a whole
        whole: list[Span] = []
        for start, _, _ in kept:
            i = bisect.bisect_right(starts, start) - 1
            if i >= 0:
                whole.append((regions[i][0], regions[i][1], "<redacted>"))
        out = _apply(source, _distinct(source, whole, whole=True))
    return out


# --------------------------------------------------------------------------- markdown and files

_FENCED = _rx(r"^(?P<fence>[ ]{0,3}(?:`{3,}|~{3,}))(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                     re.MULTILINE | re.DOTALL)
_PYTHON_INFO = _rx(r"^\s*(?:python3?|py|pycon|ipython)\b", re.IGNORECASE)


def redact_markdown(text: str, *, home: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
                    extra: Optional[Mapping[str, str]] = None) -> str:
    """Markdown (issue bodies, summaries): fenced Python blocks as code (:func:`redact_code`), the rest
    as text (:func:`redact_text`) with its terminal controls written out as escapes (:func:`shown`: a run's
    ``\\x1b]52;...`` or ``\\x07`` is junk in an issue, and no terminal that prints the file obeys it)."""
    if not text:
        return text
    parts, pos = [], 0
    for m in _FENCED.finditer(text):
        if not _PYTHON_INFO.match(m.group("info")):
            continue
        parts.append(shown(redact_text(text[pos:m.start("body")], home=home, env=env, extra=extra)))
        parts.append(_bidi_shown_code(redact_code(m.group("body"), home=home, env=env, extra=extra)))
        pos = m.end("body")
    parts.append(shown(redact_text(text[pos:], home=home, env=env, extra=extra)))
    return "".join(parts)


_BIDI = _rx("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_LITERAL_PREFIX = _rx(r"[A-Za-z]*")


def _bidi_shown_code(code: str) -> str:
    """A Python block of Markdown with the bidirectional controls of its comments and string literals written as
    ``\\u202e`` escapes, so that it cannot show its code in another order than it holds (Trojan Source): in a
    comment the escape is text, in a string literal the same character (the block's literals keep their values:
    checked on its syntax tree). A raw or bytes literal, and an f-string's replacement fields, keep the character
    (an escape there would change the value or not parse); a block that does not parse has every one escaped."""
    if not _BIDI.search(code):
        return code
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return _BIDI.sub(_escaped_control, code)
    starts = [0]
    for line in code.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out, pos = [], 0
    for tok in tokens:
        if _BIDI.search(tok.string) and (tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING
                                                                          and _escapable_literal(tok.string))):
            start, end = starts[tok.start[0] - 1] + tok.start[1], starts[tok.end[0] - 1] + tok.end[1]
            out += [code[pos:start], _BIDI.sub(_escaped_control, tok.string)]
            pos = end
    shown_code = "".join(out) + code[pos:]
    try:
        import ast

        if ast.dump(ast.parse(code)) != ast.dump(ast.parse(shown_code)):
            return code
    except (SyntaxError, ValueError):
        return _BIDI.sub(_escaped_control, code)
    return shown_code


def _escapable_literal(literal: str) -> bool:
    """A string literal in which ``\\u202e`` means that character: not raw, not bytes, no f-string field."""
    prefix = _LITERAL_PREFIX.match(literal).group().lower()
    return not ("r" in prefix or "b" in prefix or ("f" in prefix and "{" in literal.replace("{{", "")))


def content_kind(name: str) -> str:
    """"code", "markdown" or "text": how a file of this name is redacted."""
    lower = str(name).lower()
    if lower.endswith((".py", ".pyi")):
        return "code"
    if lower.endswith((".md", ".markdown")):
        return "markdown"
    return "text"


def redact_for(name: str, text: str, *, home: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
               extra: Optional[Mapping[str, str]] = None) -> str:
    """The edge for a file's content, by its name: ``.py`` as code, ``.md`` as markdown, else as text."""
    kind = content_kind(name)
    fn = redact_code if kind == "code" else redact_markdown if kind == "markdown" else redact_text
    return fn(text, home=home, env=env, extra=extra)


# --------------------------------------------------------------------------- environment names

_SECRET_NAME_WORDS = frozenset(
    {
        "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASS",
        "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "CRED", "CREDS", "AUTH", "COOKIE", "COOKIES",
        "APIKEY", "KEY", "PRIVATEKEY", "SIGNATURE", "WEBHOOK", "WEBHOOKS", "DSN", "JWT", "BEARER", "PSK",
        "MNEMONIC", "SEEDPHRASE",  # (a wallet's BIP39 words: WALLET_MNEMONIC, also SEED_PHRASE, RECOVERY_PHRASE below)
    }
)  # fmt: skip
_GLUED_SUFFIXES = ("PASSWORD", "PASSWD", "PASSPHRASE", "TOKEN", "SECRET", "APIKEY", "CREDENTIALS", "WEBHOOK")
# the last word says the value is about a secret, not the secret: where it is, its kind, name or shape
_LOCATION_SUFFIXES = frozenset({"FILE", "PATH", "DIR", "SOCK", "TYPE", "HEADER", "HEADERS", "NAME", "FIELD", "PARAM",
                                "PREFIX", "LABEL", "ENV", "VAR", "KIND", "LENGTH", "LEN", "SIZE", "TTL", "TIMEOUT",
                                "EXPIRY", "EXPIRES", "FORMAT", "ALGORITHM", "MODE", "ROUNDS", "VERSION", "TEMPLATE",
                                "PATTERN", "REGEX", "SCHEME", "HASH"})
_NOT_PASS_WORDS = frozenset({"ASKPASS", "BYPASS", "COMPASS", "SURPASS", "OVERPASS", "UNDERPASS", "OLDPWD", "MULTIPASS",
                             "ONEPASS", "SINGLEPASS", "FIRSTPASS", "SECONDPASS", "NOPASS"})
# connection strings name their credentials: REDIS_URL, DATABASE_URL, MONGODB_URI, CELERY_BROKER_URL
_STORE_WORDS = frozenset({"REDIS", "DATABASE", "DB", "POSTGRES", "POSTGRESQL", "PG", "MYSQL", "MARIADB", "MONGO",
                          "MONGODB", "AMQP", "RABBITMQ", "RABBIT", "BROKER", "CELERY", "SQLALCHEMY", "KAFKA", "NATS",
                          "MEMCACHED", "ELASTICSEARCH", "OPENSEARCH", "CLICKHOUSE", "MSSQL", "ORACLE", "SNOWFLAKE"})
_CONNECTION_WORDS = frozenset({"URL", "URI", "DSN", "CONNECTION", "CONN", "CONNSTR"})


_PAT_OWNERS = frozenset({"GH", "GL", "ADO", "DEVOPS", "BITBUCKET", "GITEA", "FORGEJO", "JIRA", "CONFLUENCE", "HF"})


@functools.lru_cache(maxsize=4096)
def is_secret_env_name(name: str) -> bool:
    """True if an environment variable name looks like it holds a secret (rule: module doc)."""
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if not words or words[-1] in _LOCATION_SUFFIXES:
        return False
    if _digest_key(words):
        return False
    if any(w in _SECRET_NAME_WORDS or w.endswith(_GLUED_SUFFIXES) for w in words):
        return True
    if _abbreviated_secret(words):
        return True
    if len(words) > 1 and ("PWD" in words[1:] or "PW" in words[1:]):  # MYSQL_PWD; not PWD/OLDPWD (working dirs)
        return True
    for i, word in enumerate(words):
        if word.endswith(("PW", "PWD", "PASS")) and word not in _NOT_PASS_WORDS and len(word) > 4 - (i > 0):
            return True  # SPYRE_ROOTPW, SPYRE_DBPASS, SSHPASS, PGPASS_ENTRY
        if word == "PHRASE" and i and words[i - 1] in ("SEED", "RECOVERY"):
            return True
        if word == "SESSION" and (i == len(words) - 1 or words[i + 1] in ("ID", "KEY", "TOKEN")
                                  or (i and words[i - 1] == "OP")):
            return True  # ..._SESSION_ID, 1Password CLI sessions (OP_SESSION_<account>)
    return _store_connection(words)


def _digest_key(words: list[str]) -> bool:
    """A ``KEY`` that a word says is a digest, an identifier or a lookup's (``CACHE_KEY``, ``SORT_KEY``,
    ``PUBLIC_KEY``), and no other word names a secret: a setting, whatever its value. (Not ``PRIMARY``: a
    database's primary key is a column, but Cosmos DB's ``COSMOS_PRIMARY_KEY`` is its account's secret.)"""
    return len(words) > 1 and words[-1] == "KEY" and bool(set(words[:-1]) & _ENV_DIGEST_WORDS) \
        and not any(w in _SECRET_NAME_WORDS or w.endswith(_GLUED_SUFFIXES) for w in words[:-1])


_ENV_DIGEST_WORDS = _DIGEST_NAME_WORDS - {"PRIMARY", "FOREIGN"}


def _abbreviated_secret(words: list[str]) -> bool:
    """A name whose last word abbreviates a secret: JWKS_PRIVATE, DW_ODBC_CONNSTR; an AK/SK pair's secret key
    (HUAWEICLOUD_SDK_SK, BCE_SECRET_SK; not LANG_SK); a personal access token (GITHUB_PAT, AZURE_DEVOPS_EXT_PAT;
    not DATE_PAT, a pattern)."""
    if len(words) > 1 and words[-1] in ("PRIVATE", "CONNSTR"):
        return True
    if len(words) > 1 and words[-1] == "SK" and (words[-2] in ("SDK", "ACCESS", "SECRET", "API", "CLOUD")
                                                 or words[-2] in _VENDOR_NAMES or words[0] in _VENDOR_NAMES):
        return True
    return "PAT" in words[1:] and any(w in _VENDOR_NAMES or w in _PAT_OWNERS for w in words)


def _store_connection(words: list[str]) -> bool:
    """A data store's or broker's connection string (``REDIS_URL``, ``DATABASE_URL``, ``*_CONNECTION_STRING``):
    secret-bearing when it carries credentials, which many do."""
    if words[-1] == "STRING" and "CONNECTION" in words:
        return True
    return any(w in _CONNECTION_WORDS for w in words[1:]) and any(w in _STORE_WORDS for w in words)


_URL_NAME_ENDINGS = ("URL", "URI", "DSN")
_URL_USERINFO = _rx(r"^\s*[A-Za-z][A-Za-z0-9+.\-]{0,20}://[^\s/?#@]+@")


def holds_named_secret(name: str, value: str) -> bool:
    """:func:`is_secret_env_name`, except a data store's URL without credentials (``REDIS_URL=redis://cache:6379/0``:
    where the store is, not a secret; ``redis://:pw@cache`` is one)."""
    if not is_secret_env_name(name):
        return False
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if _COUNT_NUMBER.fullmatch(value) and (set(words) & _COUNT_WORDS or words[-1] in _IDENTIFIER_WORDS):
        return False  # MAX_TOKENS=4096, PAD_TOKEN_ID=50256: a count or an id of tokens, not one (blind round 32)
    return not (_store_connection(words) and "://" in value and not _URL_USERINFO.match(value))


_COUNT_NUMBER = _rx(r"[0-9]{1,12}(?:\.[0-9]{1,6})?")
_COUNT_WORDS = frozenset({"MAX", "MIN", "NUM", "N", "COUNT", "LIMIT", "SIZE", "LEN", "LENGTH", "PER", "TOTAL", "BUDGET"})


def is_secret_env(name: str, value: str) -> bool:
    """True if a variable holds a secret: by its name (:func:`is_secret_env_name`), a ``*_URL``/``*_URI``/
    ``*_DSN`` whose value has userinfo (``redis://:pw@host``, ``postgres://u:pw@db``), or a value that
    :func:`redact_text`'s patterns call a credential. An empty value holds nothing."""
    if not value:
        return False
    if holds_named_secret(name, value):
        return True
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if words and words[-1].endswith(_URL_NAME_ENDINGS) and _URL_USERINFO.match(value):
        return True
    return credential_value(name, value) or redact_text(value, home="") != value


def redact_env(env: Mapping[str, str], *, home: Optional[str] = None) -> dict[str, str]:
    """Copy of ``env`` with secret-named values masked and every other value redact_text()-ed.

    Empty values stay empty (that a variable is set but empty is itself useful).
    """
    out: dict[str, str] = {}
    for name, value in env.items():
        if value and holds_named_secret(name, value):
            out[name] = _mark("env-secret")
        else:
            out[name] = redact_text(value, home=home)
    return out


def secret_env_values(env: Optional[Mapping[str, str]] = None) -> list[str]:
    """Values of the secret-named variables of ``env`` (default: this process's environment), longest
    first: they are removed literally wherever they occur."""
    env = os.environ if env is None else env
    values = {v for k, v in env.items()
              if v and holds_named_secret(k, v) and len(v) >= _MIN_KNOWN and not _TRIVIAL.match(v)}
    return sorted(values, key=len, reverse=True)


# --------------------------------------------------------------------------- the console


# what a terminal would act on rather than show, in what a run wrote (its failure message, its output): every escape
# sequence but the ones rich writes for its styles and live lines (SGR colours; cursor up/down/left/right, to a
# column, erase in line, show/hide the cursor) — clearing the screen or the scrollback, moving the cursor home,
# queries the terminal answers on its input, titles, DCS —, C1 controls (U+0080..U+009F, the 8-bit CSI/OSC/DCS)
# and C0 controls but tab, line feed and carriage return. Each is shown as its escape (``\x1b``), never acted on.
# every terminal control but a colour (SGR) and a line's end: ESC (a cursor move, an erase, OSC 52/8, DCS, RIS), a
# carriage return that does not end a line (it overwrites what the line showed), the C0 and C1 controls; and the
# bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069, the marks U+200E, U+200F, U+061C): a
# message that reorders what follows it shows other text than it holds (Trojan Source, CVE-2021-42574)
_TERMINAL_CONTROL = _rx(r"\x1b(?!\[[0-9;]{0,32}m)|\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f\x80-\x9f"
                               "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
# the colours (SGR) that pass: reset, bold, italic, underline and their ends, and the foreground colours but black and
# white (the ones reportkit's own styles and pytest's use); any other (concealed ``8``, reversed, faint, a background,
# black on black, 256 or 24-bit colours) is written out: it could hide a message's text, or every row after it
_SGR = _rx(r"\x1b\[([0-9;]{0,32})m")
_SHOWN_SGR = frozenset(["", "0", "1", "3", "4", "22", "23", "24", "39", *map(str, range(31, 37)), *map(str, range(91, 97))])


def _sgr_shown(m: re.Match[str]) -> str:
    return m.group() if all(p in _SHOWN_SGR for p in m.group(1).split(";")) else "\\x1b" + m.group()[1:]


# what a live display (rich's Live: reportkit's progress line on a terminal) writes before each frame: it returns to
# the line's start, erases it, moves up, hides or shows the cursor
_LIVE_CONTROLS = _rx(r"(?:\r|\x1b\[[0-9]{0,4}[ABCDGK]|\x1b\[\?25[hl])+")
_LIVE_TAIL = _rx(r"\n((?:\r|\x1b\[[0-9]{0,4}[ABCDGK]|\x1b\[\?25[hl])+)\Z")
_LIVE = [0]  # live displays drawn now (:func:`live_display`)


def shown(text: str, live: bool = False) -> str:
    """``text`` with the terminal controls of :data:`_TERMINAL_CONTROL` written out as escapes (``\\x1b``, ``\\x0d``):
    what a run printed cannot move the cursor, erase or overwrite a line, set the clipboard or the title.
    ``live``: the cursor moves that lead ``text``, and those that end it after its last line, are a live display's
    own and stay."""
    head = _LIVE_CONTROLS.match(text) if live else None
    start = head.end() if head else 0
    tail = _LIVE_TAIL.search(text, start) if live else None  # (a frame's end: a new line, then the cursor shown,
    end = tail.start(1) if tail else len(text)  # moved back up and the line erased: the display is gone)
    middle = _SGR.sub(_sgr_shown, text[start:end]) if "\x1b[" in text else text[start:end]
    return text[:start] + _TERMINAL_CONTROL.sub(_escaped_control, middle) + text[end:]


def _escaped_control(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@contextlib.contextmanager
def live_display() -> Iterator[None]:
    """While a live display (rich's ``Live``) draws on a console stream, the cursor moves leading each of the
    stream's writes are its frame's and pass :func:`shown`; everything after them is escaped as ever."""
    _LIVE[0] += 1
    try:
        yield
    finally:
        _LIVE[0] -= 1


class RedactingStream:
    """A text stream whose writes go through :func:`redact_text` (the consoles' edge; paths kept), then
    :func:`shown` (no terminal control but colours reaches the terminal).
    ``stream``: a function returning the stream to write to, looked up on every write (``sys.stdout``
    may be replaced, e.g. by test runners)."""

    def __init__(self, stream: Callable[[], object]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        target = self._stream()
        if isinstance(target, RedactingStream):  # sys.stdout is one already (reportkit's main)
            return target.write(text)
        target.write(shown(redact_text(text, home=""), live=_LIVE[0] > 0))  # type: ignore[attr-defined]
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self._stream(), name)


__all__ = [
    "MARK", "RedactingStream", "argv_secrets", "content_kind", "credentials_in", "env_secrets", "forget_known",
    "is_secret_env_name", "known_values", "live_display", "looks_random", "plain_setting", "protect", "redact_argv", "redact_code",
    "redact_data", "redact_env", "redact_for", "redact_markdown", "redact_output", "redact_text", "remember", "remember_argv",
    "remember_code", "remember_env", "secret_env_values", "shannon_entropy", "shown", "unprotect",
]
