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
//! Two objects per version, both immutable once written:
//!
//! ```text
//! symbols-<v>.index (little-endian):
//!   b"QSEARCH3"
//!   u32 units; u32 files; f32 average definition length; f32 average file length
//!   files × (u32 length, UTF-8 path)
//!   units × (u32 file, u32 length, f32 prior, u8 name terms, u8 is file)
//!   u32 frames; frames × (u64 offset, u32 length, u32 first unit) -- unit records in .units
//!   u32 terms;  terms × (u32 text offset, u32 df, u64 postings offset, u32 postings length)
//!   u32 text length; term texts                       -- terms sorted by text
//!   postings: per unit, varint(unit − previous unit), varint(tf×2 << 1 | in name)
//! symbols-<v>.units: zstd frames (level 3), each up to 16 consecutive units' records one
//!   after another (the rows results are rendered from); a frame's first unit is in the
//!   directory, so an update can copy the frames whose units all stay and re-frame only
//!   those it cuts into. A record (strings: varint length, UTF-8; numbers: varints):
//!     b'F' identifier, path, language, lines, bytes                     -- a file
//!     b'S' identifier, path, kind, name, qualified_name, start_line, start_character,
//!          end_line, end_character, signature, summary, u8 is_public, size -- a definition
//!   (QSEARCH2 stored JSON arrays: serialising them was ~1 % of a first index's CPU, and
//!   every record repeated its keys.)
//! ```
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

/// What a definition's result is rendered from.
struct SymbolRecord<'a> {
    identifier: &'a str,
    path: &'a str,
    kind: &'a str,
    name: &'a str,
    qualified_name: &'a str,
    start_line: i64,
    start_character: i64,
    end_line: i64,
    end_character: i64,
    signature: &'a str,
    summary: &'a str,
    is_public: bool,
    /// Bytes of the definition's lines (`contentByteSize`).
    size: usize,
}

/// What a file's result is rendered from.
struct FileRecord<'a> {
    identifier: &'a str,
    path: &'a str,
    language: &'a str,
    lines: i64,
    bytes: i64,
}

const FILE_RECORD: u8 = b'F';
const SYMBOL_RECORD: u8 = b'S';

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

impl FileRecord<'_> {
    fn encode(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(16 + self.identifier.len() + self.path.len() + self.language.len());
        out.push(FILE_RECORD);
        put_str(&mut out, self.identifier);
        put_str(&mut out, self.path);
        put_str(&mut out, self.language);
        put_varint(&mut out, self.lines as u64);
        put_varint(&mut out, self.bytes as u64);
        out
    }
}

impl SymbolRecord<'_> {
    fn encode(&self) -> Vec<u8> {
        let strings = [
            self.identifier,
            self.path,
            self.kind,
            self.name,
            self.qualified_name,
        ];
        let text: usize = strings.iter().map(|s| s.len()).sum();
        let mut out = Vec::with_capacity(48 + text + self.signature.len() + self.summary.len());
        out.push(SYMBOL_RECORD);
        for s in strings {
            put_str(&mut out, s);
        }
        for n in [
            self.start_line,
            self.start_character,
            self.end_line,
            self.end_character,
        ] {
            put_varint(&mut out, n as u64);
        }
        put_str(&mut out, self.signature);
        put_str(&mut out, self.summary);
        out.push(u8::from(self.is_public));
        put_varint(&mut out, self.size as u64);
        out
    }
}

/// The next record of a (decompressed) records frame, as the rows results are rendered
/// from; `None` at the frame's end.
fn read_record(r: &mut Reader<'_>) -> Result<Option<Map<String, Value>>, CorruptIndex> {
    if r.at == r.bytes.len() {
        return Ok(None);
    }
    let mut m = Map::new();
    let tag = r.u8()?;
    let (texts, ints, more_texts): (&[&str], &[&str], &[&str]) = match tag {
        FILE_RECORD => (
            &["identifier", "path", "language"],
            &["lines", "bytes"],
            &[],
        ),
        SYMBOL_RECORD => (
            &["identifier", "path", "kind", "name", "qualified_name"],
            &["start_line", "start_character", "end_line", "end_character"],
            &["signature", "summary"],
        ),
        other => {
            return Err(CorruptIndex(format!(
                "{}: unknown record type {other}",
                r.what
            )));
        }
    };
    for &key in texts {
        m.insert(key.into(), Value::from(r.str()?));
    }
    // Numbers are written from an `i64` (or a `usize`).
    for &key in ints {
        m.insert(key.into(), Value::from(r.varint()? as i64));
    }
    for &key in more_texts {
        m.insert(key.into(), Value::from(r.str()?));
    }
    if tag == SYMBOL_RECORD {
        m.insert("is_public".into(), Value::from(r.u8()? != 0));
        m.insert("size".into(), Value::from(r.varint()? as i64));
    }
    Ok(Some(m))
}

fn records_reader(frame: &[u8]) -> Reader<'_> {
    Reader {
        bytes: frame,
        at: 0,
        what: "unit records",
    }
}

/// Every record of a (decompressed) records frame, in order.
fn decode_records(frame: &[u8]) -> Result<Vec<Map<String, Value>>, CorruptIndex> {
    let mut r = records_reader(frame);
    let mut out = Vec::new();
    while let Some(m) = read_record(&mut r)? {
        out.push(m);
    }
    Ok(out)
}

/// Where each record of a (decompressed) records frame lies in it.
fn record_spans(frame: &[u8]) -> Result<Vec<std::ops::Range<usize>>, CorruptIndex> {
    let mut r = records_reader(frame);
    let mut out = Vec::new();
    loop {
        let start = r.at;
        if read_record(&mut r)?.is_none() {
            return Ok(out);
        }
        out.push(start..r.at);
    }
}

struct UnitOut {
    /// The unit's record, serialised (see the module's documentation).
    record: Vec<u8>,
    /// (local term, tf × 2, in name), each term once.
    terms: Vec<(u32, u32, bool)>,
    len: u32,
    prior: f32,
    name_terms: u8,
    is_file: bool,
}

struct FileOut {
    path: String,
    terms: Vec<String>,
    units: Vec<UnitOut>,
}

#[derive(Default)]
struct Interner {
    ids: FxHashMap<String, u32>,
}

