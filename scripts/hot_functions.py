#!/usr/bin/env python3
"""Regenerate server/hot-functions.txt: the functions `quarry index` runs, in the order it first
runs them, for the linker to place together (server/build.rs passes the file to LLD as
`--symbol-ordering-file`).

Why: the binary's code is ~120 MB, of which an index runs ~6–7 MB scattered all over it, and
the kernel maps code 64 KiB around every page executed, so a first index of the registry copy
held ~50 MB of code pages (~70 MB in its search phase) — a quarter of its peak resident memory.
Placed together, the same code is ~25 MB of pages.

How: each workload runs under valgrind's callgrind (every function executed, however rarely,
which sampling would miss); the names it reports that the binary defines (`nm`) are written in
first-executed order. The workloads are what a user's `quarry index` does: a first index of the
multi-language fixture and of this checkout (the README's default), a re-index after edits, an
unchanged re-index, and the CLI's queries; then, after all of those, `quarry serve` answering
the REST endpoints, every tool of the Tool API and an MCP handshake over the fixture (so the
index's functions come first, and the server's after them).

When to run it: the names carry a hash of the crate's build (compiler version, dependency
versions, profile), so after upgrading the toolchain or a dependency, or changing a profile,
most names no longer match and the code is laid out as without the file (nothing breaks; the
memory saving goes). The script prints how many of the listed names the binary defines.

Usage (needs valgrind; ~1 min):
    source scripts/env.sh && cargo build --bin quarry
    python3 scripts/hot_functions.py "$CARGO_TARGET_DIR/debug/quarry" server/hot-functions.txt
Check how much of the list a binary still defines (no valgrind needed):
    python3 scripts/hot_functions.py --check "$CARGO_TARGET_DIR/debug/quarry"
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

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


def callgrind(out, binary, store, *args):
    """The command that runs `quarry --store STORE ARGS` under callgrind, its output to `out`."""
    return ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
            binary, "--store", store, *args]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_workload(binary, store, out):
    """`quarry serve` under callgrind, asked what clients ask, then stopped with Ctrl-C (its
    graceful shutdown: the process exits and callgrind writes its output)."""
    key = subprocess.run(
        [binary, "--store", store, "keys", "create"], capture_output=True, text=True, check=True
    )
    key = re.search(r"qry_[A-Za-z0-9_]+", key.stdout + key.stderr).group(0)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = callgrind(out, binary, store, "serve", "--addr", f"127.0.0.1:{port}")
    print("hot_functions: serve", file=sys.stderr)
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # (path, HTTP status, the Tool API's error code if the answer is one)
    statuses = []

    def call(path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        h = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        h.update(headers or {})
        req = urllib.request.Request(base + path, data=data, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=300) as r:
                status, answer = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, answer = e.code, e.read()
        # A tool's repairable error is a 200 whose envelope holds `error`: its code path is
        # then not the one a client's valid call runs.
        try:
            error = (json.loads(answer).get("obj") or {}).get("error", {}).get("code")
        except (ValueError, AttributeError):
            error = None
        statuses.append((path, status, error))
        return answer

    try:
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        sources = json.loads(call("/api/datasources/all"))
        fixture = next(s for s in sources if s["name"] == "polyglot")
        prefix = fixture["fullName"]
        call("/api/datasources/ready")
        call("/api/search/grep?Query=clamp&Names=polyglot")
        call("/api/search/semantic?Query=How%20are%20points%20summed&Names=polyglot")
        # As tests/clients/mcp_client.py calls them, with the fixture named where a tool needs
        # a source (the store also holds this checkout).
        here = ["polyglot"]
        tools = {
            "get_data_sources": {},
            "semantic_search": {"question": "How are points summed?", "data_sources": here},
            "grep_search": {"query": "clamp", "max_results": 2, "data_sources": here},
            "get_file_tree": {"path": "c", "data_source": "polyglot"},
            "get_artifact_relationships": {"identifier": f"{prefix}::c/util.c::clamp"},
            "query_artifact_metadata": {
                "statement": "SELECT COUNT(*) AS n FROM files LIMIT 1",
                "data_sources": here,
            },
            "get_artifact_query_schema": {"entity": "files"},
            "read_file": {"path": "c/util.c", "start_line": 1, "end_line": 2},
            "fetch_artifacts": {"identifiers": [f"{prefix}::c/util.c::sum_points"]},
            "get_repository_ontology": {"data_source": "polyglot"},
        }
        for name, args in tools.items():
            call(f"/api/tools/{name}", args)
        mcp = {"Accept": "application/json, text/event-stream"}
        init = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "hot_functions", "version": "1"},
            },
        }
        call("/api/mcp", init, mcp)
        call("/api/mcp", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, mcp)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            server.kill()
        failed = [f"{p} {c} {e or ''}".strip() for p, c, e in statuses if c >= 400 or e]
        print(f"hot_functions: {len(statuses)} requests, failed: {failed}", file=sys.stderr)


def check(binary):
    """How many of the listed functions `binary` defines (a `cargo build --bin quarry` from a
    checkout of the commit that made the list defines nearly all)."""
    with open(os.path.join(ROOT, "server", "hot-functions.txt")) as f:
        listed = [line.strip() for line in f if line.strip()]
    defined = defined_functions(binary)
    found = sum(1 for n in listed if n in defined)
    print(f"{found} of {len(listed)} listed functions are defined in {binary}")
    if found < len(listed) // 2:
        # A checkout at another path defines about two thirds (the names' hashes cover the
        # workspace's paths) and keeps most of the saving; under half means a toolchain,
        # dependency or profile change made the list stale.
        sys.exit("most are not: regenerate the list (see this script's usage)")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(os.path.abspath(sys.argv[2]))
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, out_path = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not shutil.which("valgrind"):
        sys.exit("hot_functions: valgrind is needed (apt-get install valgrind)")
    work = tempfile.mkdtemp(prefix="quarry-hot-")
    store = os.path.join(work, "store")
    runs = []

    def run(*args):
        out = os.path.join(work, f"callgrind.{len(runs)}")
        runs.append(out)
        print("hot_functions:", " ".join(args), file=sys.stderr)
        subprocess.run(callgrind(out, binary, store, *args), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

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
        runs.append(os.path.join(work, f"callgrind.{len(runs)}"))
        serve_workload(binary, store, runs[-1])
        order, seen = [], set()
        for out in runs:
            if not os.path.exists(out):
                print(f"hot_functions: no output from {out}", file=sys.stderr)
                continue
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
