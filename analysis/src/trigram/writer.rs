//! Building: each file's distinct trigrams found with a per-thread table, posting lists
//! accumulated (spilled past a budget) or updated from the previous index, and written.

use super::*;

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
pub(super) struct Seen {
    /// Indexed by a trigram's two leading bytes: a fixed-size array, so that index needs no
    /// bounds check.
    pub(super) blocks: Box<[Option<Box<[u16; 256]>>; GRAM_SPACE >> 8]>,
    /// How many of `blocks` are made.
    pub(super) made: usize,
    pub(super) grams: Vec<u32>,
}

/// Blocks a thread's [`Seen`] keeps between files (2 MiB): a source file's trigrams start
/// with ~500 distinct pairs of bytes (~1 800 at the 99th percentile, in a sample of the
/// registry copy), and the pairs common in source text are made once and kept.
pub(super) const KEEP_BLOCKS: usize = 4096;

/// Per byte, the entry bits it sets as the byte after a trigram: [`next_bit`] in the high byte.
pub(super) const NEXT_BITS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (next_bit(b as u8) as u16) << 8;
        b += 1;
    }
    t
};

impl Seen {
    pub(super) fn new() -> Self {
        let blocks: Box<[Option<Box<[u16; 256]>>]> = vec![None; GRAM_SPACE >> 8].into();
        Seen {
            blocks: blocks
                .try_into()
                .unwrap_or_else(|_| unreachable!("the slice has GRAM_SPACE >> 8 entries")),
            made: 0,
            grams: Vec::new(),
        }
    }

    pub(super) fn distinct(&mut self, content: &[u8]) -> Vec<(u32, Masks)> {
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
    pub(super) fn free_unused(&mut self) {
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
    pub(super) fn with<R>(f: impl FnOnce(&mut Seen) -> R) -> R {
        SEEN.with(|cell| f(cell.borrow_mut().get_or_insert_with(Seen::new)))
    }

    /// Free every worker's table once an index is built (a few MB per thread, otherwise held
    /// for the life of the process: through the rest of an index run, or a server's life).
    pub(super) fn release() {
        rayon::broadcast(|_| SEEN.with(|cell| cell.borrow_mut().take()));
    }
}

pub(super) struct Posting {
    pub(super) last: u32,
    pub(super) data: Vec<u8>,
}

/// Builds an index from files added in batches; document ids are the order of addition.
#[derive(Default)]
pub struct Builder {
    pub(super) paths: Vec<String>,
    pub(super) postings: FxHashMap<u32, Posting>,
    /// Frames not yet handed to a writer ([`Self::drain_texts`]).
    pub(super) texts: Vec<u8>,
    /// Bytes of frames already handed on (where `texts` starts in the contents object).
    pub(super) texts_base: u64,
    pub(super) spans: Vec<(u64, u32, u32)>,
    /// Postings added since the last run, one `u64` each ([`pending_entry`]), in the order
    /// they came (documents ascending); sorted, they are the run's lists in trigram order.
    /// Eight bytes a posting where a list per trigram in a hash map held ~5× that (varints in
    /// vectors with spare capacity, the map's table): that map was the largest part of a
    /// first index's peak.
    pub(super) pending: Vec<u64>,
    /// The first document of `pending` (its entries hold documents relative to it).
    pub(super) pending_base: u32,
    /// Where posting lists go once they pass `spill_at` bytes ([`crate::spill`]); without it
    /// they stay in memory until the end.
    pub(super) spill: Option<crate::spill::Spill>,
    pub(super) spill_at: usize,
    /// Bytes of posting lists held in memory.
    pub(super) held: usize,
    /// Documents a run of pending postings may span, when not all of [`PENDING_DOC_BITS`]
    /// (tests: the runs' ends).
    pub(super) run_docs: Option<u32>,
}

/// Bits of a pending entry for its document (relative to [`Builder::pending_base`]).
pub(super) const PENDING_DOC_BITS: u32 = 24;

/// [`Builder::add_batch`] finds trigrams and compresses contents in parallel this many bytes
/// of contents at a time: what a part holds until it is folded in (each file's distinct
/// trigrams, 8 bytes each, and its frame, allocated at zstd's bound) is ~3× its contents, so
/// a file stream's whole 8 MiB chunk at once held ~25 MB.
pub(super) const PARALLEL_BYTES: usize = 1 << 20;

/// A pending posting: trigram (24 bits), document relative to the run's first (24 bits),
/// then the position and next-byte masks — so sorting entries orders them by trigram, then
/// document, as the lists are.
pub(super) fn pending_entry(g: u32, doc: u32, m: Masks) -> u64 {
    (u64::from(g) << 40) | (u64::from(doc) << 16) | (u64::from(m.at) << 8) | u64::from(m.next)
}

/// Sorted pending entries, one posting list per trigram: (trigram, its list — the first
/// document absolute, then deltas — and its last document).
pub(super) fn pending_lists(
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

    pub(super) fn spill_if_over(&mut self) -> std::io::Result<()> {
        if self.spill.is_some() && self.held > self.spill_at {
            self.write_run()?;
        }
        Ok(())
    }

    /// Write what is held as one run (there is a spill).
    pub(super) fn write_run(&mut self) -> std::io::Result<()> {
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
    pub(super) fn fold_pending(&mut self) {
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

    pub(super) fn add_part(&mut self, files: &[(&str, &[u8])]) -> std::io::Result<()> {
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
