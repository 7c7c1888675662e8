#!/usr/bin/env bash
# Instructions executed by a first index, per binary: valgrind's callgrind counts them, the
# same for the same binary and input whatever else the machine is doing — unlike wall or CPU
# time on a shared 2-core host, which drift by ±10–30 %.
#
#   bash bench/instructions.sh CORPUS_DIR BINARY_A [BINARY_B ...]
#
# Use a small corpus (~10–15 MB on disk: every 40th crate of the cargo registry takes
# ~6 min per binary here). Copy each binary aside first (`cp $CARGO_TARGET_DIR/debug/quarry
# /tmp/q-NAME`): a rebuild replaces the file. Needs valgrind.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,10p "$0" >&2; exit 2; }
CORPUS="$1"; shift
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
for bin in "$@"; do
  rm -rf "$WORK/store"
  valgrind --tool=callgrind --callgrind-out-file="$WORK/out" \
    "$bin" --store "$WORK/store" index "$CORPUS" > /dev/null 2> "$WORK/err"
  total=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$WORK/err")
  echo "$bin: $total instructions"
done
