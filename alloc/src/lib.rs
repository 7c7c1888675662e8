//! The `quarry` binary's global allocator, jemalloc, and jemalloc's options.
//!
//! Linked by naming it (`use quarry_alloc as _;`): the `quarry` binary does, and so does
//! `analyze_bench`, so that allocation costs there what it costs in an index.
//!
//! Why a crate of its own: `#[global_allocator]` makes the compiler generate the allocation
//! entry points every allocation goes through (`__rust_alloc`, `__rust_dealloc`,
//! `__rust_realloc`) in the crate that declares the static, at that crate's opt-level and
//! with its debug assertions. Declared in the binary's crate (opt-level 0 in the dev profile),
//! each was a real call to `Layout::from_size_align_unchecked` and its precondition check, then
//! to the allocator's method: ~1.5 % of a first index's CPU. This crate is compiled at opt-level 3 without debug assertions
//! (Cargo.toml's profile), so each entry point is jemalloc's call itself.
//!
//! jemalloc instead of glibc's allocator, for every allocation of the process: Rust's (this
//! global allocator) and C's (`unprefixed_malloc_on_supported_platforms` makes it `malloc`
//! itself, so tree-sitter's trees and zstd's contexts come from it too). Indexing makes and
//! frees tens of millions of small strings (symbols, edges, search terms); with glibc, freeing
//! a corpus's analyses took ~5 s of `malloc_consolidate` and `_int_free` alone. Against
//! mimalloc jemalloc is as fast, and a first index of the cargo registry peaks ~170 MB lower
//! (mimalloc kept ~250 MB of freed pages beside ~250 MB of live data).

use tikv_jemallocator::Jemalloc;

#[global_allocator]
static ALLOCATOR: Jemalloc = Jemalloc;

/// jemalloc's options, read at its first allocation (`MALLOC_CONF` in the environment still
/// overrides each): freed pages go back to the system after one second instead of jemalloc's
/// default ten seconds (the registry's first index peaks 0.61 → 0.51 GB; 200 ms would cost
/// ~6 % of a first index's CPU in purging and faulting pages in again, for ~4 MB less), at once
/// rather than through the "muzzy" stage, and from background threads, so an idle server
/// returns memory too. Indexing frees memory fast (each batch of Arrow arrays once Lance has
/// encoded it, each chunk of contents once stored); what was freed within the decay time is
/// still resident. One arena per CPU, each thread allocating from the arena of the CPU it runs
/// on, rather than four per CPU with threads bound to one for life: memory one thread frees
/// is reused by the next that runs on that CPU (a first index's peak ~−10 MB on 2 cores), and
/// a larger machine still gets as many arenas as it can use at once.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub static malloc_conf: MallocConf = MallocConf(
    b"background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0,percpu_arena:percpu\0".as_ptr(),
);

/// A C string pointer jemalloc reads as `const char *malloc_conf`.
#[repr(transparent)]
pub struct MallocConf(*const u8);

// SAFETY: the pointer is to a static, immutable, NUL-terminated byte string; nothing writes
// through it.
#[allow(unsafe_code)]
unsafe impl Sync for MallocConf {}
