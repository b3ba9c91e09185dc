"""Redact secrets from text and environments before they go into a bundle or an issue.

Every replacement leaves a marker ``<redacted:KIND>`` so a reader knows something was
there. All patterns are compiled once at import; each is a single linear scan with
bounded quantifiers, so multi-megabyte logs are fine.

Environment rule (``redact_env``, see :func:`is_secret_env_name`): a value is masked when
the variable *name*, split into words on ``_``, ``-`` and ``.`` (case-insensitive),

* contains one of the words ``TOKEN(S) SECRET(S) PASSWORD(S) PASSWD PASS PASSPHRASE
  CREDENTIAL(S) CREDS AUTH COOKIE(S) APIKEY KEY PRIVATEKEY SIGNATURE``, or
* has a word ending in ``PASSWORD PASSWD PASSPHRASE TOKEN SECRET APIKEY CREDENTIALS``
  (``PGPASSWORD``, ``GITHUBTOKEN``), or
* has ``SESSION`` as its last word or followed by ``ID``/``KEY`` (and ``OP_SESSION_*``, 1Password's
  CLI sessions), or ``PWD`` after another word (``MYSQL_PWD``), or is one word ending in ``PASS``
  (``SSHPASS``),

unless its last word is ``FILE``/``PATH``/``DIR``/``SOCK``/``TYPE`` (a location or kind,
not the secret itself: ``SSH_AUTH_SOCK``). Matching is by whole words, so ``KEYBOARD``,
``TOKENIZERS_PARALLELISM``, ``GIT_ASKPASS``, ``AUTHOR``, ``PWD``/``OLDPWD``,
``XDG_SESSION_TYPE`` and ``DBUS_SESSION_BUS_ADDRESS`` are left alone. All other values
still go through :func:`redact_text` (URL credentials, tokens, home directory).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Callable, Optional

MARK = "<redacted:{}>"


def _mark(kind: str) -> str:
    return MARK.format(kind)


_PEM_BEGIN = re.compile(r"-----BEGIN (?P<label>[A-Z0-9 ]{0,40})PRIVATE KEY(?P<block> BLOCK)?-----")
# the end of a block whose beginning is not in the text (clipped output): the key lines before it go too
_PEM_ORPHAN_END = re.compile(
    r"(?:^[ \t]*(?:[A-Za-z0-9+/=]{16,200}|=[A-Za-z0-9+/]{2,8})[ \t]*\r?\n){1,600}"
    r"[ \t]*-----END (?:[A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)?-----",
    re.MULTILINE,
)
# body lines after a header whose END marker is missing (log cut off)
_PEM_BODY = re.compile(
    r"(?:[ \t]*\r?\n[ \t]*"
    r"(?:[A-Za-z0-9+/=]{1,200}(?=\s|$)|[A-Za-z\-]{1,40}: [^\n]{0,200}|(?=\r?\n)))*"
)
_PEM_MAX_BYTES = 32768


def _redact_private_keys(text: str) -> str:
    """PEM private key blocks -> marker. str.find with a bounded window keeps this linear-ish."""
    if "PRIVATE KEY" not in text:
        return text
    parts: list[str] = []
    pos = 0
    for m in _PEM_BEGIN.finditer(text):
        if m.start() < pos:
            continue  # inside a block already redacted
        end_marker = f"-----END {m['label']}PRIVATE KEY{m['block'] or ''}-----"
        end = text.find(end_marker, m.end(), m.end() + _PEM_MAX_BYTES)
        stop = end + len(end_marker) if end >= 0 else _PEM_BODY.match(text, m.end()).end()
        parts += [text[pos : m.start()], _mark("private-key")]
        pos = stop
    parts.append(text[pos:])
    text = "".join(parts)
    if "-----END " in text:
        text = _PEM_ORPHAN_END.sub(_mark("private-key"), text)
    return text


# (kind, pattern). Order matters: whole blocks and specific token shapes first, so the
# marker names the most precise kind; generic "NAME=value" assignments last.
_TOKEN_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("github-token", re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,255}(?![A-Za-z0-9_])")),
    ("github-token", re.compile(r"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{30,255}(?![A-Za-z0-9_])")),
    ("huggingface-token", re.compile(r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,100}(?![A-Za-z0-9_])")),
    (
        "aws-access-key-id",
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
    ),
    (
        "openai-key",
        re.compile(
            r"(?<![A-Za-z0-9_\-])sk-(?=[A-Za-z0-9_\-]{0,200}[0-9])[A-Za-z0-9_\-]{20,200}(?![A-Za-z0-9_\-])"
        ),
    ),
    ("slack-token", re.compile(r"(?<![A-Za-z0-9_\-])xox[abposr]-[A-Za-z0-9\-]{10,250}")),
    ("slack-token", re.compile(r"(?<![A-Za-z0-9_\-])xapp-[0-9]-[A-Za-z0-9\-]{10,250}")),
]

# scheme://user:pass@host -> scheme://<redacted:url-credentials>@host (also token-only "user").
_URL_CREDENTIALS = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]{0,20}://)(?P<userinfo>[^\s/@:<>\"']{1,256}:[^\s/@<>\"']{0,256})@"
)
_URL_TOKEN_USER = re.compile(r"(?P<scheme>\bhttps?://)(?P<userinfo>[A-Za-z0-9_\-]{20,256})@")
_AUTH_HEADER = re.compile(
    r"(?P<prefix>\b(?:proxy-)?authorization[\"']?\s{0,5}[:=]\s{0,5}[\"']?(?:bearer|basic|token|digest)?\s{0,5})"
    r"(?P<value>(?!<redacted)[^\s\"',;]{4,})",
    re.IGNORECASE,
)
_BEARER = re.compile(
    r"(?P<prefix>\bbearer\s{1,5})(?P<value>(?!<redacted)[A-Za-z0-9\-._~+/]{16,}=*)", re.IGNORECASE
)
_AWS_SECRET = re.compile(
    r"(?P<prefix>\baws_secret_access_key[\"']?\s{0,5}[=:]\s{0,5}[\"']?)(?P<value>[A-Za-z0-9/+=]{30,80})",
    re.IGNORECASE,
)

# NAME = value where NAME ends in a secret-ish word. Long words may be glued to the name
# (accessToken, DB_PASSWORD); short ambiguous ones need a separator or to be the whole
# name (DB_PASS, auth) so compass/oauth-like words are not hit. Python-code friendly: the
# value must be a quoted literal, or a bare word not followed by "(", "[", "." or "=";
# numbers, booleans, None, type names and dotted identifiers are left alone.
_LONG_SECRET_WORD = (
    r"(?:token|secret|password|passwd|passphrase|credentials?|api[_\-]?key|access[_\-]?key|"
    r"secret[_\-]?key|private[_\-]?key|session[_\-]?id)"
)
_SHORT_SECRET_WORD = r"(?:(?<=[_.\-])|(?<![A-Za-z0-9_.\-]))(?:pass|auth|creds|cookie)"
_SECRET_NAME = r"[A-Za-z0-9_.\-]{0,64}?(?:" + _LONG_SECRET_WORD + "|" + _SHORT_SECRET_WORD + r")s?"
_SEPARATOR = (
    r"(?:\s{0,5}:\s{0,5}[A-Za-z_][\w\[\], .|]{0,60}?\s{0,5}=(?!=)"  # annotated: "token: str = ..."
    r"|\s{0,5}(?::=|=(?!=)|:(?![:=])))\s{0,5}"
)
_VALUE = (
    r"(?:(?P<q>[\"'])(?P<qvalue>(?!<redacted)[^\"'\n]{1,512})(?P=q)"
    r"|(?P<value>(?!<redacted)(?!=)[^\s\"'`,;(){}\[\]<>]{1,512})(?=$|[\s,;)\]}])(?!\s{0,5}=))"
)
_ASSIGNMENT = re.compile(
    r"(?P<prefix>(?<![A-Za-z0-9_.\-])(?:--)?[\"']?" + _SECRET_NAME + r"[\"']?" + _SEPARATOR + ")" + _VALUE,
    re.IGNORECASE | re.MULTILINE,
)
_UPPER_KEY_ASSIGNMENT = re.compile(  # FOO_KEY=value (upper-case env style only)
    r"(?P<prefix>(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]{0,64}_KEY[\"']?\s{0,5}[=:](?![=:])\s{0,5})" + _VALUE,
    re.MULTILINE,
)
_CLI_FLAG = re.compile(
    r"(?P<prefix>(?<![A-Za-z0-9_\-])--(?:[a-z0-9]+-){0,4}(?:token|password|passwd|secret|api-key|access-key)\s{1,5})"
    r"(?P<value>(?!<redacted)(?!-)[^\s\"']{1,512})",
    re.IGNORECASE,
)
_JWT = re.compile(r"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")
_NOT_SECRET_VALUE = re.compile(
    r"^(?:-?\d+(?:\.\d+)?|true|false|none|null|nil|yes|no|on|off|enabled?|disabled?|required|optional|"
    r"\*+|x+|str|int|float|bool|bytes|dict|list|tuple|set|any|object|"
    r"[A-Za-z_]\w{0,30}(?:\.[A-Za-z_]\w{0,30})+)$",
    re.IGNORECASE,
)


def _replace_value(kind: str) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        groups = m.groupdict()
        quote = groups.get("q") or ""
        value = groups.get("qvalue") if quote else groups.get("value")
        if value is None or _NOT_SECRET_VALUE.match(value):
            return m.group(0)
        return f"{m.group('prefix')}{quote}{_mark(kind)}{quote}"

    return repl


def _home_pattern(home: str) -> Optional[re.Pattern[str]]:
    home = home.rstrip("/\\")
    if len(home) < 2 or home in ("/", "~"):
        return None
    # whole path components only: /root must not touch /rootfs or /srv/x-root; a JSON/C escape
    # right before the path (``"\n/root/x"`` in a JSON dump) still starts a new component
    return re.compile(r"(?:(?<![\w.\-~$])|(?<=\\[nrt]))" + re.escape(home) + r"(?![\w.\-])")


def _default_homes() -> list[str]:
    homes = [os.path.expanduser("~")]
    try:
        real = os.path.realpath(homes[0])
    except OSError:
        real = homes[0]
    if real != homes[0]:
        homes.append(real)
    return homes


# --------------------------------------------------------------------------- detect-secrets' detectors

# detect-secrets (Yelp's maintained secret scanner) ships one regex detector per credential format
# (AWS, Azure, GitHub, GitLab, JWT, npm, PyPI, SendGrid, Slack, Stripe, Twilio, IBM, ...): they run
# over the whole text next to the rules above. Left out: its private-key detector (it flags the header
# only; whole blocks are removed above), public IPs (not secrets), the keyword detector (the
# assignment rule above, tuned for Python code) and the generic high-entropy detectors (they flag
# every commit SHA, which bug reports need): entropy is used for ``--flag value`` arguments only.
_DS_SKIP = {"PrivateKeyDetector", "IPPublicDetector"}


def _detect_secrets_patterns() -> list[tuple[str, re.Pattern[str]]]:
    try:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.plugins.base import RegexBasedDetector
    except ImportError:  # pragma: no cover - a dependency; without it the rules above still apply
        return []
    out = []
    for secret_type, cls in sorted(get_mapping_from_secret_type_to_class().items()):
        if not issubclass(cls, RegexBasedDetector) or cls.__name__ in _DS_SKIP:
            continue
        kind = re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")
        for pattern in cls.denylist:
            out.append((kind, re.compile(pattern.pattern, pattern.flags | re.MULTILINE)))
    return out


_DS_PATTERNS = _detect_secrets_patterns()
_EDGE_CHARS = " \t\r\n\"'=:[](),;"


# The keyword detectors (Cloudant, IBM, SoftLayer: "<vendor>_<key|pwd|token> = <24+ chars>") try two
# lookbehinds and a long alternation at every position; they run only on the lines that have an
# assignment of a 24+ character value, which a quick scan finds.
_DS_KEYWORD_PREFIX = "(?:(?<=\\W)|(?<=^))"
_LONG_ASSIGNED = re.compile(r"[=:>][ \t]{0,3}[\"']?[A-Za-z0-9_\-+/]{24,}")


def _ds_ranges(text: str, keyword: bool) -> list[tuple[int, int]]:
    if not keyword:
        return [(0, len(text))]
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


def _redact_detect_secrets(text: str) -> str:
    spans: list[tuple[int, int, str]] = []
    keyword_ranges: list[tuple[int, int]] | None = None
    for kind, pattern in _DS_PATTERNS:
        keyword = pattern.pattern.startswith(_DS_KEYWORD_PREFIX)
        if keyword and keyword_ranges is None:
            keyword_ranges = _ds_ranges(text, True)
        ranges = keyword_ranges if keyword else [(0, len(text))]
        for m in (m for lo, hi in ranges for m in pattern.finditer(text, lo, hi)):
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
            if end - start >= 8 and not text.startswith("<redacted", start):
                spans.append((start, end, kind))
    if not spans:
        return text
    spans.sort()
    parts, pos = [], 0
    for start, end, kind in spans:
        if start < pos:
            continue
        parts += [text[pos:start], _mark(kind)]
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


# --------------------------------------------------------------------------- --flag value in argv

_FLAG_VALUE = re.compile(
    r"(?P<prefix>(?<![A-Za-z0-9_\-])[\"']?--(?P<flag>[A-Za-z][A-Za-z0-9_\-]{0,60})"
    r"(?:[\"']\s{0,3},\s{0,40}[\"']|=|\s{1,5}))"  # "--flag", "value" | --flag=value | --flag value
    r"(?:(?P<fq>')(?P<fqvalue>(?!<redacted)[^'\n]{1,512})'|(?P<value>(?!<redacted)(?!-)[^\s\"',;]{1,512}))"
)
_SECRET_FLAG = re.compile(r"(?:^|[-_])(?:pass|passwd|password|passphrase|pw|pwd|secret|token|auth|creds?|"
                          r"credentials?|api[-_]?key|access[-_]?key|private[-_]?key|key)$|"
                          r"(?:password|passwd|secret|token|apikey)$", re.IGNORECASE)


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value`` (the measure detect-secrets' entropy detectors use)."""
    import math
    from collections import Counter

    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def looks_random(value: str) -> bool:
    """A password/token-like argument value: at least 8 characters, 3.0+ bits of entropy per
    character, and a mix of three character classes (lower, upper, digits, symbols) without the
    separators of names and versions (``resnet50_v2``, ``Qwen2.5-7B`` stay), or 20+ characters at
    4.0+ bits."""
    if len(value) < 8 or "/" in value or value.startswith("<redacted"):
        return False
    entropy = shannon_entropy(value)
    if len(value) >= 20 and entropy >= 4.0:
        return True
    if entropy < 3.0:
        return False
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]", r"[^A-Za-z0-9]"))
    separators = re.search(r"[-_.]", value) is not None
    return classes >= 3 and (not separators or bool(re.search(r"[^A-Za-z0-9\-_.]", value)))


