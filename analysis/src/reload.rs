//! Analyses rebuilt from the published `symbols` and `edges` rows, for the unchanged files of
//! a re-index: resolution needs every file's analysis, and only the changed files are parsed
//! again. Per row of both tables, so here, optimised (at opt-level 0 in the engine this loop
//! was ~1.5 s of a small change's re-index of the registry copy); the engine streams the
//! batches to it.

use std::collections::BTreeMap;
use std::sync::Arc;

use arrow_array::RecordBatch;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::analyze::packed::{FrameFile, Packed};
use crate::analyze::{self, EdgeKind, FileAnalysis, RawEdge, Symbol};
use crate::batch::{Columns, opt_str};
use crate::rows::RowsError;

type Result<T, E = RowsError> = std::result::Result<T, E>;

/// A stored position or count as analysis holds it (a negative or huge one, which analysis
/// never writes, reads as 0).
pub fn stored_u32(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

/// Rebuilds the analyses of unchanged files from the published `symbols` and `edges` rows,
/// streaming. Rows come file by file (each table is written in file order), so one file is
/// built at a time: its path and membership in `wanted` are worked out
/// once per file, not once per row.
pub struct Loader<'a> {
    wanted: &'a FxHashSet<&'a str>,
    /// Files read so far and not yet packed, by path.
    analyses: BTreeMap<String, FileAnalysis>,
    /// Files packed.
    packed: FxHashMap<String, Arc<Packed>>,
    /// Where packed frames go.
    frames: Option<Arc<FrameFile>>,
    /// The file being built, and whether it is wanted.
    path: String,
    keep: bool,
    current: FileAnalysis,
    /// The current file's qualified names: edges share them with their source symbol.
    qnames: FxHashSet<Arc<str>>,
    /// Go: the build constraints of the wanted files that state one, by path, read from their
    /// contents ([`Self::with_go_builds`]): no table stores them.
    go_builds: FxHashMap<String, String>,
}

impl<'a> Loader<'a> {
    pub fn new(wanted: &'a FxHashSet<&'a str>, frames: Option<Arc<FrameFile>>) -> Self {
        Loader {
            wanted,
            frames,
            analyses: BTreeMap::new(),
            packed: FxHashMap::default(),
            path: String::new(),
            keep: false,
            current: FileAnalysis::default(),
            qnames: FxHashSet::default(),
            go_builds: FxHashMap::default(),
        }
    }

    /// The Go files' build constraints ([`FileAnalysis::go_build`]), by path, for the
    /// analyses rebuilt here.
    pub fn with_go_builds(mut self, go_builds: FxHashMap<String, String>) -> Self {
        self.go_builds = go_builds;
        self
    }

