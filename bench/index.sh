#!/usr/bin/env bash
# Index-throughput benchmark: Quarry vs universal-ctags on the same corpus.
#
#   bash bench/index.sh [CORPUS_DIR]
#
# CORPUS_DIR defaults to the cargo registry sources on this machine (hundreds of real crates,
# present after any build). Reports wall time, CPU time (user + system: steadier than wall time
# on a shared machine, for comparing builds), MB/s of indexed source, files/s, peak RSS and peak
# anonymous memory (RSS less the binary's code pages and other mapped files; sampled) for:
# a first index, a re-index of the unchanged corpus, a re-index after editing 10 of its `.rs`
# files (a function appended to each), and `ctags -R` on the same directory. The corpus is
# copied to a temporary directory first (the edits must not touch the original).
# Needs: a built `quarry` (scripts/run.sh or cargo build), universal-ctags, /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${1:-$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ | head -1)}"
QUARRY="${QUARRY:-${CARGO_TARGET_DIR:-$HOME/.cache/quarry-target}/debug/quarry}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
command -v ctags >/dev/null || { echo "install universal-ctags (apt-get install universal-ctags)" >&2; exit 1; }

# The largest anonymous memory (heap, stacks: not the binary's own code pages, which RSS also
# counts) of process $1, sampled every 50 ms until it exits; in KB. `RssAnon` from
# /proc/PID/status, read and waited for by bash's builtins: reading `smaps_rollup` walks the
# process's page tables under its memory-map lock, and with an `awk` and a `sleep` forked per
# sample that cost the measured first index ~6 % of its wall time.
peak_anon() {
  local pid="$1" peak=0 key kb rest tick
  exec {tick}<> <(:)
  while [ -e "/proc/$pid/status" ]; do
    while read -r key kb rest; do
      if [ "$key" = "RssAnon:" ]; then
        [ "$kb" -gt "$peak" ] && peak=$kb
        break
      fi
    done < "/proc/$pid/status" 2>/dev/null || true
    read -r -t 0.05 -u "$tick" || true
  done
  exec {tick}>&-
  echo "$peak"
}

measure() { # label, command...
  local label="$1"; shift
  /usr/bin/time -f "%e %M %U %S" -o "$WORK/time" "$@" > "$WORK/out" 2> "$WORK/err" &
  local timer=$! child=""
  while [ -z "$child" ] && kill -0 "$timer" 2>/dev/null; do
    child=$(awk '{ print $1 }' "/proc/$timer/task/$timer/children" 2>/dev/null || true)
  done
  local anon=0
  [ -n "$child" ] && anon=$(peak_anon "$child")
  wait "$timer" || { cat "$WORK/err" >&2; exit 1; }
  read -r secs kb user sys < "$WORK/time"
  echo "$label|$secs|$((kb / 1024))|$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')|$((anon / 1024))"
}

echo "corpus: $CORPUS ($(du -sh "$CORPUS" | cut -f1) on disk, $(find "$CORPUS" -type f | wc -l) files)"
cp -r "$CORPUS" "$WORK/corpus"
CORPUS="$WORK/corpus"
# The copy's dirty pages written back during the first index took disk and CPU from it.
sync
first=$(measure "quarry index (first)" "$QUARRY" index "$CORPUS" --name corpus --store "$WORK/store")
summary=$(grep '^indexed' "$WORK/out")
files=$(echo "$summary" | sed -E 's/.*: ([0-9]+) files, ([0-9.]+) MB.*/\1/')
mb=$(echo "$summary" | sed -E 's/.*: ([0-9]+) files, ([0-9.]+) MB.*/\2/')
grep -E '^  ' "$WORK/out" || true
again=$(measure "quarry index (unchanged re-index)" "$QUARRY" index "$CORPUS" --name corpus --store "$WORK/store")
grep -E '^  parsed' "$WORK/out" || true
i=0
for f in $(find "$CORPUS" -name '*.rs' | sort | awk 'NR % 2000 == 1' | head -10); do
  echo "pub fn quarry_bench_edit_$i() -> u32 { $i }" >> "$f"
  i=$((i + 1))
done
small=$(measure "quarry index (after editing $i files)" "$QUARRY" index "$CORPUS" --name corpus --store "$WORK/store")
grep -E '^  parsed' "$WORK/out" || true
grep -E '^\[' "$WORK/err" | grep -v '%)' || true
tags=$(measure "ctags -R" ctags -R -f "$WORK/tags" "$CORPUS")
store_mb=$(du -sm "$WORK/store" | cut -f1)

echo
echo "indexed source: $files files, $mb MB; store size ${store_mb} MB"
echo
echo "| run | wall s | CPU s | MB/s | files/s | peak RSS MB | peak anonymous MB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for row in "$first" "$again" "$small" "$tags"; do
  IFS='|' read -r label secs rss cpu anon <<< "$row"
  awk -v l="$label" -v s="$secs" -v c="$cpu" -v m="$mb" -v f="$files" -v r="$rss" -v a="$anon" \
    'BEGIN { printf "| %s | %.1f | %.1f | %.1f | %.0f | %d | %d |\n", l, s, c, m / s, f / s, r, a }'
done