def _flag_value(m: re.Match[str]) -> str:
    value = m.group("fqvalue") if m.group("fq") else m.group("value")
    if "<redacted:" in value:
        return m.group(0)
    if _SECRET_FLAG.search(m.group("flag")):
        if _NOT_SECRET_VALUE.match(value):
            return m.group(0)
    elif not looks_random(value):
        return m.group(0)
    quote = m.group("fq") or ""
    return f"{m.group('prefix')}{quote}{_mark('secret-argument')}{quote}"


def redact_argv(argv: list[str]) -> list[str]:
    """``argv`` with the values of secret-named flags and random-looking flag values redacted."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg.startswith("-") and "=" not in arg and i + 1 < len(out) and not out[i + 1].startswith("-"):
            flag = arg.lstrip("-")
            value = out[i + 1]
            if (_SECRET_FLAG.search(flag) and not _NOT_SECRET_VALUE.match(value)) or looks_random(value):
                out[i + 1] = _mark("secret-argument")
    return [redact_text(a) if not a.startswith("<redacted") else a for a in out]


def redact_text(text: str, *, home: str | None = None) -> str:
    """Replace secrets in ``text`` with ``<redacted:KIND>`` markers and the home dir with ``~``.

    ``home`` defaults to the current user's home directory (and its realpath); pass
    ``home=""`` to keep paths as they are.
    """
    if not text:
        return text
    text = _redact_private_keys(text)
    for kind, pattern in _TOKEN_PATTERNS:
        text = pattern.sub(_mark(kind), text)
    text = _JWT.sub(_mark("jwt"), text)
    text = _URL_CREDENTIALS.sub(lambda m: f"{m['scheme']}{_mark('url-credentials')}@", text)
    text = _URL_TOKEN_USER.sub(lambda m: f"{m['scheme']}{_mark('url-credentials')}@", text)
    text = _AWS_SECRET.sub(lambda m: f"{m['prefix']}{_mark('aws-secret-key')}", text)
    text = _AUTH_HEADER.sub(lambda m: f"{m['prefix']}{_mark('authorization')}", text)
    text = _BEARER.sub(lambda m: f"{m['prefix']}{_mark('authorization')}", text)
    text = _CLI_FLAG.sub(_replace_value("secret"), text)
    text = _FLAG_VALUE.sub(_flag_value, text)
    text = _ASSIGNMENT.sub(_replace_value("secret"), text)
    text = _UPPER_KEY_ASSIGNMENT.sub(_replace_value("secret"), text)
    text = _redact_detect_secrets(text)
    homes = _default_homes() if home is None else [home]
    for h in sorted(homes, key=len, reverse=True):
        pattern = _home_pattern(h) if h else None
        if pattern is not None:
            text = pattern.sub("~", text)
    if home is None and "/home" in text:
        text = _SANDBOX_HOME.sub("~", text)
    return text


# the scratch $HOME a sandboxed run had (reportkit/run/sandbox.py): cold runs' and the warm server's
_SANDBOX_HOME = re.compile(
    r"(?<![\w.\-~$])/[^\s\"'<>]{0,200}?/reportkit-(?:session-[\w]+/reportkit-[\w]+/run-[\w]+|warm-[\w]+)/home"
    r"(?![\w.\-])"
)


_SECRET_NAME_WORDS = frozenset(
    {
        "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASS",
        "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTH", "COOKIE", "COOKIES",
        "APIKEY", "KEY", "PRIVATEKEY", "SIGNATURE", "WEBHOOK", "WEBHOOKS", "JWT",
    }
)  # fmt: skip
_GLUED_SUFFIXES = ("PASSWORD", "PASSWD", "PASSPHRASE", "TOKEN", "SECRET", "APIKEY", "CREDENTIALS", "WEBHOOK")
_LOCATION_SUFFIXES = frozenset({"FILE", "PATH", "DIR", "SOCK", "TYPE"})
_NOT_PASS_WORDS = frozenset({"ASKPASS", "BYPASS", "COMPASS", "SURPASS", "OVERPASS", "UNDERPASS", "OLDPWD", "MULTIPASS",
                             "ONEPASS", "SINGLEPASS", "FIRSTPASS", "SECONDPASS", "NOPASS"})


def is_secret_env_name(name: str) -> bool:
    """True if an environment variable name looks like it holds a secret (rule: module doc)."""
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if not words or words[-1] in _LOCATION_SUFFIXES:
        return False
    if any(w in _SECRET_NAME_WORDS or w.endswith(_GLUED_SUFFIXES) for w in words):
        return True
    if len(words) > 1 and ("PWD" in words[1:] or "PW" in words[1:]):  # MYSQL_PWD; not PWD/OLDPWD (working dirs)
        return True
    last = words[-1]
    if len(words) > 1 and last.endswith(("PW", "PWD", "PASS")) and last not in _NOT_PASS_WORDS:
        return True  # SPYRE_ROOTPW, SPYRE_DBPASS
    if len(words) == 1 and last.endswith("PASS") and last not in _NOT_PASS_WORDS:
        return True  # SSHPASS
    if words[:2] == ["OP", "SESSION"]:
        return True  # OP_SESSION_<account>: a 1Password CLI session token
    for i, word in enumerate(words):
        if word == "SESSION" and (i == len(words) - 1 or words[i + 1] in ("ID", "KEY")):
            return True
    return False


_URL_NAME_ENDINGS = ("URL", "URI", "DSN")
_URL_USERINFO = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.\-]{0,20}://[^\s/?#@]+@")


def is_secret_env(name: str, value: str) -> bool:
    """True if a variable holds a secret: by its name (:func:`is_secret_env_name`), a ``*_URL``/``*_URI``/
    ``*_DSN`` whose value has userinfo (``redis://:pw@host``, ``postgres://u:pw@db``), or a value that
    :func:`redact_text`'s patterns call a credential. An empty value holds nothing."""
    if not value:
        return False
    if is_secret_env_name(name):
        return True
    words = [w for w in re.split(r"[_\-.]+", name.upper()) if w]
    if words and words[-1].endswith(_URL_NAME_ENDINGS) and _URL_USERINFO.match(value):
        return True
    return redact_text(value, home="") != value


def redact_env(env: Mapping[str, str], *, home: str | None = None) -> dict[str, str]:
    """Copy of ``env`` with secret-named values masked and every other value redact_text()-ed.

    Empty values stay empty (that a variable is set but empty is itself useful).
    """
    out: dict[str, str] = {}
    for name, value in env.items():
        if value and is_secret_env_name(name):
            out[name] = _mark("env-secret")
        else:
            out[name] = redact_text(value, home=home)
    return out


# --------------------------------------------------------------------------- the output edge

_MIN_SECRET_VALUE = 6
_TRIVIAL = re.compile(r"^(?:\d{1,7}|true|false|yes|no|on|off|none|null)$", re.IGNORECASE)


def secret_env_values(env: Mapping[str, str] | None = None) -> list[str]:
    """Values of the secret-named variables of ``env`` (default: this process's environment), longest
    first: they are removed literally wherever they occur."""
    env = os.environ if env is None else env
    values = {v for k, v in env.items()
              if v and is_secret_env_name(k) and len(v) >= _MIN_SECRET_VALUE and not _TRIVIAL.match(v)}
    return sorted(values, key=len, reverse=True)


def redact_output(text: str, *, env: Mapping[str, str] | None = None, home: str | None = None) -> str:
    """The one redaction pass at the edge of every writer (console, summaries, step summary and
    outputs, manifests, bundles, issue bodies): secret environment values, then :func:`redact_text`."""
    if not text:
        return text
    for value in secret_env_values(env):
        if value in text:
            text = text.replace(value, _mark("env-secret"))
    return redact_text(text, home=home)


class RedactingStream:
    """A text stream whose writes go through :func:`redact_output` (the consoles' edge). ``stream``:
    a function returning the stream to write to, looked up on every write (``sys.stdout`` may be
    replaced, e.g. by test runners)."""

    def __init__(self, stream: Callable[[], object]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream().write(redact_output(text, home=""))
        return len(text)

    def __getattr__(self, name):
        return getattr(self._stream(), name)
