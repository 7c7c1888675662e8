#!/usr/bin/env bash
# Where a first index's time and memory go, phase by phase.
#
#   bash bench/phases.sh CORPUS_DIR [RUNS]
#
# Indexes CORPUS_DIR into a fresh temporary store RUNS times (default 1) and prints, for each
# phase the progress lines name (reading and parsing, resolving edges, writing edges, ...):
# its wall seconds, its CPU seconds (user + system, from /proc every 100 ms), the cores it kept
# busy (CPU / wall), and the largest anonymous and resident memory sampled in it. CPU per phase
# is steadier than wall time on a shared machine; a phase below ~1.9 cores on 2 leaves a core
# idle part of the time. To compare two builds, alternate them (QUARRY=binary-a, then b, ...)
# within the same hour: the machine's speed drifts by ±20 %.
# Needs: a built `quarry` (QUARRY, else the test build's), python3.
set -euo pipefail
CORPUS="${1:?usage: bash bench/phases.sh CORPUS_DIR [RUNS]}"
RUNS="${2:-1}"
QUARRY="${QUARRY:-${CARGO_TARGET_DIR:-$HOME/.cache/quarry-target}/debug/quarry}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for run in $(seq "$RUNS"); do
  rm -rf "$WORK/store" "$WORK/samples"
  "$QUARRY" index "$CORPUS" --name corpus --store "$WORK/store" > "$WORK/log" 2>&1 &
  pid=$!
  start=$(date +%s%N)
  while kill -0 "$pid" 2>/dev/null; do
    now=$(date +%s%N)
    ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true)
    # From `status`, as bench/index.sh reads it: `smaps_rollup` walks the page tables under
    # the process's memory-map lock.
    mem=$(awk '/^RssAnon:/ { a = $2 } /^VmRSS:/ { r = $2 } END { print a + 0, r + 0 }' \
      "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$ticks" ] && [ -n "$mem" ] && echo "$(( (now - start) / 1000000 )) $ticks $mem" >> "$WORK/samples"
    sleep 0.1
  done
  wait "$pid" || { cat "$WORK/log" >&2; exit 1; }
  echo "run $run: $(grep '^indexed' "$WORK/log")"
  python3 - "$WORK/log" "$WORK/samples" "$(getconf CLK_TCK)" <<'PY'
import re, sys
log, samples, hz = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = [tuple(int(x) for x in l.split()) for l in open(samples) if len(l.split()) == 4]
phases = []
for line in open(log):
    m = re.match(r'\[\s*([\d.]+)s\] (.+?)(?: \(\d+ files\))? · memory', line)
    if m:
        phases.append((float(m.group(1)), m.group(2)))
end = s[-1][0] / 1000
phases.append((end, 'end'))
def at(t):
    before = [x for x in s if x[0] / 1000 <= t]
    return before[-1] if before else s[0]
print('| phase | wall s | CPU s | cores | peak anonymous MB | peak RSS MB |')
print('|---|---:|---:|---:|---:|---:|')
for (t0, name), (t1, _) in zip(phases, phases[1:]):
    inside = [x for x in s if t0 <= x[0] / 1000 <= t1] or [at(t0)]
    cpu = (at(t1)[1] - at(t0)[1]) / hz
    wall = t1 - t0
    if wall < 0.05:
        continue
    print(f'| {name} | {wall:.1f} | {cpu:.1f} | {cpu / wall:.2f} | '
          f'{max(x[2] for x in inside) // 1024} | {max(x[3] for x in inside) // 1024} |')
print(f'| whole run | {end:.1f} | {s[-1][1] / hz:.1f} | {s[-1][1] / hz / end:.2f} | '
      f'{max(x[2] for x in s) // 1024} | {max(x[3] for x in s) // 1024} |')
PY
done
