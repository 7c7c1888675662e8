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
//! Serialised index (`.grams`, little-endian), self-contained and checked on load:
//!
//! ```text
//! b"QTRIGRM3"
//! u32 files;  files × (u32 length, UTF-8 path)          -- document id = position
//!             files × (u64 offset, u32 zstd length, u32 length)   -- the file's frame in .texts
//! u32 grams;  grams × (u32 trigram, u32 offset, u32 len) -- sorted by trigram
//! postings    per document: varint delta (first = id), u8 positions, u8 next bytes
//! ```

use rustc_hash::FxHashMap;

use rayon::prelude::*;

pub use crate::derived::CorruptIndex;
use crate::derived::{Reader, le32, put_varint};
use crate::spill::SPILL_AT;

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

/// The distinct trigrams of one file and their masks, found with a table over the whole
/// trigram space, one per thread, reset after each file. Each entry is a `u16` (positions in
/// the low byte, next bytes in the high one). The table is in blocks of 256 entries, one per
/// pair of leading bytes, made when a file first has a trigram there: source text touches a
/// few thousand of the 65 536 pairs (~5 MB), where one flat table of the whole space was
/// 32 MB per thread — allocated zeroed, but written out in full whenever the allocator
/// reused memory, which for a small repository was most of an index run's peak. Blocks
/// accumulate over the files a thread sees (~18 000, 9 MB a thread, over the registry copy:
/// rare pairs of bytes, non-ASCII text); past [`KEEP_BLOCKS`] those the last file did not
/// use are freed.
struct Seen {
    /// Indexed by a trigram's two leading bytes: a fixed-size array, so that index needs no
    /// bounds check.
    blocks: Box<[Option<Box<[u16; 256]>>; GRAM_SPACE >> 8]>,
    /// How many of `blocks` are made.
    made: usize,
    grams: Vec<u32>,
}

/// Blocks a thread's [`Seen`] keeps between files (2 MiB): a source file's trigrams start
/// with ~500 distinct pairs of bytes (~1 800 at the 99th percentile, in a sample of the
/// registry copy), and the pairs common in source text are made once and kept.
const KEEP_BLOCKS: usize = 4096;

/// Per byte, the entry bits it sets as the byte after a trigram: [`next_bit`] in the high byte.
const NEXT_BITS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (next_bit(b as u8) as u16) << 8;
        b += 1;
    }
    t
};

impl Seen {
    fn new() -> Self {
        let blocks: Box<[Option<Box<[u16; 256]>>]> = vec![None; GRAM_SPACE >> 8].into();
        Seen {
            blocks: blocks
                .try_into()
                .unwrap_or_else(|_| unreachable!("the slice has GRAM_SPACE >> 8 entries")),
            made: 0,
            grams: Vec::new(),
        }
    }

    fn distinct(&mut self, content: &[u8]) -> Vec<(u32, Masks)> {
        self.grams.clear();
        // Byte `i` completes the trigram that starts at `i − 2`; the byte after that trigram
        // is `i + 1` (none for the last). The trigram index's hottest loop: the trigram is
        // rolled, not re-read, and the mask bits come from tables.
        let mut g = 0u32;
        for (i, &b) in content.iter().enumerate() {
            g = ((g << 8) | u32::from(b)) & (GRAM_SPACE as u32 - 1);
            if i < 2 {
                continue;
            }
            let next = content.get(i + 1).map_or(0, |&n| NEXT_BITS[n as usize]);
            let block = match &mut self.blocks[(g >> 8) as usize] {
                Some(block) => block,
                slot => {
                    self.made += 1;
                    slot.insert(Box::new([0; 256]))
                }
            };
            let m = &mut block[(g & 0xff) as usize];
            if *m == 0 {
                self.grams.push(g);
            }
            // Positions: bit (i − 2) % 8, where the trigram starts.
            *m |= (1 << ((i - 2) & 7)) | next;
        }
        let blocks = &mut self.blocks;
        let found = self
            .grams
            .iter()
            .map(|&g| {
                let m = blocks[(g >> 8) as usize]
                    .as_mut()
                    .map_or(0, |b| std::mem::take(&mut b[(g & 0xff) as usize]));
                let [at, next] = m.to_le_bytes();
                (g, Masks { at, next })
            })
            .collect();
        if self.made > KEEP_BLOCKS {
            self.free_unused();
        }
        found
    }

    /// Free the blocks (all zero again) that the last file's trigrams did not start in.
    fn free_unused(&mut self) {
        let mut used = vec![0u64; (GRAM_SPACE >> 8) / 64];
        for &g in &self.grams {
            let pair = (g >> 8) as usize;
            used[pair / 64] |= 1 << (pair % 64);
        }
        for (pair, block) in self.blocks.iter_mut().enumerate() {
            if block.is_some() && used[pair / 64] & (1 << (pair % 64)) == 0 {
                *block = None;
                self.made -= 1;
            }
        }
    }

    /// This thread's table (rayon's `map_init` would make one per split).
    fn with<R>(f: impl FnOnce(&mut Seen) -> R) -> R {
        SEEN.with(|cell| f(cell.borrow_mut().get_or_insert_with(Seen::new)))
    }

    /// Free every worker's table once an index is built (a few MB per thread, otherwise held
    /// for the life of the process: through the rest of an index run, or a server's life).
    fn release() {
        rayon::broadcast(|_| SEEN.with(|cell| cell.borrow_mut().take()));
    }
}

thread_local! {
    static SEEN: std::cell::RefCell<Option<Seen>> = const { std::cell::RefCell::new(None) };
}

struct Posting {
    last: u32,
    data: Vec<u8>,
}

/// Builds an index from files added in batches; document ids are the order of addition.
#[derive(Default)]
pub struct Builder {
    paths: Vec<String>,
    postings: FxHashMap<u32, Posting>,
    /// Frames not yet handed to a writer ([`Self::drain_texts`]).
    texts: Vec<u8>,
    /// Bytes of frames already handed on (where `texts` starts in the contents object).
    texts_base: u64,
    spans: Vec<(u64, u32, u32)>,
    /// Postings added since the last run, one `u64` each ([`pending_entry`]), in the order
    /// they came (documents ascending); sorted, they are the run's lists in trigram order.
    /// Eight bytes a posting where a list per trigram in a hash map held ~5× that (varints in
    /// vectors with spare capacity, the map's table): that map was the largest part of a
    /// first index's peak.
    pending: Vec<u64>,
    /// The first document of `pending` (its entries hold documents relative to it).
    pending_base: u32,
    /// Where posting lists go once they pass `spill_at` bytes ([`crate::spill`]); without it
    /// they stay in memory until the end.
    spill: Option<crate::spill::Spill>,
    spill_at: usize,
    /// Bytes of posting lists held in memory.
    held: usize,
    /// Documents a run of pending postings may span, when not all of [`PENDING_DOC_BITS`]
    /// (tests: the runs' ends).
    run_docs: Option<u32>,
}

