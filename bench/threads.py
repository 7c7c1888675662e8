#!/usr/bin/env python3
"""Which threads keep the cores busy in each phase of a first index.

    python3 bench/threads.py QUARRY CORPUS_DIR [PHASE_PREFIX]

Indexes CORPUS_DIR into a fresh temporary store with the QUARRY binary, samples every
thread's CPU time from /proc/PID/task/*/stat every 50 ms, and prints per phase (the progress
lines name them) its wall and CPU seconds and the CPU seconds of each thread group
(`quarry-cpu` is the rayon pool, `lance-cpu` Lance's encoder, `quarry-trigrams` the trigram
builder; unnamed threads, such as a table write's producer, carry the binary's name). With
PHASE_PREFIX, also a timeline of that phase: each thread's cores per 250 ms. A phase whose
threads add up to well under 2 cores on 2 is waiting on itself.
"""
import bisect
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

quarry, corpus = sys.argv[1], sys.argv[2]
timeline = sys.argv[3] if len(sys.argv) > 3 else None
work = tempfile.mkdtemp()
log_path = os.path.join(work, "log")
with open(log_path, "w") as log:
    p = subprocess.Popen(
        [quarry, "index", corpus, "--name", "corpus", "--store", os.path.join(work, "store")],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    hz = os.sysconf("SC_CLK_TCK")
    t0, samples = time.time(), []
    while p.poll() is None:
        snap = dict(samples[-1][1]) if samples else {}  # threads that ended keep their total
        try:
            for tid in os.listdir(f"/proc/{p.pid}/task"):
                try:
                    stat = open(f"/proc/{p.pid}/task/{tid}/stat").read()
                except OSError:
                    continue
                comm = stat[stat.index("(") + 1 : stat.rindex(")")]
                fields = stat[stat.rindex(")") + 2 :].split()
                snap[tid] = (comm, (int(fields[11]) + int(fields[12])) / hz)
        except OSError:
            pass
        samples.append((time.time() - t0, snap))
        time.sleep(0.05)
phases = []
for line in open(log_path):
    m = re.match(r"\[\s*([\d.]+)s\] ([a-z][^·:(]*)", line)
    if m and not re.search(r"\d+%\)", line):
        phases.append((float(m.group(1)), m.group(2).strip()))
shutil.rmtree(work)
if not samples or not phases:
    sys.exit("no samples or no progress lines")


times = [ts for ts, _ in samples]


def at(t):
    """The last sample taken at or before `t` (the first one before any)."""
    return samples[max(bisect.bisect_right(times, t) - 1, 0)][1]


def used(a, b, key):
    per = collections.Counter()
    for tid, (comm, cpu) in b.items():
        d = cpu - a.get(tid, (comm, 0))[1]
        if d > 0:
            per[key(comm, tid)] += d
    return per


for i, (start, name) in enumerate(phases):
    end = phases[i + 1][0] if i + 1 < len(phases) else samples[-1][0]
    if end - start < 0.3:
        continue
    per = used(at(start), at(end), lambda comm, _: re.sub(r"[-_ ]?\d+$", "", comm))
    top = ", ".join(f"{k} {v:.1f}" for k, v in per.most_common(6) if v >= 0.05)
    print(f"{name:40s} {end - start:5.1f} s wall {sum(per.values()):5.1f} CPU s   {top}")
    if timeline and name.startswith(timeline):
        t = start
        while t < end:
            per = used(at(t), at(t + 0.25), lambda comm, tid: f"{comm}:{tid}")
            print(f"  {t:6.2f} " + " ".join(f"{k}={v / 0.25:.2f}" for k, v in sorted(per.items())))
            t += 0.25
