#!/usr/bin/env python3
"""How many of the definitions universal-ctags finds are Quarry symbols, per language and kind.

    python3 bench/ctags_gap.py [--quarry BINARY] [--missing N] DIR...

Each DIR is indexed by Quarry into a temporary store and by `ctags -R` (its default kinds, but
the ones Quarry has no symbol for by design: imports, packages, local variables and
parameters, labels). A ctags definition counts as found when a symbol of that file has its name
and a range that holds its line. Prints, per language, ctags' definitions, the share found and,
for each ctags kind, the same; `--missing N` lists up to N definitions not found per language.
Exits 1 when a language with at least 50 definitions is below 98 %.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

# ctags kinds that are no definitions Quarry keeps (per ctags language; `*` for all). A Rust
# `impl` block is no symbol: its members are, under the type's name.
SKIPPED_KINDS = {
    "*": {"package", "packageName", "namespace", "import", "unknown", "label", "local",
          "parameter"},
    "Python": {"namespace", "unknown", "module"},
    "Go": {"packageName", "anonMember"},
    "C": {"header", "macroparam", "externvar", "prototype"},
    "C++": {"header", "macroparam", "externvar", "prototype", "using"},
    "Java": {"package", "enumConstant_noname"},
    "Ruby": {"library"},
    "PHP": {"alias", "namespace"},
    "TypeScript": {"alias"},
    "Rust": {"implementation"},
}

# ctags' language names to Quarry's `language` column.
LANGUAGES = {
    "Rust": "rust", "Python": "python", "JavaScript": "javascript", "TypeScript": "typescript",
    "Go": "go", "Java": "java", "C": "c", "C++": "cpp", "C#": "csharp", "Ruby": "ruby",
    "PHP": "php",
}


def ctags_definitions(root):
    out = subprocess.run(
        ["ctags", "-R", "--output-format=json", "--fields=+nKlsZ", "--extras=-F", "-f", "-", "."],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout
    defs = []
    for line in out.splitlines():
        try:
            t = json.loads(line)
        except json.JSONDecodeError:
            continue
        if t.get("_type") != "tag":
            continue
        lang, kind = t.get("language"), t.get("kind")
        if lang not in LANGUAGES or kind in SKIPPED_KINDS["*"] or kind in SKIPPED_KINDS.get(lang, ()):
            continue
        # Local scopes' definitions (a function's inner variables; ctags gives callbacks no
        # scope, so in JavaScript and TypeScript an indented one), anonymous functions, and
        # CommonJS imports (`var x = require('x')`) are no Quarry symbols.
        pattern = t.get("pattern", "")
        if kind in ("variable", "constant") and (
            t.get("scopeKind") in ("function", "method")
            or (lang in ("JavaScript", "TypeScript") and pattern[2:3] in (" ", "\t"))
            or "require(" in pattern
        ):
            continue
        if t["name"].startswith(("AnonymousFunction", "__anon")):
            continue
        path = t["path"][2:] if t["path"].startswith("./") else t["path"]
        defs.append((LANGUAGES[lang], kind, path, t["name"], int(t.get("line", 0))))
    return defs


def quarry_symbols(binary, root):
    store = tempfile.mkdtemp(prefix="ctags-gap-")
    env = dict(os.environ, QUARRY_STORE=store, NO_COLOR="1")
    subprocess.run([binary, "index", root, "--name", "gap"], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run(
        [binary, "sql", "SELECT path, name, start_line, end_line FROM symbols", "--source",
         "gap", "--json"], env=env, check=True, capture_output=True, text=True,
    ).stdout
    by_file = collections.defaultdict(list)
    for r in json.loads(out)["rows"]:
        by_file[(r["path"], r["name"])].append((r["start_line"], r["end_line"]))
    subprocess.run(["rm", "-rf", store])
    return by_file


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--quarry", default=os.path.join(
        os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/quarry-target")),
        "release", "quarry"))
    ap.add_argument("--missing", type=int, default=0)
    a = ap.parse_args()
    totals = collections.defaultdict(lambda: [0, 0])
    kinds = collections.defaultdict(lambda: [0, 0])
    missing = collections.defaultdict(list)
    for root in a.dirs:
        symbols = quarry_symbols(a.quarry, root)
        for lang, kind, path, name, line in ctags_definitions(root):
            ranges = symbols.get((path, name), [])
            found = any(s <= line <= e for s, e in ranges)
            for t in (totals[lang], kinds[(lang, kind)]):
                t[0] += 1
                t[1] += found
            if not found:
                missing[lang].append(f"{os.path.basename(root)}/{path}:{line} {kind} {name}")
    for lang in missing:
        # Spread the listed examples over kinds.
        missing[lang].sort(key=lambda m: (m.split()[1], m))
    failed = False
    print(f"{'language':<12} {'ctags':>7} {'found':>7}  by kind")
    for lang, (n, f) in sorted(totals.items()):
        share = f / n if n else 1.0
        by_kind = ", ".join(
            f"{k} {kf}/{kn}" for (l, k), (kn, kf) in sorted(kinds.items()) if l == lang
        )
        print(f"{lang:<12} {n:>7} {share:>7.1%}  {by_kind}")
        failed |= n >= 50 and share < 0.98
        for m in missing[lang][: a.missing]:
            print(f"    missing {m}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
