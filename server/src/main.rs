//! The `quarry` binary.

/// mimalloc instead of glibc's allocator: indexing makes and frees tens of millions of small
/// strings (symbols, edges, search terms). With glibc, freeing a corpus's analyses took ~5 s
/// of `malloc_consolidate` and `_int_free` alone; see docs/benchmarks.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    quarry_server::cli::main()
}
