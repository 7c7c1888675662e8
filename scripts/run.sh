#!/usr/bin/env bash
# The main job on the embedded default store: build Quarry, index a repository (this one by
# default) into ./.quarry, create an API key and serve. Usage: bash scripts/run.sh [PATH|GIT-URL]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
cargo build --locked --bin quarry
exec "$CARGO_TARGET_DIR/debug/quarry" up "${1:-.}"
