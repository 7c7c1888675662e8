//! Building: tokenised files merged into posting lists (spilled to disk past a budget), or an
//! index updated from the previous one, and written in the format the module describes.

use super::*;

#[derive(Debug, Clone, Copy)]
pub(super) struct UnitInfo {
    pub(super) file: u32,
    pub(super) len: u32,
    pub(super) prior: f32,
    pub(super) name_terms: u8,
    pub(super) is_file: bool,
}

#[derive(Default)]
pub(super) struct Posting {
    pub(super) last: u32,
    pub(super) df: u32,
    pub(super) data: Vec<u8>,
}

/// Builds an index from files added in batches; unit ids are the order of addition. Files
/// are tokenised on every core; a thread of its own merges them, in order, into the index
/// while the next batch is read and tokenised.
pub struct Builder {
    pub(super) merger: Option<MergerThread>,
}

/// The merging thread and the channel that feeds it.
pub(super) type MergerThread = (
    std::sync::mpsc::SyncSender<Vec<Tokenised>>,
    std::thread::JoinHandle<std::io::Result<Merger>>,
);

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    pub fn new() -> Self {
        Self::merging_into(Merger::default())
    }

    /// A builder holding the units of a published index (`ix`, with its `.units` object
    /// `records`) whose files `keep` admits, in their order; files added next follow them.
    /// Their postings are renumbered and their records frames copied (re-framed only where a
    /// frame loses units), so an update costs about one decoding of the postings.
    /// With `sink`, the records go to that (scratch) file as they are made, not memory
    /// ([`Self::finish_spooled`]).
    /// With `spill`, posting lists past a budget go to that scratch file in sorted runs
    /// ([`crate::spill`]), so memory stays bounded; the index is the same byte for byte.
    pub fn from_index(
        ix: &SearchIndex,
        records: &[u8],
        keep: impl Fn(&str) -> bool,
        sink: Option<std::fs::File>,
        spill: Option<std::fs::File>,
    ) -> std::io::Result<Self> {
        Self::from_index_reading(
            ix,
            |r| Ok(ix.held_postings(r)?.to_vec()),
            (records.len() as u64, |r| Ok(slice_of(records, r)?.to_vec())),
            keep,
            sink,
            spill,
        )
    }

    /// [`Self::from_index`] without the published index's posting lists or records in memory:
    /// `ix` may be its head alone ([`SearchIndex::load_head`]); `postings` reads a range of
    /// its posting lists (offsets from their start), and `records` (the `.units` object's
    /// length, and a reader of its ranges) the records frames, a slice of each at a time.
    pub fn from_index_reading(
        ix: &SearchIndex,
        postings: impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
        records: (
            u64,
            impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
        ),
        keep: impl Fn(&str) -> bool,
        sink: Option<std::fs::File>,
        spill: Option<std::fs::File>,
    ) -> std::io::Result<Self> {
        Ok(Self::merging_into(Merger::from_index(
            ix, postings, records, keep, sink, spill,
        )?))
    }

    /// A builder whose records go to `sink` and whose posting lists spill to `spill` (both
    /// scratch files) as they are made.
    pub fn spooled(sink: std::fs::File, spill: std::fs::File) -> std::io::Result<Self> {
        let mut m = Merger::with_sink(Some(sink));
        m.spill_to(spill, SPILL_AT)?;
        Ok(Self::merging_into(m))
    }

    pub(super) fn merging_into(mut m: Merger) -> Self {
        // One batch queued while one merges and the next is tokenised: each is tens of MB.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Tokenised>>(1);
        let handle = std::thread::spawn(move || {
            for outs in rx {
                for out in outs {
                    m.merge(out.0)?;
                }
            }
            Ok(m)
        });
        Builder {
            merger: Some((tx, handle)),
        }
    }

    /// Add files (tokenised here, merged behind).
    pub fn add_files(&mut self, files: &[FileInput]) -> std::io::Result<()> {
        self.add_tokenised(files.par_iter().map(tokenise).collect())
    }

    /// Add files already tokenised ([`tokenise`]), in this order (merged behind).
    pub fn add_tokenised(&mut self, files: Vec<Tokenised>) -> std::io::Result<()> {
        let sent = match &self.merger {
            Some((tx, _)) => tx.send(files).is_ok(),
            None => false,
        };
        if sent {
            return Ok(());
        }
        // The merger stopped: its error says why.
        Err(self
            .join()
            .err()
            .unwrap_or_else(|| std::io::Error::other("the search index merger stopped")))
    }

    pub(super) fn join(&mut self) -> std::io::Result<Merger> {
        let (tx, handle) = self
            .merger
            .take()
            .ok_or_else(|| std::io::Error::other("the search index merger stopped"))?;
        drop(tx);
        handle
            .join()
            .map_err(|_| std::io::Error::other("the search index merger panicked"))?
    }

    /// Serialise: (the `.index` object, the `.units` object), in memory (a builder made
    /// without a records file; tests).
    pub fn finish(mut self) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
        let mut m = self.join()?;
        let mut index = Vec::new();
        m.finish_to(&mut index)?;
        Ok((index, m.records))
    }

    /// Serialise the index to `index` (a scratch file); returns it and the records file, both
    /// complete (a builder made with a records file).
    pub fn finish_spooled(
        mut self,
        index: std::fs::File,
    ) -> std::io::Result<(std::fs::File, std::fs::File)> {
        let mut m = self.join()?;
        let mut out = std::io::BufWriter::with_capacity(1 << 20, index);
        m.finish_to(&mut out)?;
        let index = out.into_inner().map_err(|e| e.into_error())?;
        let sink = m
            .sink
            .take()
            .ok_or_else(|| std::io::Error::other("the search index builder has no records file"))?;
        Ok((index, sink.into_inner().map_err(|e| e.into_error())?))
    }
}

