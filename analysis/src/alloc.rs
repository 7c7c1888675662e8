//! The `quarry` binary's global allocator, jemalloc, behind a shim compiled here.
//!
//! `tikv_jemallocator::Jemalloc`'s methods are `#[inline]`, so they are compiled in the crate
//! that names the allocator, at that crate's opt-level. Named in the binary's crate (opt-level
//! 0 in the dev profile) they were real calls with their layout checks and flag computation:
//! 1–1.5 % of a first index's CPU (docs/benchmarks.md, session 24). Named here, they are
//! compiled with the engine's opt-level.

use std::alloc::{GlobalAlloc, Layout};

use tikv_jemallocator::Jemalloc;

/// jemalloc, for `#[global_allocator]`.
pub struct Allocator;

// SAFETY: every method hands its arguments unchanged to jemalloc's `GlobalAlloc`, which upholds
// the trait's contract; the caller's obligations (a non-zero size, a pointer this allocator
// returned with the same layout) pass through as they are.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the trait requires of our caller.
        unsafe { Jemalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the trait requires of our caller.
        unsafe { Jemalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the trait requires of our caller.
        unsafe { Jemalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the trait requires of our caller.
        unsafe { Jemalloc.realloc(ptr, layout, new_size) }
    }
}