impl Interner {
    fn id(&mut self, t: &str) -> u32 {
        if let Some(&id) = self.ids.get(t) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(t.to_string(), id);
        id
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    /// The terms, by id.
    fn into_terms(self) -> Vec<String> {
        let mut terms = vec![String::new(); self.ids.len()];
        for (t, id) in self.ids {
            terms[id as usize] = t;
        }
        terms
    }
}

/// Sum each term's weights in (term, weight, in name) pairs; `scratch` is all zero before and
/// after (indexed by term). Terms come out in order of first appearance.
fn merge_pairs(
    pairs: Vec<(u32, u32, bool)>,
    scratch: &mut Vec<(u32, bool)>,
) -> Vec<(u32, u32, bool)> {
    let mut order: Vec<u32> = Vec::with_capacity(pairs.len() / 2);
    for (t, w, n) in pairs {
        add_weight(scratch, &mut order, t, w, n);
    }
    take_weights(scratch, order)
}

/// Add weight `w` of term `t` to `scratch` (indexed by term), noting `t` in `order` when it is
/// new there.
fn add_weight(scratch: &mut Vec<(u32, bool)>, order: &mut Vec<u32>, t: u32, w: u32, n: bool) {
    let t_ = t as usize;
    if t_ >= scratch.len() {
        scratch.resize(t_ + 1, (0, false));
    }
    let slot = &mut scratch[t_];
    if slot.0 == 0 {
        order.push(t);
    }
    slot.0 = slot.0.saturating_add(w.max(1));
    slot.1 |= n;
}

/// The summed weights of the terms in `order`, in that order; their slots of `scratch` are
/// zero again after.
fn take_weights(scratch: &mut [(u32, bool)], order: Vec<u32>) -> Vec<(u32, u32, bool)> {
    order
        .into_iter()
        .map(|t| {
            let (w, n) = std::mem::take(&mut scratch[t as usize]);
            (t, w, n)
        })
        .collect()
}

/// A file's distinct raw words ([`for_each_raw_word`]) and the term ids each becomes: a word
/// is split, lower-cased and stemmed the first time the file uses it, and looked up after
/// (code repeats its words: ~85 % of occurrences are repeats, and tokenising each one was
/// about half of building the index).
#[derive(Default)]
struct Words<'a> {
    at: FxHashMap<&'a str, (u32, u32)>,
    ids: Vec<u32>,
}

impl<'a> Words<'a> {
    fn terms(&mut self, word: &'a str, dict: &mut Interner) -> &[u32] {
        let ids = &mut self.ids;
        let (start, end) = *self.at.entry(word).or_insert_with(|| {
            let start = ids.len() as u32;
            for_each_term(word, |t| ids.push(dict.id(t)));
            (start, ids.len() as u32)
        });
        &self.ids[start as usize..end as usize]
    }
}

/// A file's units and terms, ready to be merged ([`Builder::add_tokenised`]).
pub struct Tokenised(FileOut);

/// Tokenise one file for [`Builder::add_tokenised`] — what [`Builder::add_files`] does to each
/// file, for a caller that makes each file's input on the pool too (the index build unpacks a
/// file's definitions, decompresses its content and tokenises it in one task: one wait for the
/// slowest file per batch instead of one per step).
pub fn tokenise(file: &FileInput) -> Tokenised {
    Tokenised(analyse(file))
}

/// Bytes of one file's content the search index tokenises (whole lines, from the start): the
/// index's memory per file stays bounded whatever `--max-file-size` admits (grep reads every
/// byte). Above the default `--max-file-size`, so a default index is not affected.
pub const MAX_TOKENISED_BYTES: usize = 8 << 20;

/// The longest prefix of `text` of whole lines within `max` bytes (the first line's start
/// within `max`, should a single line be longer).
fn bounded_prefix(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(nl) => &text[..=nl],
        None => &text[..end],
    }
}