/// The index being built.
#[derive(Default)]
pub(super) struct Merger {
    pub(super) dict: Interner,
    pub(super) postings: Vec<Posting>,
    pub(super) files: Vec<String>,
    pub(super) units: Vec<UnitInfo>,
    pub(super) lengths: [u64; 2],
    pub(super) counts: [u64; 2],
    /// Records of the frame being filled: a JSON array in the making.
    pub(super) frame: Vec<u8>,
    pub(super) frame_units: usize,
    /// (offset in the records object, length, first unit) of each finished frame.
    pub(super) frames: Vec<(u64, u32, u32)>,
    /// Records frames not yet written to `sink` (all of them without one).
    pub(super) records: Vec<u8>,
    /// Bytes of records already written to `sink`.
    pub(super) records_base: u64,
    pub(super) sink: Option<std::io::BufWriter<std::fs::File>>,
    pub(super) compressor: Option<zstd::bulk::Compressor<'static>>,
    /// The first unit of the frame being filled.
    pub(super) frame_first: u32,
    /// Where posting lists go once they pass `spill_at` bytes ([`crate::spill`]); without it
    /// they stay in memory until the end.
    pub(super) spill: Option<crate::spill::Spill>,
    pub(super) spill_at: usize,
    /// Bytes of posting lists and terms held in memory.
    pub(super) held: usize,
}

impl Merger {
    pub(super) fn merge(&mut self, out: FileOut) -> std::io::Result<()> {
        let file = self.files.len() as u32;
        self.files.push(out.path);
        let known = self.dict.len() as u32;
        let ids: Vec<u32> = out.terms.iter().map(|t| self.dict.id(t)).collect();
        if self.postings.len() < self.dict.len() {
            // Each new term: its text, its dictionary entry and its (empty) list.
            let entry = std::mem::size_of::<Posting>() + std::mem::size_of::<(String, u32)>();
            self.held += ids
                .iter()
                .zip(&out.terms)
                .filter(|(id, _)| **id >= known)
                .map(|(_, t)| t.len() + entry)
                .sum::<usize>();
            self.postings.resize_with(self.dict.len(), Default::default);
        }
        for u in out.units {
            let id = self.units.len() as u32;
            self.units.push(UnitInfo {
                file,
                len: u.len,
                prior: u.prior,
                name_terms: u.name_terms,
                is_file: u.is_file,
            });
            self.lengths[usize::from(u.is_file)] += u64::from(u.len);
            self.counts[usize::from(u.is_file)] += 1;
            for (t, tf, name) in u.terms {
                let p = &mut self.postings[ids[t as usize] as usize];
                let before = p.data.len();
                let delta = if p.df == 0 { id } else { id - p.last };
                put_varint(&mut p.data, delta);
                put_varint(&mut p.data, (tf.min(u32::MAX >> 1) << 1) | u32::from(name));
                p.last = id;
                p.df += 1;
                self.held += p.data.len() - before;
            }
            if self.frame_units == 0 {
                self.frame_first = id;
            }
            self.frame.extend_from_slice(&u.record);
            self.frame_units += 1;
            if self.frame_units == FRAME_UNITS {
                self.flush_frame()?;
            }
        }
        if self.held > self.spill_at && self.spill.is_some() {
            self.spill_run()?;
        }
        Ok(())
    }

