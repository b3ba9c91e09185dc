"""Regenerates the rows of ``reportkit/token_table.py`` from checkouts of the public scanner catalogues.

Usage: python benchmarks/token_catalogue.py GITLEAKS_TOML BETTERLEAKS_TOML KINGFISHER_RULES_DIR > rows.py
(``config/gitleaks.toml`` of gitleaks, ``config/betterleaks.toml`` of betterleaks, ``data/rules`` of Kingfisher);
paste the rows into the table. Only shapes are read (prefix, alphabet, length), see the table's header.
"""

import glob
import re
import re._constants as C
import re._parser as P
import sys

import tomllib
import yaml


def rules():
    for src, path in (("gitleaks", sys.argv[1]), ("betterleaks", sys.argv[2])):
        for r in tomllib.load(open(path, "rb"))["rules"]:
            if "regex" in r:
                yield src, r["id"], r["regex"]
    for f in sorted(glob.glob(sys.argv[3] + "/*.yml")):
        try:
            d = yaml.safe_load(open(f))
        except Exception:
            continue
        for r in (d or {}).get("rules", []):
            if "pattern" in r:
                yield "kingfisher", r["id"], r["pattern"]


CAT = {C.CATEGORY_DIGIT: "0-9", C.CATEGORY_WORD: "A-Za-z0-9_"}
SEP = set("_-.~:$")


def go2py(rx):
    rx = rx.replace("[[:alnum:]]", "[A-Za-z0-9]").replace("[:alnum:]", "A-Za-z0-9").replace("\\z", "\\Z")
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


def shape(rx):
    try:
        p = P.parse(go2py(rx))
    except Exception:
        return None
    icase = bool(p.state.flags & re.IGNORECASE)
    items = list(p)
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
        elif op is C.SUBPATTERN and len(arg[3]) == 1 and arg[3][0][0] is C.BRANCH:
            alts = []
            for alt in arg[3][0][1][1]:
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
for src, rid, rx in rules():
    s = shape(rx)
    if not s:
        continue
    prefixes, body, minlen, letters, icase = s
    if (
        re.search(r"(?:^|[-.])(?:id|client-id|app-id|project-url|public|publishable|sdk-key)(?:$|[-.])", rid)
        or rid == "kingfisher.age.1"
    ):
        continue
    for prefix in prefixes:
        if prefix.startswith("http") or "://" in prefix:
            continue
        if len(prefix) < 3 or not re.search("[A-Za-z]", prefix):
            continue
        if not (set(prefix) & SEP) and len(prefix) < 4:
            continue
        if minlen < 16 or not letters:
            continue
        rows.setdefault((prefix, body), (rid, src))


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
    if src == "kingfisher":
        return rid.split(".")[1].replace("_", "-") + "-token"
    return re.sub(r"\.[0-9]+$", "", rid)


out = {}
for (prefix, body), (rid, src) in sorted(rows.items()):
    out.setdefault((prefix, canon(body)), (kind(rid, src), src))
print(len(out), file=sys.stderr)
for (prefix, body), (k, src) in sorted(out.items()):
    print(f"    ({k!r}, {prefix!r}, {body!r}, {src!r}),")