fn analyse<'a>(file: &'a FileInput) -> FileOut {
    let mut dict = Interner::default();
    let mut path_terms = Vec::new();
    for_each_term(&file.path, |t| path_terms.push(dict.id(t)));
    let content = bounded_prefix(&file.content, MAX_TOKENISED_BYTES);
    let lines: Vec<&str> = crate::grep::lines(content).collect();

    // Each line belongs to the innermost definition whose range holds it.
    let n = file.symbols.len();
    let mut by_start: Vec<usize> = (0..n).collect();
    by_start.sort_by_key(|&i| {
        let s = &file.symbols[i];
        (s.start_line, std::cmp::Reverse(s.end_line))
    });
    let mut owner: Vec<u32> = vec![u32::MAX; lines.len()];
    let line_range = |s: &SymbolInput| {
        let start = (s.start_line.max(1) - 1) as usize;
        let end = (s.end_line.max(0) as usize).min(lines.len());
        start..end.max(start)
    };
    for &i in &by_start {
        for l in line_range(&file.symbols[i]) {
            if let Some(o) = owner.get_mut(l) {
                *o = i as u32;
            }
        }
    }

    let mut sym_pairs: Vec<Vec<(u32, u32, bool)>> = vec![Vec::new(); n];
    let mut sym_len: Vec<u32> = vec![0; n];
    // The file unit's weights are summed as its terms come (every token of the file: as
    // pairs, growing and then merging them was a tenth of building the index).
    let mut scratch: Vec<(u32, bool)> = Vec::new();
    let mut file_terms: Vec<u32> = Vec::new();
    let mut file_len: u32 = path_terms.len() as u32;
    for &t in &path_terms {
        add_weight(&mut scratch, &mut file_terms, t, W_FILE_PATH, false);
    }
    let mut words = Words::default();
    for (l, line) in lines.iter().enumerate() {
        let o = owner[l];
        for_each_raw_word(line, |word| {
            for &id in words.terms(word, &mut dict) {
                if file.with_file_unit {
                    add_weight(&mut scratch, &mut file_terms, id, W_BODY, false);
                    file_len += 1;
                }
                if o != u32::MAX {
                    sym_pairs[o as usize].push((id, W_SYMBOL_BODY, false));
                    sym_len[o as usize] += 1;
                }
            }
        });
    }

    let mut units = Vec::with_capacity(n + 1);
    // Taking the file's weights leaves the scratch all zero, as the merges below need it.
    let file_terms = take_weights(&mut scratch, file_terms);
    scratch.resize(dict.len(), (0, false));
    if file.with_file_unit {
        units.push(UnitOut {
            record: FileRecord {
                identifier: &file.identifier,
                path: &file.path,
                language: &file.language,
                lines: file.lines,
                bytes: file.bytes,
            }
            .encode(),
            terms: file_terms,
            len: file_len,
            prior: prior(&file.path, None, false, false) as f32,
            name_terms: 0,
            is_file: true,
        });
    }
    for (i, s) in file.symbols.iter().enumerate() {
        let mut pairs = std::mem::take(&mut sym_pairs[i]);
        let mut len = sym_len[i];
        let mut add = |text: &'a str, w: u32, name: bool, pairs: &mut Vec<(u32, u32, bool)>| {
            for_each_raw_word(text, |word| {
                for &id in words.terms(word, &mut dict) {
                    pairs.push((id, w, name));
                    len += 1;
                }
            });
        };
        add(&s.name, W_NAME, true, &mut pairs);
        add(&s.qualified_name, W_QUALIFIED, false, &mut pairs);
        add(&s.signature, W_SIGNATURE, false, &mut pairs);
        add(s.doc.as_deref().unwrap_or(""), W_DOC, false, &mut pairs);
        for &t in &path_terms {
            pairs.push((t, W_PATH, false));
        }
        len += path_terms.len() as u32;
        let mut name_words: Vec<String> = tokens(&s.name)
            .into_iter()
            .filter(|t| !STOPWORDS.contains(&t.as_str()))
            .collect();
        name_words.sort();
        name_words.dedup();
        let size: usize = lines
            .get(line_range(s))
            .map(|ls| ls.iter().map(|l| l.len() + 1).sum())
            .unwrap_or(0);
        let has_doc = s.doc.as_deref().is_some_and(|d| !d.is_empty());
        units.push(UnitOut {
            record: SymbolRecord {
                identifier: &s.identifier,
                path: &file.path,
                kind: &s.kind,
                name: &s.name,
                qualified_name: &s.qualified_name,
                start_line: s.start_line,
                start_character: s.start_character,
                end_line: s.end_line,
                end_character: s.end_character,
                signature: &s.signature,
                summary: &s.summary,
                is_public: s.is_public,
                size,
            }
            .encode(),
            terms: merge_pairs(pairs, &mut scratch),
            len,
            prior: prior(&file.path, Some(&s.kind), s.is_public, has_doc) as f32,
            name_terms: name_words.len().min(255) as u8,
            is_file: false,
        });
    }
    FileOut {
        path: file.path.clone(),
        terms: dict.into_terms(),
        units,
    }
}

#[derive(Debug, Clone, Copy)]
struct UnitInfo {
    file: u32,
    len: u32,
    prior: f32,
    name_terms: u8,
    is_file: bool,
}

#[derive(Default)]
struct Posting {
    last: u32,
    df: u32,
    data: Vec<u8>,
}

/// Builds an index from files added in batches; unit ids are the order of addition. Files
/// are tokenised on every core; a thread of its own merges them, in order, into the index
/// while the next batch is read and tokenised.
pub struct Builder {
    merger: Option<MergerThread>,
}