    /// Spill posting lists to `file` (a scratch file) whenever they pass `at` bytes.
    pub(super) fn spill_to(&mut self, file: std::fs::File, at: usize) -> std::io::Result<()> {
        self.spill = Some(crate::spill::Spill::new(file));
        self.spill_at = at;
        if self.held > self.spill_at {
            self.spill_run()?;
        }
        Ok(())
    }

    /// Write the held posting lists as one run, sorted by term, and start afresh.
    pub(super) fn spill_run(&mut self) -> std::io::Result<()> {
        let terms = std::mem::take(&mut self.dict).into_terms();
        self.spill_lists(terms)
    }

    /// [`Self::spill_run`] with the dictionary's terms already taken out (by id).
    pub(super) fn spill_lists(&mut self, terms: Vec<String>) -> std::io::Result<()> {
        let postings = std::mem::take(&mut self.postings);
        self.held = 0;
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        let mut order: Vec<u32> = (0..terms.len() as u32)
            .filter(|&t| postings[t as usize].df > 0)
            .collect();
        order.sort_unstable_by(|&a, &b| terms[a as usize].cmp(&terms[b as usize]));
        spill.write_run(order.iter().map(|&t| {
            let p = &postings[t as usize];
            (
                terms[t as usize].as_bytes(),
                p.last,
                p.df,
                p.data.as_slice(),
            )
        }))
    }

    pub(super) fn flush_frame(&mut self) -> std::io::Result<()> {
        if self.frame_units == 0 {
            return Ok(());
        }
        let mut frame = std::mem::take(&mut self.frame);
        let z = self.compress(&frame)?;
        frame.clear();
        self.frame = frame;
        self.frame_units = 0;
        self.push_frame(&z, self.frame_first)
    }

    pub(super) fn compress(&mut self, records: &[u8]) -> std::io::Result<Vec<u8>> {
        let compressor = match &mut self.compressor {
            Some(c) => c,
            None => self.compressor.insert(zstd::bulk::Compressor::new(3)?),
        };
        compressor.compress(records)
    }

    pub(super) fn push_frame(&mut self, z: &[u8], first: u32) -> std::io::Result<()> {
        self.frames.push((
            self.records_base + self.records.len() as u64,
            z.len() as u32,
            first,
        ));
        self.records.extend_from_slice(z);
        if self.records.len() >= 4 << 20 {
            self.drain_records()?;
        }
        Ok(())
    }

    /// Write the pending records to the sink, if there is one.
    pub(super) fn drain_records(&mut self) -> std::io::Result<()> {
        if let Some(sink) = &mut self.sink {
            use std::io::Write;
            sink.write_all(&self.records)?;
            self.records_base += self.records.len() as u64;
            self.records.clear();
        }
        Ok(())
    }

    pub(super) fn with_sink(sink: Option<std::fs::File>) -> Merger {
        Merger {
            sink: sink.map(|f| std::io::BufWriter::with_capacity(1 << 20, f)),
            ..Merger::default()
        }
    }

