#!/usr/bin/env bash
# Installs what building and testing Quarry needs on a fresh Debian machine with a Rust
# toolchain: protoc (Lance's build), git (repository sources), jemalloc's static library, and
# for the test suite the tools tests compare against. Idempotent; prints what it installs.
set -euo pipefail

# Install Debian packages (updating the package lists once if the first try fails).
apt_install() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -q "$@" >/dev/null 2>&1 || {
    $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "$@" >/dev/null
  }
}

need=()
command -v protoc >/dev/null 2>&1 || need+=(protobuf-compiler)
command -v git >/dev/null 2>&1 || need+=(git)
command -v cc >/dev/null 2>&1 || need+=(build-essential)
# jemalloc (the global allocator) is compiled from the crate's bundled source with its
# configure script and make, unless Debian's static build is there (scripts/env.sh): that one
# is optional, installed when it can be and no failure when it cannot.
command -v make >/dev/null 2>&1 || need+=(make)
optional=()
[ -f /usr/include/jemalloc/jemalloc.h ] || optional+=(libjemalloc-dev)
if [ "${QUARRY_SETUP_TESTS:-0}" = 1 ]; then
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
  command -v rg >/dev/null 2>&1 || need+=(ripgrep)
  # scripts/vendor_check.sh: the published crates, and our patches applied to them.
  command -v curl >/dev/null 2>&1 || need+=(curl)
  command -v patch >/dev/null 2>&1 || need+=(patch)
  # Rate limits shared by replicas are tested against a real Redis (tests/tenancy.rs).
  command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  apt_install "${need[@]}"
fi
if [ ${#optional[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing ${optional[*]}" >&2
  apt_install "${optional[@]}" || echo "setup: no ${optional[*]}; jemalloc is compiled instead" >&2
fi

# Python clients the tests drive (official clients, schemathesis), in a venv outside the clone.
if [ "${QUARRY_SETUP_TESTS:-0}" = 1 ]; then
  VENV="${QUARRY_VENV:-$HOME/.cache/quarry-venv}"
  if [ ! -x "$VENV/bin/pip" ]; then
    echo "setup: creating $VENV" >&2
    python3 -m venv "$VENV"
  fi
  # Pinned; reinstalled only when the list changes.
  REQS="schemathesis==4.32.5 mcp==2.3.0 openai==3.51.0 moto[server]==5.2.5"
  if [ "$(cat "$VENV/.quarry-reqs" 2>/dev/null)" != "$REQS" ]; then
    echo "setup: installing $REQS" >&2
    "$VENV/bin/pip" install -q $REQS
    echo "$REQS" > "$VENV/.quarry-reqs"
  fi
fi
