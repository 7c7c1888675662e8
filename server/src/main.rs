//! The `quarry` binary.

/// mimalloc instead of glibc's allocator: indexing makes and frees tens of millions of small
/// strings (symbols, edges, search terms). With glibc, freeing a corpus's analyses took ~5 s
/// of `malloc_consolidate` and `_int_free` alone; see docs/benchmarks.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tree_sitter_uses_mimalloc();
    quarry_server::cli::main()
}

/// Tree-sitter's C code allocates through libc's `malloc` unless told otherwise: parsing the
/// registry spent ~6 % of its time in glibc's `malloc`, `_int_free` and `malloc_consolidate`.
#[allow(unsafe_code)]
fn tree_sitter_uses_mimalloc() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_realloc};
    // SAFETY: called first thing in `main`, before any thread exists and before tree-sitter
    // has allocated anything, so no block is ever freed by an allocator that did not allocate
    // it. The four functions are a complete malloc family with libc's signatures (the
    // contract `ts_set_allocator` states), and mimalloc is linked for the whole process.
    unsafe {
        tree_sitter::set_allocator(
            Some(libmimalloc_sys::mi_malloc),
            Some(mi_calloc),
            Some(mi_realloc),
            Some(mi_free),
        );
    }
}
