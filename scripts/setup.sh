#!/usr/bin/env bash
# Installs what building and testing Quarry needs on a fresh Debian machine with a Rust
# toolchain: protoc (Lance's build), git (repository sources), and for the test suite the
# tools tests compare against. Idempotent; prints what it installs.
set -euo pipefail

need=()
command -v protoc >/dev/null 2>&1 || need+=(protobuf-compiler)
command -v git >/dev/null 2>&1 || need+=(git)
command -v cc >/dev/null 2>&1 || need+=(build-essential)
if [ "${QUARRY_SETUP_TESTS:-0}" = 1 ]; then
  command -v python3 >/dev/null 2>&1 || need+=(python3)
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
