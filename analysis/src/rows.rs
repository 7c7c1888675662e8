//! The `symbols` and `edges` rows of a repository: made from the files' packed analyses and
//! the resolver, per chunk of files in parallel, as Arrow batches and as per-file digests.
//! Per row of every table write, so here, optimised; the engine streams them to Lance.

use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, SchemaRef};
use rayon::prelude::*;

use crate::analyze::packed::Packed;
use crate::analyze::{self, EdgeKind, FileAnalysis};
use crate::batch::{BatchBuilder, Cells};
use crate::digest::{self, RowDigest};
use crate::resolve;

/// Why rows could not be made (an analysis that does not unpack, rows out of order).
#[derive(Debug)]
pub struct RowsError(pub String);

impl std::fmt::Display for RowsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RowsError {}

impl From<ArrowError> for RowsError {
    fn from(e: ArrowError) -> Self {
        RowsError(e.to_string())
    }
}

type Result<T, E = RowsError> = std::result::Result<T, E>;

/// Files resolved per streamed batch, at most.
pub const STREAM_FILES: usize = 256;
/// Unpacked analysis bytes per streamed batch, at most (unless one file alone is more): a
/// chunk of files is cut by size too, since a few generated files (API bindings) hold tens of
/// thousands of definitions each — 256 of them made a 90 MB batch of edges on the registry.
/// 1 MiB of analyses makes ~4–8 MB of edge rows and batch; at 4 MiB the largest chunk's rows
/// and batch were ~40 MB of the first index's peak. Two
/// chunks are made at once (the engine's `stream_table`), so each is half that.
pub const STREAM_BYTES: usize = 1 << 19;

/// Consecutive ranges of files, each at most [`STREAM_FILES`] files and [`STREAM_BYTES`] of
/// unpacked analyses (a larger file is a range of its own).
pub fn stream_chunks(sizes: impl Iterator<Item = usize>) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let (mut start, mut end, mut bytes) = (0, 0, 0);
    for size in sizes {
        if end > start && (end - start == STREAM_FILES || bytes + size > STREAM_BYTES) {
            chunks.push(start..end);
            (start, bytes) = (end, 0);
        }
        bytes += size;
        end += 1;
    }
    if end > start {
        chunks.push(start..end);
    }
    chunks
}

/// The files whose rows are made: the run's identifiers and every file's packed analysis.
pub struct Files<'a> {
    /// (data source id, identifier prefix).
    pub ids: (&'a str, &'a str),
    /// (path, language, packed analysis), in path order.
    pub analysed: &'a [(String, &'static str, Arc<Packed>)],
}

impl Files<'_> {
    /// A file's analysis, unpacked for its rows.
    pub fn unpack_file(&self, fi: usize) -> Result<FileAnalysis> {
        self.analysed[fi]
            .2
            .unpack()
            .map_err(|e| RowsError(format!("unpacking {}: {e}", self.analysed[fi].0)))
    }

    /// A range of files' analyses, unpacked (in parallel).
    pub fn unpack(&self, range: std::ops::Range<usize>) -> Result<Vec<FileAnalysis>> {
        range
            .into_par_iter()
            .map(|fi| self.unpack_file(fi))
            .collect()
    }

    /// A chunk's rows, made per file in parallel (`make`) and kept in file order, and each
    /// file's digest of its own rows (`digest` gets a hasher, a scratch string, the path and
    /// the rows; `path_of` tells a row's file).
    pub fn rows_digested<'b, T: Send + Sync>(
        &self,
        range: std::ops::Range<usize>,
        unpacked: &'b [FileAnalysis],
        make: impl Fn(usize, &'b FileAnalysis) -> Vec<T> + Send + Sync,
        path_of: impl Fn(&T) -> &str,
        digest: impl Fn(&mut digest::Hasher, &mut String, &str, &[T]) -> RowDigest + Send + Sync,
    ) -> Result<(Vec<T>, Vec<(usize, RowDigest)>)> {
        let rows: Vec<T> = range
            .clone()
            .into_par_iter()
            .zip(unpacked.par_iter())
            .flat_map_iter(|(fi, a)| make(fi, a))
            .collect();
        let made = self
            .runs(range, &rows, path_of)?
            .par_iter()
            .map_init(
                || (digest::Hasher::default(), String::new()),
                |(h, scratch), &(fi, rows)| (fi, digest(h, scratch, &self.analysed[fi].0, rows)),
            )
            .collect();
        Ok((rows, made))
    }

    /// Each file's rows among `rows`, made for the files of `range` in order: (file number,
    /// its rows, by `path_of` — a row's file path). An error if a row is out of place.
    fn runs<'r, T>(
        &self,
        range: std::ops::Range<usize>,
        rows: &'r [T],
        path_of: impl Fn(&T) -> &str,
    ) -> Result<Vec<(usize, &'r [T])>> {
        let mut runs = Vec::with_capacity(range.len());
        let mut at = 0;
        for fi in range {
            let path = self.analysed[fi].0.as_str();
            let start = at;
            while at < rows.len() && path_of(&rows[at]) == path {
                at += 1;
            }
            runs.push((fi, &rows[start..at]));
        }
        if at != rows.len() {
            return Err(RowsError(
                "rows out of file order while digesting them".into(),
            ));
        }
        Ok(runs)
    }

    /// The files of `files` (ascending), unpacked chunk by chunk: `f` gets each chunk's
    /// file numbers and analyses.
    pub fn for_each_chunk<E: From<RowsError>>(
        &self,
        files: &[usize],
        mut f: impl FnMut(&[usize], &[FileAnalysis]) -> Result<(), E>,
    ) -> Result<(), E> {
        let sizes = files.iter().map(|&fi| self.analysed[fi].2.raw_len());
        for range in stream_chunks(sizes) {
            let part = &files[range];
            let unpacked: Vec<FileAnalysis> = part
                .par_iter()
                .map(|&fi| self.unpack_file(fi))
                .collect::<Result<_>>()?;
            f(part, &unpacked)?;
        }
        Ok(())
    }
}

