//! Reading: an index's head parsed and checked, term lookups, posting lists decoded.

use super::*;

/// The head of the serialised index of `size` bytes whose ranges `read` reads
/// ([`SearchIndex::load_head`]): a prefix, then as much more as [`SearchIndex::head_len`]
/// asks for (at least 1 MiB more at a time), never its posting lists but for the end of the
/// last read.
pub fn load_head(
    mut read: impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
    size: u64,
) -> std::io::Result<SearchIndex> {
    const STEP: u64 = 1 << 20;
    let mut head = read_exactly(&mut read, 0..size.min(STEP))?;
    loop {
        let have = head.len() as u64;
        let (end, known) = match SearchIndex::head_len(&head).map_err(std::io::Error::other)? {
            Ok(n) => (n as u64, true),
            Err(more) => ((more as u64).max(have + STEP).min(size), false),
        };
        if end > size || (!known && end <= have) {
            return Err(std::io::Error::other(CorruptIndex(
                "search index: its head runs past its end".into(),
            )));
        }
        if end > have {
            head.extend(read_exactly(&mut read, have..end)?);
        }
        if known {
            head.truncate(end as usize);
            return SearchIndex::load_head(head, size).map_err(std::io::Error::other);
        }
    }
}

/// `bytes[r]`, or an error naming the range when it is not all there.
pub(super) fn slice_of(bytes: &[u8], r: std::ops::Range<u64>) -> std::io::Result<&[u8]> {
    usize::try_from(r.start)
        .ok()
        .zip(usize::try_from(r.end).ok())
        .and_then(|(start, end)| bytes.get(start..end))
        .ok_or_else(|| {
            std::io::Error::other(CorruptIndex(format!(
                "search index: bytes {}..{} are out of bounds",
                r.start, r.end
            )))
        })
}

/// `read(r)`, checked to be all of `r`.
pub(super) fn read_exactly(
    read: &mut impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>,
    r: std::ops::Range<u64>,
) -> std::io::Result<Vec<u8>> {
    let bytes = if r.is_empty() {
        Vec::new()
    } else {
        read(r.clone())?
    };
    if bytes.len() as u64 != r.end - r.start {
        return Err(std::io::Error::other(CorruptIndex(format!(
            "search index: read {} bytes for {}..{}",
            bytes.len(),
            r.start,
            r.end
        ))));
    }
    Ok(bytes)
}

/// An object read front to back a window at a time (a published index's records frames).
pub(super) struct Window<R> {
    pub(super) read: R,
    /// Where `bytes` start in the object.
    pub(super) at: u64,
    pub(super) bytes: Vec<u8>,
}