/// Bits of a pending entry for its document (relative to [`Builder::pending_base`]).
const PENDING_DOC_BITS: u32 = 24;

/// [`Builder::add_batch`] finds trigrams and compresses contents in parallel this many bytes
/// of contents at a time: what a part holds until it is folded in (each file's distinct
/// trigrams, 8 bytes each, and its frame, allocated at zstd's bound) is ~3× its contents, so
/// a file stream's whole 8 MiB chunk at once held ~25 MB.
const PARALLEL_BYTES: usize = 1 << 20;

/// A pending posting: trigram (24 bits), document relative to the run's first (24 bits),
/// then the position and next-byte masks — so sorting entries orders them by trigram, then
/// document, as the lists are.
fn pending_entry(g: u32, doc: u32, m: Masks) -> u64 {
    (u64::from(g) << 40) | (u64::from(doc) << 16) | (u64::from(m.at) << 8) | u64::from(m.next)
}

/// Sorted pending entries, one posting list per trigram: (trigram, its list — the first
/// document absolute, then deltas — and its last document).
fn pending_lists(
    sorted: &[u64],
    base: u32,
    mut each: impl FnMut(u32, &[u8], u32) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut data = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let g = (sorted[i] >> 40) as u32;
        data.clear();
        let mut last = 0;
        while let Some(&e) = sorted.get(i).filter(|&&e| (e >> 40) as u32 == g) {
            let doc = base + ((e >> 16) as u32 & ((1 << PENDING_DOC_BITS) - 1));
            let delta = if data.is_empty() { doc } else { doc - last };
            put_varint(&mut data, delta);
            data.extend_from_slice(&[(e >> 8) as u8, e as u8]);
            last = doc;
            i += 1;
        }
        each(g, &data, last)?;
    }
    Ok(())
}