/// A chunk's edge rows, and each file's digest of its own.
pub fn edge_rows<'b>(
    cx: &Files<'_>,
    resolver: &'b resolve::Resolver<'_>,
    range: std::ops::Range<usize>,
    unpacked: &'b [FileAnalysis],
) -> Result<(Vec<resolve::EdgeRow<'b>>, Vec<(usize, RowDigest)>)> {
    cx.rows_digested(
        range,
        unpacked,
        |fi, a| resolver.edges(fi, a),
        |e| e.source_path,
        |h, _, path, rows| edge_digest(h, cx.ids, path, rows),
    )
}

/// A chunk's symbol rows (with their relationship `counts`), and each file's digest of its own.
pub fn symbol_rows<'b>(
    cx: &Files<'_>,
    resolver: &'b resolve::Resolver<'_>,
    range: std::ops::Range<usize>,
    unpacked: &'b [FileAnalysis],
    counts: &[[u32; 3]],
) -> Result<(Vec<resolve::SymbolRow<'b>>, Vec<(usize, RowDigest)>)> {
    cx.rows_digested(
        range,
        unpacked,
        |fi, a| resolver.symbols(fi, a),
        |r| r.path,
        |h, summary, path, rows| symbol_digest(h, cx.ids, path, rows, counts, summary),
    )
}

pub fn tally(counts: &Mutex<Vec<[u32; 3]>>, rows: &[resolve::EdgeRow]) -> Result<()> {
    let mut counts = counts.lock().map_err(|_| RowsError("poisoned".into()))?;
    tally_each(rows, |n, slot| {
        if let Some(c) = counts.get_mut(n) {
            c[slot] += 1;
        }
    });
    Ok(())
}

/// What each edge row adds to its symbols' counts: `bump(symbol number, slot)` per count —
/// slot 0 incoming calls, 1 outgoing calls (resolved or not), 2 incoming references. A
/// target counts only edges resolved at least `likely`: a name-only guess is no caller.
fn tally_each(rows: &[resolve::EdgeRow], mut bump: impl FnMut(usize, usize)) {
    for e in rows {
        let sure = || e.confidence() >= Some(resolve::Confidence::Likely);
        match e.kind {
            EdgeKind::Calls => {
                if let Some(n) = e.source_number {
                    bump(n, 1);
                }
                if let Some(n) = e.target_number
                    && sure()
                {
                    bump(n, 0);
                }
            }
            EdgeKind::References => {
                if let Some(n) = e.target_number
                    && sure()
                {
                    bump(n, 2);
                }
            }
            _ => {}
        }
    }
}

