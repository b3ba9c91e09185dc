"""Regenerates the rows of ``reportkit/token_table.py`` from checkouts of the public scanner catalogues.

Usage: python benchmarks/token_catalogue.py GITLEAKS_TOML BETTERLEAKS_TOML KINGFISHER_RULES_DIR
[NOSEYPARKER_RULES_DIR [TRUFFLEHOG_DETECTORS_DIR]] > rows.py
(``config/gitleaks.toml`` of gitleaks, ``config/betterleaks.toml`` of betterleaks, ``data/rules`` of Kingfisher,
``crates/noseyparker/data/default/builtin/rules`` of Nosey Parker, ``pkg/detectors`` of trufflehog); paste the rows
into the table. Only shapes are read (prefix, alphabet, length), see the table's header. A trufflehog detector's
patterns are read from its ``regexp.MustCompile(`...`)`` calls; one built on ``detectors.PrefixRegex`` needs a
keyword before it (a keyword-context rule) and is left out, as is one bound to a variable that names an id, a
user, a URL or a host.
"""

import glob
import re
import re._constants as C
import re._parser as P
import sys

import tomllib
import yaml


def yaml_rules(src, directory):
    for f in sorted(glob.glob(directory + "/*.yml")):
        try:
            d = yaml.safe_load(open(f))
        except Exception:
            continue
        for r in (d or {}).get("rules", []):
            if "pattern" in r and not PUBLIC.search(r.get("name", "")):
                yield src, r["id"], r["pattern"], []


GO_PATTERN = re.compile(r"(?P<var>\w+)\s*(?:=|:=)\s*regexp\.MustCompile\((?P<keyword>detectors\.PrefixRegex\([^)]*\)\s*\+\s*)?"
                        r"`(?P<rx>[^`]*)`\)")
GO_NOT_SECRET = re.compile(r"(?i)id|user|email|url|uri|domain|host|endpoint|region|account|org|tenant|name|public|publishable")
PUBLIC = re.compile(r"(?i)recipient|public key")


def trufflehog_rules(directory):
    for f in sorted(glob.glob(directory + "/*/*.go")):
        if f.endswith("_test.go"):
            continue
        detector = f.split("/")[-2]
        for m in GO_PATTERN.finditer(open(f).read()):
            if m.group("keyword") or GO_NOT_SECRET.search(m.group("var")):
                continue
            yield "trufflehog", f"trufflehog.{detector}.{m.group('var')}", m.group("rx"), []


def rules():
    for src, path in (("gitleaks", sys.argv[1]), ("betterleaks", sys.argv[2])):
        for r in tomllib.load(open(path, "rb"))["rules"]:
            if "regex" in r:
                yield src, r["id"], r["regex"], r.get("keywords", [])
    yield from yaml_rules("kingfisher", sys.argv[3])
    if len(sys.argv) > 4:
        yield from yaml_rules("noseyparker", sys.argv[4])
    if len(sys.argv) > 5:
        yield from trufflehog_rules(sys.argv[5])


CAT = {C.CATEGORY_DIGIT: "0-9", C.CATEGORY_WORD: "A-Za-z0-9_"}
SEP = set("_-.~:$")


def go2py(rx):
    rx = rx.replace("[[:alnum:]]", "[A-Za-z0-9]").replace("[:alnum:]", "A-Za-z0-9").replace("\\z", "\\Z")
    if "(?i)" in rx.lstrip("(?x)\n ")[4:]:  # Go allows a flag in the middle (FLWSECK_TEST-(?i)...): Python at the start
        rx = "(?i)" + rx.replace("(?i)", "")
    return rx


def klass(items, icase):
    out = ""
    for op, arg in items:
        if op is C.LITERAL:
            ch = chr(arg)
            out += re.escape(ch) if ch in "\\]^-[" else ch
            if icase and ch.isalpha():
                o = ch.swapcase()
                if o not in out:
                    out += o
        elif op is C.RANGE:
            a, b = chr(arg[0]), chr(arg[1])
            out += a + "-" + b
            if icase and a.isalpha() and b.isalpha():
                out += a.swapcase() + "-" + b.swapcase()
        elif op is C.CATEGORY and arg in CAT:
            out += CAT[arg]
        else:
            return None
    return "[" + out + "]"


def parse(rx):
    try:
        return P.parse(go2py(rx))
    except Exception:
        return None


def shape(rx):
    p = parse(rx)
    return None if p is None else shape_items(list(p), bool(p.state.flags & re.IGNORECASE))


def secret_group(rx, keywords):
    """A keyword-context rule whose secret (its first group) starts with the keyword itself (``... dnkey ... =
    (dnkey-<26>-<52>)``): the group alone is a prefix rule."""
    p = parse(rx)
    if p is None or not keywords:
        return None
    for op, arg in p:
        if op is C.SUBPATTERN and arg[0] is not None:
            found = shape_items(list(arg[3]), bool((p.state.flags | arg[1]) & re.IGNORECASE))
            if found and all(any(prefix.lower().startswith(k.lower()) for k in keywords) for prefix in found[0]):
                return found
            return None
    return None


