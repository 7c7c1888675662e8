#!/usr/bin/env bash
# The whole test suite: unit tests, the integration test binary (real binary, real git, real
# HTTP server) and the sqllogictest suite. Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
QUARRY_SETUP_TESTS=1 bash scripts/setup.sh
source scripts/env.sh
# CI builds a fresh clone each time: incremental caches of its crates are never reused and
# piled up to 22 GB in the shared target directory. Dependencies are unaffected.
if [ "${CI:-}" = true ]; then export CARGO_INCREMENTAL=0; fi
# Tests must not pick up a user's store or organisation.
unset QUARRY_STORE QUARRY_ORG QUARRY_FAILPOINT QUARRY_BLESS
if cargo fmt --version >/dev/null 2>&1; then cargo fmt --all -- --check; fi
# The vendored C is the published crates plus our patches (third_party/patches/).
bash scripts/vendor_check.sh
cargo test --locked --workspace --no-fail-fast
# The code layout list (server/hot-functions.txt) still names what this build defines.
python3 scripts/hot_functions.py --check "$CARGO_TARGET_DIR/debug/quarry"