/// The merging thread and the channel that feeds it.
type MergerThread = (
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

    fn merging_into(mut m: Merger) -> Self {
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

    fn join(&mut self) -> std::io::Result<Merger> {
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
struct Merger {
    dict: Interner,
    postings: Vec<Posting>,
    files: Vec<String>,
    units: Vec<UnitInfo>,
    lengths: [u64; 2],
    counts: [u64; 2],
    /// Records of the frame being filled: a JSON array in the making.
    frame: Vec<u8>,
    frame_units: usize,
    /// (offset in the records object, length, first unit) of each finished frame.
    frames: Vec<(u64, u32, u32)>,
    /// Records frames not yet written to `sink` (all of them without one).
    records: Vec<u8>,
    /// Bytes of records already written to `sink`.
    records_base: u64,
    sink: Option<std::io::BufWriter<std::fs::File>>,
    compressor: Option<zstd::bulk::Compressor<'static>>,
    /// The first unit of the frame being filled.
    frame_first: u32,
    /// Where posting lists go once they pass `spill_at` bytes ([`crate::spill`]); without it
    /// they stay in memory until the end.
    spill: Option<crate::spill::Spill>,
    spill_at: usize,
    /// Bytes of posting lists and terms held in memory.
    held: usize,
}

impl Merger {
    fn merge(&mut self, out: FileOut) -> std::io::Result<()> {
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
    fn spill_to(&mut self, file: std::fs::File, at: usize) -> std::io::Result<()> {
        self.spill = Some(crate::spill::Spill::new(file));
        self.spill_at = at;
        if self.held > self.spill_at {
            self.spill_run()?;
        }
        Ok(())
    }

    /// Write the held posting lists as one run, sorted by term, and start afresh.
    fn spill_run(&mut self) -> std::io::Result<()> {
        let terms = std::mem::take(&mut self.dict).into_terms();
        self.spill_lists(terms)
    }

    /// [`Self::spill_run`] with the dictionary's terms already taken out (by id).
    fn spill_lists(&mut self, terms: Vec<String>) -> std::io::Result<()> {
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

    fn flush_frame(&mut self) -> std::io::Result<()> {
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

    fn compress(&mut self, records: &[u8]) -> std::io::Result<Vec<u8>> {
        let compressor = match &mut self.compressor {
            Some(c) => c,
            None => self.compressor.insert(zstd::bulk::Compressor::new(3)?),
        };
        compressor.compress(records)
    }

    fn push_frame(&mut self, z: &[u8], first: u32) -> std::io::Result<()> {
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
    fn drain_records(&mut self) -> std::io::Result<()> {
        if let Some(sink) = &mut self.sink {
            use std::io::Write;
            sink.write_all(&self.records)?;
            self.records_base += self.records.len() as u64;
            self.records.clear();
        }
        Ok(())
    }

    fn with_sink(sink: Option<std::fs::File>) -> Merger {
        Merger {
            sink: sink.map(|f| std::io::BufWriter::with_capacity(1 << 20, f)),
            ..Merger::default()
        }
    }

    /// The index of `ix` (its records object: `records`) restricted to the units of the files
    /// `keep` admits, renumbered in their order, ready for more files to be merged after them.
    /// Frames whose units all stay are copied; one that loses some is re-framed with the rest.
    fn from_index(
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
    fn finish_to(&mut self, out: &mut impl std::io::Write) -> std::io::Result<()> {
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
    fn write_merged_terms(&mut self, out: &mut impl std::io::Write) -> std::io::Result<()> {
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
fn slice_of(bytes: &[u8], r: std::ops::Range<u64>) -> std::io::Result<&[u8]> {
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
fn read_exactly(
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
struct Window<R> {
    read: R,
    /// Where `bytes` start in the object.
    at: u64,
    bytes: Vec<u8>,
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

/// Decode (unit, tf × 2, in name) postings; stops at the first malformed entry.
fn decode(data: &[u8], units: u32, mut f: impl FnMut(u32, u32, bool)) {
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
    bytes: Vec<u8>,
    files: Vec<String>,
    units: Vec<UnitInfo>,
    /// (offset, length, first unit) of each records frame.
    frames: Vec<(u64, u32, u32)>,
    /// Each file's position among the files sorted by path (equal scores rank by it).
    file_rank: Vec<u32>,
    avg: [f32; 2],
    terms: usize,
    dir: usize,
    texts: usize,
    postings: usize,
}

const DIR_ENTRY: usize = 20;

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
    fn parse(bytes: Vec<u8>, size: u64) -> Result<SearchIndex, CorruptIndex> {
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

    fn text(&self, i: usize) -> &[u8] {
        let e = self.dir + i * DIR_ENTRY;
        let start = le32(&self.bytes, e) as usize;
        let end = if i + 1 < self.terms {
            le32(&self.bytes, e + DIR_ENTRY) as usize
        } else {
            self.postings - self.texts
        };
        &self.bytes[self.texts + start..self.texts + end]
    }

    fn find(&self, term: &str) -> Option<usize> {
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

    fn df(&self, i: usize) -> u32 {
        le32(&self.bytes, self.dir + i * DIR_ENTRY + 4)
    }

    /// Where the posting lists start in the serialised index (the length of its head).
    pub fn postings_at(&self) -> u64 {
        self.postings as u64
    }

    /// Term `i`'s list: none in an index loaded without its lists ([`Self::load_head`]).
    fn posting_bytes(&self, i: usize) -> &[u8] {
        let (off, len) = self.posting_span(i);
        let off = self.postings + off as usize;
        self.bytes.get(off..off + len as usize).unwrap_or(&[])
    }

    /// Where term `i`'s list is among the posting lists: (offset, length).
    fn posting_span(&self, i: usize) -> (u64, u64) {
        let e = self.dir + i * DIR_ENTRY;
        (
            le64(&self.bytes, e + 8),
            u64::from(le32(&self.bytes, e + 16)),
        )
    }

    /// The range of the posting lists that holds the lists of `terms` (they lie together,
    /// written in term order); `(0, 0)` for none.
    fn postings_of(&self, terms: std::ops::Range<usize>) -> (u64, u64) {
        let (start, end) = terms
            .map(|i| self.posting_span(i))
            .fold((u64::MAX, 0), |(start, end), (off, len)| {
                (start.min(off), end.max(off + len))
            });
        if start >= end { (0, 0) } else { (start, end) }
    }

    /// A range of the posting lists held in memory (a loaded index's).
    fn held_postings(&self, r: std::ops::Range<u64>) -> std::io::Result<&[u8]> {
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

/// Which unit paths a search admits (its path and extension filters).
pub type Admits<'a> = &'a (dyn Fn(&str) -> bool + Sync);

/// A ranked unit of one of the searched indexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Position of the index in the slice searched.
    pub index: usize,
    pub unit: u32,
    pub score: f64,
}

/// The dictionary terms a question term matches, with their weight: itself (1), and each
/// prefix of at least three bytes that is at least two bytes shorter — a code abbreviation
/// (`rect` for "rectangle", `str` for "string") — at ½. (One letter short is a different
/// word more often than an abbreviation: `not` is no abbreviation of "nothing", stemmed
/// `noth`.)
fn expansions(term: &str) -> Vec<(&str, f32)> {
    let mut out = vec![(term, 1.0)];
    for (i, _) in term.char_indices().skip(1) {
        if i >= 3 && i + 2 <= term.len() {
            out.push((&term[..i], 0.5));
        }
    }
    out
}

/// Per-query working memory for one index: dense arrays over its units, zero between
/// queries (each query resets exactly what it touched). Pooled, because allocating them
/// afresh — megabytes for a large repository — cost more in page faults than the ranking.
#[derive(Default)]
struct Scratch {
    tf: Vec<f32>,
    name: Vec<bool>,
    score: Vec<f32>,
    matched: Vec<u8>,
    named: Vec<u8>,
    touched: Vec<u32>,
    /// (unit, weighted tf, in name) of each question term's matches, term after term.
    matches: Vec<(u32, f32, bool)>,
}

impl Scratch {
    fn take(units: usize) -> Scratch {
        let mut s = scratch_pool()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop()
            .unwrap_or_default();
        if s.tf.len() < units {
            s.tf.resize(units, 0.0);
            s.name.resize(units, false);
            s.score.resize(units, 0.0);
            s.matched.resize(units, 0);
            s.named.resize(units, 0);
        }
        s.touched.clear();
        s.matches.clear();
        s
    }

    fn give_back(self) {
        let mut pool = scratch_pool().lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < 8 {
            pool.push(self);
        }
    }
}

fn scratch_pool() -> &'static Mutex<Vec<Scratch>> {
    static POOL: OnceLock<Mutex<Vec<Scratch>>> = OnceLock::new();
    POOL.get_or_init(Default::default)
}

/// A candidate in the top-k heap: the worst on top. Equal scores rank by index, then by the
/// unit's file path (its rank among the index's paths), then unit: an order that an updated
/// index and a fresh build of the same files agree on.
struct Ranked(Found, u32);

impl Ranked {
    fn better(&self, other: &Ranked) -> std::cmp::Ordering {
        let (a, b) = (&self.0, &other.0);
        b.score
            .total_cmp(&a.score)
            .then(a.index.cmp(&b.index))
            .then(self.1.cmp(&other.1))
            .then(a.unit.cmp(&b.unit))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Self) -> bool {
        self.better(other).is_eq()
    }
}

impl Eq for Ranked {}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ranked {
    /// Better sorts first, so a max-heap keeps the worst on top.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.better(other)
    }
}

/// The `k` best units for the question terms `terms` over `indexes` (each with the filter
/// its units' paths must pass; `None` admits all), best first; ties by index, then file path,
/// then unit.
pub fn top(
    indexes: &[(&SearchIndex, Option<Admits<'_>>)],
    terms: &[String],
    k: usize,
) -> Vec<Found> {
    let terms = &terms[..terms.len().min(16)];
    if terms.is_empty() || k == 0 {
        return Vec::new();
    }
    // Per index: each question term's matches, and where they end in `matches`.
    let mut scratches: Vec<(Scratch, Vec<usize>)> = indexes
        .iter()
        .map(|(ix, _)| {
            let n = ix.units.len();
            let mut s = Scratch::take(n);
            let mut ends = Vec::with_capacity(terms.len());
            for term in terms {
                for (text, weight) in expansions(term) {
                    let Some(i) = ix.find(text) else { continue };
                    let (tf, name, touched) = (&mut s.tf, &mut s.name, &mut s.touched);
                    decode(ix.posting_bytes(i), n as u32, |u, tf2, in_name| {
                        let slot = &mut tf[u as usize];
                        if *slot == 0.0 {
                            touched.push(u);
                        }
                        *slot += weight * tf2 as f32 / 2.0;
                        name[u as usize] |= in_name;
                    });
                }
                for &u in &s.touched {
                    let t = std::mem::take(&mut s.tf[u as usize]);
                    let m = std::mem::take(&mut s.name[u as usize]);
                    s.matches.push((u, t, m));
                }
                s.touched.clear();
                ends.push(s.matches.len());
            }
            (s, ends)
        })
        .collect();
    // Statistics over every index searched: one corpus.
    let n_total: f64 = indexes.iter().map(|(ix, _)| ix.units.len() as f64).sum();
    let idf: Vec<f32> = (0..terms.len())
        .map(|q| {
            let df: f64 = scratches
                .iter()
                .map(|(_, ends)| (ends[q] - if q == 0 { 0 } else { ends[q - 1] }) as f64)
                .sum();
            ((n_total - df + 0.5) / (df + 0.5) + 1.0).ln() as f32
        })
        .collect();
    let mut heap: std::collections::BinaryHeap<Ranked> = std::collections::BinaryHeap::new();
    for (x, ((ix, admits), (s, ends))) in indexes.iter().zip(&mut scratches).enumerate() {
        let norm: [f32; 2] = [1.0 / ix.avg[0], 1.0 / ix.avg[1]];
        let mut start = 0;
        for (q, &end) in ends.iter().enumerate() {
            for &(u, tf, in_name) in &s.matches[start..end] {
                let info = &ix.units[u as usize];
                let k = K1 * (1.0 - B + B * info.len as f32 * norm[usize::from(info.is_file)]);
                if s.matched[u as usize] == 0 {
                    s.touched.push(u);
                }
                s.score[u as usize] += idf[q] * tf * (K1 + 1.0) / (tf + k);
                s.matched[u as usize] += 1;
                s.named[u as usize] += u8::from(in_name);
            }
            start = end;
        }
        let mut admitted: Vec<Option<bool>> = match admits {
            Some(_) => vec![None; ix.files.len()],
            None => Vec::new(),
        };
        for &u in &s.touched {
            let ui = u as usize;
            let (score, matched, named) = (
                std::mem::take(&mut s.score[ui]),
                std::mem::take(&mut s.matched[ui]),
                std::mem::take(&mut s.named[ui]),
            );
            let info = &ix.units[ui];
            if let Some(admits) = admits {
                let f = info.file as usize;
                if !*admitted[f].get_or_insert_with(|| admits(&ix.files[f])) {
                    continue;
                }
            }
            let mut score = f64::from(score);
            score *= 0.5 + 0.5 * f64::from(matched) / terms.len() as f64;
            score *= f64::from(info.prior);
            if info.name_terms > 0 && named >= info.name_terms {
                score *= 1.3;
            }
            let r = Ranked(
                Found {
                    index: x,
                    unit: u,
                    score,
                },
                ix.file_rank[info.file as usize],
            );
            if heap.len() < k {
                heap.push(r);
            } else if heap.peek().is_some_and(|worst| r < *worst) {
                heap.pop();
                heap.push(r);
            }
        }
    }
    for (s, _) in scratches {
        s.give_back();
    }
    heap.into_sorted_vec().into_iter().map(|r| r.0).collect()
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

    fn frame_of(&self, u: u32) -> usize {
        self.frames.partition_point(|f| f.2 <= u).saturating_sub(1)
    }
}

/// A records frame's records (at most 64 MB: a damaged size is an error, not an allocation).
fn decompress_records(z: &[u8]) -> Result<Vec<u8>, String> {
    let size = zstd::zstd_safe::get_frame_content_size(z)
        .ok()
        .flatten()
        .filter(|&n| n <= 64 << 20)
        .ok_or("damaged")?;
    zstd::bulk::decompress(z, size as usize).map_err(|e| format!("zstd: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(name: &str, kind: &str, lines: (i64, i64)) -> SymbolInput {
        SymbolInput {
            identifier: format!("r::f.py::{name}"),
            kind: kind.into(),
            name: name.into(),
            qualified_name: name.into(),
            signature: format!("def {name}()"),
            summary: String::new(),
            start_line: lines.0,
            end_line: lines.1,
            ..Default::default()
        }
    }

    fn file(path: &str, content: &str, symbols: Vec<SymbolInput>) -> FileInput {
        FileInput {
            path: path.into(),
            identifier: format!("r::{path}"),
            language: "python".into(),
            lines: content.lines().count() as i64,
            bytes: content.len() as i64,
            content: content.into(),
            symbols,
            with_file_unit: true,
        }
    }

    fn build(files: &[FileInput]) -> SearchIndex {
        let mut b = Builder::new();
        b.add_files(&files[..1]).unwrap();
        b.add_files(&files[1..]).unwrap();
        SearchIndex::load(b.finish().unwrap().0).unwrap()
    }

    fn corpus() -> Vec<FileInput> {
        vec![
            file(
                "shapes.py",
                "class Rect:\n    def area(self):\n        return self.width * self.height\n\n    def scale(self, factor):\n        self.width *= factor\n",
                vec![
                    sym("Rect", "class", (1, 6)),
                    sym("area", "method", (2, 3)),
                    sym("scale", "method", (5, 6)),
                ],
            ),
            file(
                "net/http.py",
                "def fetch_url(url):\n    connection = open_socket(url)\n    return connection.read()\n",
                vec![sym("fetch_url", "function", (1, 3))],
            ),
            file("README.md", "Shapes and sockets.\n", vec![]),
        ]
    }

    const ALL: Option<Admits<'static>> = None;

    fn ask(ix: &SearchIndex, q: &str, k: usize) -> Vec<u32> {
        top(&[(ix, ALL)], &crate::text::query_terms(q), k)
            .into_iter()
            .map(|f| f.unit)
            .collect()
    }

    #[test]
    fn bodies_names_and_abbreviations_are_found() {
        let ix = build(&corpus());
        // units: 0 shapes.py, 1 Rect, 2 area, 3 scale, 4 net/http.py, 5 fetch_url, 6 README.md
        assert_eq!(ix.units(), 7);
        assert!(ix.is_file(0) && !ix.is_file(1) && ix.is_file(6));
        assert_eq!(ix.path(5), "net/http.py");
        // The body of `area` (not its name) holds "width" and "height".
        assert_eq!(ask(&ix, "width times height", 1), vec![2]);
        // `scale`'s body is its own: the class keeps only what no method owns.
        assert_eq!(ask(&ix, "scale by a factor", 1), vec![3]);
        // "rectangle" reaches the abbreviation `Rect`.
        assert_eq!(ask(&ix, "rectangle", 1), vec![1]);
        assert_eq!(ask(&ix, "open a socket connection for a URL", 1), vec![5]);
        assert!(ask(&ix, "zebra", 10).is_empty());
        // A prefix one letter short is no abbreviation ("nothing" → `noth`, not `not`).
        assert_eq!(expansions("noth"), vec![("noth", 1.0)]);
        assert_eq!(expansions("rectangl")[1..3], [("rec", 0.5), ("rect", 0.5)]);
        assert_eq!(ix.document_frequency("width"), 3); // file, area, scale
    }

    #[test]
    fn filters_and_statistics_span_indexes() {
        let files = corpus();
        let a = build(&files[..2]);
        let b = build(&files[2..]);
        let all = ALL;
        let not_net: Option<Admits> = Some(&|p: &str| !p.starts_with("net/"));
        let terms = crate::text::query_terms("open socket");
        let both = top(&[(&a, all), (&b, all)], &terms, 10);
        assert!(both.iter().any(|f| f.index == 1 && f.unit == 0), "{both:?}");
        let filtered = top(&[(&a, not_net), (&b, all)], &terms, 10);
        assert!(filtered.iter().all(|f| f.index == 1), "{filtered:?}");
        assert!(both.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn unit_records_read_back_as_the_rows_results_are_rendered_from() {
        let file = FileRecord {
            identifier: "o/r::src/ü.rs",
            path: "src/ü.rs",
            language: "rust",
            lines: 0,
            bytes: 5_000_000_000,
        };
        let symbol = SymbolRecord {
            identifier: "o/r::src/ü.rs::Wörter.zähle",
            path: "src/ü.rs",
            kind: "method",
            name: "zähle",
            qualified_name: "Wörter.zähle",
            start_line: 300,
            start_character: 4,
            end_line: 1 << 40,
            end_character: 0,
            signature: "fn zähle(&self, \"q\": &str) -> usize",
            summary: "",
            is_public: true,
            size: 127,
        };
        let mut frame = file.encode();
        frame.extend(symbol.encode());
        frame.extend(file.encode());
        let records = decode_records(&frame).unwrap();
        let expected = [
            serde_json::json!({"identifier": "o/r::src/ü.rs", "path": "src/ü.rs",
                "language": "rust", "lines": 0, "bytes": 5_000_000_000i64}),
            serde_json::json!({"identifier": "o/r::src/ü.rs::Wörter.zähle", "path": "src/ü.rs",
                "kind": "method", "name": "zähle", "qualified_name": "Wörter.zähle",
                "start_line": 300, "start_character": 4, "end_line": 1i64 << 40,
                "end_character": 0, "signature": "fn zähle(&self, \"q\": &str) -> usize",
                "summary": "", "is_public": true, "size": 127}),
        ];
        let got: Vec<Value> = records.into_iter().map(Value::Object).collect();
        assert_eq!(
            got,
            [&expected[0], &expected[1], &expected[0]].map(|v| v.clone())
        );
        let spans = record_spans(&frame).unwrap();
        assert_eq!(spans.len(), 3);
        assert_eq!(spans[0], 0..file.encode().len());
        assert_eq!(spans[2].end, frame.len());
        // Cut anywhere inside, a frame is an error, not a panic or a shorter list.
        for cut in 1..frame.len() {
            if spans.iter().any(|s| s.end == cut) {
                continue;
            }
            assert!(decode_records(&frame[..cut]).is_err(), "cut at {cut}");
        }
        assert!(decode_records(b"X").is_err());
    }

    #[test]
    fn corrupt_bytes_are_an_error_not_a_panic() {
        let mut b = Builder::new();
        b.add_files(&corpus()).unwrap();
        let (bytes, _) = b.finish().unwrap();
        assert!(SearchIndex::load(bytes.clone()).is_ok());
        for cut in [0, 7, 8, 20, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                SearchIndex::load(bytes[..cut].to_vec()).is_err(),
                "cut {cut}"
            );
        }
        let mut flipped = bytes.clone();
        for i in (8..flipped.len()).step_by(7) {
            flipped[i] ^= 0xff;
            // Loading may fail or succeed; querying must never panic.
            if let Ok(ix) = SearchIndex::load(flipped.clone()) {
                ask(&ix, "width height socket rectangle", 5);
            }
        }
    }

    /// Equal scores rank by file path, whatever order the files were indexed in.
    #[test]
    fn ties_rank_by_path_not_by_indexing_order() {
        let twin = |path: &str| {
            file(
                path,
                "def frobnicate():\n    pass\n",
                vec![sym("frobnicate", "function", (1, 2))],
            )
        };
        let paths = |ix: &SearchIndex| -> Vec<String> {
            top(&[(ix, ALL)], &crate::text::query_terms("frobnicate"), 4)
                .iter()
                .map(|f| {
                    format!(
                        "{}:{}",
                        ix.files[ix.units[f.unit as usize].file as usize], f.score
                    )
                })
                .collect()
        };
        let ab = build(&[twin("a.py"), twin("b.py")]);
        let ba = build(&[twin("b.py"), twin("a.py")]);
        let (x, y) = (paths(&ab), paths(&ba));
        assert_eq!(x, y);
        assert!(
            x[0].starts_with("a.py:") && x[1].starts_with("b.py:"),
            "{x:?}"
        );
    }

    /// Posting lists spilled to a scratch file in runs and merged back give the index an
    /// in-memory build gives, byte for byte — built fresh, or updated from a published index.
    #[test]
    fn a_spilling_build_is_an_in_memory_build() {
        let module = |i: usize| {
            let names: Vec<String> = (0..3).map(|j| format!("shape_{}_{j}", i % 4)).collect();
            let content: String = names
                .iter()
                .map(|n| format!("def {n}(x):\n    return x + {i} # area{}\n", i % 3))
                .collect();
            let syms = names
                .iter()
                .enumerate()
                .map(|(j, n)| sym(n, "function", (2 * j as i64 + 1, 2 * j as i64 + 2)))
                .collect();
            file(&format!("m{i}.py"), &content, syms)
        };
        let files: Vec<FileInput> = (0..10).map(module).collect();
        let build = |spill_at: Option<usize>| {
            let mut m = Merger::default();
            if let Some(at) = spill_at {
                m.spill_to(tempfile::tempfile().unwrap(), at).unwrap();
            }
            let mut b = Builder::merging_into(m);
            for f in files.chunks(3) {
                b.add_files(f).unwrap();
            }
            b.finish().unwrap()
        };
        let memory = build(None);
        for at in [1, 300] {
            assert!(
                build(Some(at)) == memory,
                "spilling at {at} bytes changed the index"
            );
        }
        // The merged runs really were spilled: the in-memory lists are empty after each file.
        let mut m = Merger::default();
        m.spill_to(tempfile::tempfile().unwrap(), 1).unwrap();
        m.merge(analyse(&files[0])).unwrap();
        assert!(m.postings.is_empty() && m.spill.as_ref().is_some_and(|s| !s.is_empty()));

        // An update: its kept lists streamed into a first run, held and spilled over budget,
        // or held throughout, give the same index.
        let ix = SearchIndex::load(memory.0.clone()).unwrap();
        let keep = |p: &str| p != "m4.py";
        let update = |streamed: bool, spill_at: Option<usize>| {
            let file = streamed.then(|| tempfile::tempfile().unwrap());
            let postings = |r| Ok(ix.held_postings(r)?.to_vec());
            let records = |r| Ok(slice_of(&memory.1, r)?.to_vec());
            let records = (memory.1.len() as u64, records);
            let mut m = Merger::from_index(&ix, postings, records, keep, None, file).unwrap();
            if streamed {
                assert!(m.postings.is_empty() && m.spill.as_ref().is_some_and(|s| !s.is_empty()));
            }
            if let Some(at) = spill_at {
                m.spill_to(tempfile::tempfile().unwrap(), at).unwrap();
            }
            let mut b = Builder::merging_into(m);
            b.add_files(&[module(4), module(11)]).unwrap();
            b.finish().unwrap()
        };
        let held = update(false, None);
        assert!(update(false, Some(1)) == held);
        assert!(update(true, None) == held);
    }

    /// An index updated in place (a file deleted, one changed, one added) ranks, scores and
    /// renders exactly as a fresh build over the same files in the same order.
    #[test]
    fn an_updated_index_answers_as_a_fresh_build() {
        let module = |i: usize, word: &str| {
            let names: Vec<String> = (0..5).map(|j| format!("{word}_{i}_{j}")).collect();
            let content: String = names
                .iter()
                .map(|n| format!("def {n}(x):\n    return x + {i}\n"))
                .collect();
            let syms = names
                .iter()
                .enumerate()
                .map(|(j, n)| {
                    let mut s = sym(n, "function", (2 * j as i64 + 1, 2 * j as i64 + 2));
                    s.identifier = format!("r::m{i}.py::{n}");
                    s
                })
                .collect();
            file(&format!("m{i}.py"), &content, syms)
        };
        let old: Vec<FileInput> = (0..12).map(|i| module(i, "shape")).collect();
        let mut b = Builder::new();
        b.add_files(&old).unwrap();
        let (index, records) = b.finish().unwrap();
        let ix = SearchIndex::load(index).unwrap();
        assert_eq!(ix.units(), 72);

        // m2.py deleted, m5.py changed (its units go, the new ones follow), m12.py added: the
        // first three frames (16 units each) are cut into, the last two copied.
        let (changed, added) = (module(5, "socket"), module(12, "socket"));
        // Updated through scratch files (as `quarry index` does), the fresh one in memory.
        let keep = |p: &str| p != "m2.py" && p != "m5.py";
        let sink = tempfile::tempfile().unwrap();
        let mut b = Builder::from_index(&ix, &records, keep, Some(sink), None).unwrap();
        b.add_files(&[changed.clone(), added.clone()]).unwrap();
        let (index, units) = b.finish_spooled(tempfile::tempfile().unwrap()).unwrap();
        let (index2, units2) = (read_whole(index), read_whole(units));
        let mut fresh: Vec<FileInput> = old
            .into_iter()
            .filter(|f| f.path != "m2.py" && f.path != "m5.py")
            .collect();
        fresh.extend([changed, added]);
        let mut b = Builder::new();
        b.add_files(&fresh).unwrap();
        let (index3, units3) = b.finish().unwrap();

        let (a, f) = (
            SearchIndex::load(index2).unwrap(),
            SearchIndex::load(index3).unwrap(),
        );
        assert_eq!(a.units(), 72);
        assert_eq!((&a.files, a.avg, a.terms), (&f.files, f.avg, f.terms));
        for (x, y) in a.units.iter().zip(&f.units) {
            assert_eq!((x.file, x.len, x.is_file), (y.file, y.len, y.is_file));
        }
        for t in 0..f.terms {
            assert_eq!(a.text(t), f.text(t));
            assert_eq!(a.posting_bytes(t), f.posting_bytes(t), "term {t}");
        }
        assert!(!a.files.iter().any(|p| p == "m2.py"));
        for q in ["socket 5", "shape return", "socket_12_3", "m7 shape_7_4"] {
            let (x, y) = (
                top(&[(&a, ALL)], &crate::text::query_terms(q), 10),
                top(&[(&f, ALL)], &crate::text::query_terms(q), 10),
            );
            assert!(!x.is_empty() && x == y, "{q}: {x:?} vs {y:?}");
        }
        let every: Vec<u32> = (0..72).collect();
        assert_eq!(
            records_of(&a, &units2, &every),
            records_of(&f, &units3, &every)
        );
        // Records that do not hold the frames are an error, not a panic.
        assert!(Builder::from_index(&ix, &records[..10], |p| p != "m0.py", None, None).is_err());

        // The same update from the published index's head alone, its lists and records read
        // a range at a time (as `quarry index` reads them from the store), with and without
        // the kept lists streamed into a first run: the same index, byte for byte.
        let published = ix.bytes.clone();
        let head_len = SearchIndex::head_len(&published).unwrap().unwrap();
        let head = SearchIndex::load_head(published[..head_len].to_vec(), published.len() as u64);
        let head = head.unwrap();
        assert!(head.posting_bytes(0).is_empty(), "a head holds no lists");
        for streamed in [false, true] {
            let reads = std::cell::Cell::new(0);
            let postings = |r: std::ops::Range<u64>| {
                reads.set(reads.get() + 1);
                Ok(published[head_len + r.start as usize..head_len + r.end as usize].to_vec())
            };
            let read_records = |r: std::ops::Range<u64>| {
                reads.set(reads.get() + 1);
                Ok(records[r.start as usize..r.end as usize].to_vec())
            };
            let spill = streamed.then(|| tempfile::tempfile().unwrap());
            let mut b = Builder::from_index_reading(
                &head,
                postings,
                (records.len() as u64, read_records),
                keep,
                Some(tempfile::tempfile().unwrap()),
                spill,
            )
            .unwrap();
            // The lists in one read (one slice of terms), the records in one window.
            assert_eq!(reads.get(), 2);
            b.add_files(&[module(5, "socket"), module(12, "socket")])
                .unwrap();
            let (index, units) = b.finish_spooled(tempfile::tempfile().unwrap()).unwrap();
            assert!(read_whole(index) == a.bytes && read_whole(units) == units2);
        }
    }

    /// A head's length is known from a prefix of an index, read longer as it asks; any prefix
    /// shorter than the head asks for more, and a truncated or foreign head is an error.
    #[test]
    fn a_search_index_head_is_read_from_a_growing_prefix() {
        let files: Vec<FileInput> = (0..5)
            .map(|i| {
                let name = format!("handler_{i}");
                let mut s = sym(&name, "function", (1, 2));
                s.identifier = format!("r::h{i}.py::{name}");
                file(
                    &format!("h{i}.py"),
                    &format!("def {name}():\n    pass\n"),
                    vec![s],
                )
            })
            .collect();
        let mut b = Builder::new();
        b.add_files(&files).unwrap();
        let bytes = b.finish().unwrap().0;
        let full = SearchIndex::load(bytes.clone()).unwrap();
        let head = full.postings;
        assert!(head < bytes.len());
        for cut in 0..=bytes.len() {
            match SearchIndex::head_len(&bytes[..cut]).unwrap() {
                Ok(n) => assert!(n == head && cut >= full.texts, "{cut}"),
                Err(more) => assert!(more > cut && more <= full.texts, "{cut}: {more}"),
            }
        }
        // Read as `quarry index` reads it: a prefix, then as much more as it asks.
        let mut prefix = bytes[..3].to_vec();
        let n = loop {
            match SearchIndex::head_len(&prefix).unwrap() {
                Ok(n) => break n,
                Err(more) => prefix = bytes[..more].to_vec(),
            }
        };
        let ix = SearchIndex::load_head(bytes[..n].to_vec(), bytes.len() as u64).unwrap();
        assert_eq!(
            (ix.files.clone(), ix.terms),
            (full.files.clone(), full.terms)
        );
        // A head shorter than it says, one of a shorter object, or not an index: errors.
        assert!(SearchIndex::load_head(bytes[..n - 1].to_vec(), bytes.len() as u64).is_err());
        assert!(SearchIndex::load_head(bytes[..n].to_vec(), n as u64 - 1).is_err());
        let mut foreign = bytes.clone();
        foreign[0] ^= 1;
        assert!(SearchIndex::head_len(&foreign).is_err());
    }

    /// A spooled object's bytes.
    fn read_whole(mut f: std::fs::File) -> Vec<u8> {
        use std::io::{Read, Seek};
        f.seek(std::io::SeekFrom::Start(0)).unwrap();
        let mut v = Vec::new();
        f.read_to_end(&mut v).unwrap();
        v
    }

    /// The records of `units` read from a whole `.units` object, as the store's ranged reads
    /// would return them.
    fn records_of(ix: &SearchIndex, object: &[u8], units: &[u32]) -> Vec<Map<String, Value>> {
        let (wanted, ranges) = ix.unit_frames(units).unwrap();
        let bytes = ranges
            .iter()
            .map(|r| bytes::Bytes::copy_from_slice(&object[r.start as usize..r.end as usize]))
            .collect();
        ix.records(units, wanted, bytes).unwrap()
    }

    #[test]
    fn one_files_tokens_are_bounded() {
        assert_eq!(bounded_prefix("ab\ncd\n", 4), "ab\n");
        assert_eq!(bounded_prefix("abcdef", 3), "abc");
        assert_eq!(bounded_prefix("é", 1), "");
        assert_eq!(bounded_prefix("short", 100), "short");
    }
}