impl Builder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Spill posting lists to `file` (a scratch file) whenever they pass a budget, so the
    /// builder's memory stays bounded; the finished index is the same byte for byte.
    pub fn spill_to(&mut self, file: std::fs::File) -> std::io::Result<()> {
        self.spill = Some(crate::spill::Spill::new(file));
        self.spill_at = SPILL_AT;
        self.spill_if_over()
    }

    fn spill_if_over(&mut self) -> std::io::Result<()> {
        if self.spill.is_some() && self.held > self.spill_at {
            self.write_run()?;
        }
        Ok(())
    }

    /// Write what is held as one run (there is a spill).
    fn write_run(&mut self) -> std::io::Result<()> {
        if !self.postings.is_empty() {
            // Lists of an index being updated, held (no spill at first): the pending
            // postings go on after them.
            self.fold_pending();
        }
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        if !self.postings.is_empty() {
            let mut lists: Vec<(u32, Posting)> = self.postings.drain().collect();
            lists.sort_unstable_by_key(|(g, _)| *g);
            // Keys big-endian, so byte order is trigram order.
            let mut run = spill.begin_run();
            for (g, p) in &lists {
                run.push(&g.to_be_bytes(), p.last, 0, &p.data)?;
            }
            run.finish()?;
            self.postings = FxHashMap::default();
        } else if !self.pending.is_empty() {
            self.pending.sort_unstable();
            let mut run = spill.begin_run();
            pending_lists(&self.pending, self.pending_base, |g, data, last| {
                run.push(&g.to_be_bytes(), last, 0, data)
            })?;
            run.finish()?;
            // Its capacity is kept for the next run's (the budget's, once filled).
            self.pending.clear();
        }
        self.held = 0;
        Ok(())
    }

    /// Move the pending postings into the lists held per trigram (no spill, or lists held).
    fn fold_pending(&mut self) {
        self.pending.sort_unstable();
        let pending = std::mem::take(&mut self.pending);
        let postings = &mut self.postings;
        // Appending to vectors cannot fail.
        let _ = pending_lists(&pending, self.pending_base, |g, data, last| {
            match postings.get_mut(&g) {
                Some(p) => {
                    // `data` starts with its first document, absolute: rebase it.
                    let (first, n) = crate::spill::read_varint(data)
                        .unwrap_or_else(|| unreachable!("a list starts with a varint"));
                    put_varint(&mut p.data, first - p.last);
                    p.data.extend_from_slice(&data[n..]);
                    p.last = last;
                }
                None => {
                    postings.insert(
                        g,
                        Posting {
                            last,
                            data: data.to_vec(),
                        },
                    );
                }
            }
            Ok(())
        });
    }

    /// Add a batch of (path, content); trigrams are found and contents compressed in parallel,
    /// [`PARALLEL_BYTES`] of contents at a time.
    pub fn add_batch(&mut self, files: &[(&str, &[u8])]) -> std::io::Result<()> {
        let mut rest = files;
        while !rest.is_empty() {
            let mut n = 0;
            let mut bytes = 0;
            while n < rest.len() && (n == 0 || bytes + rest[n].1.len() <= PARALLEL_BYTES) {
                bytes += rest[n].1.len();
                n += 1;
            }
            let (part, next) = rest.split_at(n);
            self.add_part(part)?;
            rest = next;
        }
        self.spill_if_over()
    }

    fn add_part(&mut self, files: &[(&str, &[u8])]) -> std::io::Result<()> {
        // Per file: its trigrams with their masks, and its compressed content.
        type Done = std::io::Result<(Vec<(u32, Masks)>, Vec<u8>)>;
        let done: Vec<Done> = files
            .par_iter()
            .map(|(_, content)| {
                let grams = Seen::with(|seen| seen.distinct(content));
                Ok((grams, crate::derived::compress_frame(content)?))
            })
            .collect();
        for ((path, content), done) in files.iter().zip(done) {
            let (grams, frame) = done?;
            let doc = self.paths.len() as u32;
            self.paths.push((*path).to_string());
            let too_big = || std::io::Error::other(format!("{path} is over 4 GiB"));
            self.spans.push((
                self.texts_base + self.texts.len() as u64,
                u32::try_from(frame.len()).map_err(|_| too_big())?,
                u32::try_from(content.len()).map_err(|_| too_big())?,
            ));
            self.texts.extend_from_slice(&frame);
            let size = grams.len() * std::mem::size_of::<u64>();
            if !self.pending.is_empty() {
                // Relative document numbers must fit their bits; and when spilling, a run
                // ends before the file that would take what is held past the budget, so
                // `pending` stays within it (one file's postings aside).
                let full =
                    doc - self.pending_base >= self.run_docs.unwrap_or(1 << PENDING_DOC_BITS);
                let over = self.spill.is_some() && self.held + size > self.spill_at;
                if full || over {
                    match self.spill {
                        Some(_) => self.write_run()?,
                        None => self.fold_pending(),
                    }
                }
            }
            if self.pending.is_empty() {
                self.pending_base = doc;
            }
            let rel = doc - self.pending_base;
            self.pending
                .extend(grams.iter().map(|&(g, m)| pending_entry(g, rel, m)));
            self.held += size;
        }
        Ok(())
    }

    /// [`Self::from_index_reading`] over an index and a contents object in memory (tests).
    #[cfg(test)]
    pub fn from_index(
        ix: &TrigramIndex,
        texts: &[u8],
        keep: impl Fn(&str) -> bool,
        sink: &mut impl std::io::Write,
        spill: Option<std::fs::File>,
    ) -> std::io::Result<Builder> {
        let head = ix.head();
        let bytes = &ix.bytes;
        let slice = |b: &[u8], r: std::ops::Range<u64>| {
            b.get(r.start as usize..r.end as usize)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| std::io::Error::other("out of bounds"))
        };
        let read = |r: std::ops::Range<u64>| slice(texts, r);
        let postings = |r: std::ops::Range<u64>| slice(bytes, r);
        Self::from_index_reading(
            &head,
            postings,
            (texts.len() as u64, read),
            keep,
            sink,
            spill,
        )
    }

    /// A builder holding the documents of a published index that `keep` admits, in their
    /// order: their frames (copied from that index's contents object, given as its length and
    /// a reader of byte ranges within it, so it is never held whole: neighbouring frames are
    /// read together, up to 8 MiB per read) and their postings (renumbered). Files added next
    /// are appended after them, so the result is byte for byte what a fresh build over the
    /// kept files and then the added ones gives — which is the order of a `files` table
    /// updated in place (kept rows, then the appended ones). Costs about one decoding of the
    /// postings instead of a read of every content. The kept frames are written to `sink`
    /// (the start of the new contents object) as they are copied, not held.
    ///
    /// The published index is given as its [`Head`] (documents and gram directory) and a
    /// reader of byte ranges of the serialised index (`postings`): its posting lists are read
    /// a slice of grams at a time, never whole. With `spill` (a scratch file), the kept
    /// posting lists are written there as the first run as they are renumbered — never all
    /// held — and the builder spills from then on ([`Self::spill_to`]).
    pub fn from_index_reading(
        ix: &Head,
        mut postings: impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
        (texts_len, mut read): (
            u64,
            impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
        ),
        keep: impl Fn(&str) -> bool,
        sink: &mut impl std::io::Write,
        spill: Option<std::fs::File>,
    ) -> std::io::Result<Builder> {
        const READ: u64 = 8 << 20;
        let mut b = Builder::new();
        let mut renumber = vec![u32::MAX; ix.contents.paths.len()];
        // The kept frames not yet copied: one contiguous range of the contents object.
        let mut pending: Option<std::ops::Range<u64>> = None;
        let mut copy = |r: std::ops::Range<u64>| -> std::io::Result<()> {
            let bytes = read(r.clone())?;
            if bytes.len() as u64 != r.end - r.start {
                return Err(std::io::Error::other(CorruptIndex(format!(
                    "trigram index: read {} bytes of contents for {}",
                    bytes.len(),
                    r.end - r.start
                ))));
            }
            sink.write_all(&bytes)
        };
        for (doc, path) in ix.contents.paths.iter().enumerate() {
            if !keep(path) {
                continue;
            }
            let (offset, zlen, len) = ix.contents.spans[doc];
            let frame = offset
                .checked_add(u64::from(zlen))
                .filter(|&end| end <= texts_len)
                .map(|end| offset..end)
                .ok_or_else(|| {
                    std::io::Error::other(CorruptIndex(format!(
                        "trigram index: the frame of {path} is out of bounds"
                    )))
                })?;
            pending = match pending.take() {
                Some(p) if p.end == frame.start && frame.end - p.start <= READ => {
                    Some(p.start..frame.end)
                }
                Some(p) => {
                    copy(p)?;
                    Some(frame)
                }
                None => Some(frame),
            };
            renumber[doc] = b.paths.len() as u32;
            b.paths.push(path.clone());
            b.spans.push((b.texts_base, zlen, len));
            b.texts_base += u64::from(zlen);
        }
        if let Some(p) = pending {
            copy(p)?;
        }
        let n_docs = ix.contents.paths.len();
        let mut renumbered =
            |grams: std::ops::Range<usize>| -> std::io::Result<Vec<(u32, Posting)>> {
                // The slice's lists lie together in the index (they are written in gram order);
                // read the span that holds them all.
                let entry = |i: usize| {
                    let e = i * 12;
                    (
                        le32(&ix.dir, e),
                        u64::from(le32(&ix.dir, e + 4)),
                        u64::from(le32(&ix.dir, e + 8)),
                    )
                };
                let (start, end) = grams
                    .clone()
                    .map(entry)
                    .fold((u64::MAX, 0), |(start, end), (_, off, len)| {
                        (start.min(off), end.max(off + len))
                    });
                if start >= end {
                    return Ok(Vec::new());
                }
                let at = ix.postings_at;
                let bytes = postings(at + start..at + end)?;
                if bytes.len() as u64 != end - start {
                    return Err(std::io::Error::other(CorruptIndex(format!(
                        "trigram index: read {} bytes of posting lists for {}",
                        bytes.len(),
                        end - start
                    ))));
                }
                Ok(grams
                    .into_par_iter()
                    .with_min_len(1024)
                    .map_init(Vec::new, |docs, i| {
                        let (g, off, len) = entry(i);
                        let off = (off - start) as usize;
                        docs.clear();
                        decode(&bytes[off..off + len as usize], n_docs, docs);
                        let mut p = Posting {
                            last: 0,
                            data: Vec::new(),
                        };
                        for &(doc, m) in docs.iter() {
                            let new = renumber[doc as usize];
                            if new == u32::MAX {
                                continue;
                            }
                            let delta = if p.data.is_empty() { new } else { new - p.last };
                            put_varint(&mut p.data, delta);
                            p.data.extend_from_slice(&[m.at, m.next]);
                            p.last = new;
                        }
                        (g, p)
                    })
                    .filter(|(_, p)| !p.data.is_empty())
                    .collect())
            };
        if let Some(file) = spill {
            // The index's directory is sorted by trigram: renumbered a slice at a time, the
            // lists go straight into one run.
            // 16 384 grams a slice: ~4 MB of lists on average (a few times that where the
            // grams are densest), read and renumbered at a time.
            let spill =
                crate::spill::Spill::with_first_run(file, ix.grams, 1 << 14, |grams, run| {
                    for (g, p) in renumbered(grams)? {
                        run.push(&g.to_be_bytes(), p.last, 0, &p.data)?;
                    }
                    Ok(())
                })?;
            b.spill = Some(spill);
            b.spill_at = SPILL_AT;
            return Ok(b);
        }
        let grams = renumbered(0..ix.grams)?;
        b.held = grams
            .iter()
            .map(|(_, p)| p.data.len() + std::mem::size_of::<(u32, Posting)>())
            .sum();
        b.postings.reserve(grams.len());
        b.postings.extend(grams);
        Ok(b)
    }

    /// Every file is added: free the per-thread tables and, when lists were spilled, write
    /// the rest as the last run — what is then held is documents, and the merge is all that
    /// is left of [`Self::finish_to`] (which seals first; a caller finishing later seals
    /// early, to free that memory meanwhile).
    pub fn seal(&mut self) -> std::io::Result<()> {
        Seen::release();
        if self.spill.as_ref().is_some_and(|s| !s.is_empty()) {
            self.write_run()?;
            self.pending = Vec::new();
        }
        Ok(())
    }

    /// Hand the frames made so far to `sink` (the contents object, in order), so they are
    /// not held until the end.
    pub fn drain_texts(&mut self, sink: &mut impl std::io::Write) -> std::io::Result<()> {
        sink.write_all(&self.texts)?;
        self.texts_base += self.texts.len() as u64;
        self.texts = Vec::new();
        Ok(())
    }

    /// Write the serialised index to `grams` and the rest of the contents' frames to `texts`
    /// (after those drained before), without building either in memory.
    pub fn finish_to(
        mut self,
        grams: &mut impl std::io::Write,
        texts: &mut impl std::io::Write,
    ) -> std::io::Result<()> {
        self.drain_texts(texts)?;
        self.seal()?;
        // Unspilled, the lists are all held.
        self.fold_pending();
        let mut sorted: Vec<(u32, Posting)> = self.postings.into_iter().collect();
        sorted.sort_unstable_by_key(|(g, _)| *g);
        let out = grams;
        out.write_all(MAGIC)?;
        out.write_all(&(self.paths.len() as u32).to_le_bytes())?;
        for p in &self.paths {
            out.write_all(&(p.len() as u32).to_le_bytes())?;
            out.write_all(p.as_bytes())?;
        }
        for (offset, zlen, len) in &self.spans {
            out.write_all(&offset.to_le_bytes())?;
            out.write_all(&zlen.to_le_bytes())?;
            out.write_all(&len.to_le_bytes())?;
        }
        if let Some(mut spill) = self.spill.take().filter(|s| !s.is_empty()) {
            // Lists were spilled (the rest too, as the last run, above): the runs are merged;
            // the merged lists go to the scratch file after the runs (the directory, which
            // precedes them in the index, is known only once they are all merged).
            debug_assert!(sorted.is_empty());
            let start = spill.end();
            let mut dir: Vec<(u32, u32, u32)> = Vec::new();
            let mut merged = std::io::BufWriter::with_capacity(1 << 20, spill.file().try_clone()?);
            std::io::Seek::seek(&mut merged, std::io::SeekFrom::Start(start))?;
            let mut offset = 0u32;
            let too_big = || std::io::Error::other("the trigram index is over 4 GiB");
            spill.merge(|m| {
                let g = u32::from_be_bytes(m.key.try_into().map_err(|_| too_big())?);
                let len = u32::try_from(m.data.len()).map_err(|_| too_big())?;
                dir.push((g, offset, len));
                offset = offset.checked_add(len).ok_or_else(too_big)?;
                std::io::Write::write_all(&mut merged, m.data)
            })?;
            std::io::Write::flush(&mut merged)?;
            drop(merged);
            out.write_all(&(dir.len() as u32).to_le_bytes())?;
            for (g, offset, len) in &dir {
                out.write_all(&g.to_le_bytes())?;
                out.write_all(&offset.to_le_bytes())?;
                out.write_all(&len.to_le_bytes())?;
            }
            return crate::spill::copy_range(spill.file(), start, u64::from(offset), out);
        }
        out.write_all(&(sorted.len() as u32).to_le_bytes())?;
        let mut offset = 0u32;
        for (g, p) in &sorted {
            out.write_all(&g.to_le_bytes())?;
            out.write_all(&offset.to_le_bytes())?;
            out.write_all(&(p.data.len() as u32).to_le_bytes())?;
            offset += p.data.len() as u32;
        }
        for (_, p) in sorted {
            out.write_all(&p.data)?;
        }
        Ok(())
    }

    /// The serialised index and the contents' frames, in memory (tests).
    pub fn finish(self) -> (Vec<u8>, Vec<u8>) {
        let (mut grams, mut texts) = (Vec::new(), Vec::new());
        // Writing to vectors cannot fail.
        let _ = self.finish_to(&mut grams, &mut texts);
        (grams, texts)
    }
}