def shape_items(items, icase):
    while items and items[0][0] is C.AT:
        items.pop(0)
    if items and items[0][0] is C.SUBPATTERN:
        group, _, _, sub = items[0][1]
        add = items[0][1][1]
        rest = items[1:]
        if all(op in (C.AT, C.BRANCH, C.SUBPATTERN, C.IN) for op, _ in rest):
            icase = icase or bool(add & re.IGNORECASE)
            items = list(sub)
    while items and items[-1][0] is C.AT:
        items.pop()
    prefixes = [""]
    while items:
        op, arg = items[0]
        if op is C.LITERAL:
            prefixes = [p + chr(arg) for p in prefixes]
        elif op is C.IN and all(o is C.LITERAL for o, _ in arg) and len(arg) <= 8 and prefixes != [""]:
            prefixes = [p + chr(a) for p in prefixes for _, a in arg]
        elif (op is C.SUBPATTERN and len(arg[3]) == 1 and arg[3][0][0] is C.BRANCH) or op is C.BRANCH:
            alts = []  # (a non-capturing group of literal alternatives, (?:api|sdk)-, is parsed as a bare BRANCH)
            for alt in (arg if op is C.BRANCH else arg[3][0][1])[1]:
                if not all(o is C.LITERAL for o, _ in alt):
                    alts = None
                    break
                alts.append("".join(chr(a) for _, a in alt))
            if alts is None:
                break
            prefixes = [p + a for p in prefixes for a in alts]
        elif op is C.SUBPATTERN and all(o is C.LITERAL for o, _ in arg[3]) and len(arg[3]):
            prefixes = [p + "".join(chr(a) for _, a in arg[3]) for p in prefixes]
        else:
            break
        items.pop(0)
        if len(prefixes) > 32:
            return None
    if not items:
        return None
    body, minlen, letters = "", 0, False
    for op, arg in items:
        if op is C.LITERAL:
            body += re.escape(chr(arg))
            minlen += 1
        elif op is C.IN:
            k = klass(arg, icase)
            if k is None:
                return None
            body += k
            minlen += 1
            letters |= bool(re.search("[a-zA-Z]", k))
        elif op is C.MAX_REPEAT:
            lo, hi, sub = arg
            if len(sub) != 1 or sub[0][0] is not C.IN:
                return None
            k = klass(sub[0][1], icase)
            if k is None:
                return None
            hi = min(hi, 1024) if hi != C.MAXREPEAT else 1024
            body += k + (f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}")
            minlen += lo
            letters |= bool(re.search("[a-zA-Z]", k))
        else:
            return None
    return prefixes, body, minlen, letters, icase


rows = {}
ORDER = ("gitleaks", "betterleaks", "kingfisher", "noseyparker", "trufflehog")
# an ordinary word before the separator is no vendor's prefix (api_, live_, test_, web_, secret_, account-; pk. is a public key's)
GENERIC = re.compile(r"(?:api|live|test|web|secret)_|(?:account|master)-|pk\.|API_KEY|.*(?:^|[_.\-])id[_.\-].*")
for src, rid, rx, keywords in rules():
    s, derived = shape(rx), False
    if not s:
        s, derived = secret_group(rx, keywords), True
    if not s:
        continue
    prefixes, body, minlen, letters, icase = s
    if derived and minlen < 24:
        continue  # (a keyword-context rule's group: only a long body is a shape without the keyword)
    if re.search(r"[ \"'\\]\]|\\\.(?:com|io|net|org)", body) or body.endswith(("\\\\", "\\")):
        continue  # (a body that takes a quote or a space after it, a host name: not a token's shape)
    if (
        re.search(r"(?:^|[-.])(?:id|client-id|app-id|project-url|public|publishable|pub|sdk-key)(?:$|[-.])", rid)
        or rid == "kingfisher.age.1"
    ):
        continue
    for prefix in prefixes:
        if prefix.startswith("http") or "://" in prefix:
            continue
        if len(prefix) < 3 or not re.search("[A-Za-z]", prefix) or GENERIC.fullmatch(prefix):
            continue
        if not (set(prefix) & SEP) and len(prefix) < 4:
            continue
        if minlen < 16 or not letters:
            continue
        rows.setdefault((prefix, body), (rid, src, derived))


def canon(body):
    def one(m):
        chars = sorted({chr(c) for c in range(32, 127) if re.fullmatch(m.group(0), chr(c))})
        out, i = "", 0
        while i < len(chars):
            j = i
            while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
                j += 1
            a, b = chars[i], chars[j]

            def esc(c):
                return "\\" + c if c in "\\]^-[" else c

            out += esc(a) if i == j else esc(a) + esc(b) if j == i + 1 else esc(a) + "-" + esc(b)
            i = j + 1
        return "[" + out + "]"

    return re.sub(r"\[(?:\\.|[^\]])*\]", one, body)


def kind(rid, src):
    if src in ("kingfisher", "noseyparker", "trufflehog"):
        return rid.split(".")[1].replace("_", "-") + "-token"
    return re.sub(r"\.[0-9]+$", "", rid)


out = {}
for (prefix, body), (rid, src, _) in sorted(rows.items(), key=lambda kv: (kv[1][2], ORDER.index(kv[1][1]), kv[0])):
    out.setdefault((prefix, canon(body)), (kind(rid, src), src))
try:  # a shape already in the table keeps its name and source (the markers it writes stay the same)
    from reportkit.token_table import TOKEN_SHAPES

    out.update({(p, b): (k, src) for k, p, b, src in TOKEN_SHAPES if (p, b) in out})
except ImportError:
    pass
print(len(out), file=sys.stderr)
for (prefix, body), (k, src) in sorted(out.items()):
    print(f"    ({k!r}, {prefix!r}, {body!r}, {src!r}),")
