#!/usr/bin/env bash
# Installs what building and testing Quarry needs on a fresh Debian machine with a Rust
# toolchain: protoc (Lance's build), git (repository sources), and for the test suite the
# tools tests compare against. Idempotent; prints what it installs.
set -euo pipefail

need=()
command -v protoc >/dev/null 2>&1 || need+=(protobuf-compiler)
command -v git >/dev/null 2>&1 || need+=(git)
command -v cc >/dev/null 2>&1 || need+=(build-essential)
# jemalloc (the global allocator) is built with its own configure script and make.
command -v make >/dev/null 2>&1 || need+=(make)
if [ "${QUARRY_SETUP_TESTS:-0}" = 1 ]; then
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
  command -v rg >/dev/null 2>&1 || need+=(ripgrep)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q "${need[@]}" >/dev/null 2>&1 || {
    $SUDO apt-get update -q >/dev/null
    $SUDO apt-get install -y -q "${need[@]}" >/dev/null
  }
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