/// A loaded index.
pub struct TrigramIndex {
    bytes: Vec<u8>,
    contents: Contents,
    dir: usize,
    grams: usize,
    postings: usize,
}

/// The documents of an index: each one's path, and where its content's frame lies in the
/// `.texts` object — what reading contents needs, without the postings.
#[derive(Clone)]
pub struct Contents {
    paths: Vec<String>,
    spans: Vec<(u64, u32, u32)>,
}

/// Everything of a serialised index but its posting lists: the documents and the gram
/// directory (~7 MB for the cargo registry's sources, whose lists are ~100 MB) — what an update
/// needs to read the lists a slice at a time ([`Builder::from_index_reading`]).
pub struct Head {
    contents: Contents,
    grams: usize,
    /// The directory's entries: (trigram, offset, length) as little-endian `u32`s, checked.
    dir: Vec<u8>,
    /// Where the posting lists start in the serialised index.
    postings_at: u64,
}

impl Head {
    /// How many grams the index has.
    pub fn grams(&self) -> usize {
        self.grams
    }

    /// Where the posting lists start in the serialised index.
    pub fn postings_at(&self) -> u64 {
        self.postings_at
    }

    /// The documents and the gram count at the start of a serialised index (`bytes`, a
    /// prefix of it), and where its gram directory starts. A prefix too short is an error:
    /// the caller reads more ([`Head::new`] completes it).
    pub fn read_documents(bytes: &[u8]) -> Result<(Contents, usize, u64), CorruptIndex> {
        let mut r = Reader {
            bytes,
            at: 0,
            what: "trigram index",
        };
        let contents = Contents::read(&mut r)?;
        let grams = r.u32()? as usize;
        Ok((contents, grams, r.at as u64))
    }

