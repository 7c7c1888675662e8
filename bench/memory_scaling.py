#!/usr/bin/env python3
"""A first index's peak memory against the size of what it indexes, as a table and a picture.

    python3 bench/memory_scaling.py QUARRY OUT.svg [LABEL=]CORPUS_DIR...

Indexes each CORPUS_DIR into a fresh temporary store with the QUARRY binary, samples
/proc/PID/status every 20 ms, and keeps the moment of the highest resident memory (VmRSS) with
its split: anonymous (RssAnon: the heap, what the index holds) and file-backed (RssFile: the
binary's code pages the run has mapped, whatever the corpus). Prints a markdown table and
writes OUT.svg: per corpus, that peak as a stacked bar beside a bar of the source indexed
(the `indexed … MB` of quarry's summary). Corpora are shown in the order given, each named by
its LABEL, else by its directory's name.
Needs: python3, a built `quarry`.
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def measure(quarry, arg):
    label, sep, corpus = arg.partition("=")
    if not sep:
        label, corpus = os.path.basename(os.path.normpath(arg)), arg
    work = tempfile.mkdtemp()
    try:
        log_path = os.path.join(work, "log")
        with open(log_path, "w") as log:
            start = time.time()
            p = subprocess.Popen(
                [quarry, "index", corpus, "--name", "corpus", "--store", os.path.join(work, "store")],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            best = (0, 0, 0)  # (VmRSS, RssAnon, RssFile) in KiB at the highest VmRSS
            while p.poll() is None:
                try:
                    fields = {}
                    with open(f"/proc/{p.pid}/status") as f:
                        for line in f:
                            key, _, value = line.partition(":")
                            if key in ("VmRSS", "RssAnon", "RssFile"):
                                fields[key] = int(value.split()[0])
                    sample = (fields["VmRSS"], fields["RssAnon"], fields["RssFile"])
                    if sample[0] > best[0]:
                        best = sample
                except (OSError, KeyError, ValueError):
                    pass
                time.sleep(0.02)
            wall = time.time() - start
        text = open(log_path).read()
        if p.returncode != 0:
            sys.exit(f"quarry index {corpus} failed:\n{text}")
        m = re.search(r"^indexed .* in [\d.]+s: (\d+) files, ([\d.]+) ([KMG]?B)", text, re.M)
        if not m:
            sys.exit(f"no summary line in quarry's output:\n{text}")
        scale = {"B": 1e-6, "KB": 1e-3, "MB": 1.0, "GB": 1e3}[m.group(3)]
        indexed = float(m.group(2)) * scale
        return {
            "corpus": corpus,
            "label": label,
            "files": int(m.group(1)),
            "indexed": indexed,
            "wall": wall,
            "rss": best[0] / 1024,
            "anon": best[1] / 1024,
            "file": best[2] / 1024,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def svg(rows, title):
    width, height = 760, 420
    left, right, top, bottom = 70, 20, 50, 80
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max(max(r["rss"], r["indexed"]) for r in rows) * 1.1
    step = 10 ** len(str(int(top_value / 5))) / 10
    while top_value / step > 8:
        step *= 2
    y = lambda v: top + plot_h - v / top_value * plot_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">{title}</text>',
    ]
    tick = 0.0
    while tick <= top_value:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:g}</text>')
        tick += step
    out.append(
        f'<text x="16" y="{top + plot_h / 2}" transform="rotate(-90 16 {top + plot_h / 2})" '
        'text-anchor="middle">MB</text>'
    )
    slot = plot_w / len(rows)
    bar = min(48, slot / 3)
    for i, r in enumerate(rows):
        x0 = left + i * slot + (slot - 2 * bar - 6) / 2
        # Peak resident memory: anonymous below, the binary's code pages above.
        out.append(f'<rect x="{x0:.1f}" y="{y(r["anon"]):.1f}" width="{bar:.1f}" '
                   f'height="{y(0) - y(r["anon"]):.1f}" fill="#3b6ea8"/>')
        out.append(f'<rect x="{x0:.1f}" y="{y(r["rss"]):.1f}" width="{bar:.1f}" '
                   f'height="{y(r["anon"]) - y(r["rss"]):.1f}" fill="#9ab8dc"/>')
        out.append(f'<text x="{x0 + bar / 2:.1f}" y="{y(r["rss"]) - 4:.1f}" text-anchor="middle">'
                   f'{r["rss"]:.0f}</text>')
        x1 = x0 + bar + 6
        out.append(f'<rect x="{x1:.1f}" y="{y(r["indexed"]):.1f}" width="{bar:.1f}" '
                   f'height="{y(0) - y(r["indexed"]):.1f}" fill="#c9a227"/>')
        out.append(f'<text x="{x1 + bar / 2:.1f}" y="{y(r["indexed"]) - 4:.1f}" text-anchor="middle">'
                   f'{r["indexed"]:.0f}</text>')
        label = html.escape(r["label"])
        cx = left + i * slot + slot / 2
        out.append(f'<text x="{cx:.1f}" y="{top + plot_h + 18}" text-anchor="middle">{label}</text>')
        out.append(f'<text x="{cx:.1f}" y="{top + plot_h + 34}" text-anchor="middle" fill="#555">'
                   f'{r["files"]} files, {r["wall"]:.1f} s</text>')
    legend = [("#3b6ea8", "peak resident: anonymous (heap)"),
              ("#9ab8dc", "peak resident: the binary's code pages"),
              ("#c9a227", "source indexed")]
    for j, (color, text) in enumerate(legend):
        lx = left + j * 230
        out.append(f'<rect x="{lx}" y="{height - 24}" width="12" height="12" fill="{color}"/>')
        out.append(f'<text x="{lx + 18}" y="{height - 14}">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def ratio(r):
    # quarry's summary rounds to 0.1 MB: no ratio for a corpus smaller than that.
    return f"{r['rss'] / r['indexed']:.2f}×" if r["indexed"] >= 0.1 else "—"


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: python3 bench/memory_scaling.py QUARRY OUT.svg [LABEL=]CORPUS_DIR...")
    quarry, out_path, corpora = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = [measure(quarry, c) for c in corpora]
    print("| corpus | files | indexed MB | wall s | peak RSS MB | anonymous | file-backed | RSS / indexed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| `{r['corpus']}` | {r['files']} | {r['indexed']:.1f} | {r['wall']:.1f} | "
              f"{r['rss']:.0f} | {r['anon']:.0f} | {r['file']:.0f} | {ratio(r)} |")
    with open(out_path, "w") as f:
        f.write(svg(rows, "A first index's peak memory against the source it indexes"))


if __name__ == "__main__":
    main()
