#!/usr/bin/env bash
# Compare first-index runs of two (or more) quarry binaries, alternated.
#
#   bash bench/ab.sh RUNS CORPUS_DIR BINARY_A [BINARY_B ...]
#
# Indexes CORPUS_DIR into a fresh temporary store with each binary in turn, RUNS rounds, and
# prints each run's wall seconds, CPU seconds (user + system) and peak RSS (KB), then each
# binary's means. The machine's speed drifts by ±10 % over minutes: alternating the binaries
# within one sitting is what makes a few per cent visible. Needs /usr/bin/time.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,10p "$0" >&2; exit 2; }
RUNS="$1"; CORPUS="$2"; shift 2
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for _ in $(seq "$RUNS"); do
  for bin in "$@"; do
    rm -rf "$WORK/store"
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$bin" --store "$WORK/store" index "$CORPUS" \
      > /dev/null 2>&1
    read -r wall user sys rss < "$WORK/time"
    echo "$bin $wall $(echo "$user + $sys" | bc) $rss"
  done
done | awk '{ print; n[$1]++; w[$1] += $2; c[$1] += $3; m[$1] += $4 }
  END { for (b in n) printf "mean %s: wall %.2f s, CPU %.2f s, peak RSS %.0f MB (%d runs)\n",
        b, w[b] / n[b], c[b] / n[b], m[b] / n[b] / 1024, n[b] }'