    /// Where the posting lists start: after a directory of `grams` entries at `dir_at`, if it
    /// fits in an object of `size` bytes.
    pub fn postings_start(grams: usize, dir_at: u64, size: u64) -> Option<u64> {
        (grams as u64)
            .checked_mul(12)
            .and_then(|len| dir_at.checked_add(len))
            .filter(|&end| end <= size)
    }

    /// The head of an index of `size` bytes from its documents ([`Head::read_documents`]) and
    /// its gram directory (`dir`, the bytes from `dir_at` to `postings_at`), checked as
    /// [`TrigramIndex::load`] checks.
    pub fn new(
        (contents, grams): (Contents, usize),
        dir: Vec<u8>,
        (dir_at, postings_at, size): (u64, u64, u64),
        path: &str,
    ) -> Result<Head, String> {
        if dir.len() as u64 != postings_at - dir_at {
            return Err(format!("trigram index: {path} changed while being read"));
        }
        check_directory(&dir, size - postings_at).map_err(|e| e.to_string())?;
        Ok(Head {
            contents,
            grams,
            dir,
            postings_at,
        })
    }
}

/// Check a gram directory (`dir`: 12 bytes an entry) against the length of the posting lists
/// after it: grams strictly ascending, every list in bounds.
fn check_directory(dir: &[u8], blob: u64) -> Result<(), CorruptIndex> {
    let mut prev: Option<u32> = None;
    for (i, e) in dir.chunks_exact(12).enumerate() {
        let (g, off, len) = (le32(e, 0), u64::from(le32(e, 4)), u64::from(le32(e, 8)));
        if prev.is_some_and(|p| p >= g) || off + len > blob {
            return Err(CorruptIndex(format!(
                "trigram index: bad directory entry {i}"
            )));
        }
        prev = Some(g);
    }
    Ok(())
}

/// A posting list's documents and masks, ascending, of an index of `n_docs` documents (a
/// corrupt list decodes to fewer documents, never to a panic).
fn decode(data: &[u8], n_docs: usize, out: &mut Vec<(u32, Masks)>) {
    let (mut v, mut shift, mut doc, mut first) = (0u32, 0u32, 0u32, true);
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        i += 1;
        v |= u32::from(b & 0x7f) << shift.min(31);
        shift += 7;
        if b & 0x80 == 0 {
            doc = if first { v } else { doc.saturating_add(v) };
            first = false;
            let Some(m) = data.get(i..i + 2) else { break };
            i += 2;
            if (doc as usize) < n_docs {
                out.push((
                    doc,
                    Masks {
                        at: m[0],
                        next: m[1],
                    },
                ));
            }
            v = 0;
            shift = 0;
        }
    }
}

impl Contents {
    /// Every indexed path; a document id indexes this slice.
    pub fn paths(&self) -> &[String] {
        &self.paths
    }

    /// Where document `d`'s zstd frame lies in the `.texts` object.
    pub fn frame_range(&self, d: u32) -> Option<std::ops::Range<u64>> {
        let &(offset, zlen, _) = self.spans.get(d as usize)?;
        Some(offset..offset + u64::from(zlen))
    }

    /// Read the magic bytes and the documents of a serialised index.
    fn read(r: &mut Reader) -> Result<Contents, CorruptIndex> {
        let magic = r.take(8)?;
        if magic.starts_with(b"QTRIGRM") && magic != MAGIC {
            return Err(CorruptIndex(format!(
                "trigram index: format {} is an older Quarry's (`quarry index` rebuilds it)",
                String::from_utf8_lossy(magic)
            )));
        }
        if magic != MAGIC {
            return Err(CorruptIndex("trigram index: bad magic".into()));
        }
        let n = r.u32()? as usize;
        let mut paths = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            let len = r.u32()? as usize;
            let p = std::str::from_utf8(r.take(len)?)
                .map_err(|_| CorruptIndex("trigram index: a path is not UTF-8".into()))?;
            paths.push(p.to_string());
        }
        let mut spans = Vec::with_capacity(paths.len());
        for _ in 0..n {
            let b = r.take(16)?;
            let offset = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            spans.push((offset, le32(b, 8), le32(b, 12)));
        }
        Ok(Contents { paths, spans })
    }

    /// The documents of a serialised index from a prefix of it (an error if too short).
    pub fn read_prefix(bytes: &[u8]) -> Result<Contents, CorruptIndex> {
        Contents::read(&mut Reader {
            bytes,
            at: 0,
            what: "trigram index",
        })
    }
}