/// Every file's rows made and digested, without building a batch or holding a chunk: what
/// an in-place update compares with the published digests. Per file, in parallel: its
/// analysis unpacked, its edges resolved, digested and tallied (into shared atomic counts),
/// its symbol rows digested without their counts. Returns each file's (edges digest, symbols
/// digest without counts), the counts per symbol number, and the number of edge rows;
/// `advance` is called once per file.
pub fn digest_every_file(
    cx: &Files<'_>,
    resolver: &resolve::Resolver<'_>,
    advance: impl Fn() + Sync,
) -> Result<(Vec<(RowDigest, RowDigest)>, Vec<[u32; 3]>, u64)> {
    use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
    let counts: Vec<[AtomicU32; 3]> = (0..resolver.symbol_count())
        .map(|_| Default::default())
        .collect();
    let n_edges = AtomicU64::new(0);
    let digests = (0..cx.analysed.len())
        .into_par_iter()
        .map_init(
            || (digest::Hasher::default(), String::new()),
            |(h, summary), fi| {
                let a = cx.unpack_file(fi)?;
                let path = &cx.analysed[fi].0;
                let edges = resolver.edges(fi, &a);
                if edges.iter().any(|e| e.source_path != path) {
                    return Err(RowsError(format!("edges of {path} name another file")));
                }
                tally_each(&edges, |n, slot| {
                    if let Some(c) = counts.get(n) {
                        c[slot].fetch_add(1, Relaxed);
                    }
                });
                n_edges.fetch_add(edges.len() as u64, Relaxed);
                let edges = edge_digest(h, cx.ids, path, &edges);
                let symbols = resolver.symbols(fi, &a);
                let symbols = symbol_partial_digest(h, cx.ids, path, &symbols, summary);
                advance();
                Ok((edges, symbols))
            },
        )
        .collect::<Result<Vec<_>>>()?;
    let counts = counts
        .into_iter()
        .map(|c| c.map(AtomicU32::into_inner))
        .collect();
    Ok((digests, counts, n_edges.into_inner()))
}

pub fn symbol_batch(
    schema: SchemaRef,
    (source_id, prefix): (&str, &str),
    rows: &[resolve::SymbolRow],
    counts: &[[u32; 3]],
) -> Result<RecordBatch, ArrowError> {
    let mut b = BatchBuilder::with_rows(schema, rows.len());
    let mut summary = String::new();
    for r in rows {
        symbol_cells(&mut b, (source_id, prefix), r, counts, &mut summary);
    }
    b.finish()
}

/// A symbol row's values, in the `symbols` table's column order.
fn symbol_cells(
    b: &mut impl Cells,
    (source_id, prefix): (&str, &str),
    r: &resolve::SymbolRow,
    counts: &[[u32; 3]],
    summary: &mut String,
) {
    let [incoming, outgoing, referenced] = counts.get(r.number).copied().unwrap_or_default();
    let s = r.symbol;
    b.str(0, Some(source_id));
    put_ident(b, 1, prefix, Some(r.identifier));
    b.str(2, Some(r.path));
    b.str(3, Some(r.language));
    b.str(4, Some(s.kind));
    b.str(5, Some(&s.name));
    b.str(6, Some(&s.qualified_name));
    put_ident(b, 7, prefix, r.parent);
    b.int(8, Some(s.start_line.into()));
    b.int(9, Some(s.start_character.into()));
    b.int(10, Some(s.end_line.into()));
    b.int(11, Some(s.end_character.into()));
    b.str(12, Some(&s.signature));
    b.str(13, s.doc.as_deref());
    summary.clear();
    analyze::summarize_into(
        summary,
        s.kind,
        &s.qualified_name,
        s.doc.as_deref(),
        &s.signature,
    );
    b.str(14, Some(summary));
    b.bool(15, s.is_public);
    b.int(16, Some(s.lines.into()));
    b.int(17, s.complexity.map(i64::from));
    b.int(18, Some(incoming.into()));
    b.int(19, Some(outgoing.into()));
    b.int(20, Some(referenced.into()));
}

/// An identifier column's value: written from its parts, or null.
fn put_ident(b: &mut impl Cells, col: usize, prefix: &str, id: Option<resolve::Ident>) {
    match id.map(|id| id.parts(prefix)) {
        Some((parts, n)) => b.str_parts(col, &parts[..n]),
        None => b.str(col, None),
    }
}

pub fn edge_batch(
    schema: SchemaRef,
    (source_id, prefix): (&str, &str),
    rows: &[resolve::EdgeRow],
) -> Result<RecordBatch, ArrowError> {
    let mut b = BatchBuilder::with_rows(schema, rows.len());
    for e in rows {
        edge_cells(&mut b, (source_id, prefix), e);
    }
    b.finish()
}

/// An edge row's values, in the `edges` table's column order.
fn edge_cells(b: &mut impl Cells, (source_id, prefix): (&str, &str), e: &resolve::EdgeRow) {
    b.str(0, Some(source_id));
    b.str(1, Some(e.kind.as_str()));
    put_ident(b, 2, prefix, Some(e.source));
    b.str(3, e.source_qname);
    b.str(4, Some(e.source_path));
    b.int(5, Some(e.line.into()));
    b.int(6, Some(e.character.into()));
    b.str(7, Some(e.target_name));
    b.str(8, e.target_qualifier);
    put_ident(b, 9, prefix, e.target);
    b.str(10, Some(e.resolution));
    b.str(11, e.receiver_type);
    b.str(12, e.alias);
    b.str(13, e.confidence().map(resolve::Confidence::as_str));
}

/// The digest of one file's edge rows.
pub fn edge_digest(
    h: &mut digest::Hasher,
    ids: (&str, &str),
    path: &str,
    rows: &[resolve::EdgeRow],
) -> RowDigest {
    h.start(ids, path);
    for e in rows {
        edge_cells(h, ids, e);
    }
    h.finish()
}