    /// The index of `ix` (its records object: `records`) restricted to the units of the files
    /// `keep` admits, renumbered in their order, ready for more files to be merged after them.
    /// Frames whose units all stay are copied; one that loses some is re-framed with the rest.
    pub(super) fn from_index(
        ix: &SearchIndex,
        mut postings: impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
        (records_len, read_records): (
            u64,
            impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
        ),
        keep: impl Fn(&str) -> bool,
        sink: Option<std::fs::File>,
        spill: Option<std::fs::File>,
    ) -> std::io::Result<Merger> {
        let bad =
            |what: String| std::io::Error::other(CorruptIndex(format!("search index: {what}")));
        let mut m = Merger::with_sink(sink);
        let mut file_to = vec![u32::MAX; ix.files.len()];
        for (f, path) in ix.files.iter().enumerate() {
            if keep(path) {
                file_to[f] = m.files.len() as u32;
                m.files.push(path.clone());
            }
        }
        let mut unit_to = vec![u32::MAX; ix.units.len()];
        for (u, info) in ix.units.iter().enumerate() {
            let file = file_to[info.file as usize];
            if file == u32::MAX {
                continue;
            }
            unit_to[u] = m.units.len() as u32;
            m.units.push(UnitInfo { file, ..*info });
            m.lengths[usize::from(info.is_file)] += u64::from(info.len);
            m.counts[usize::from(info.is_file)] += 1;
        }
        // Frames lie in order in the records object: read a window of it at a time.
        let mut records = Window {
            read: read_records,
            at: 0,
            bytes: Vec::new(),
        };
        for (f, &(offset, len, first)) in ix.frames.iter().enumerate() {
            let end = ix
                .frames
                .get(f + 1)
                .map_or(ix.units.len(), |n| n.2 as usize);
            let units = first as usize..end;
            let kept = units.clone().filter(|&u| unit_to[u] != u32::MAX).count();
            if kept == 0 {
                continue;
            }
            let z = offset
                .checked_add(u64::from(len))
                .filter(|&end| end <= records_len)
                .ok_or_else(|| bad(format!("records frame {f} is out of bounds")))?;
            let z = records.get(offset..z, records_len)?;
            let new_first = unit_to[units.clone().find(|&u| unit_to[u] != u32::MAX).unwrap_or(0)];
            if kept == units.len() {
                m.push_frame(z, new_first)?;
                continue;
            }
            let frame = decompress_records(z).map_err(|e| bad(format!("frame {f}: {e}")))?;
            let spans =
                record_spans(&frame).map_err(|e| bad(format!("records of frame {f}: {}", e.0)))?;
            if spans.len() != units.len() {
                return Err(bad(format!("frame {f} holds {} records", spans.len())));
            }
            let mut rest = Vec::with_capacity(frame.len());
            for (_, span) in units.zip(spans).filter(|(u, _)| unit_to[*u] != u32::MAX) {
                rest.extend_from_slice(&frame[span]);
            }
            let z = m.compress(&rest)?;
            m.push_frame(&z, new_first)?;
        }
        drop(records);
        // Term `i`'s list with the kept units renumbered, from `span`: the posting lists from
        // byte `at` of them on.
        let renumbered = |(span, at): (&[u8], u64), i: usize| {
            let mut p = Posting::default();
            let (off, len) = ix.posting_span(i);
            let off = (off - at) as usize;
            decode(
                &span[off..off + len as usize],
                ix.units.len() as u32,
                |u, tf2, name| {
                    let new = unit_to[u as usize];
                    if new == u32::MAX {
                        return;
                    }
                    let delta = if p.df == 0 { new } else { new - p.last };
                    put_varint(&mut p.data, delta);
                    put_varint(&mut p.data, (tf2 << 1) | u32::from(name));
                    p.last = new;
                    p.df += 1;
                },
            );
            p
        };
        if let Some(file) = spill {
            // The index's terms are sorted by text, as a run is: renumbered a slice at a time,
            // the kept lists go straight into the first run (holding them all, beside the old
            // index and records, was most of a small change's peak).
            // Each slice's lists are read together (they lie together, in term order).
            let spill =
                crate::spill::Spill::with_first_run(file, ix.terms, 1 << 14, |terms, run| {
                    let (at, end) = ix.postings_of(terms.clone());
                    let span = read_exactly(&mut postings, at..end)?;
                    let lists: Vec<Posting> = terms
                        .clone()
                        .into_par_iter()
                        .with_min_len(1024)
                        .map(|i| renumbered((&span, at), i))
                        .collect();
                    for (i, p) in terms.zip(lists) {
                        if p.df > 0 {
                            run.push(ix.text(i), p.last, p.df, &p.data)?;
                        }
                    }
                    Ok(())
                })?;
            m.spill = Some(spill);
            m.spill_at = SPILL_AT;
            return Ok(m);
        }
        let (at, end) = ix.postings_of(0..ix.terms);
        let span = read_exactly(&mut postings, at..end)?;
        let terms: Vec<(String, Posting)> = (0..ix.terms)
            .into_par_iter()
            .with_min_len(1024)
            .map(|i| {
                (
                    String::from_utf8_lossy(ix.text(i)).into_owned(),
                    renumbered((&span, at), i),
                )
            })
            .collect();
        drop(span);
        m.postings.reserve(terms.len());
        for (text, p) in terms {
            // Terms whose units are all gone stay in the dictionary with df 0 until written.
            if m.dict.id(&text) as usize != m.postings.len() {
                return Err(bad(format!("term {text:?} is not unique")));
            }
            m.held += p.data.len()
                + text.len()
                + std::mem::size_of::<Posting>()
                + std::mem::size_of::<(String, u32)>();
            m.postings.push(p);
        }
        Ok(m)
    }