impl TrigramIndex {
    /// Read a serialised index, checking its structure (never panics on bad bytes).
    pub fn load(bytes: Vec<u8>) -> Result<TrigramIndex, CorruptIndex> {
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
            what: "trigram index",
        };
        let contents = Contents::read(&mut r)?;
        let grams = r.u32()? as usize;
        let dir = r.at;
        r.take(
            grams
                .checked_mul(12)
                .ok_or_else(|| CorruptIndex("trigram index: gram count overflows".into()))?,
        )?;
        let postings = r.at;
        check_directory(&bytes[dir..postings], (bytes.len() - postings) as u64)?;
        Ok(TrigramIndex {
            bytes,
            contents,
            dir,
            grams,
            postings,
        })
    }

    /// Every indexed path; a document id indexes this slice.
    pub fn paths(&self) -> &[String] {
        &self.contents.paths
    }

    /// The documents: paths and where their contents lie.
    pub fn contents(&self) -> &Contents {
        &self.contents
    }

    /// The documents whose path `pattern` matches (grep's file-name matches), ascending.
    pub fn paths_matching(&self, pattern: &crate::grep::Pattern) -> Vec<u32> {
        (0..self.contents.paths.len() as u32)
            .filter(|&d| pattern.is_match(&self.contents.paths[d as usize]))
            .collect()
    }

    /// Size of the serialised index in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    fn posting(&self, g: u32) -> Option<&[u8]> {
        let (mut lo, mut hi) = (0, self.grams);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let e = self.dir + mid * 12;
            let key = le32(&self.bytes, e);
            if key == g {
                let off = self.postings + le32(&self.bytes, e + 4) as usize;
                let len = le32(&self.bytes, e + 8) as usize;
                return Some(&self.bytes[off..off + len]);
            }
            if key < g {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }

    /// A posting list's documents and masks, ascending.
    fn decode(&self, data: &[u8], out: &mut Vec<(u32, Masks)>) {
        decode(data, self.contents.paths.len(), out)
    }

    /// The index's [`Head`] (tests: an update from an index in memory).
    #[cfg(test)]
    fn head(&self) -> Head {
        Head {
            contents: self.contents.clone(),
            grams: self.grams,
            dir: self.bytes[self.dir..self.postings].to_vec(),
            postings_at: self.postings as u64,
        }
    }

    /// The documents that can contain every one of `literals`, ascending; `None` when no
    /// literal is long enough (3 bytes) to narrow anything — every file is a candidate.
    pub fn candidates(&self, literals: &[String]) -> Option<Vec<u32>> {
        let runs: Vec<Vec<Vec<u8>>> = literals
            .iter()
            .map(|l| l.bytes().map(|b| vec![b]).collect())
            .collect();
        self.candidates_of_runs(&runs)
    }

    /// The documents that can contain every run (positions of alternative bytes, see
    /// `grep::Run`), ascending. For each 3 consecutive positions a document must hold one of
    /// the trigrams they spell; within a run, those trigrams must also occur at consecutive
    /// positions (by their position masks) and be followed by a byte the run allows next (by
    /// their next-byte masks). `None` when no run has 3 positions.
    pub fn candidates_of_runs(&self, runs: &[Vec<Vec<u8>>]) -> Option<Vec<u32>> {
        let mut result: Option<Vec<u32>> = None;
        for run in runs.iter().filter(|r| r.len() >= 3) {
            let docs = self.run_candidates(run);
            result = Some(match result {
                None => docs,
                Some(mut acc) => {
                    let mut j = 0;
                    acc.retain(|d| {
                        while j < docs.len() && docs[j] < *d {
                            j += 1;
                        }
                        j < docs.len() && docs[j] == *d
                    });
                    acc
                }
            });
            if result.as_ref().is_some_and(Vec::is_empty) {
                break;
            }
        }
        result
    }

    /// [`Self::candidates_of_runs`] for one run of ≥ 3 positions.
    fn run_candidates(&self, run: &[Vec<u8>]) -> Vec<u32> {
        // Window k: the trigrams it may be, the postings of those, and the next-byte bits the
        // run allows after it (0 = the run ends there, anything may follow).
        struct Window<'a> {
            k: usize,
            postings: Vec<&'a [u8]>,
            next: u8,
        }
        let mut windows: Vec<Window> = Vec::new();
        for (k, w) in run.windows(3).enumerate() {
            let mut grams = Vec::with_capacity(w[0].len() * w[1].len() * w[2].len());
            for &a in &w[0] {
                for &b in &w[1] {
                    for &c in &w[2] {
                        grams.push(gram(&[a, b, c]));
                    }
                }
            }
            grams.sort_unstable();
            grams.dedup();
            let postings: Vec<&[u8]> = grams.iter().filter_map(|t| self.posting(*t)).collect();
            if postings.is_empty() {
                return Vec::new();
            }
            let next = run
                .get(k + 3)
                .map(|alts| alts.iter().fold(0, |m, &b| m | next_bit(b)))
                .unwrap_or(0);
            windows.push(Window { k, postings, next });
        }
        // Smallest first: the running intersection only shrinks.
        windows.sort_by_key(|w| w.postings.iter().map(|p| p.len()).sum::<usize>());
        // A window's documents with their masks (a union over its alternatives, masks or'ed).
        let mut list = Vec::new();
        let read = |w: &Window, list: &mut Vec<(u32, Masks)>| {
            list.clear();
            for p in &w.postings {
                self.decode(p, list);
            }
            if w.postings.len() > 1 {
                list.sort_unstable_by_key(|(d, _)| *d);
                list.dedup_by(|b, a| {
                    if a.0 == b.0 {
                        a.1.at |= b.1.at;
                        a.1.next |= b.1.next;
                        true
                    } else {
                        false
                    }
                });
            }
        };
        // Per candidate: the residues (mod 8) where an occurrence of the run may start.
        let admits = |w: &Window, m: Masks| w.next == 0 || m.next & w.next != 0;
        read(&windows[0], &mut list);
        let mut docs: Vec<(u32, u8)> = list
            .iter()
            .filter(|(_, m)| admits(&windows[0], *m))
            .map(|(d, m)| (*d, m.at.rotate_right((windows[0].k % 8) as u32)))
            .collect();
        for w in &windows[1..] {
            if docs.is_empty() {
                break;
            }
            read(w, &mut list);
            let mut j = 0;
            docs.retain_mut(|(d, starts)| {
                while j < list.len() && list[j].0 < *d {
                    j += 1;
                }
                if j == list.len() || list[j].0 != *d || !admits(w, list[j].1) {
                    return false;
                }
                *starts &= list[j].1.at.rotate_right((w.k % 8) as u32);
                *starts != 0
            });
        }
        docs.into_iter().map(|(d, _)| d).collect()
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn index(files: &[(&str, &str)]) -> TrigramIndex {
        let mut b = Builder::new();
        let batch: Vec<(&str, &[u8])> = files.iter().map(|(p, c)| (*p, c.as_bytes())).collect();
        b.add_batch(&batch[..1]).unwrap();
        b.add_batch(&batch[1..]).unwrap();
        TrigramIndex::load(b.finish().0).unwrap()
    }

    /// A batch larger than [`PARALLEL_BYTES`] is added in parts, and the index is byte for
    /// byte what adding its files one at a time gives; a file larger than a part is a part
    /// of its own.
    #[test]
    fn a_batch_added_in_parts_gives_the_same_index() {
        let files: Vec<(String, String)> = (0..40)
            .map(|i| {
                let n = if i == 7 {
                    PARALLEL_BYTES + 3
                } else {
                    40_000 + i * 997
                };
                let body: String = (0..n)
                    .map(|j| (b'a' + ((i * 7 + j * j) % 26) as u8) as char)
                    .collect();
                (format!("f{i}.rs"), body)
            })
            .collect();
        let batch: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_bytes()))
            .collect();
        assert!(batch.iter().map(|(_, c)| c.len()).sum::<usize>() > 2 * PARALLEL_BYTES);
        let mut whole = Builder::new();
        whole.add_batch(&batch).unwrap();
        let mut one_by_one = Builder::new();
        for file in &batch {
            one_by_one.add_batch(std::slice::from_ref(file)).unwrap();
        }
        let (a, b) = (whole.finish(), one_by_one.finish());
        assert_eq!(a.0, b.0, "the index");
        assert_eq!(a.1, b.1, "the contents");
        let ix = TrigramIndex::load(a.0).unwrap();
        assert_eq!(ix.paths().len(), 40);
    }

    #[test]
    fn candidates_hold_every_trigram_of_every_literal() {
        let ix = index(&[
            ("a.rs", "fn main() { println!(\"hello\"); }"),
            ("b.rs", "fn helper() -> u32 { 42 }"),
            ("c.py", "def hello():\n    return 'world'\n"),
            ("d.txt", ""),
        ]);
        assert_eq!(ix.paths(), ["a.rs", "b.rs", "c.py", "d.txt"]);
        assert_eq!(ix.candidates(&["hello".into()]), Some(vec![0, 2]));
        assert_eq!(ix.candidates(&["hel".into()]), Some(vec![0, 1, 2]));
        assert_eq!(
            ix.candidates(&["fn ".into(), "42".into()]),
            Some(vec![0, 1])
        );
        assert_eq!(ix.candidates(&["Hello".into()]), Some(vec![]));
        assert_eq!(ix.candidates(&["zz".into()]), None);
        // Alternatives per position: "[Hh]el" and "[Ff]n " — case-insensitive prefixes.
        let hel = vec![b"Hh".to_vec(), vec![b'e'], vec![b'l']];
        assert_eq!(ix.candidates_of_runs(&[hel]), Some(vec![0, 1, 2]));
        let fn_ = vec![b"Ff".to_vec(), b"Nn".to_vec(), vec![b' ']];
        assert_eq!(ix.candidates_of_runs(&[fn_]), Some(vec![0, 1]));
        assert_eq!(ix.candidates(&[]), None);
    }

    #[test]
    fn masks_drop_files_whose_trigrams_do_not_line_up() {
        let ix = index(&[
            // Every trigram of the literal, but never together.
            (
                "apart.rs",
                "unreachable!(); x.get_unchecked(0); unreachable_u; nchecked",
            ),
            // The literal, at a position past the first 8 bytes (the position mask wraps).
            ("real.rs", "0123456789 unsafe { unreachable_unchecked() }"),
            // The literal at the very end: its last trigram has no next byte.
            ("end.rs", "unreachable_unchecked"),
        ]);
        assert_eq!(
            ix.candidates(&["unreachable_unchecked".into()]),
            Some(vec![1, 2])
        );
        // The next-byte mask: "abc" is followed by 'x' only, so "abcd" cannot occur.
        let ix = index(&[("a", "abcx abd bcd"), ("b", "zabcd")]);
        assert_eq!(ix.candidates(&["abcd".into()]), Some(vec![1]));
        // Alternatives (a case-insensitive run) or their masks together.
        let run = vec![
            b"Uu".to_vec(),
            b"Nn".to_vec(),
            b"Ss".to_vec(),
            b"Aa".to_vec(),
        ];
        let ix = index(&[("a", "UNSAFE"), ("b", "Unsafe"), ("c", "uns afe")]);
        assert_eq!(ix.candidates_of_runs(&[run]), Some(vec![0, 1]));
    }

    /// A property check against a scan: for generated files and every substring literal of
    /// them, the candidates include every file that really contains it.
    #[test]
    fn never_drops_a_true_match() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet = "abcAB_ (){}\n\r\té€";
        let chars: Vec<char> = alphabet.chars().collect();
        let files: Vec<(String, String)> = (0..40)
            .map(|i| {
                let n = (next() % 200) as usize;
                let s: String = (0..n)
                    .map(|_| chars[(next() % chars.len() as u64) as usize])
                    .collect();
                (format!("f{i}"), s)
            })
            .collect();
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect();
        let ix = index(&refs);
        for (_, content) in &files {
            let cs: Vec<char> = content.chars().collect();
            for _ in 0..20 {
                if cs.is_empty() {
                    break;
                }
                let a = (next() % cs.len() as u64) as usize;
                let b = (a + 1 + (next() % 8) as usize).min(cs.len());
                let lit: String = cs[a..b].iter().collect();
                let truth: Vec<u32> = files
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, c))| c.contains(&lit))
                    .map(|(i, _)| i as u32)
                    .collect();
                match ix.candidates(std::slice::from_ref(&lit)) {
                    None => assert!(lit.len() < 3),
                    Some(c) => {
                        for t in &truth {
                            assert!(c.contains(t), "{lit:?} in file {t} but not a candidate");
                        }
                    }
                }
            }
        }
    }

    /// Starting from a published index, dropping and appending files, gives byte for byte
    /// what a fresh build over the same files in the same order gives.
    #[test]
    fn a_spilling_build_is_an_in_memory_build() {
        let files: Vec<(String, String)> = (0..60)
            .map(|i| {
                let words: String = (0..i % 7 + 1)
                    .map(|j| format!("w{} ", (i * j) % 13))
                    .collect();
                (
                    format!("f{i}.rs"),
                    format!("fn f{i}() {{ {words} }}\n{}", "ab".repeat(i)),
                )
            })
            .collect();
        let batches: Vec<Vec<(&str, &[u8])>> = files
            .chunks(7)
            .map(|c| c.iter().map(|(p, t)| (p.as_str(), t.as_bytes())).collect())
            .collect();
        let build_with = |spill: Option<usize>, run_docs: Option<u32>| {
            let mut b = Builder::new();
            if let Some(at) = spill {
                b.spill_to(tempfile::tempfile().unwrap()).unwrap();
                b.spill_at = at;
            }
            b.run_docs = run_docs;
            for batch in &batches {
                b.add_batch(batch).unwrap();
            }
            let spilled = b.spill.as_ref().is_some_and(|s| !s.is_empty());
            (b.finish(), spilled)
        };
        let build = |spill: Option<usize>| build_with(spill, None);
        let (memory, spilled) = build(None);
        assert!(!spilled);
        // Spilling after every batch, and after some.
        for at in [1, 600] {
            let (spilled_build, spilled) = build(Some(at));
            assert!(spilled, "the budget of {at} bytes should have spilled");
            assert!(
                spilled_build == memory,
                "spilling at {at} bytes changed the index"
            );
        }
        // Pending postings that reach the documents a run may span end a run there (mid-batch,
        // the batches being of 7), spilled or folded into the lists held.
        for run_docs in [1, 3, 10] {
            let (spilled_build, spilled) = build_with(Some(usize::MAX), Some(run_docs));
            assert!(spilled, "runs of {run_docs} documents should have spilled");
            assert!(spilled_build == memory, "runs of {run_docs} documents");
            assert!(build_with(None, Some(run_docs)).0 == memory);
        }
        // An update that starts over budget spills its kept lists first.
        let (grams, texts) = memory;
        let ix = TrigramIndex::load(grams).unwrap();
        let keep = |p: &str| p != "f3.rs";
        let mut sink = Vec::new();
        let mut b = Builder::from_index(&ix, &texts, keep, &mut sink, None).unwrap();
        b.spill_to(tempfile::tempfile().unwrap()).unwrap();
        b.spill_at = 1;
        // Or the kept lists written straight into the first run.
        let spill = Some(tempfile::tempfile().unwrap());
        let mut direct = Builder::from_index(&ix, &texts, keep, &mut Vec::new(), spill).unwrap();
        assert!(direct.postings.is_empty());
        let mut plain = Builder::from_index(&ix, &texts, keep, &mut Vec::new(), None).unwrap();
        let added: &[(&str, &[u8])] = &[("f3.rs", b"fn changed() {}")];
        b.add_batch(added).unwrap();
        direct.add_batch(added).unwrap();
        plain.add_batch(added).unwrap();
        let plain = plain.finish().0;
        assert!(b.finish().0 == plain);
        assert!(direct.finish().0 == plain);
    }

    #[test]
    fn an_updated_index_is_a_fresh_build_of_the_same_files() {
        let build = |files: &[(&str, &str)]| {
            let mut b = Builder::new();
            let batch: Vec<(&str, &[u8])> = files.iter().map(|(p, c)| (*p, c.as_bytes())).collect();
            b.add_batch(&batch).unwrap();
            b.finish()
        };
        let old = [
            ("a.rs", "fn alpha() { beta(); }"),
            ("b.rs", "fn beta() -> u32 { 42 }"),
            ("c.py", "def gamma():\n    return 'delta'\n"),
            ("d.txt", "alpha beta gamma"),
            ("e.md", ""),
        ];
        let (grams, texts) = build(&old);
        let ix = TrigramIndex::load(grams).unwrap();
        // b.rs deleted, c.py changed (its old row goes, the new one is appended), f.go added.
        // The contents stream to a writer: kept frames as they are copied, new ones drained
        // after each batch (as `quarry index` does), the rest at the end.
        let mut updated = (Vec::new(), Vec::new());
        let keep = |p: &str| p != "b.rs" && p != "c.py";
        let spill = Some(tempfile::tempfile().unwrap());
        let mut b = Builder::from_index(&ix, &texts, keep, &mut updated.1, spill).unwrap();
        b.add_batch(&[("c.py", b"def gamma():\n    return 'epsilon'\n".as_slice())])
            .unwrap();
        b.drain_texts(&mut updated.1).unwrap();
        b.add_batch(&[("f.go", b"func alpha() int { return 7 }".as_slice())])
            .unwrap();
        b.finish_to(&mut updated.0, &mut updated.1).unwrap();
        let fresh = build(&[
            ("a.rs", old[0].1),
            ("d.txt", old[3].1),
            ("e.md", old[4].1),
            ("c.py", "def gamma():\n    return 'epsilon'\n"),
            ("f.go", "func alpha() int { return 7 }"),
        ]);
        assert!(
            updated == fresh,
            "the updated index differs from a fresh build"
        );
        let ix = TrigramIndex::load(updated.0).unwrap();
        assert_eq!(ix.candidates(&["alpha".into()]), Some(vec![0, 1, 4]));
        assert_eq!(ix.candidates(&["delta".into()]), Some(vec![]));
        // Keeping nothing is an index of the added files alone.
        let spill = Some(tempfile::tempfile().unwrap());
        let b = Builder::from_index(&ix, &fresh.1, |_| false, &mut Vec::new(), spill).unwrap();
        assert_eq!(TrigramIndex::load(b.finish().0).unwrap().paths().len(), 0);
        // A contents object that does not hold the frames is an error, not a panic.
        assert!(Builder::from_index(&ix, &fresh.1[..10], |_| true, &mut Vec::new(), None).is_err());
    }

    #[test]
    fn seen_frees_blocks_past_its_budget_and_still_finds_every_trigram() {
        let mut seen = Seen::new();
        let mut freed = false;
        // Each file's trigrams start with ~513 pairs of bytes, 256 of them new.
        for lead in 0..=255u8 {
            let content: Vec<u8> = (0..=255u8).flat_map(|b| [lead, b, b'x']).collect();
            let before = seen.made;
            let found = seen.distinct(&content);
            freed |= seen.made < before;
            assert_eq!(found, Seen::new().distinct(&content), "file {lead}");
            assert!(seen.made <= KEEP_BLOCKS + 513, "{} blocks kept", seen.made);
        }
        assert!(freed, "blocks past the budget should have been freed");
    }

    #[test]
    fn corrupt_bytes_are_an_error_not_a_panic() {
        let good = {
            let mut b = Builder::new();
            b.add_batch(&[("x", b"abcdef".as_slice()), ("y", b"bcdxyz".as_slice())])
                .unwrap();
            b.finish().0
        };
        assert!(TrigramIndex::load(good.clone()).is_ok());
        assert!(TrigramIndex::load(b"nope".to_vec()).is_err());
        for cut in 0..good.len() {
            let _ = TrigramIndex::load(good[..cut].to_vec());
        }
        let mut flipped = good.clone();
        for i in 8..flipped.len() {
            flipped[i] ^= 0xff;
            if let Ok(ix) = TrigramIndex::load(flipped.clone()) {
                let _ = ix.candidates(&["bcd".into()]);
            }
            flipped[i] ^= 0xff;
        }
    }
}
