#!/usr/bin/env bash
# ArtifactQuery latency benchmark: representative analytics on a large real corpus (the cargo
# registry sources by default), each beside the same question in plain DataFusion SQL over the
# same tables (`quarry sql`), so planner overhead is visible.
#
#   bash bench/query.sh [CORPUS_DIR]
#
# Indexes the corpus once into ~/.cache/quarry-bench-store (reused on later runs), then runs
# each statement 7 times through the CLI and reports the median and the worst wall time.
# CLI times include process start and opening the Lance tables (see the `SELECT 1` row).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${1:-$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ | head -1)}"
QUARRY="${QUARRY:-${CARGO_TARGET_DIR:-$HOME/.cache/quarry-target}/debug/quarry}"
STORE="${QUARRY_BENCH_STORE:-$HOME/.cache/quarry-bench-store}"
export QUARRY_STORE="$STORE"
if ! "$QUARRY" sources 2>/dev/null | grep -q corpus; then
  "$QUARRY" index "$CORPUS" --name corpus >/dev/null 2>&1
fi
"$QUARRY" sql "SELECT (SELECT COUNT(*) FROM files) AS files, (SELECT COUNT(*) FROM symbols) AS symbols, (SELECT COUNT(*) FROM edges) AS edges"

time_ms() { # command... → median and max of 7 runs, in ms
  local t=()
  for _ in 1 2 3 4 5 6 7; do
    local s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    t+=($(( ($(date +%s%N) - s) / 1000000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%d|%d", a[4], a[7]}'
}

# A warm server too: what an agent sees through the Tool API (tables stay open between calls).
source bench/serve.sh
body() { # statement → the request body (built outside the timed call)
  python3 -c 'import json,sys; print(json.dumps({"statement": sys.argv[1], "data_sources": ["corpus"], "output_format": "json"}))' "$1"
}
tool_query() { # body → one Tool API call that must succeed
  curl -sf "$URL/api/tools/query_artifact_metadata" -H "Authorization: Bearer $KEY" -d "$1" | grep -q '"rows"'
}

echo "| question | ArtifactQuery CLI p50 / max ms | SQL CLI p50 / max ms | ArtifactQuery, warm server p50 / max ms |"
echo "|---|---:|---:|---:|"
row() { # label, artifactquery, sql
  IFS='|' read -r a_p50 a_max <<< "$(time_ms "$QUARRY" query "$2")"
  IFS='|' read -r s_p50 s_max <<< "$(time_ms "$QUARRY" sql "$3")"
  local b
  b=$(body "$2")
  tool_query "$b" # warm-up
  IFS='|' read -r w_p50 w_max <<< "$(time_ms tool_query "$b")"
  echo "| $1 | $a_p50 / $a_max | $s_p50 / $s_max | $w_p50 / $w_max |"
}
row "baseline (SELECT 1 / LIMIT 1)" \
  "SELECT path FROM files LIMIT 1" \
  "SELECT 1"
row "language mix" \
  "SELECT language, COUNT(*) AS files, SUM(lines) AS lines FROM files GROUP BY language ORDER BY lines DESC LIMIT 20" \
  "SELECT language, COUNT(*) AS files, SUM(lines) AS lines FROM files GROUP BY language ORDER BY lines DESC LIMIT 20"
row "top-20 cognitive complexity" \
  "SELECT identifier, complexity FROM functions ORDER BY complexity DESC LIMIT 20" \
  "SELECT identifier, complexity FROM symbols WHERE kind IN ('function','method','constructor') ORDER BY complexity DESC NULLS LAST, identifier LIMIT 21"
row "most-called functions" \
  "SELECT identifier, incoming_calls FROM functions ORDER BY incoming_calls DESC LIMIT 20" \
  "SELECT identifier, incoming_calls FROM symbols WHERE kind IN ('function','method','constructor') ORDER BY incoming_calls DESC, identifier LIMIT 21"
row "most-called functions, counted from edges (SQL join)" \
  "SELECT identifier, incoming_calls FROM functions ORDER BY incoming_calls DESC LIMIT 20" \
  "SELECT s.identifier, COUNT(e.target) AS n FROM symbols s LEFT JOIN edges e ON e.kind = 'calls' AND e.target = s.identifier WHERE s.kind IN ('function','method','constructor') GROUP BY s.identifier ORDER BY n DESC LIMIT 20"
row "public API surface by kind" \
  "SELECT kind, COUNT(*) AS n FROM symbols WHERE is_public = TRUE GROUP BY kind ORDER BY n DESC LIMIT 20" \
  "SELECT kind, COUNT(*) AS n FROM symbols WHERE is_public GROUP BY kind ORDER BY n DESC LIMIT 20"
