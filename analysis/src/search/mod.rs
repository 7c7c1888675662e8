//! The lexical search index `semantic_search` ranks with: one per repository and `symbols`
//! version, built at index time, so a question costs a few posting-list reads and a top-k
//! selection instead of a query over the symbols table.
//!
//! **Units** are the definitions (every symbol kind but fields, variables and imports) and the
//! files. Each unit's terms come from weighted fields — for a definition its name (×3),
//! qualified name, path, signature, doc comment (×1.5) and **body** (×½): the lines of its range
//! that no nested definition owns (a class's body is what is between its methods); for a file
//! its path (×2) and every line. Terms are [`crate::text`]'s code-aware tokens (identifiers
//! split on case and `_`, lower-cased, lightly stemmed), the same tokens questions become.
//!
//! **Ranking** is BM25F-style: per (term, unit) the field-weighted term frequency; at query
//! time `idf × tf·(k1+1) / (tf + k1·(1 − b + b·len/avg))` summed over the question's terms,
//! with the average length taken separately over definitions and files (a file is far longer
//! than a function; one average would bury every file). A question word also matches a
//! shorter code abbreviation it starts with (`rect` for `rectangle`, at least three letters)
//! at half weight. Then the structural signals: coverage (answering more of the question's
//! words beats repeating one), the unit's [`prior`] (tests and examples down, definitions of
//! types and functions up, public and documented up, files down), and a boost when the
//! question names every word of the definition's name. Statistics (unit count, document
//! frequencies) are summed over all the repositories a question covers, so a workspace ranks
//! as one corpus.
//!
//! Two objects per version, both immutable once written, whose bytes docs/formats.md gives
//! ("Search index").
//!
//! After a re-index, an index is updated rather than rebuilt ([`Builder::from_index`]): the
//! unchanged files' units keep their order, their postings and their frames, and the changed
//! files' units follow. Unit numbers then differ from a fresh build's, so equal scores are
//! ordered by file path, then unit — the same in both.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde_json::{Map, Value};

use crate::derived::{CorruptIndex, Reader, le32, le64, put_varint};
use crate::spill::SPILL_AT;
use crate::text::{STOPWORDS, for_each_raw_word, for_each_term, tokens};

mod ranker;
mod reader;
mod records;
#[cfg(test)]
mod tests;
mod tokenise;
mod writer;

use self::records::*;
pub use self::{ranker::*, reader::*, tokenise::*, writer::*};

pub const MAGIC: &[u8; 8] = b"QSEARCH3";
/// Unit records per compressed frame of `.units`.
const FRAME_UNITS: usize = 16;
const K1: f32 = 1.2;
const B: f32 = 0.75;

// Field weights, doubled (term frequencies are stored in half units).
const W_NAME: u32 = 6;
const W_QUALIFIED: u32 = 2;
const W_PATH: u32 = 2;
const W_SIGNATURE: u32 = 2;
const W_DOC: u32 = 3;
/// A file's lines.
const W_BODY: u32 = 2;
/// A definition's own lines: half a word of its name's weight class — bodies hold most of a
/// definition's words, and at 1 (or 1.5) they drowned the name and signature a little
/// (bench/semantic_eval.py: function MRR 0.313 at 1, 0.307 at 1.5, 0.323 at ½).
const W_SYMBOL_BODY: u32 = 1;
const W_FILE_PATH: u32 = 4;

/// Whether a symbol of `kind` is a search unit (definitions; not fields, variables, imports).
pub fn is_unit(kind: &str) -> bool {
    !matches!(kind, "field" | "variable" | "import")
}

/// A unit's static ranking factor: tests, specs, examples and benchmarks down; definitions of
/// types and functions, public ones and documented ones up; files (`kind` `None`) well down
/// — a file holds every word of its definitions, so it would otherwise outrank the one that
/// answers (0.4: measured on bench/semantic_eval.py, docs/benchmarks.md).
pub fn prior(path: &str, kind: Option<&str>, is_public: bool, has_doc: bool) -> f64 {
    let lower = path.to_lowercase();
    let mut p = 1.0;
    if ["test", "spec", "example", "bench"]
        .iter()
        .any(|w| lower.contains(w))
    {
        p *= 0.6;
    }
    match kind {
        None => p *= 0.4,
        Some(kind) => {
            if matches!(
                kind,
                "class" | "struct" | "interface" | "trait" | "enum" | "function" | "method"
            ) {
                p *= 1.1;
            }
            if is_public {
                p *= 1.05;
            }
            if has_doc {
                p *= 1.05;
            }
        }
    }
    p
}

