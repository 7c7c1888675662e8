//! The `quarry` binary.

// The global allocator (jemalloc) and its options: declared in a crate compiled optimised,
// where the allocation entry points are generated (alloc/src/lib.rs).
use quarry_alloc as _;

fn main() -> std::process::ExitCode {
    quarry_server::cli::main()
}
