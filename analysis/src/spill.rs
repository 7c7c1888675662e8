//! Posting lists spilled to a scratch file in sorted runs and merged back — what keeps an index
//! builder's memory bounded however large the repository (the trigram and search indexes
//! share it).
//!
//! A builder holds posting lists in memory, keyed and appended in document order. When they
//! pass a budget, it writes them out as one **run** — sorted by key — and starts afresh; runs
//! therefore cover consecutive document ranges, in order. At the end the runs are merged key by
//! key: a key's pieces are concatenated in run order, and since every piece starts with its
//! first document's number as a varint delta from 0, only that first varint is rewritten
//! (as the delta from the previous piece's last document). The merged lists are byte for
//! byte what one in-memory build would have made.
//!
//! Run entries (little-endian): `u32 key length, key, u32 last document, u32 count,
//! u32 data length, data` — keys compared as bytes.

use std::fs::File;
use std::io::{self, Write};

use crate::derived::put_varint;

/// Bytes of posting lists a builder holds before it spills them as a run (the trigram index's
/// builder; the search index's merger, its terms counted too). Unspilled, the registry's 365 MB
/// of source made 118 MB of trigram lists, ~175 MB with their vectors' spare capacity. The
/// lists held are live through the parse (trigrams) or the search phase, and the last run's
/// while the runs are merged (the trigram index's beside the `edges` write); at 8 MiB rather
/// than 32 each phase's live heap on the registry copy is ~30 MB lower, for ~4× as many runs
/// to merge, read [`READ_AHEAD`] ahead each. The trigram
/// builder counts 8 bytes a posting (its pending entries): ~1 M postings a run,
/// ~30 runs for the registry copy's 273 MB.
pub const SPILL_AT: usize = 8 << 20;

/// Bytes read ahead from each run while merging: the runs are in a local scratch file, and a
/// first index of the registry copy merges ~30 trigram runs beside the `edges` write, where
/// 256 KiB each (up to twice that as a buffer refills) was ~7 MB of that phase's peak.
const READ_AHEAD: usize = 64 << 10;

/// One key's merged posting list.
pub struct Merged<'a> {
    pub key: &'a [u8],
    /// The sum of the pieces' counts (a document frequency, where the builder keeps one).
    pub count: u32,
    pub data: &'a [u8],
}

/// Runs written to a scratch file.
pub struct Spill {
    file: File,
    /// (start, end) of each run in `file`.
    runs: Vec<(u64, u64)>,
    end: u64,
}

impl Spill {
    pub fn new(file: File) -> Spill {
        Spill {
            file,
            runs: Vec::new(),
            end: 0,
        }
    }

    /// A spill over `file` whose first run is the lists of a published index being updated,
    /// written a slice of `0..n` (`slice` entries) at a time: `fill` pushes a slice's entries
    /// (in key order) to the run. Only a slice's lists are ever held.
    pub fn with_first_run(
        file: File,
        n: usize,
        slice: usize,
        mut fill: impl FnMut(std::ops::Range<usize>, &mut RunWriter<'_>) -> io::Result<()>,
    ) -> io::Result<Spill> {
        let mut spill = Spill::new(file);
        let mut run = spill.begin_run();
        let mut start = 0;
        while start < n {
            let end = start.saturating_add(slice.max(1)).min(n);
            fill(start..end, &mut run)?;
            start = end;
        }
        run.finish()?;
        Ok(spill)
    }

    /// Whether any run was written.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Write one run: `entries` are (key, last document, count, data), sorted by key.
    pub fn write_run<'a>(
        &mut self,
        entries: impl Iterator<Item = (&'a [u8], u32, u32, &'a [u8])>,
    ) -> io::Result<()> {
        let mut run = self.begin_run();
        for (key, last, count, data) in entries {
            run.push(key, last, count, data)?;
        }
        run.finish()
    }

