# The build's environment, sourced by run.sh and test.sh after setup.sh.

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/quarry-target}"

# jemalloc (the global allocator, alloc/src/lib.rs) from Debian's libjemalloc-dev, which
# setup.sh installs: the same jemalloc 5.3 that tikv-jemalloc-sys bundles, already compiled
# (position-independent, static), instead of its configure script and make — ~140 CPU s of a
# clean build. Without the package (another distribution, or
# another major version) the crate builds its bundled copy as before. Changing this variable
# rebuilds tikv-jemalloc-sys and the crates above it once.
if [ -z "${JEMALLOC_OVERRIDE:-}" ]; then
  _arch="$(gcc -print-multiarch 2>/dev/null || true)"
  _lib="/usr/lib/${_arch}/libjemalloc_pic.a"
  if [ -n "$_arch" ] && [ -f "$_lib" ] &&
    grep -qs '^#define JEMALLOC_VERSION_MAJOR 5$' /usr/include/jemalloc/jemalloc.h &&
    grep -qs '^#define JEMALLOC_VERSION_MINOR 3$' /usr/include/jemalloc/jemalloc.h; then
    export JEMALLOC_OVERRIDE="$_lib"
  fi
  unset _arch _lib
fi