/// Decode (unit, tf × 2, in name) postings; stops at the first malformed entry.
pub(super) fn decode(data: &[u8], units: u32, mut f: impl FnMut(u32, u32, bool)) {
    let mut at = 0;
    let mut next = || -> Option<u32> {
        let (mut v, mut shift) = (0u32, 0u32);
        loop {
            let b = *data.get(at)?;
            at += 1;
            v |= u32::from(b & 0x7f).checked_shl(shift)?;
            shift += 7;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
    };
    let mut unit: Option<u32> = None;
    while let (Some(delta), Some(v)) = (next(), next()) {
        let u = match unit {
            None => delta,
            Some(prev) => match prev.checked_add(delta) {
                Some(u) if delta > 0 => u,
                _ => return,
            },
        };
        if u >= units {
            return;
        }
        unit = Some(u);
        f(u, v >> 1, v & 1 == 1);
    }
}

/// A loaded index.
pub struct SearchIndex {
    pub(super) bytes: Vec<u8>,
    pub(super) files: Vec<String>,
    pub(super) units: Vec<UnitInfo>,
    /// (offset, length, first unit) of each records frame.
    pub(super) frames: Vec<(u64, u32, u32)>,
    /// Each file's position among the files sorted by path (equal scores rank by it).
    pub(super) file_rank: Vec<u32>,
    pub(super) avg: [f32; 2],
    pub(super) terms: usize,
    pub(super) dir: usize,
    pub(super) texts: usize,
    pub(super) postings: usize,
}

pub(super) const DIR_ENTRY: usize = 20;

impl SearchIndex {
    /// Read a serialised index, checking its structure (never panics on bad bytes).
    pub fn load(bytes: Vec<u8>) -> Result<SearchIndex, CorruptIndex> {
        let size = bytes.len() as u64;
        Self::parse(bytes, size)
    }

    /// The head of a serialised index of `size` bytes — everything before its posting lists
    /// (`head`: [`Self::head_len`] bytes from its start) — checked as [`Self::load`] checks, to
    /// renumber a published index's lists read a slice at a time
    /// ([`Builder::from_index_reading`]). Searching it finds nothing: it holds no lists.
    pub fn load_head(head: Vec<u8>, size: u64) -> Result<SearchIndex, CorruptIndex> {
        let len = head.len();
        let ix = Self::parse(head, size)?;
        if ix.postings != len {
            return Err(CorruptIndex(
                "search index: its head is not where it says".into(),
            ));
        }
        Ok(ix)
    }

    /// How long the head of the serialised index starting with `prefix` is (where its posting
    /// lists start): `Ok(Ok(n))` once the prefix says, else `Ok(Err(n))`, a longer prefix to
    /// read first (the head is at least `n` bytes). Counts are not checked here but by
    /// [`Self::load_head`].
    pub fn head_len(prefix: &[u8]) -> Result<Result<usize, usize>, CorruptIndex> {
        const FIXED: usize = 24;
        let bad = || CorruptIndex("search index: its head's length overflows".into());
        let u32_at = |at: usize| prefix.get(at..at + 4).map(|b| le32(b, 0) as usize);
        if prefix.len() < FIXED {
            return Ok(Err(FIXED));
        }
        if prefix[..8] != MAGIC[..] {
            return Err(CorruptIndex(
                "search index: not a search index (bad magic)".into(),
            ));
        }
        let (n_units, n_files) = (le32(prefix, 8) as usize, le32(prefix, 12) as usize);
        let mut at = FIXED;
        for _ in 0..n_files {
            let Some(len) = u32_at(at) else {
                return Ok(Err(at + 4));
            };
            at = at.checked_add(4 + len).ok_or_else(bad)?;
        }
        // Then the units (14 bytes each), and three counted parts, each after its count: the
        // frames (16 bytes each), the terms' directory, the texts (bytes).
        at = n_units
            .checked_mul(14)
            .and_then(|b| at.checked_add(b))
            .ok_or_else(bad)?;
        for size in [16, DIR_ENTRY, 1] {
            let Some(n) = u32_at(at) else {
                return Ok(Err(at + 4));
            };
            at = n
                .checked_mul(size)
                .and_then(|b| at.checked_add(4 + b))
                .ok_or_else(bad)?;
        }
        Ok(Ok(at))
    }

    /// Parse an index whose first `bytes` are given, of `size` bytes in all: all of it, or
    /// its head alone.
    pub(super) fn parse(bytes: Vec<u8>, size: u64) -> Result<SearchIndex, CorruptIndex> {
        let bad = |what: &str| CorruptIndex(format!("search index: {what}"));
        let mut r = Reader {
            bytes: &bytes,
            at: 0,
            what: "search index",
        };
        if r.take(8)? != MAGIC {
            return Err(bad("not a search index (bad magic)"));
        }
        let n_units = r.u32()? as usize;
        let n_files = r.u32()? as usize;
        let avg = [r.f32()?, r.f32()?];
        if !avg.iter().all(|a| a.is_finite() && *a >= 1.0) {
            return Err(bad("bad average length"));
        }
        let mut files = Vec::with_capacity(n_files.min(1 << 20));
        for _ in 0..n_files {
            let len = r.u32()? as usize;
            let p = std::str::from_utf8(r.take(len)?).map_err(|_| bad("a path is not UTF-8"))?;
            files.push(p.to_string());
        }
        let mut units = Vec::with_capacity(n_units.min(1 << 24));
        for _ in 0..n_units {
            let b = r.take(14)?;
            let u = UnitInfo {
                file: le32(b, 0),
                len: le32(b, 4),
                prior: f32::from_bits(le32(b, 8)),
                name_terms: b[12],
                is_file: b[13] == 1,
            };
            if u.file as usize >= n_files || !u.prior.is_finite() {
                return Err(bad("bad unit entry"));
            }
            units.push(u);
        }
        let n_frames = r.u32()? as usize;
        if n_frames > n_units || (n_frames == 0) != (n_units == 0) {
            return Err(bad("frame count does not match the units"));
        }
        let mut frames: Vec<(u64, u32, u32)> = Vec::with_capacity(n_frames);
        for i in 0..n_frames {
            let b = r.take(16)?;
            let frame = (le64(b, 0), le32(b, 8), le32(b, 12));
            let first_ok = match frames.last() {
                None => frame.2 == 0,
                Some(prev) => prev.2 < frame.2 && (frame.2 as usize) < n_units,
            };
            if !first_ok {
                return Err(bad(&format!("bad first unit of frame {i}")));
            }
            frames.push(frame);
        }
        let terms = r.u32()? as usize;
        let dir = r.at;
        r.take(
            terms
                .checked_mul(DIR_ENTRY)
                .ok_or_else(|| bad("term count overflows"))?,
        )?;
        let text_len = r.u32()? as usize;
        let texts = r.at;
        r.take(text_len)?;
        let postings = r.at;
        let blob = usize::try_from(size)
            .ok()
            .and_then(|size| size.checked_sub(postings))
            .ok_or_else(|| bad("shorter than its head"))?;
        let mut prev: Option<&[u8]> = None;
        for i in 0..terms {
            let e = dir + i * DIR_ENTRY;
            let start = le32(&bytes, e) as usize;
            let end = if i + 1 < terms {
                le32(&bytes, e + DIR_ENTRY) as usize
            } else {
                text_len
            };
            let (off, len) = (le64(&bytes, e + 8), le32(&bytes, e + 16) as u64);
            if start > end || end > text_len || off.checked_add(len).is_none_or(|x| x > blob as u64)
            {
                return Err(bad(&format!("bad directory entry {i}")));
            }
            let text = &bytes[texts + start..texts + end];
            if prev.is_some_and(|p| p >= text) {
                return Err(bad("terms out of order"));
            }
            prev = Some(text);
        }
        let mut by_path: Vec<u32> = (0..files.len() as u32).collect();
        by_path.sort_by(|&a, &b| files[a as usize].cmp(&files[b as usize]).then(a.cmp(&b)));
        let mut file_rank = vec![0; files.len()];
        for (rank, &f) in by_path.iter().enumerate() {
            file_rank[f as usize] = rank as u32;
        }
        Ok(SearchIndex {
            bytes,
            files,
            units,
            frames,
            file_rank,
            avg,
            terms,
            dir,
            texts,
            postings,
        })
    }

    /// Units indexed (definitions and files).
    pub fn units(&self) -> usize {
        self.units.len()
    }

    /// Size of the serialised index in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    pub(super) fn text(&self, i: usize) -> &[u8] {
        let e = self.dir + i * DIR_ENTRY;
        let start = le32(&self.bytes, e) as usize;
        let end = if i + 1 < self.terms {
            le32(&self.bytes, e + DIR_ENTRY) as usize
        } else {
            self.postings - self.texts
        };
        &self.bytes[self.texts + start..self.texts + end]
    }

    pub(super) fn find(&self, term: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.terms);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.text(mid).cmp(term.as_bytes()) {
                std::cmp::Ordering::Equal => return Some(mid),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    pub(super) fn df(&self, i: usize) -> u32 {
        le32(&self.bytes, self.dir + i * DIR_ENTRY + 4)
    }

    /// Where the posting lists start in the serialised index (the length of its head).
    pub fn postings_at(&self) -> u64 {
        self.postings as u64
    }

    /// Term `i`'s list: none in an index loaded without its lists ([`Self::load_head`]).
    pub(super) fn posting_bytes(&self, i: usize) -> &[u8] {
        let (off, len) = self.posting_span(i);
        let off = self.postings + off as usize;
        self.bytes.get(off..off + len as usize).unwrap_or(&[])
    }

    /// Where term `i`'s list is among the posting lists: (offset, length).
    pub(super) fn posting_span(&self, i: usize) -> (u64, u64) {
        let e = self.dir + i * DIR_ENTRY;
        (
            le64(&self.bytes, e + 8),
            u64::from(le32(&self.bytes, e + 16)),
        )
    }

    /// The range of the posting lists that holds the lists of `terms` (they lie together,
    /// written in term order); `(0, 0)` for none.
    pub(super) fn postings_of(&self, terms: std::ops::Range<usize>) -> (u64, u64) {
        let (start, end) = terms
            .map(|i| self.posting_span(i))
            .fold((u64::MAX, 0), |(start, end), (off, len)| {
                (start.min(off), end.max(off + len))
            });
        if start >= end { (0, 0) } else { (start, end) }
    }

    /// A range of the posting lists held in memory (a loaded index's).
    pub(super) fn held_postings(&self, r: std::ops::Range<u64>) -> std::io::Result<&[u8]> {
        slice_of(&self.bytes[self.postings..], r)
    }

    /// Document frequency of the exact term `term` (0 if absent).
    pub fn document_frequency(&self, term: &str) -> u32 {
        self.find(term).map_or(0, |i| self.df(i))
    }

    /// The path of `unit`'s file.
    pub fn path(&self, unit: u32) -> &str {
        &self.files[self.units[unit as usize].file as usize]
    }

    /// Whether `unit` is a file (else a definition).
    pub fn is_file(&self, unit: u32) -> bool {
        self.units[unit as usize].is_file
    }
}

impl SearchIndex {
    /// The record frames holding `units` (ascending, each once) and their byte ranges in the
    /// `.units` object: what [`SearchIndex::records`] needs read.
    pub fn unit_frames(
        &self,
        units: &[u32],
    ) -> Result<(Vec<usize>, Vec<std::ops::Range<u64>>), String> {
        let mut wanted: Vec<usize> = units.iter().map(|&u| self.frame_of(u)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut ranges = Vec::with_capacity(wanted.len());
        for &f in &wanted {
            let (offset, len, _) = *self.frames.get(f).ok_or_else(|| format!("no frame {f}"))?;
            ranges.push(offset..offset + u64::from(len));
        }
        Ok((wanted, ranges))
    }

    /// The records of `units`, in that order, from the frames [`SearchIndex::unit_frames`]
    /// named (`wanted`) and their bytes as read: the row a result is rendered from
    /// (`identifier`, `path`, `kind`, range, `summary`, `size`… for definitions;
    /// `identifier`, `path`, `language`, `lines`, `bytes` for files).
    pub fn records(
        &self,
        units: &[u32],
        wanted: Vec<usize>,
        bytes: Vec<bytes::Bytes>,
    ) -> Result<Vec<Map<String, Value>>, String> {
        let mut frames: HashMap<usize, Vec<Map<String, Value>>> = HashMap::new();
        for (f, z) in wanted.into_iter().zip(bytes) {
            let frame =
                decompress_records(&z).map_err(|e| format!("unit records frame {f}: {e}"))?;
            let records =
                decode_records(&frame).map_err(|e| format!("unit records frame {f}: {e}"))?;
            frames.insert(f, records);
        }
        units
            .iter()
            .map(|&u| {
                let f = self.frame_of(u);
                let i = (u - self.frames.get(f).map_or(0, |x| x.2)) as usize;
                match frames.get(&f).and_then(|r| r.get(i)) {
                    Some(m) => Ok(m.clone()),
                    None => Err(format!("no record for unit {u}")),
                }
            })
            .collect()
    }

    pub(super) fn frame_of(&self, u: u32) -> usize {
        self.frames.partition_point(|f| f.2 <= u).saturating_sub(1)
    }
}
