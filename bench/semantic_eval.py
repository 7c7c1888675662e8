#!/usr/bin/env python3
"""Semantic-search quality on CodeSearchNet's "docstring as query" protocol.

    python3 bench/semantic_eval.py [--stdlib DIR] [--queries N] [--latency-store DIR]

1. Takes the Python standard library on this machine (``/usr/lib/python3.X`` by default; test
   suites, idlelib, lib2to3, site-packages and encodings left out), and writes a copy with
   every docstring replaced by ``...`` (module, class and function docstrings), so the answer
   cannot be found by matching its own documentation.
2. Indexes the copy with Quarry (``quarry index``, a fresh store) and starts ``quarry serve``.
3. Samples N public functions and methods whose docstring's first sentence has at least 4
   words (seeded, so every run asks the same questions), and asks ``semantic_search`` each
   first sentence. A hit is the result whose identifier is the function's (SPEC 2.2:
   ``<repo>::<path>::<Class.method>``).
4. Reports MRR@10 and recall@1/@10 for Quarry at function level (strict) and at file level
   (the first result in the function's file), beside a plain file-level BM25 baseline over the
   stripped files (same tokenizer idea: identifiers split on case and ``_``, lower-cased), and
   Quarry's latency p50/p99 (HTTP, warm server).
5. With ``QUARRY_EMBEDDINGS_MODEL_DIR`` (a local Model2Vec folder) or ``QUARRY_EMBEDDINGS_URL``
   (and ``_MODEL``/``_API_KEY``) in the environment, the index is built with dense vectors and
   questions are answered with them (the row is labelled so).
6. With ``--latency-store`` (a store holding a larger index, e.g. the benchmark store of
   bench/query.sh with 1.5 M symbols), also times the same questions there.

Needs a built ``quarry`` (``$QUARRY`` or the README's build) and Python 3.
"""

import argparse
import ast
import glob
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict

SKIP_DIRS = {"test", "tests", "idlelib", "lib2to3", "site-packages", "dist-packages",
             "encodings", "__pycache__", "turtledemo", "config-3.11-x86_64-linux-gnu"}


def quarry_bin():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/quarry-target"))
    return os.environ.get("QUARRY", os.path.join(target, "debug", "quarry"))


def strip_docstrings(source):
    """The source with each docstring's lines replaced by `...` at its indentation."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                d = body[0]
                spans.append((d.lineno, d.end_lineno, d.col_offset))
    for start, end, col in sorted(spans, reverse=True):
        first = lines[start - 1]
        indent = first[:col] if first[:col].strip() == "" else " " * col
        lines[start - 1:end] = [indent + "...\n"]
    return "".join(lines)


def functions(path, rel):
    """(qualified name, first sentence of the docstring) of public functions and methods."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    out = []

    def walk(node, prefix, in_class):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".", True)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = child.name
                doc = ast.get_docstring(child)
                if doc and not name.startswith("_"):
                    first = re.split(r"(?<=[.!?])\s|\n\n", doc.strip(), maxsplit=1)[0]
                    first = " ".join(first.split())
                    if len(first.split()) >= 4:
                        out.append((prefix + name, first))
                # Nested functions are not search targets.
    walk(tree, "", False)
    return out


def tokens(text):
    parts = re.findall(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|[0-9]+", text)
    return [p.lower() for p in parts if len(p) > 1]


class Bm25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.docs = [Counter(tokens(d)) for d in docs]
        self.lens = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lens) / max(len(self.lens), 1)
        df = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self.k1, self.b = k1, b
        self.postings = defaultdict(list)
        for i, d in enumerate(self.docs):
            for t, c in d.items():
                self.postings[t].append((i, c))

    def top(self, query, k=10):
        scores = defaultdict(float)
        for t in set(tokens(query)):
            idf = self.idf.get(t)
            if idf is None:
                continue
            for i, c in self.postings[t]:
                norm = c + self.k1 * (1 - self.b + self.b * self.lens[i] / self.avg)
                scores[i] += idf * c * (self.k1 + 1) / norm
        return sorted(scores, key=lambda i: -scores[i])[:k]