    /// Write the index to `out`; the records are complete after (the last frame flushed,
    /// and written to the sink if there is one).
    pub(super) fn finish_to(&mut self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        self.flush_frame()?;
        self.drain_records()?;
        let terms = std::mem::take(&mut self.dict).into_terms();
        let avg = |i: usize| {
            if self.counts[i] == 0 {
                1.0
            } else {
                (self.lengths[i] as f64 / self.counts[i] as f64).max(1.0) as f32
            }
        };
        out.write_all(MAGIC)?;
        out.write_all(&(self.units.len() as u32).to_le_bytes())?;
        out.write_all(&(self.files.len() as u32).to_le_bytes())?;
        out.write_all(&avg(0).to_le_bytes())?;
        out.write_all(&avg(1).to_le_bytes())?;
        for p in &self.files {
            out.write_all(&(p.len() as u32).to_le_bytes())?;
            out.write_all(p.as_bytes())?;
        }
        for u in &self.units {
            out.write_all(&u.file.to_le_bytes())?;
            out.write_all(&u.len.to_le_bytes())?;
            out.write_all(&u.prior.to_le_bytes())?;
            out.write_all(&[u.name_terms, u8::from(u.is_file)])?;
        }
        out.write_all(&(self.frames.len() as u32).to_le_bytes())?;
        for (offset, len, first) in &self.frames {
            out.write_all(&offset.to_le_bytes())?;
            out.write_all(&len.to_le_bytes())?;
            out.write_all(&first.to_le_bytes())?;
        }
        if self.spill.as_ref().is_some_and(|s| !s.is_empty()) {
            // Lists were spilled: the rest become the last run, then the runs are merged.
            self.spill_lists(terms)?;
            return self.write_merged_terms(out);
        }
        // Terms no unit holds any more (after an update) are left out.
        let mut order: Vec<u32> = (0..terms.len() as u32)
            .filter(|&t| self.postings[t as usize].df > 0)
            .collect();
        order.sort_unstable_by(|&a, &b| terms[a as usize].cmp(&terms[b as usize]));
        out.write_all(&(order.len() as u32).to_le_bytes())?;
        let (mut text_at, mut post_at) = (0u32, 0u64);
        for &t in &order {
            let p = &self.postings[t as usize];
            out.write_all(&text_at.to_le_bytes())?;
            out.write_all(&p.df.to_le_bytes())?;
            out.write_all(&post_at.to_le_bytes())?;
            out.write_all(&(p.data.len() as u32).to_le_bytes())?;
            text_at += terms[t as usize].len() as u32;
            post_at += p.data.len() as u64;
        }
        out.write_all(&text_at.to_le_bytes())?;
        for &t in &order {
            out.write_all(terms[t as usize].as_bytes())?;
        }
        for &t in &order {
            // Freed as they are copied: the index is not held twice.
            out.write_all(&std::mem::take(&mut self.postings[t as usize].data))?;
        }
        Ok(())
    }
}

impl Merger {
    /// The term directory, texts and postings of a spilled build (as [`Self::finish_to`]
    /// writes them from memory): the merged lists go to the scratch file after the runs, since
    /// the directory and the texts precede them in the index.
    pub(super) fn write_merged_terms(
        &mut self,
        out: &mut impl std::io::Write,
    ) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        let Some(spill) = &mut self.spill else {
            return Ok(());
        };
        let start = spill.end();
        let mut merged = std::io::BufWriter::with_capacity(1 << 20, spill.file().try_clone()?);
        merged.seek(std::io::SeekFrom::Start(start))?;
        let mut dir: Vec<(u32, u32, u32)> = Vec::new();
        let mut texts: Vec<u8> = Vec::new();
        let mut post_at = 0u64;
        let too_big = || std::io::Error::other("the search index is over 4 GiB");
        spill.merge(|m| {
            let len = u32::try_from(m.data.len()).map_err(|_| too_big())?;
            dir.push((
                u32::try_from(texts.len()).map_err(|_| too_big())?,
                m.count,
                len,
            ));
            texts.extend_from_slice(m.key);
            post_at += u64::from(len);
            merged.write_all(m.data)
        })?;
        merged.flush()?;
        drop(merged);
        out.write_all(&(dir.len() as u32).to_le_bytes())?;
        let mut at = 0u64;
        for (text_at, df, len) in &dir {
            out.write_all(&text_at.to_le_bytes())?;
            out.write_all(&df.to_le_bytes())?;
            out.write_all(&at.to_le_bytes())?;
            out.write_all(&len.to_le_bytes())?;
            at += u64::from(*len);
        }
        let text_len = u32::try_from(texts.len()).map_err(|_| too_big())?;
        out.write_all(&text_len.to_le_bytes())?;
        out.write_all(&texts)?;
        crate::spill::copy_range(spill.file(), start, post_at, out)
    }
}
