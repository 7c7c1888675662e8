#!/usr/bin/env bash
# Checks that the vendored C in third_party/ is reproducible: each crate as published on
# crates.io, plus our changes, equals the tree that is built.
#   - third_party/tree-sitter: the published crate with third_party/patches/tree-sitter/*.patch
#     applied in order (their headers say what each changes and why; QUARRY.md there says how
#     each was checked);
#   - third_party/grammars/*: each published grammar crate with `scripts/vendor_grammars.py
#     patch` applied.
# Then each grammar, built against the published and against the vendored crates, must parse
# the repository's own sources and fixtures into the same trees: the patches are meant to make
# parsing faster and change nothing it produces. (VENDOR_CHECK_VERBOSE=1 prints the corpus.)
# Files we add (QUARRY.md) and the published crates' Cargo.lock and Cargo.toml.orig, which
# cargo does not read from a patched dependency, are left out of the comparison.
# Usage: bash scripts/vendor_check.sh   (downloads the crates, ~10 MB, to a temporary directory;
# ~1 min)
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The published crate NAME-VERSION, extracted under $work/pristine: from cargo's download cache
# when it is there, else from crates.io.
fetch() {
  local crate="$1" name="${1%-*}" file
  file="$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"$crate.crate" 2>/dev/null | head -1 || true)"
  if [ -z "$file" ]; then
    file="$work/$crate.crate"
    curl -sSfL --retry 3 -o "$file" "https://static.crates.io/crates/$name/$crate.crate"
  fi
  mkdir -p "$work/pristine"
  tar -xzf "$file" -C "$work/pristine"
}

# Whether directory $1 (rebuilt) equals $2 (vendored), but for the files named above.
same() {
  diff -r -q -x QUARRY.md -x Cargo.lock -x Cargo.toml.orig -x .cargo-ok "$1" "$2" >"$work/diff" || {
    echo "vendor check: $2 differs from the published crate with its patches:" >&2
    cat "$work/diff" >&2
    return 1
  }
}

version_of() { sed -n 's/^version = "\(.*\)"/\1/p' "$1/Cargo.toml" | head -1; }

failed=0
ts=third_party/tree-sitter
fetch "tree-sitter-$(version_of "$ts")"
rebuilt="$work/patched/tree-sitter"
mkdir -p "$work/patched"
cp -r "$work/pristine/tree-sitter-$(version_of "$ts")" "$rebuilt"
for p in third_party/patches/tree-sitter/*.patch; do
  patch -s -p1 -d "$rebuilt" <"$p" || { echo "vendor check: $p does not apply" >&2; failed=1; }
done
same "$rebuilt" "$ts" || failed=1

for dir in third_party/grammars/tree-sitter-*; do
  crate="$(basename "$dir")-$(version_of "$dir")"
  fetch "$crate"
  cp -r "$work/pristine/$crate" "$work/patched/$crate"
  python3 scripts/vendor_grammars.py patch "$work/patched/$crate" >/dev/null
  same "$work/patched/$crate" "$dir" || failed=1
done
if [ "$failed" != 0 ]; then exit 1; fi
echo "vendor check: third_party/ is the published crates plus their patches"

# The patches change no tree: every grammar, built against the published crates and against
# the vendored ones, parses the corpus (the repository's fixtures, and its own Rust) into the
# same trees (tree-sitter's own C is the C corpus). Each build is one program (scripts/vendor/trees.c) at -O0: only the output counts.
corpus() {
  case "$1" in
    rust) git ls-files 'tests/fixtures/*.rs' 'analysis/src/*.rs' 'engine/src/*.rs' ;;
    python) git ls-files '*.py' ;;
    javascript) git ls-files 'tests/fixtures/*.js' ;;
    typescript) git ls-files 'tests/fixtures/*.ts' ;;
    tsx) git ls-files 'tests/fixtures/*.tsx' 'tests/fixtures/*.ts' ;;
    go) git ls-files 'tests/fixtures/*.go' ;;
    java) git ls-files 'tests/fixtures/*.java' ;;
    c) git ls-files 'tests/fixtures/*.c' 'tests/fixtures/*.h' 'third_party/tree-sitter/src/*.[ch]' ;;
    cpp) git ls-files 'tests/fixtures/*.cpp' 'tests/fixtures/*.h' 'third_party/tree-sitter/src/*.h' ;;
    c_sharp) git ls-files 'tests/fixtures/*.cs' ;;
    ruby) git ls-files 'tests/fixtures/*.rb' ;;
    php) git ls-files 'tests/fixtures/*.php' ;;
  esac
}
# grammar function suffix, grammar source directory (relative to the crate)
grammars="rust:tree-sitter-rust: python:tree-sitter-python: javascript:tree-sitter-javascript:
typescript:tree-sitter-typescript:typescript tsx:tree-sitter-typescript:tsx go:tree-sitter-go:
java:tree-sitter-java: c:tree-sitter-c: cpp:tree-sitter-cpp: c_sharp:tree-sitter-c-sharp:
ruby:tree-sitter-ruby: php:tree-sitter-php:php"
build() { # $1 tree-sitter crate dir, $2 grammar src dir, $3 grammar name, $4 output
  local extra=()
  [ -f "$2/scanner.c" ] && extra+=("$2/scanner.c")
  cc -O0 -w -std=c11 -D_DEFAULT_SOURCE -DGRAMMAR="tree_sitter_$3" -I "$1/include" -I "$1/src" -I "$2" \
    scripts/vendor/trees.c "$1/src/lib.c" "$2/parser.c" "${extra[@]}" -o "$4"
}
pristine_ts="$work/pristine/tree-sitter-$(version_of "$ts")"
for spec in $grammars; do
  IFS=: read -r lang crate sub <<<"$spec"
  files="$(corpus "$lang")"
  [ -z "$files" ] && continue
  version="$(version_of "third_party/grammars/$crate")"
  build "$pristine_ts" "$work/pristine/$crate-$version/${sub:+$sub/}src" "$lang" "$work/published-$lang" &
  build "$ts" "third_party/grammars/$crate/${sub:+$sub/}src" "$lang" "$work/vendored-$lang"
  wait
  "$work/published-$lang" $files >"$work/published-$lang.txt"
  "$work/vendored-$lang" $files >"$work/vendored-$lang.txt"
  [ -n "${VENDOR_CHECK_VERBOSE:-}" ] && echo "$lang: $(echo $files | wc -w) files, $(wc -c <"$work/vendored-$lang.txt") bytes of trees" >&2
  if ! cmp -s "$work/published-$lang.txt" "$work/vendored-$lang.txt"; then
    echo "vendor check: $lang trees differ between the published and the vendored crates" >&2
    failed=1
  fi
done
if [ "$failed" = 0 ]; then echo "vendor check: the same trees from the published and the vendored crates"; fi
exit "$failed"
