//! Reading: the head and directory checked, posting lists decoded, candidates for literals
//! and runs intersected.

use super::*;

/// A loaded index.
pub struct TrigramIndex {
    pub(super) bytes: Vec<u8>,
    pub(super) contents: Contents,
    pub(super) dir: usize,
    pub(super) grams: usize,
    pub(super) postings: usize,
}

/// The documents of an index: each one's path, and where its content's frame lies in the
/// `.texts` object — what reading contents needs, without the postings.
#[derive(Clone)]
pub struct Contents {
    pub(super) paths: Vec<String>,
    pub(super) spans: Vec<(u64, u32, u32)>,
}

/// Everything of a serialised index but its posting lists: the documents and the gram
/// directory (~7 MB for the cargo registry's sources, whose lists are ~100 MB) — what an update
/// needs to read the lists a slice at a time ([`Builder::from_index_reading`]).
pub struct Head {
    pub(super) contents: Contents,
    pub(super) grams: usize,
    /// The directory's entries: (trigram, offset, length) as little-endian `u32`s, checked.
    pub(super) dir: Vec<u8>,
    /// Where the posting lists start in the serialised index.
    pub(super) postings_at: u64,
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
pub(super) fn check_directory(dir: &[u8], blob: u64) -> Result<(), CorruptIndex> {
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
pub(super) fn decode(data: &[u8], n_docs: usize, out: &mut Vec<(u32, Masks)>) {
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
    pub(super) fn read(r: &mut Reader) -> Result<Contents, CorruptIndex> {
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

    pub(super) fn posting(&self, g: u32) -> Option<&[u8]> {
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
    pub(super) fn decode(&self, data: &[u8], out: &mut Vec<(u32, Masks)>) {
        decode(data, self.contents.paths.len(), out)
    }

    /// The index's [`Head`] (tests: an update from an index in memory).
    #[cfg(test)]
    pub(super) fn head(&self) -> Head {
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
    pub(super) fn run_candidates(&self, run: &[Vec<u8>]) -> Vec<u32> {
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
