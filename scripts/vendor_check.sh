#!/usr/bin/env bash
# Checks that the vendored C in third_party/ is reproducible: each crate as published on
# crates.io, plus our changes, equals the tree that is built.
#   - third_party/tree-sitter: the published crate with third_party/patches/tree-sitter/*.patch
#     applied in order (their headers say what each changes and why; QUARRY.md there says how
#     each was checked);
#   - third_party/grammars/*: each published grammar crate with `scripts/vendor_grammars.py
#     patch` applied.
# Files we add (QUARRY.md) and the published crates' Cargo.lock and Cargo.toml.orig, which
# cargo does not read from a patched dependency, are left out of the comparison.
# Usage: bash scripts/vendor_check.sh   (downloads the crates, ~10 MB, into a temporary directory)
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
rebuilt="$work/pristine/tree-sitter-$(version_of "$ts")"
for p in third_party/patches/tree-sitter/*.patch; do
  patch -s -p1 -d "$rebuilt" <"$p" || { echo "vendor check: $p does not apply" >&2; failed=1; }
done
same "$rebuilt" "$ts" || failed=1

for dir in third_party/grammars/tree-sitter-*; do
  crate="$(basename "$dir")-$(version_of "$dir")"
  fetch "$crate"
  python3 scripts/vendor_grammars.py patch "$work/pristine/$crate" >/dev/null
  same "$work/pristine/$crate" "$dir" || failed=1
done
if [ "$failed" = 0 ]; then echo "vendor check: third_party/ is the published crates plus their patches"; fi
exit "$failed"