    /// Start a run written entry by entry (in key order); [`RunWriter::finish`] ends it.
    pub fn begin_run(&mut self) -> RunWriter<'_> {
        RunWriter {
            start: self.end,
            spill: self,
            buf: Vec::with_capacity(1 << 20),
        }
    }

    /// Merge every run, calling `each` once per key in key order with its whole list.
    pub fn merge(&self, mut each: impl FnMut(Merged) -> io::Result<()>) -> io::Result<()> {
        let mut readers: Vec<RunReader> = self
            .runs
            .iter()
            .map(|&(start, end)| RunReader::new(&self.file, start, end))
            .collect::<io::Result<_>>()?;
        let mut data = Vec::new();
        loop {
            // The smallest key among the runs' current entries; its pieces in run order.
            let Some(key) = readers
                .iter()
                .filter_map(|r| r.current.as_ref().map(|e| e.key.as_slice()))
                .min()
                .map(<[u8]>::to_vec)
            else {
                return Ok(());
            };
            data.clear();
            let (mut count, mut last) = (0u32, None::<u32>);
            for r in readers.iter_mut() {
                let Some(e) = r.current.as_ref().filter(|e| e.key == key) else {
                    continue;
                };
                match last {
                    None => data.extend_from_slice(&e.data),
                    Some(prev) => {
                        let (first, n) = read_varint(&e.data).ok_or_else(corrupt)?;
                        let delta = first.checked_sub(prev).ok_or_else(corrupt)?;
                        put_varint(&mut data, delta);
                        data.extend_from_slice(&e.data[n..]);
                    }
                }
                count = count.saturating_add(e.count);
                last = Some(e.last);
                r.advance()?;
            }
            each(Merged {
                key: &key,
                count,
                data: &data,
            })?;
        }
    }

    /// The scratch file, to append other output after the runs (at [`Self::end`]).
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Where the runs end.
    pub fn end(&self) -> u64 {
        self.end
    }
}

/// A run being written ([`Spill::begin_run`]).
pub struct RunWriter<'s> {
    spill: &'s mut Spill,
    start: u64,
    buf: Vec<u8>,
}

impl RunWriter<'_> {
    /// Add an entry: its key must not be less than the previous one's.
    pub fn push(&mut self, key: &[u8], last: u32, count: u32, data: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(&len32(key.len())?.to_le_bytes());
        self.buf.extend_from_slice(key);
        self.buf.extend_from_slice(&last.to_le_bytes());
        self.buf.extend_from_slice(&count.to_le_bytes());
        self.buf
            .extend_from_slice(&len32(data.len())?.to_le_bytes());
        self.buf.extend_from_slice(data);
        if self.buf.len() >= 1 << 20 {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.spill.file.write_all(&self.buf)?;
        self.spill.end += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        let run = (self.start, self.spill.end);
        self.spill.runs.push(run);
        Ok(())
    }
}

fn len32(n: usize) -> io::Result<u32> {
    u32::try_from(n).map_err(|_| io::Error::other("a posting list over 4 GiB"))
}

fn corrupt() -> io::Error {
    io::Error::other("a spilled posting list is corrupt")
}

/// A varint (LEB128, as `put_varint` writes) at the start of `b`: (value, bytes).
pub(crate) fn read_varint(b: &[u8]) -> Option<(u32, usize)> {
    let mut v = 0u64;
    for (i, &byte) in b.iter().enumerate().take(10) {
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((u32::try_from(v).ok()?, i + 1));
        }
    }
    None
}

struct Entry {
    key: Vec<u8>,
    last: u32,
    count: u32,
    data: Vec<u8>,
}

/// Reads one run's entries in order, a buffer at a time (positioned reads: the runs share
/// one file).
struct RunReader<'a> {
    file: &'a File,
    pos: u64,
    end: u64,
    buf: Vec<u8>,
    at: usize,
    current: Option<Entry>,
}

