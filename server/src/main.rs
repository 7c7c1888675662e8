//! The `quarry` binary.

/// mimalloc instead of glibc's allocator: indexing makes and frees tens of millions of small
/// strings (symbols, edges, search terms). With glibc, freeing a corpus's analyses took ~5 s
/// of `malloc_consolidate` and `_int_free` alone; see docs/benchmarks.md.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tree_sitter_uses_mimalloc();
    return_freed_memory_sooner();
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

/// mimalloc gives freed memory back to the system a second after it is freed (its v3 default
/// `purge_delay`). Indexing frees hundreds of megabytes at a time (a phase's buffers, a chunk's
/// unpacked analyses), so RSS counted memory nobody held: the registry's first index peaked
/// at 1.46 GB with 1 s, 1.20 GB with 100 ms at the same speed (0 ms: 1.04 GB, 13 % slower).
/// `MIMALLOC_PURGE_DELAY` in the environment still decides when set.
#[allow(unsafe_code)]
fn return_freed_memory_sooner() {
    /// `mi_option_purge_delay` in mimalloc.h's `mi_option_e` (15 in both v2 and v3; the
    /// Rust bindings do not name it). Re-check on a mimalloc upgrade.
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets a plain integer option; mimalloc reads options atomically and allows
        // changing them at run time.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 100) };
    }
}
