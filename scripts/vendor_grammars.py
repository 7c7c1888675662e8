#!/usr/bin/env python3
"""The grammar crates in third_party/grammars: imported as published, then their lexers made
faster without changing what they lex (third_party/grammars/QUARRY.md says why and how it was
checked).

    python3 scripts/vendor_grammars.py import tree-sitter-rust-0.24.2 ...
        Replaces third_party/grammars/tree-sitter-rust with the crate as published, from
        cargo's download cache (`$CARGO_HOME/registry/cache/*/NAME-VERSION.crate`; `cargo
        fetch` puts it there while the crate is not patched). Commit that alone.
    python3 scripts/vendor_grammars.py patch [DIR ...]
        Applies the two changes below to every parser under each DIR (default: every crate in
        third_party/grammars). Idempotent.

The changes, both in generated code that every grammar has (tree-sitter's generator writes it;
`src/parser.c` and `src/tree_sitter/parser.h` of each parser):
  1. `ADVANCE_MAP(c1, s1, c2, s2, ...)` (a lexer state's single-character transitions, searched
     pair by pair) becomes `switch (lookahead) { case c1: ADVANCE(s1); ... }`: the first match
     of a map is its only one (a `case` repeated would not compile), and a lookahead that
     matches nothing continues after the switch as it continued after the loop.
  2. `set_contains` (is the lookahead in a sorted list of ranges: a binary search over ~800
     ranges for identifier characters) first scans the ranges in order for an ASCII lookahead,
     which ends within the first few ranges; the answer is the same for sorted, disjoint ranges.
"""
import glob
import os
import re
import shutil
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAMMARS = os.path.join(ROOT, "third_party", "grammars")

# One `c, state,` pair of an ADVANCE_MAP: a character literal or a number, then a state number.
PAIR = re.compile(r"\s*('(?:\\.|[^'\\])'|0x[0-9a-fA-F]+|\d+)\s*,\s*(\d+)\s*,")
ADVANCE_MAP = re.compile(r"^([ \t]*)ADVANCE_MAP\((.*?)\);", re.S | re.M)
SET_CONTAINS = re.compile(
    r"(static inline bool set_contains\((?:const )?TSCharacterRange \*ranges, uint32_t len, "
    r"int32_t lookahead\) \{\n)(  uint32_t index = 0;)"
)
ASCII_SCAN = """  // QUARRY: an ASCII lookahead is found or passed within the first few ranges.
  if (lookahead < 0x80) {
    for (uint32_t i = 0; i < len && ranges[i].start <= lookahead; i++) {
      if (lookahead <= ranges[i].end) return true;
    }
    return false;
  }
"""


def as_switch(match):
    indent, body = match.group(1), match.group(2)
    pos, lines = 0, [f"{indent}switch (lookahead) {{"]
    while (pair := PAIR.match(body, pos)) is not None:
        lines.append(f"{indent}  case {pair.group(1)}: ADVANCE({pair.group(2)});")
        pos = pair.end()
    if body[pos:].strip():
        sys.exit(f"an ADVANCE_MAP this script does not read: ...{body[pos:pos + 80]!r}")
    return "\n".join(lines + [f"{indent}}}"])


def patch_parser(src):
    """One parser's `src` directory; returns (maps rewritten, whether set_contains changed)."""
    parser_c = os.path.join(src, "parser.c")
    with open(parser_c, encoding="utf-8") as f:
        text = f.read()
    text, maps = ADVANCE_MAP.subn(as_switch, text)
    if maps:
        with open(parser_c, "w", encoding="utf-8") as f:
            f.write(text)
    parser_h = os.path.join(src, "tree_sitter", "parser.h")
    with open(parser_h, encoding="utf-8") as f:
        header = f.read()
    changed = False
    if "QUARRY:" not in header:
        header, found = SET_CONTAINS.subn(lambda m: m.group(1) + ASCII_SCAN + m.group(2), header)
        if found != 1:
            sys.exit(f"{parser_h}: set_contains is not as this script expects")
        with open(parser_h, "w", encoding="utf-8") as f:
            f.write(header)
        changed = True
    return maps, changed


def patch(dirs):
    for crate in dirs:
        parsers = sorted(glob.glob(os.path.join(crate, "**", "src", "parser.c"), recursive=True))
        if not parsers:
            sys.exit(f"{crate}: no src/parser.c below it")
        for parser_c in parsers:
            maps, changed = patch_parser(os.path.dirname(parser_c))
            print(f"{os.path.relpath(parser_c, ROOT)}: {maps} ADVANCE_MAP rewritten"
                  f"{', set_contains patched' if changed else ''}")


def import_crates(names):
    cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    for name_version in names:
        found = glob.glob(os.path.join(cargo_home, "registry", "cache", "*", name_version + ".crate"))
        if not found:
            sys.exit(f"{name_version}.crate is not in cargo's cache: run `cargo fetch` with the "
                     "crate's [patch.crates-io] entry removed")
        name = name_version.rsplit("-", 1)[0]
        dest = os.path.join(GRAMMARS, name)
        shutil.rmtree(dest, ignore_errors=True)
        with tarfile.open(found[0]) as archive:
            for member in archive.getmembers():
                top, _, rest = member.name.partition("/")
                if top != name_version or not rest or not (member.isfile() or member.isdir()):
                    continue
                member.name = rest
                archive.extract(member, dest, filter="data")
        print(f"{name_version} -> {os.path.relpath(dest, ROOT)}")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("import", "patch"):
        sys.exit(__doc__)
    if sys.argv[1] == "import":
        import_crates(sys.argv[2:])
    else:
        patch(sys.argv[2:] or sorted(glob.glob(os.path.join(GRAMMARS, "tree-sitter-*"))))


if __name__ == "__main__":
    main()