impl<'a> RunReader<'a> {
    fn new(file: &'a File, start: u64, end: u64) -> io::Result<Self> {
        let mut r = RunReader {
            file,
            pos: start,
            end,
            buf: Vec::new(),
            at: 0,
            current: None,
        };
        r.advance()?;
        Ok(r)
    }

    fn take(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.buf.len() - self.at < n {
            self.buf.drain(..self.at);
            self.at = 0;
            let want = n.max(READ_AHEAD) - self.buf.len();
            let left = usize::try_from(self.end - self.pos).unwrap_or(usize::MAX);
            let chunk = want.min(left);
            let old = self.buf.len();
            self.buf.resize(old + chunk, 0);
            read_exact_at(self.file, &mut self.buf[old..], self.pos)?;
            self.pos += chunk as u64;
            if self.buf.len() < n {
                return Err(corrupt());
            }
        }
        let s = &self.buf[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u32(&mut self) -> io::Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn advance(&mut self) -> io::Result<()> {
        if self.pos == self.end && self.at == self.buf.len() {
            self.current = None;
            return Ok(());
        }
        let n = self.u32()? as usize;
        let key = self.take(n)?.to_vec();
        let (last, count) = (self.u32()?, self.u32()?);
        let n = self.u32()? as usize;
        let data = self.take(n)?.to_vec();
        self.current = Some(Entry {
            key,
            last,
            count,
            data,
        });
        Ok(())
    }
}

#[cfg(unix)]
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(unix)]
pub(crate) fn write_all_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
}

#[cfg(windows)]
pub(crate) fn write_all_at(file: &File, mut buf: &[u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_write(file, buf, offset)? {
            0 => return Err(io::ErrorKind::WriteZero.into()),
            n => {
                buf = &buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(windows)]
pub(crate) fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Copy `len` bytes of `file` from `offset` to `out`.
pub fn copy_range(file: &File, offset: u64, len: u64, out: &mut impl Write) -> io::Result<()> {
    let mut buf = vec![0u8; READ_AHEAD];
    let (mut at, end) = (offset, offset + len);
    while at < end {
        let n = usize::try_from(end - at)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        read_exact_at(file, &mut buf[..n], at)?;
        out.write_all(&buf[..n])?;
        at += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Posting lists as a builder makes them: varint deltas from 0, then a payload byte.
    fn list(docs: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut prev = 0;
        for &d in docs {
            put_varint(&mut out, d - prev);
            out.push(d as u8);
            prev = d;
        }
        out
    }

    #[test]
    fn merged_runs_equal_one_build() {
        // Three runs over consecutive document ranges; keys missing from some runs.
        let runs: Vec<Vec<(&str, Vec<u32>)>> = vec![
            vec![("a", vec![0, 3]), ("c", vec![1])],
            vec![("a", vec![200, 201]), ("b", vec![150])],
            vec![("c", vec![400]), ("d", vec![300, 70_000])],
        ];
        let mut spill = Spill::new(tempfile::tempfile().unwrap());
        for run in &runs {
            let lists: Vec<(Vec<u8>, u32, u32, Vec<u8>)> = run
                .iter()
                .map(|(k, docs)| {
                    let n = docs.len() as u32;
                    (k.as_bytes().to_vec(), *docs.last().unwrap(), n, list(docs))
                })
                .collect();
            spill
                .write_run(
                    lists
                        .iter()
                        .map(|(k, l, c, d)| (k.as_slice(), *l, *c, d.as_slice())),
                )
                .unwrap();
        }
        let mut got = Vec::new();
        spill
            .merge(|m| {
                got.push((m.key.to_vec(), m.count, m.data.to_vec()));
                Ok(())
            })
            .unwrap();
        let want = vec![
            (b"a".to_vec(), 4, list(&[0, 3, 200, 201])),
            (b"b".to_vec(), 1, list(&[150])),
            (b"c".to_vec(), 2, list(&[1, 400])),
            (b"d".to_vec(), 2, list(&[300, 70_000])),
        ];
        assert_eq!(got, want);
    }
}
