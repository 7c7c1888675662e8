#!/usr/bin/env bash
# Prints, per repository directory, a digest of the `files`, `symbols` and `edges` rows a first
# index writes (rows sorted, data-source ids left out), so that two builds of Quarry can be
# shown to write the same rows:
#   scripts/row_digest.sh OLD_BINARY DIR... > a.txt
#   scripts/row_digest.sh NEW_BINARY DIR... > b.txt && diff a.txt b.txt
# The stores are temporary.
set -euo pipefail
bin="$1"
shift
store="$(mktemp -d)"
trap 'rm -rf "$store"' EXIT
export QUARRY_STORE="$store" NO_COLOR=1
i=0
for dir in "$@"; do
  i=$((i + 1))
  name="digest$i"
  if ! "$bin" index "$dir" --name "$name" >/dev/null 2>"$store/err"; then
    echo "$(basename "$dir"): index failed: $(tail -1 "$store/err")"
    continue
  fi
  for table in files symbols edges; do
    "$bin" sql "SELECT * FROM $table" --source "$name" --json |
      python3 -c '
import hashlib, json, sys
rows = json.load(sys.stdin)["rows"]
for r in rows:
    r.pop("data_source", None)
    r.pop("content", None)
lines = sorted(json.dumps(r, sort_keys=True) for r in rows)
print(sys.argv[1], sys.argv[2], len(lines), hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16])
' "$(basename "$dir")" "$table"
  done
done
