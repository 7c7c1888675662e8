#!/usr/bin/env bash
# grep benchmark: Quarry's grep_search (trigram-pruned, over HTTP, warm server) against
# ripgrep (warm page cache) on a large real corpus — the cargo registry sources by default.
#
#   bash bench/grep.sh [CORPUS_DIR]
#
# Uses the bench store (~/.cache/quarry-bench-store, indexed once; re-indexing adds the
# trigram index if missing). Each query runs 5 times per tool after one warm-up; the table
# reports medians and the ratio rg / quarry (> 1 = Quarry faster). Quarry's time is the HTTP
# request as curl times it (`time_total`: connect, planning, candidate fetch, verification,
# JSON, last byte), which leaves out curl's own process start (~6 ms here; rg's process start
# stays in rg's time); `max_results` is 500 files.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${1:-$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/ | head -1)}"
QUARRY="${QUARRY:-${CARGO_TARGET_DIR:-$HOME/.cache/quarry-target}/debug/quarry}"
STORE="${QUARRY_BENCH_STORE:-$HOME/.cache/quarry-bench-store}"
export QUARRY_STORE="$STORE"
"$QUARRY" index "$CORPUS" --name corpus >/dev/null 2>&1
source bench/serve.sh
echo "corpus: $CORPUS ($(du -sh "$CORPUS" | cut -f1)); store: $(du -sh "$STORE" | cut -f1)"

body() { # query regex → the request body (built outside the timed call)
  python3 -c 'import json,sys; print(json.dumps({"query": sys.argv[1], "regex": sys.argv[2] == "1", "max_results": 500, "data_sources": ["corpus"], "output_format": "json"}))' "$1" "$2"
}
quarry_once() { # body
  curl -s "$URL/api/tools/grep_search" -H "Authorization: Bearer $KEY" -d "$1"
}
rg_once() { # query regex
  if [ "$2" = 1 ]; then rg --no-config -c -e "$1" "$CORPUS"; else rg --no-config -c -F -e "$1" "$CORPUS"; fi
}
quarry_ms() { # body → median of 5 requests' time_total (after a warm-up)
  quarry_once "$1" >/dev/null
  for _ in 1 2 3 4 5; do
    curl -s -o /dev/null -w '%{time_total}\n' "$URL/api/tools/grep_search" -H "Authorization: Bearer $KEY" -d "$1"
  done | sort -n | awk '{a[NR]=$1} END {printf "%d\n", a[3] * 1000 + 0.5}'
}
median_ms() { # fn args... → median of 5 (after a warm-up)
  "$@" >/dev/null 2>&1 || true
  local t=()
  for _ in 1 2 3 4 5; do
    local s=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t+=($(( ($(date +%s%N) - s) / 1000000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | awk '{a[NR]=$1} END {print a[3]}'
}
echo
echo "| query | regex | files (rg) | files (quarry, ≤500) | rg ms | quarry ms | rg / quarry |"
echo "|---|---|---:|---:|---:|---:|---:|"
while IFS=$'\t' read -r regex q; do
  [ -z "$q" ] && continue
  b=$(body "$q" "$regex")
  files_rg=$( (rg_once "$q" "$regex" || true) | wc -l)
  files_q=$(quarry_once "$b" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["obj"].get("results", [])))')
  r=$(median_ms rg_once "$q" "$regex")
  t=$(quarry_ms "$b")
  ratio=$(python3 -c "print(f'{$r / max($t, 1):.1f}×')")
  echo "| \`${q//|/\\|}\` | $regex | $files_rg | $files_q | $r | $t | $ratio |"
done <<'QUERIES'
0	ZSTD_decompressStream
0	EVP_CIPHER_CTX_new
0	fn hyper_body_poll
0	RUSTC_BOOTSTRAP
0	unreachable_unchecked
0	#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
0	impl Drop for
0	tokio::spawn
0	proc_macro2::TokenStream
0	serde_json::from_str
0	thread_local!
0	TODO
0	unsafe
0	fn main
0	Arc<Mutex<
1	fn\s+poll_[a-z_]+\(
1	impl<T: ?Sized> [A-Z][a-z]+
1	Error::new\(ErrorKind::[A-Za-z]+
1	#\[cfg\(target_os = "(macos|ios)"\)\]
1	[0-9a-f]{40}
1	^use std::
1	(?i)deprecated
QUERIES
