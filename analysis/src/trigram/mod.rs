//! An exact trigram index of file contents, one per repository and `files` version (Zoekt's and
//! Russ Cox's design): for every 3-byte sequence that occurs in some file, the sorted list of
//! the files it occurs in. A literal of 3 or more bytes can only occur in files holding all of
//! its trigrams, so intersecting their posting lists gives a small candidate set that grep then
//! verifies with the real matcher — the index can narrow a search, never change its answer.
//!
//! Trigrams are raw bytes, case-sensitive (grep's literals are); posting lists are delta- and
//! varint-encoded. Built in one pass over the contents with a per-thread table to find each
//! file's distinct trigrams, so building costs about one read of the corpus.
//!
//! Each posting also carries two 8-bit masks (the "masked trigram" refinement, as in
//! GitHub's and Cursor's regex indexes): where in the file the trigram occurs (bit
//! `position % 8`) and which bytes follow it (bit `hash(byte) % 8`). A literal's trigrams must
//! then also line up — trigram *k* of the literal one byte after trigram *k−1*, in some
//! occurrence's residue — and be followed by the literal's next byte. Both are necessary
//! conditions, so they still never drop a true match, but they cut most of the files that hold
//! every trigram of `unreachable_unchecked` apart (`unreachable!` and `get_unchecked`):
//! 235 candidates → 61 on the registry corpus.
//!
//! Beside the index, each file's content is kept as its own zstd frame (`.texts`), so grep reads
//! exactly its candidates' bytes — a few kilobytes each — where Lance would decompress whole
//! pages of the `content` column to take a few rows. The `files` table stays the source of
//! truth; both objects are derived from one version of it and replaced with it.
//!
//! The serialised index (`.grams`) is self-contained and checked on load; docs/formats.md gives
//! its bytes ("Trigram index").

use rustc_hash::FxHashMap;

use rayon::prelude::*;

pub use crate::derived::CorruptIndex;
use crate::derived::{Reader, le32, put_varint};
use crate::spill::SPILL_AT;

mod reader;
#[cfg(test)]
mod tests;
mod writer;

pub use self::{reader::*, writer::*};

pub const MAGIC: &[u8; 8] = b"QTRIGRM3";
const GRAM_SPACE: usize = 1 << 24;

fn gram(w: &[u8]) -> u32 {
    (u32::from(w[0]) << 16) | (u32::from(w[1]) << 8) | u32::from(w[2])
}

/// The bit of the "next bytes" mask that `byte` sets (a multiplicative hash's top 3 bits).
const fn next_bit(byte: u8) -> u8 {
    1 << ((byte as u32).wrapping_mul(0x9E37_79B9) >> 29)
}

/// A trigram's masks in one file: positions (bit `position % 8`) and following bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Masks {
    at: u8,
    next: u8,
}

thread_local! {
    static SEEN: std::cell::RefCell<Option<Seen>> = const { std::cell::RefCell::new(None) };
}

/// Where the index of a repository's `files` at `version` is stored.
pub fn grams_path(source_id: &str, version: u64) -> String {
    format!("sources/{source_id}/trigrams/{}", file_name(version, GRAMS))
}

/// Where the contents' frames of a repository's `files` at `version` are stored.
pub fn texts_path(source_id: &str, version: u64) -> String {
    format!("sources/{source_id}/trigrams/{}", file_name(version, TEXTS))
}

const GRAMS: &str = "grams";
const TEXTS: &str = "texts";

fn file_name(version: u64, kind: &str) -> String {
    format!("files-{version:010}.{kind}")
}

/// The contents of `docs` (ids of `ix`) from their frames, in that order, decompressed on
/// every core.
pub fn decompress(
    ix: &Contents,
    docs: &[u32],
    frames: Vec<bytes::Bytes>,
) -> Result<Vec<String>, String> {
    docs.par_iter()
        .zip(frames)
        .map(|(&d, frame)| decompress_one(ix, d, &frame))
        .collect()
}

/// The content of document `d` of `ix` from its frame (one of [`decompress`]'s, on the
/// calling thread: for a caller that does more with each file on the pool).
pub fn decompress_one(ix: &Contents, d: u32, frame: &[u8]) -> Result<String, String> {
    let (Some(path), Some(span)) = (ix.paths.get(d as usize), ix.spans.get(d as usize)) else {
        return Err(format!("no document {d}"));
    };
    let bytes = crate::derived::decompress_frame(frame, span.2 as usize)
        .map_err(|e| format!("content of {path}: {e}"))?;
    String::from_utf8(bytes).map_err(|_| format!("content of {path} is not UTF-8"))
}