/// The digest of one file's symbol rows: [`symbol_digest_of_counts`] of the digest of their
/// values but the relationship counts ([`symbol_partial_digest`]) and of their counts. In two
/// steps so that a re-index can digest the rows while it has the analyses unpacked for the
/// edges, before the counts are known, and finish each file's digest from the counts alone
/// (`update_rows` in the engine: no second pass unpacking every analysis).
pub fn symbol_digest(
    h: &mut digest::Hasher,
    ids: (&str, &str),
    path: &str,
    rows: &[resolve::SymbolRow],
    counts: &[[u32; 3]],
    summary: &mut String,
) -> RowDigest {
    let partial = symbol_partial_digest(h, ids, path, rows, summary);
    let of_rows = rows
        .iter()
        .map(|r| counts.get(r.number).copied().unwrap_or_default());
    symbol_digest_of_counts(&partial, of_rows)
}

/// The digest of one file's symbol rows without their relationship counts (the last three
/// columns).
pub fn symbol_partial_digest(
    h: &mut digest::Hasher,
    ids: (&str, &str),
    path: &str,
    rows: &[resolve::SymbolRow],
    summary: &mut String,
) -> RowDigest {
    h.start(ids, path);
    for r in rows {
        symbol_cells(&mut BeforeCounts(h), ids, r, &[], summary);
    }
    h.finish()
}

/// A file's symbol digest from its [`symbol_partial_digest`] and its rows' counts, in row order.
pub fn symbol_digest_of_counts(
    partial: &RowDigest,
    counts: impl Iterator<Item = [u32; 3]>,
) -> RowDigest {
    let mut bytes = partial.to_vec();
    for c in counts {
        for n in c {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
    }
    digest::of_bytes(&bytes)
}

/// The symbol rows' cells up to the relationship counts (columns 18–20, which it drops).
struct BeforeCounts<'a>(&'a mut digest::Hasher);

const FIRST_COUNT_COLUMN: usize = 18;

impl Cells for BeforeCounts<'_> {
    fn str(&mut self, i: usize, s: Option<&str>) {
        self.0.str(i, s);
    }
    fn str_parts(&mut self, i: usize, parts: &[&str]) {
        self.0.str_parts(i, parts);
    }
    fn int(&mut self, i: usize, v: Option<i64>) {
        if i < FIRST_COUNT_COLUMN {
            self.0.int(i, v);
        }
    }
    fn bool(&mut self, i: usize, v: bool) {
        self.0.bool(i, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{Symbol, SymbolParts};

    fn symbol(name: &str, line: u32) -> Symbol {
        Symbol::new(SymbolParts {
            kind: "function",
            name,
            qualified_name: name,
            parent: None,
            start: (line, 0),
            end: (line + 2, 1),
            signature: "fn f()",
            doc: None,
            is_public: true,
            complexity: Some(1),
        })
    }

    fn rows<'a>(symbols: &'a [Symbol], first: usize) -> Vec<resolve::SymbolRow<'a>> {
        symbols
            .iter()
            .enumerate()
            .map(|(i, s)| resolve::SymbolRow {
                identifier: resolve::Ident::Symbol("src/a.rs", &s.qualified_name),
                number: first + i,
                path: "src/a.rs",
                language: "rust",
                parent: None,
                symbol: s,
            })
            .collect()
    }

    #[test]
    fn a_symbol_digest_is_its_partial_digest_finished_with_the_counts() {
        let ids = ("repo_1", "o/r");
        let symbols = [symbol("one", 1), symbol("two", 5)];
        let (mut h, mut s) = (digest::Hasher::default(), String::new());
        let counts = vec![[9, 9, 9], [1, 2, 3], [0, 4, 0]];
        let whole = symbol_digest(&mut h, ids, "src/a.rs", &rows(&symbols, 1), &counts, &mut s);
        // As an update finishes it: the partial digest, then the counts of the file's numbers.
        let partial = symbol_partial_digest(&mut h, ids, "src/a.rs", &rows(&symbols, 1), &mut s);
        let finished = symbol_digest_of_counts(&partial, counts[1..3].iter().copied());
        assert_eq!(whole, finished);
        // The counts are in it, each in its place.
        let other = vec![[9, 9, 9], [1, 2, 3], [0, 0, 4]];
        let changed = symbol_digest(&mut h, ids, "src/a.rs", &rows(&symbols, 1), &other, &mut s);
        assert_ne!(whole, changed);
        // And so are the rows' other values.
        let moved = [symbol("one", 1), symbol("two", 6)];
        let partial_moved =
            symbol_partial_digest(&mut h, ids, "src/a.rs", &rows(&moved, 1), &mut s);
        assert_ne!(partial, partial_moved);
    }
}