    pub const SYMBOL_COLUMNS: &'static [&'static str] = &[
        "path",
        "kind",
        "name",
        "qualified_name",
        "start_line",
        "start_character",
        "end_line",
        "end_character",
        "signature",
        "doc",
        "is_public",
        "complexity",
    ];
    pub const EDGE_COLUMNS: &'static [&'static str] = &[
        "kind",
        "source_qname",
        "source_path",
        "line",
        "character",
        "target_name",
        "target_qualifier",
        "receiver_type",
        "alias",
    ];

    /// Move on to `path` (when it is not the current file); `edges`: resume its analysis.
    fn switch(&mut self, path: &str, edges: bool) {
        if path == self.path {
            return;
        }
        self.flush();
        self.path = path.to_string();
        self.keep = self.wanted.contains(path);
        if !self.keep {
            return;
        }
        if edges {
            self.current = self.take(path);
            self.qnames.clear();
            self.qnames.extend(
                self.current
                    .symbols
                    .iter()
                    .map(|s| s.qualified_name.clone()),
            );
        }
    }

    /// File the current analysis (merging, should a file's rows not be contiguous).
    pub fn flush(&mut self) {
        let done = std::mem::take(&mut self.current);
        if !self.keep || (done.symbols.is_empty() && done.edges.is_empty()) {
            return;
        }
        let path = std::mem::take(&mut self.path);
        let mut entry = self.take(&path);
        entry.symbols.extend(done.symbols);
        entry.edges.extend(done.edges);
        self.analyses.insert(path, entry);
    }

    /// A file's analysis so far (unpacked again, should its rows come back after it was
    /// packed: rows out of path order are merged, never lost).
    fn take(&mut self, path: &str) -> FileAnalysis {
        if let Some(a) = self.analyses.remove(path) {
            return a;
        }
        self.packed
            .remove(path)
            .and_then(|p| p.unpack().ok())
            .unwrap_or_default()
    }

    /// Pack (in parallel) the files before `bound` (all of them without one): both of their
    /// tables' rows have been read.
    pub fn pack_before(&mut self, bound: Option<&str>) -> Result<()> {
        let rest = match bound {
            Some(b) => self.analyses.split_off(b),
            None => BTreeMap::new(),
        };
        let done = std::mem::replace(&mut self.analyses, rest);
        let go_builds = &self.go_builds;
        let packed: Vec<(String, Arc<Packed>)> = done
            .into_par_iter()
            .map(|(path, mut a)| {
                if a.go_build.is_none() {
                    a.go_build = go_builds.get(&path).cloned();
                }
                let p = Packed::new_in(&a, self.frames.as_ref())
                    .map_err(|e| RowsError(format!("packing an analysis: {e}")))?;
                Ok((path, Arc::new(p)))
            })
            .collect::<Result<_>>()?;
        self.packed.extend(packed);
        Ok(())
    }

    pub fn symbols(&mut self, batch: &RecordBatch) -> Result<()> {
        let c = Columns::new(batch);
        let (path, kind, name, qname) = (
            c.str("path")?,
            c.str("kind")?,
            c.str("name")?,
            c.str("qualified_name")?,
        );
        let (sl, sc, el, ec) = (
            c.int("start_line")?,
            c.int("start_character")?,
            c.int("end_line")?,
            c.int("end_character")?,
        );
        let (sig, doc, public, cx) = (
            c.str("signature")?,
            c.str("doc")?,
            c.bool("is_public")?,
            c.int("complexity")?,
        );
        for i in 0..batch.num_rows() {
            self.switch(path.value(i), false);
            if !self.keep {
                continue;
            }
            // The analysis's parent is what the qualified name implies; the stored column
            // may name a definition in another file instead (the type an `impl` names).
            let parent = Symbol::parent_in_name(qname.value(i), name.value(i));
            self.current.symbols.push(Symbol::new(analyze::SymbolParts {
                kind: analyze::static_kind(kind.value(i)),
                name: name.value(i),
                qualified_name: qname.value(i),
                parent,
                start: (stored_u32(sl.value(i)), stored_u32(sc.value(i))),
                end: (stored_u32(el.value(i)), stored_u32(ec.value(i))),
                signature: sig.value(i),
                doc: opt_str(doc, i),
                is_public: public.value(i),
                complexity: (!arrow_array::Array::is_null(cx, i)).then(|| stored_u32(cx.value(i))),
            }));
        }
        Ok(())
    }

    /// Edge rows of `batch` from `row` on, up to the first whose path is not before `bound`;
    /// returns where it stopped.
    pub fn edges(&mut self, batch: &RecordBatch, row: usize, bound: Option<&str>) -> Result<usize> {
        let c = Columns::new(batch);
        let (kind, sq, sp, line, ch, tn, tq, rt, al) = (
            c.str("kind")?,
            c.str("source_qname")?,
            c.str("source_path")?,
            c.int("line")?,
            c.int("character")?,
            c.str("target_name")?,
            c.str("target_qualifier")?,
            c.str("receiver_type")?,
            c.str("alias")?,
        );
        for i in row..batch.num_rows() {
            if bound.is_some_and(|b| sp.value(i) >= b) {
                self.flush();
                return Ok(i);
            }
            self.switch(sp.value(i), true);
            if !self.keep {
                continue;
            }
            let Some(kind) = EdgeKind::parse(kind.value(i)) else {
                continue;
            };
            let qnames = &self.qnames;
            self.current.edges.push(RawEdge {
                kind,
                source: opt_str(sq, i)
                    .map(|q| qnames.get(q).cloned().unwrap_or_else(|| Arc::from(q))),
                line: stored_u32(line.value(i)),
                character: stored_u32(ch.value(i)),
                target_name: tn.value(i).into(),
                qualifier: opt_str(tq, i).map(Into::into),
                receiver_type: opt_str(rt, i).map(Into::into),
                alias: opt_str(al, i).map(Into::into),
            });
        }
        Ok(batch.num_rows())
    }
}

