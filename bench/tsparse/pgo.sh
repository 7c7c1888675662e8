#!/usr/bin/env bash
# tree-sitter's Rust parse built by GCC with and without profile-guided optimisation (PGO),
# outside cargo, timed on the same files, alternated.
#
#   bash bench/tsparse/pgo.sh CORPUS_DIR [PAIRS]
#
# Builds tree-sitter's runtime (third_party/tree-sitter) and the Rust grammar
# (third_party/grammars/tree-sitter-rust) at -O3 as `cc` builds them, once plain and once
# with -fprofile-use from a training run over every other crate of CORPUS_DIR, then parses the
# other crates' .rs files with each binary in turn, PAIRS times (default 6), printing the
# parse's thread CPU seconds of each. docs/benchmarks.md has the result.
# Needs gcc.
set -euo pipefail
[ $# -ge 1 ] || { sed -n 2,12p "$0" >&2; exit 2; }
CORPUS="$(cd "$1" && pwd)"; PAIRS="${2:-6}"
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
TS="$ROOT/third_party/tree-sitter"; G="$ROOT/third_party/grammars/tree-sitter-rust/src"
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
build() { # build OUT FLAGS...
  local out="$1"; shift
  local f=(-O3 -ffunction-sections -fdata-sections -fPIC -m64 -DNDEBUG -std=c11 "$@")
  mkdir -p "$out"
  gcc "${f[@]}" -fvisibility=hidden -I"$TS/src" -I"$TS/src/wasm" -I"$TS/include" \
    -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE -w -c "$TS/src/lib.c" -o "$out/lib.o"
  gcc "${f[@]}" -I"$G" -w -c "$G/parser.c" -o "$out/parser.o"
  gcc "${f[@]}" -I"$G" -w -c "$G/scanner.c" -o "$out/scanner.o"
  gcc "${f[@]}" -I"$TS/include" -c "$HERE/parse.c" -o "$out/parse.o"
  gcc "$@" "$out"/*.o -o "$out/parse"
}
ls "$CORPUS" | awk 'NR % 2 == 0' | while read -r c; do find "$CORPUS/$c" -name '*.rs'; done > "$W/train"
ls "$CORPUS" | awk 'NR % 2 == 1' | while read -r c; do find "$CORPUS/$c" -name '*.rs'; done > "$W/test"
build "$W/plain"
build "$W/gen" -fprofile-generate -fprofile-update=single
"$W/gen/parse" "$W/train" > /dev/null
mkdir -p "$W/pgo"; cp "$W"/gen/*.gcda "$W/pgo/"
build "$W/pgo" -fprofile-use -Wno-missing-profile
echo "pair plain_s pgo_s"
for i in $(seq "$PAIRS"); do
  a=$("$W/plain/parse" "$W/test" | awk '{ print $6 }')
  b=$("$W/pgo/parse" "$W/test" | awk '{ print $6 }')
  echo "$i $a $b"
done