/// A definition to index (a row of `symbols`).
#[derive(Debug, Clone, Default)]
pub struct SymbolInput {
    pub identifier: String,
    pub kind: String,
    pub name: String,
    pub qualified_name: String,
    pub signature: String,
    pub doc: Option<String>,
    pub summary: String,
    pub is_public: bool,
    pub start_line: i64,
    pub start_character: i64,
    pub end_line: i64,
    pub end_character: i64,
}

/// A definition's fields, from an analysis or a `symbols` row.
pub struct DefRow<'a> {
    pub kind: &'a str,
    pub name: &'a str,
    pub qualified_name: &'a str,
    pub signature: &'a str,
    pub doc: Option<&'a str>,
    pub is_public: bool,
    /// Start line and character, end line and character.
    pub range: [i64; 4],
}

/// A definition as the search index takes it: as [`crate::rows::symbol_batch`] writes its
/// row, with the identifier and summary made the same way.
pub fn symbol_input(prefix: &str, path: &str, d: DefRow<'_>) -> SymbolInput {
    let (parts, n) = crate::resolve::Ident::Symbol(path, d.qualified_name).parts(prefix);
    let mut summary = String::new();
    crate::analyze::summarize_into(&mut summary, d.kind, d.qualified_name, d.doc, d.signature);
    let [start_line, start_character, end_line, end_character] = d.range;
    SymbolInput {
        identifier: parts[..n].concat(),
        kind: d.kind.to_string(),
        name: d.name.to_string(),
        qualified_name: d.qualified_name.to_string(),
        signature: d.signature.to_string(),
        doc: d.doc.map(str::to_string),
        summary,
        is_public: d.is_public,
        start_line,
        start_character,
        end_line,
        end_character,
    }
}

/// A file's search units (its definitions: [`is_unit`]) from its analysis, in its order.
pub fn definitions(prefix: &str, path: &str, a: &crate::analyze::FileAnalysis) -> Vec<SymbolInput> {
    a.symbols
        .iter()
        .filter(|s| is_unit(s.kind))
        .map(|s| {
            let range = [s.start_line, s.start_character, s.end_line, s.end_character];
            symbol_input(
                prefix,
                path,
                DefRow {
                    kind: s.kind,
                    name: &s.name,
                    qualified_name: &s.qualified_name,
                    signature: &s.signature,
                    doc: s.doc.as_deref(),
                    is_public: s.is_public,
                    range: range.map(i64::from),
                },
            )
        })
        .collect()
}

/// A file to index with its definitions (in `symbols` order).
#[derive(Debug, Clone, Default)]
pub struct FileInput {
    pub path: String,
    pub identifier: String,
    pub language: String,
    pub lines: i64,
    pub bytes: i64,
    pub content: String,
    pub symbols: Vec<SymbolInput>,
    /// Whether the file itself is a unit (false when only more of its definitions are added).
    pub with_file_unit: bool,
}

impl<R: FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>>> Window<R> {
    /// Bytes read at a time, at least.
    const READ: u64 = 8 << 20;

    /// `r` of the object (in bounds: the caller checked), read with what follows it when it is
    /// not in the window.
    fn get(&mut self, r: std::ops::Range<u64>, len: u64) -> std::io::Result<&[u8]> {
        let held = self.at..self.at + self.bytes.len() as u64;
        if r.start < held.start || r.end > held.end {
            let end = r.end.max(r.start.saturating_add(Self::READ)).min(len);
            // The old window goes before the next is read, so two are never held.
            self.bytes = Vec::new();
            self.bytes = read_exactly(&mut self.read, r.start..end)?;
            self.at = r.start;
        }
        let from = (r.start - self.at) as usize;
        Ok(&self.bytes[from..from + (r.end - r.start) as usize])
    }
}

/// Where the index of a repository's `symbols` at `version` is stored.
pub fn index_path(source_id: &str, version: u64) -> String {
    format!("sources/{source_id}/search/{}", file_name(version, INDEX))
}

/// Where its unit records are stored.
pub fn units_path(source_id: &str, version: u64) -> String {
    format!("sources/{source_id}/search/{}", file_name(version, UNITS))
}

const INDEX: &str = "index";
const UNITS: &str = "units";

fn file_name(version: u64, kind: &str) -> String {
    format!("symbols-{version:010}.{kind}")
}
