#!/usr/bin/env python3
"""Regenerate server/hot-functions.txt: the functions `quarry index` runs, in the order it first
runs them, for the linker to place together (server/build.rs passes the file to LLD as
`--symbol-ordering-file`).

Why: the binary's code is ~120 MB, of which an index runs ~6–7 MB scattered all over it, and
the kernel maps code 64 KiB around every page executed, so a first index of the registry copy
held ~50 MB of code pages (~70 MB in its search phase) — a quarter of its peak resident memory.
Placed together, the same code is ~25 MB of pages (docs/benchmarks.md, session 42).

How: each workload runs under valgrind's callgrind (every function executed, however rarely,
which sampling would miss); the names it reports that the binary defines (`nm`) are written in
first-executed order. The workloads are what a user's `quarry index` does: a first index of the
multi-language fixture and of this checkout (the README's default), a re-index after edits, an
unchanged re-index, and the CLI's queries.

When to run it: the names carry a hash of the crate's build (compiler version, dependency
versions, profile), so after upgrading the toolchain or a dependency, or changing a profile,
most names no longer match and the code is laid out as without the file (nothing breaks; the
memory saving goes). The script prints how many of the listed names the binary defines.

Usage (needs valgrind; ~2 min):
    source scripts/env.sh && cargo build --bin quarry
    python3 scripts/hot_functions.py "$CARGO_TARGET_DIR/debug/quarry" server/hot-functions.txt
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def defined_functions(binary):
    """Names of the functions the binary defines (text symbols)."""
    out = subprocess.run(
        ["nm", "--defined-only", binary], capture_output=True, text=True, check=True
    ).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            names.add(parts[2])
    return names


def executed(callgrind_out):
    """Function names in a callgrind output file, in first-seen order (names are compressed:
    `fn=(12) name` defines number 12, a later `fn=(12)` refers back to it)."""
    names, order, seen = {}, [], set()
    pattern = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")
    with open(callgrind_out, errors="replace") as f:
        for line in f:
            m = pattern.match(line.rstrip("\n"))
            if not m:
                continue
            number, name = m.groups()
            if name:
                names[number] = name
            name = names.get(number)
            if name and name not in seen:
                seen.add(name)
                order.append(name)
    return order


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, out_path = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not shutil.which("valgrind"):
        sys.exit("hot_functions: valgrind is needed (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="quarry-hot-")
    store = os.path.join(work, "store")
    runs = []

    def run(*args, quiet=True):
        out = os.path.join(work, f"callgrind.{len(runs)}")
        runs.append(out)
        cmd = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"]
        cmd += [binary, "--store", store, *args]
        print("hot_functions:", " ".join(args), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    try:
        fixture = os.path.join(work, "polyglot")
        shutil.copytree(os.path.join(ROOT, "tests", "fixtures", "polyglot"), fixture)
        run("index", fixture)
        # A re-index after an edit, an added and a deleted file (the in-place update paths).
        files = sorted(
            os.path.join(d, f) for d, _, fs in os.walk(fixture) for f in fs if f.endswith(".py")
        )
        with open(files[0], "a") as f:
            f.write("\n\ndef added_by_hot_functions():\n    return 1\n")
        with open(os.path.join(fixture, "added_by_hot_functions.py"), "w") as f:
            f.write("def another():\n    return added_by_hot_functions()\n")
        if len(files) > 1:
            os.remove(files[-1])
        run("index", fixture)
        run("index", fixture)
        run("index", ROOT)
        run("sources")
        run("sql", "SELECT kind, count(*) FROM symbols GROUP BY kind")
        order, seen = [], set()
        for out in runs:
            for name in executed(out):
                if name not in seen:
                    seen.add(name)
                    order.append(name)
        defined = defined_functions(binary)
        listed = [n for n in order if n in defined]
        with open(out_path, "w") as f:
            f.write("\n".join(listed) + "\n")
        print(f"hot_functions: {len(listed)} functions written to {out_path}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
