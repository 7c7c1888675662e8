//! Tree-sitter's memory for one file's parse, from a bump arena.
//!
//! A file's syntax tree lives only while the file is analysed. Freeing it node by node
//! (`ts_tree_delete`: a reference count decremented atomically per subtree, then `free`)
//! and allocating it node by node through the general allocator were together ~4 % of a first
//! index's CPU. So tree-sitter allocates from this thread's
//! arena while [`Scope`] is held: an allocation is a pointer bump, a `free` of arena memory
//! does nothing, and the tree is never deleted (`forget`); leaving the scope makes the whole
//! arena reusable at once. The parser itself is made and deleted inside the scope too, so
//! that nothing tree-sitter allocates in it outlives it: a parser kept from file to file
//! would keep pooled subtrees and grown arrays that point into reused memory.
//!
//! Outside a scope (other threads, a parser made elsewhere) the allocator is the process's
//! `malloc` family, as tree-sitter's default is; `free` and `realloc` tell the two kinds of
//! pointer apart by whether they fall inside this thread's arena.
//!
//! The third place `unsafe` is allowed (Cargo.toml's lints): the allocator functions are C
//! callbacks, each `unsafe` block has its safety argument.
#![allow(unsafe_code)]

use std::cell::UnsafeCell;
use std::ffi::c_void;
use std::ptr;
use std::sync::Once;

use rustc_hash::{FxBuildHasher, FxHashMap};

// The process's allocator (jemalloc, unprefixed: alloc/src/lib.rs), as tree-sitter's
// defaults call it.
unsafe extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn calloc(count: usize, size: usize) -> *mut c_void;
    fn realloc(ptr: *mut c_void, size: usize) -> *mut c_void;
    fn free(ptr: *mut c_void);
}

/// Every block is aligned as `malloc`'s are.
const ALIGN: usize = 16;
/// The first chunk's size; each further chunk is twice the last, up to [`MAX_CHUNK`].
const FIRST_CHUNK: usize = 256 << 10;
const MAX_CHUNK: usize = 2 << 20;
/// Blocks of this size or more (a large file's arrays, which grow by `realloc`) come from the
/// C allocator, so that growing them leaves no copies behind; the arena frees those still
/// allocated when the scope ends.
const LARGE: usize = 64 << 10;
/// At most this much of chunks per scope. Nothing freed in a scope is reused before it ends,
/// and a parse that recovers from errors all along discards far more than its tree (a 0.8 MB
/// file of random Rust tokens: ~470 MB of arena against ~130 MB through `malloc`). Past this,
/// the scope's blocks come from the C allocator, recorded like large ones. The largest
/// well-formed Rust files of the cargo registry (0.6–0.9 MB) hold 19–30 MB.
const LIMIT: usize = 32 << 20;
/// Kept between files: the largest chunk, if it is at most this; the rest are freed. Most
/// files' trees fit in it; a large file's chunks go back when it is done.
const KEEP: usize = MAX_CHUNK;

struct Arena {
    /// Inside a [`Scope`]: tree-sitter allocates here.
    active: bool,
    /// (start, length) of each chunk, from the Rust allocator; the last is being filled.
    chunks: Vec<(*mut u8, usize)>,
    /// The next free byte of the last chunk and its end.
    next: *mut u8,
    end: *mut u8,
    /// The block allocated last (it can grow in place).
    last: *mut u8,
    /// Bytes in `chunks`.
    held: usize,
    /// Blocks from the C allocator (of [`LARGE`] bytes or more, or past [`LIMIT`]) allocated
    /// in the scope and not freed yet: address → size.
    large: FxHashMap<usize, usize>,
    /// The sum of `large`'s sizes.
    large_bytes: usize,
}

thread_local! {
    static ARENA: UnsafeCell<Arena> = const {
        UnsafeCell::new(Arena {
            active: false,
            chunks: Vec::new(),
            next: ptr::null_mut(),
            end: ptr::null_mut(),
            last: ptr::null_mut(),
            held: 0,
            large: FxHashMap::with_hasher(FxBuildHasher),
            large_bytes: 0,
        })
    };
}

