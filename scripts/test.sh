#!/usr/bin/env bash
# The whole test suite: unit tests, the integration test binary (real binary, real git, real
# HTTP server) and the sqllogictest suite. Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
QUARRY_SETUP_TESTS=1 bash scripts/setup.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/quarry-target}"
# Tests must not pick up a user's store or organisation.
unset QUARRY_STORE QUARRY_ORG QUARRY_FAILPOINT QUARRY_BLESS
if cargo fmt --version >/dev/null 2>&1; then cargo fmt --all -- --check; fi
cargo test --locked --workspace --no-fail-fast