impl Loader<'_> {
    /// The files packed, by path.
    pub fn into_packed(self) -> FxHashMap<String, Arc<Packed>> {
        self.packed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loader_merges_rows_of_a_file_already_packed() {
        use arrow_array::{ArrayRef, BooleanArray, Int64Array, StringArray};
        let strs = |v: &[Option<&str>]| Arc::new(StringArray::from(v.to_vec())) as ArrayRef;
        let ints = |v: &[i64]| Arc::new(Int64Array::from(v.to_vec())) as ArrayRef;
        let symbols = |rows: &[(&str, &str)]| {
            let n = rows.len();
            let paths: Vec<Option<&str>> = rows.iter().map(|r| Some(r.0)).collect();
            let names: Vec<Option<&str>> = rows.iter().map(|r| Some(r.1)).collect();
            RecordBatch::try_from_iter([
                ("path", strs(&paths)),
                ("kind", strs(&vec![Some("function"); n])),
                ("name", strs(&names)),
                ("qualified_name", strs(&names)),
                ("parent", strs(&vec![None; n])),
                ("start_line", ints(&vec![1; n])),
                ("start_character", ints(&vec![0; n])),
                ("end_line", ints(&vec![2; n])),
                ("end_character", ints(&vec![1; n])),
                ("signature", strs(&vec![Some("fn f()"); n])),
                ("doc", strs(&vec![None; n])),
                (
                    "is_public",
                    Arc::new(BooleanArray::from(vec![true; n])) as ArrayRef,
                ),
                ("complexity", ints(&vec![0; n])),
            ])
            .unwrap()
        };
        let wanted: FxHashSet<&str> = ["a.rs", "c.rs"].into_iter().collect();
        let frames = FrameFile::new(tempfile::tempfile().unwrap());
        let mut loader = Loader::new(&wanted, Some(frames));
        loader
            .symbols(&symbols(&[
                ("a.rs", "one"),
                ("b.rs", "skip"),
                ("c.rs", "three"),
            ]))
            .unwrap();
        loader.flush();
        loader.pack_before(Some("c.rs")).unwrap();
        assert!(loader.packed.contains_key("a.rs"));
        // a.rs again, after it was packed; then its edges.
        loader.symbols(&symbols(&[("a.rs", "two")])).unwrap();
        loader.flush();
        let edges = RecordBatch::try_from_iter([
            ("kind", strs(&[Some("calls")])),
            ("source_qname", strs(&[Some("two")])),
            ("source_path", strs(&[Some("a.rs")])),
            ("line", ints(&[1])),
            ("character", ints(&[4])),
            ("target_name", strs(&[Some("three")])),
            ("target_qualifier", strs(&[None])),
            ("receiver_type", strs(&[None])),
            ("alias", strs(&[None])),
        ])
        .unwrap();
        assert_eq!(loader.edges(&edges, 0, None).unwrap(), 1);
        loader.flush();
        loader.pack_before(None).unwrap();
        let mut paths: Vec<&String> = loader.packed.keys().collect();
        paths.sort();
        assert_eq!(paths, ["a.rs", "c.rs"]);
        let a = loader.packed["a.rs"].unpack().unwrap();
        let names: Vec<&str> = a.symbols.iter().map(|s| &*s.name).collect();
        assert_eq!(names, ["one", "two"]);
        assert_eq!(a.edges.len(), 1);
        assert_eq!(a.edges[0].source.as_deref(), Some("two"));
    }
}