/// This thread's arena, or `None` while the thread is being torn down.
///
/// The callers below never hold the reference across a call that could reach `with_arena`
/// again (the Rust allocator, which chunks come from, is not tree-sitter's), so it is the only
/// reference to the arena while it lives.
fn with_arena<R>(f: impl FnOnce(&mut Arena) -> R) -> Option<R> {
    // SAFETY: see above: no other reference to this thread's arena exists during `f`.
    ARENA.try_with(|a| f(unsafe { &mut *a.get() })).ok()
}

impl Arena {
    fn contains(&self, p: *mut u8) -> bool {
        self.chunk_end(p).is_some()
    }

    /// The chunk that holds `p`: its end.
    fn chunk_end(&self, p: *mut u8) -> Option<*mut u8> {
        self.chunks
            .iter()
            .rev()
            .find(|&&(start, len)| p >= start && p < start.wrapping_add(len))
            .map(|&(start, len)| start.wrapping_add(len))
    }

    /// `size` bytes (rounded up to [`ALIGN`]) from the arena; `None` if a new chunk would
    /// pass [`LIMIT`] or the Rust allocator fails.
    ///
    /// Inlined into the allocator's entry points, with the rare cases out of line: tree-sitter
    /// allocates once per reduction and per large leaf, and as a call of its own this cost ~60
    /// instructions an allocation, most of them saving and restoring registers.
    #[inline]
    fn bump(&mut self, size: usize) -> Option<*mut u8> {
        let size = size.max(1).checked_next_multiple_of(ALIGN)?;
        if (self.end as usize).saturating_sub(self.next as usize) < size {
            self.new_chunk(size)?;
        }
        let p = self.next;
        self.next = p.wrapping_add(size);
        self.last = p;
        Some(p)
    }

    /// A chunk with room for `size` (a multiple of [`ALIGN`]) to bump from next; `None` if it
    /// would pass [`LIMIT`] or the Rust allocator fails.
    #[cold]
    #[inline(never)]
    fn new_chunk(&mut self, size: usize) -> Option<()> {
        let last = self.chunks.last().map_or(FIRST_CHUNK / 2, |c| c.1);
        let len = size.max(last.saturating_mul(2).clamp(FIRST_CHUNK, MAX_CHUNK));
        if self.held + len > LIMIT {
            return None;
        }
        let layout = std::alloc::Layout::from_size_align(len, ALIGN).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let start = unsafe { std::alloc::alloc(layout) };
        if start.is_null() {
            return None;
        }
        self.chunks.push((start, len));
        self.held += len;
        self.next = start;
        self.end = start.wrapping_add(len);
        Some(())
    }

    /// A block for tree-sitter inside the scope: small ones bumped while the arena is under
    /// [`LIMIT`], others from the C allocator and recorded.
    #[inline]
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if size < LARGE
            && let Some(p) = self.bump(size)
        {
            return p;
        }
        self.alloc_large(size)
    }

    /// A block from the C allocator, recorded to be freed when the scope ends.
    #[cold]
    #[inline(never)]
    fn alloc_large(&mut self, size: usize) -> *mut u8 {
        // SAFETY: the C allocator's contract.
        let p = unsafe { malloc(size) }.cast::<u8>();
        if !p.is_null() {
            self.record_large(p, size);
        }
        p
    }

    fn record_large(&mut self, p: *mut u8, size: usize) {
        self.large.insert(p as usize, size);
        self.large_bytes += size;
    }

    /// Forget a recorded block (freed or moved by the C allocator); its size if it was one.
    fn take_large(&mut self, p: *mut u8) -> Option<usize> {
        let size = self.large.remove(&(p as usize))?;
        self.large_bytes -= size;
        Some(size)
    }

    /// After a file: every block is free. The largest chunk is kept for the next file if it
    /// is at most [`KEEP`]; the others go back to the Rust allocator.
    fn reset(&mut self) {
        for (p, _) in self.large.drain() {
            // SAFETY: allocated by `alloc` from the C allocator and not freed since.
            unsafe { free(p as *mut c_void) };
        }
        self.large_bytes = 0;
        let keep = self
            .chunks
            .iter()
            .enumerate()
            .filter(|(_, c)| c.1 <= KEEP)
            .max_by_key(|(_, c)| c.1)
            .map(|(i, _)| i);
        let mut kept = None;
        for (i, (start, len)) in self.chunks.drain(..).enumerate() {
            if Some(i) == keep {
                kept = Some((start, len));
                continue;
            }
            // SAFETY: every chunk was allocated by `bump` with this layout, and nothing in it
            // is in use once the scope has ended.
            unsafe {
                std::alloc::dealloc(
                    start,
                    std::alloc::Layout::from_size_align_unchecked(len, ALIGN),
                )
            };
        }
        self.chunks.extend(kept);
        self.held = kept.map_or(0, |c| c.1);
        (self.next, self.end) = match kept {
            Some((start, len)) => (start, start.wrapping_add(len)),
            None => (ptr::null_mut(), ptr::null_mut()),
        };
        self.last = ptr::null_mut();
    }
}