def metrics(ranks):
    n = len(ranks)
    mrr = sum(1 / r for r in ranks if r and r <= 10) / n
    r1 = sum(1 for r in ranks if r == 1) / n
    r10 = sum(1 for r in ranks if r and r <= 10) / n
    return mrr, r1, r10


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def serve(quarry, store):
    env = dict(os.environ, QUARRY_STORE=store)
    key = subprocess.run([quarry, "keys", "create"], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    proc = subprocess.Popen([quarry, "serve", "--addr", "127.0.0.1:0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = None
    for line in proc.stdout:
        m = re.search(r"http://[0-9.:]+", line)
        if m:
            url = m.group(0)
            break
    return proc, url, key


def ask(url, key, question, source, k=10):
    body = json.dumps({"question": question, "data_sources": [source], "max_results": k,
                       "output_format": "json"}).encode()
    req = urllib.request.Request(url + "/api/tools/semantic_search", data=body,
                                 headers={"Authorization": "Bearer " + key,
                                          "Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=120) as r:
        obj = json.load(r)
    return obj.get("obj", obj), (time.perf_counter() - t) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stdlib", default=os.path.dirname(os.__file__))
    ap.add_argument("--queries", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--latency-store", default=None)
    ap.add_argument("--latency-questions", type=int, default=100)
    ap.add_argument("--dump", default=None,
                    help="append each question's results to this file (JSON lines)")
    args = ap.parse_args()
    quarry = quarry_bin()
    work = tempfile.mkdtemp(prefix="quarry-csn-")
    corpus = os.path.join(work, "stdlib")
    files, targets = {}, []
    for path in sorted(glob.glob(os.path.join(args.stdlib, "**", "*.py"), recursive=True)):
        rel = os.path.relpath(path, args.stdlib)
        if set(rel.split(os.sep)[:-1]) & SKIP_DIRS:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                stripped = strip_docstrings(f.read())
            ast.parse(stripped)
            found = functions(path, rel)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        out = os.path.join(corpus, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(stripped)
        files[rel] = stripped
        targets.extend((rel, q, doc) for q, doc in found)
    random.Random(args.seed).shuffle(targets)
    # One question per distinct docstring (some are shared by overloads).
    seen, sample = set(), []
    for t in targets:
        if t[2] not in seen:
            seen.add(t[2])
            sample.append(t)
        if len(sample) == args.queries:
            break
    store = os.path.join(work, "store")
    t = time.time()
    subprocess.run([quarry, "index", corpus, "--name", "stdlib", "--store", store], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    indexed = time.time() - t
    units = subprocess.run([quarry, "sql", "--json", "--store", store,
                            "SELECT COUNT(*) AS n FROM symbols"],
                           check=True, capture_output=True, text=True).stdout
    units = json.loads(units)["rows"][0]["n"] + len(files)
    print(f"corpus: {len(files)} stdlib files ({args.stdlib}), docstrings stripped; "
          f"{units} search units; indexed in {indexed:.1f} s; {len(sample)} questions")

    proc, url, key = serve(quarry, store)
    try:
        fn_ranks, file_ranks, lat = [], [], []
        ask(url, key, "warm up the server with one question", "stdlib")
        for rel, qname, doc in sample:
            obj, ms = ask(url, key, doc, "stdlib")
            lat.append(ms)
            ids = [r.get("identifier", "") for r in obj.get("results", [])]
            want = f"::{rel}::{qname}"
            fn_ranks.append(next((i + 1 for i, x in enumerate(ids) if x.endswith(want)), None))
            paths = [r.get("location", {}).get("path") for r in obj.get("results", [])]
            file_ranks.append(next((i + 1 for i, p in enumerate(paths) if p == rel), None))
            if args.dump:
                with open(args.dump, "a") as f:
                    f.write(json.dumps({"question": doc, "want": want, "rank": fn_ranks[-1],
                                        "results": [(r.get("kind"), r.get("identifier"),
                                                     r.get("score"))
                                                    for r in obj.get("results", [])]}) + "\n")
    finally:
        proc.terminate()

    names = sorted(files)
    bm25 = Bm25([files[n] for n in names])
    base = []
    for rel, _, doc in sample:
        top = [names[i] for i in bm25.top(doc)]
        base.append(next((i + 1 for i, p in enumerate(top) if p == rel), None))

    print()
    print("| system | level | MRR@10 | recall@1 | recall@10 |")
    print("|---|---|---:|---:|---:|")
    quarry_label = "Quarry semantic_search (default)"
    if os.environ.get("QUARRY_EMBEDDINGS_MODEL_DIR"):
        quarry_label = ("Quarry semantic_search + dense vectors (local " +
                        os.path.basename(os.environ["QUARRY_EMBEDDINGS_MODEL_DIR"].rstrip("/")) + ")")
    elif os.environ.get("QUARRY_EMBEDDINGS_URL"):
        quarry_label = ("Quarry semantic_search + dense vectors (" +
                        os.environ.get("QUARRY_EMBEDDINGS_MODEL", "text-embedding-3-small") + ")")
    for label, level, ranks in [(quarry_label, "function", fn_ranks),
                                (quarry_label, "file", file_ranks),
                                ("plain BM25 over files", "file", base)]:
        mrr, r1, r10 = metrics(ranks)
        print(f"| {label} | {level} | {mrr:.3f} | {r1:.3f} | {r10:.3f} |")
    print()
    print(f"latency over {units} units: p50 {percentile(lat, 50):.0f} ms, "
          f"p99 {percentile(lat, 99):.0f} ms")

    if args.latency_store:
        proc, url, key = serve(quarry, args.latency_store)
        try:
            big = json.loads(subprocess.run(
                [quarry, "sources", "--json", "--store", args.latency_store],
                check=True, capture_output=True, text=True).stdout)
            name = big[0]["name"]
            lat = []
            ask(url, key, "warm up the server with one question", name)
            for _, _, doc in sample[:args.latency_questions]:
                lat.append(ask(url, key, doc, name)[1])
            n = json.loads(subprocess.run(
                [quarry, "sql", "--json", "--store", args.latency_store,
                 "SELECT COUNT(*) AS n FROM symbols"],
                check=True, capture_output=True, text=True).stdout)["rows"][0]["n"]
            print(f"latency over {n} symbols ({name}): p50 {percentile(lat, 50):.0f} ms, "
                  f"p99 {percentile(lat, 99):.0f} ms ({len(lat)} questions)")
        finally:
            proc.terminate()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