/// Free the chunk this thread's arena keeps between files (up to [`KEEP`]) unless a scope is
/// open: once a repository's files are parsed it would otherwise sit, on every thread that
/// parsed, through the rest of an index run or a server's life ([`super::release_parse_memory`]).
pub fn release() {
    with_arena(|a| {
        if !a.active {
            a.free_all();
        }
    });
}

impl Arena {
    /// Give every chunk and large block back (no scope is open).
    fn free_all(&mut self) {
        self.reset();
        for (start, len) in self.chunks.drain(..) {
            // SAFETY: allocated by `bump` with this layout; with no scope open, nothing in it
            // is in use.
            unsafe {
                std::alloc::dealloc(
                    start,
                    std::alloc::Layout::from_size_align_unchecked(len, ALIGN),
                )
            };
        }
        self.held = 0;
        (self.next, self.end) = (ptr::null_mut(), ptr::null_mut());
    }
}

impl Drop for Arena {
    /// A thread's end (no scope is open on a thread that is ending): its chunks and any large
    /// block left go back.
    fn drop(&mut self) {
        self.free_all();
    }
}

unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
    match with_arena(|a| a.active.then(|| a.alloc(size))) {
        Some(Some(p)) => p.cast(),
        // SAFETY: the C allocator's contract, as tree-sitter's default.
        _ => unsafe { malloc(size) },
    }
}

unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
    let Some(total) = count.checked_mul(size) else {
        return ptr::null_mut();
    };
    match with_arena(|a| a.active.then(|| a.alloc(total))) {
        Some(Some(p)) => {
            if !p.is_null() {
                // SAFETY: `bump` returned at least `total` writable bytes.
                unsafe { ptr::write_bytes(p, 0, total) };
            }
            p.cast()
        }
        // SAFETY: the C allocator's contract, as tree-sitter's default.
        _ => unsafe { calloc(count, size) },
    }
}

unsafe extern "C" fn ts_realloc(p: *mut c_void, size: usize) -> *mut c_void {
    if p.is_null() {
        // SAFETY: `realloc(NULL, n)` is `malloc(n)`.
        return unsafe { ts_malloc(size) };
    }
    let bytes = p.cast::<u8>();
    let done = with_arena(|a| {
        let Some(chunk_end) = a.chunk_end(bytes) else {
            // A large block of the scope stays one (freed at the scope's end if not before).
            let old = a.take_large(bytes)?;
            // SAFETY: a block the C allocator returned.
            let to = unsafe { realloc(p, size) }.cast::<u8>();
            match to.is_null() {
                true => a.record_large(bytes, old),
                false => a.record_large(to, size),
            }
            return Some(to);
        };
        // An arena block: grown in place if it was allocated last, else copied to a new
        // block. Its old size is not recorded, so as many bytes as the new size asks are
        // copied, up to the arena's frontier in its chunk (the old block lies wholly below
        // it): the bytes past the old block are arena memory too, and `realloc` leaves those
        // past the old size unspecified.
        let Some(rounded) = size.max(1).checked_next_multiple_of(ALIGN) else {
            return Some(ptr::null_mut());
        };
        if bytes == a.last && size < LARGE && (chunk_end as usize) - (bytes as usize) >= rounded {
            a.next = bytes.wrapping_add(rounded);
            return Some(bytes);
        }
        let frontier = if chunk_end == a.end {
            a.next
        } else {
            chunk_end
        };
        let n = size.min(frontier as usize - bytes as usize);
        let to = match a.active {
            true => a.alloc(size),
            // SAFETY: the C allocator's contract.
            false => unsafe { malloc(size) }.cast::<u8>(),
        };
        if !to.is_null() {
            // SAFETY: `n` bytes from `bytes` lie within its chunk, below the frontier where
            // `to` (or a new chunk) begins; `to` has `size >= n` writable bytes.
            unsafe { ptr::copy(bytes, to, n) };
        }
        Some(to)
    });
    match done {
        Some(Some(to)) => to.cast(),
        // SAFETY: neither an arena block nor a large block of the scope, so one the C
        // allocator returned.
        _ => unsafe { realloc(p, size) },
    }
}

unsafe extern "C" fn ts_free(p: *mut c_void) {
    if p.is_null() {
        return;
    }
    let in_arena = with_arena(|a| {
        let inside = a.contains(p.cast());
        if !inside {
            a.take_large(p.cast());
        }
        inside
    });
    if in_arena != Some(true) {
        // SAFETY: not an arena block, so one the C allocator returned (a large block of the
        // scope is no longer recorded).
        unsafe { free(p) }
    }
}

/// Bytes tree-sitter holds in this thread's open scope: its chunks (garbage included: nothing
/// is reused before the scope ends) and the C allocator's blocks not freed yet. 0 outside a
/// scope.
pub fn scope_bytes() -> usize {
    with_arena(|a| match a.active {
        true => a.held + a.large_bytes,
        false => 0,
    })
    .unwrap_or(0)
}

/// Tree-sitter allocates from this thread's arena until this is dropped. Make the parser
/// after entering, and `forget` the tree and drop the parser before the scope ends.
pub struct Scope {
    entered: bool,
}

impl Scope {
    /// Enter this thread's arena (a scope inside another does nothing).
    pub fn enter() -> Scope {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(|| {
            // SAFETY: the four functions keep the C allocator's contract: an arena block is
            // handed out once until the scope that made it ends, and any other pointer goes
            // to the process's `malloc` family, tree-sitter's default. Blocks tree-sitter
            // allocated before this call came from that family too. Tree-sitter keeps the
            // four pointers as plain globals: in `quarry` nothing else uses tree-sitter, so no
            // thread reads them while they change; unit tests that parse on other threads
            // meanwhile see either allocator, and ours frees the default's blocks as it does.
            unsafe {
                tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                    malloc: ts_malloc,
                    calloc: ts_calloc,
                    realloc: ts_realloc,
                    free: ts_free,
                }))
            };
        });
        let entered = with_arena(|a| !std::mem::replace(&mut a.active, true)).unwrap_or(false);
        Scope { entered }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        if self.entered {
            with_arena(|a| {
                a.active = false;
                a.reset();
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the arena holds after a scope: (chunks, bytes in them, large blocks).
    fn held() -> (usize, usize, usize) {
        with_arena(|a| {
            (
                a.chunks.len(),
                a.chunks.iter().map(|c| c.1).sum(),
                a.large.len(),
            )
        })
        .unwrap()
    }

    fn fill(p: *mut c_void, n: usize, byte: u8) {
        unsafe { ptr::write_bytes(p.cast::<u8>(), byte, n) }
    }

    fn all(p: *mut c_void, n: usize, byte: u8) -> bool {
        unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) }
            .iter()
            .all(|&b| b == byte)
    }

    #[test]
    fn release_frees_the_kept_chunk_but_not_inside_a_scope() {
        let scope = Scope::enter();
        unsafe { fill(ts_malloc(1000), 1000, 3) };
        // Inside a scope nothing is released.
        release();
        assert_eq!(held().0, 1);
        drop(scope);
        assert_eq!(held().0, 1, "one chunk is kept between files");
        release();
        assert_eq!(held(), (0, 0, 0));
        // The next scope makes a chunk again.
        let scope = Scope::enter();
        let p = unsafe { ts_malloc(100) };
        fill(p, 100, 4);
        assert!(all(p, 100, 4));
        assert_eq!(held().0, 1);
        drop(scope);
        release();
    }

    #[test]
    fn blocks_keep_their_bytes_through_realloc_and_calloc_zeroes_reused_memory() {
        for _ in 0..3 {
            let scope = Scope::enter();
            unsafe {
                let a = ts_malloc(100);
                fill(a, 100, 1);
                let b = ts_malloc(40);
                fill(b, 40, 2);
                // `a` is not the last block: moved, its bytes copied.
                let a2 = ts_realloc(a, 1000);
                assert!(all(a2, 100, 1));
                assert!(all(b, 40, 2), "the copy must not overwrite its neighbour");
                // The last block grows in place.
                let a3 = ts_realloc(a2, 4000);
                assert_eq!(a3, a2);
                assert!(all(a3, 100, 1));
                // Blocks past the first chunk come from a second; a block of the first moved
                // into it keeps its bytes.
                let chunks = held().0;
                for _ in 0..(2 * KEEP / LARGE) {
                    ts_malloc(LARGE - 16);
                }
                assert!(held().0 > chunks);
                let a4 = ts_realloc(a3, 8000);
                assert!(all(a4, 100, 1));
                // Large blocks come from the C allocator and are freed at the scope's end.
                let big = ts_malloc(LARGE * 2);
                fill(big, LARGE * 2, 3);
                let big2 = ts_realloc(big, LARGE * 4);
                assert!(all(big2, LARGE * 2, 3));
                let gone = ts_malloc(LARGE);
                ts_free(gone);
                assert_eq!(held().2, 1, "one large block still allocated");
                // A small block grown past the threshold becomes a large one.
                let c = ts_realloc(b, LARGE);
                assert!(all(c, 40, 2));
                assert_eq!(held().2, 2);
                ts_free(a4);
                let z = ts_calloc(64, 8);
                assert!(all(z, 512, 0), "reused arena memory must read as zeros");
                assert!(ts_calloc(usize::MAX, 2).is_null());
            }
            drop(scope);
            let (chunks, bytes, large) = held();
            assert!(chunks <= 1 && bytes <= KEEP && large == 0);
        }
    }

    #[test]
    fn a_scope_holds_at_most_limit_of_chunks_and_takes_the_rest_from_the_c_allocator() {
        let scope = Scope::enter();
        let block = 4000;
        let mut blocks = Vec::new();
        unsafe {
            // Twice the limit in small blocks, each freed at once as a parse's garbage is.
            for i in 0..(2 * LIMIT / block) {
                let p = ts_malloc(block);
                assert!(!p.is_null());
                fill(p, block, i as u8);
                if i % 2 == 0 {
                    ts_free(p);
                } else {
                    blocks.push((p, i as u8));
                }
            }
            let (_, bytes, large) = held();
            assert!(bytes <= LIMIT, "{bytes} bytes of chunks past the limit");
            assert!(large > 0, "blocks past the limit come from the C allocator");
            // Blocks on both sides of the limit keep their bytes; one grown moves and keeps
            // them too.
            assert!(blocks.iter().all(|&(p, b)| all(p, block, b)));
            let (first, b) = blocks[0];
            let grown = ts_realloc(first, 3 * block);
            assert!(all(grown, block, b));
            blocks[0].0 = grown;
            // Freeing the C allocator's blocks forgets them.
            let before = held().2;
            let bytes = scope_bytes();
            assert!(bytes > LIMIT, "the C allocator's blocks count too: {bytes}");
            let (last, _) = blocks.pop().unwrap();
            ts_free(last);
            assert_eq!(held().2, before - 1);
            assert_eq!(scope_bytes(), bytes - block);
            // A grown block counts at its new size.
            let big = ts_malloc(LARGE);
            let big = ts_realloc(big, 3 * LARGE);
            assert_eq!(scope_bytes(), bytes - block + 3 * LARGE);
            ts_free(big);
        }
        drop(scope);
        let (chunks, bytes, large) = held();
        assert!(chunks <= 1 && bytes <= KEEP && large == 0);
        assert_eq!(scope_bytes(), 0, "outside a scope");
    }

    #[test]
    fn outside_a_scope_blocks_are_the_c_allocators() {
        unsafe {
            let p = ts_malloc(64);
            fill(p, 64, 7);
            let q = ts_realloc(p, 128);
            assert!(all(q, 64, 7));
            ts_free(q);
            assert_eq!(held().2, 0);
        }
        // A parser and a tree made outside any scope are freed the usual way.
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse("fn f() { g(1); }", None).unwrap();
        assert_eq!(tree.root_node().kind(), "source_file");
    }

    #[test]
    fn scopes_do_not_nest() {
        let outer = Scope::enter();
        let inner = Scope::enter();
        let p = unsafe { ts_malloc(16) };
        drop(inner);
        // Still the outer scope's block: freeing it is a no-op, not a C `free`.
        assert!(with_arena(|a| a.active && a.contains(p.cast())).unwrap());
        unsafe { ts_free(p) };
        drop(outer);
        assert!(!with_arena(|a| a.active).unwrap());
    }
}
