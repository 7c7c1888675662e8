//! Tree-sitter analysis of one file: symbols (definitions), raw edges (calls, inheritance,
//! implementation, references, imports) and cognitive complexity.
//!
//! Analysis is per file and pure, so it runs in parallel and its result can be reused while
//! the file's content hash is unchanged. Edge *targets* are only names here; they are resolved
//! across the whole repository by [`crate::resolve`].

mod arena;
mod complexity;
pub mod dense;
mod macros;
pub mod packed;
pub mod returns;
mod rules;
mod rust_macros;
mod walker;

use std::rc::Rc;
use std::sync::Arc;
use tree_sitter::{Node, Parser};

use crate::lang::Lang;
use rules::Up;
pub use rules::{ARRAY, TYPE_KINDS, is_builtin_type, split_type_path, type_name};
use walker::*;

/// Deepest syntax-tree nesting the walker descends into; deeper subtrees (pathological or
/// minified input) are not analysed, which bounds work and stack use.
pub const MAX_DEPTH: usize = 256;

/// A definition found in a file.
///
/// Every symbol of a repository is held in memory until edges are resolved (1.5 M on the cargo
/// registry), so the layout is compact: boxed strings instead of `String`s, 32-bit positions,
/// the parent as a prefix of the qualified name, and the summary computed when a row is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub kind: &'static str,
    pub name: Box<str>,
    /// Dotted path inside the file, e.g. `Parser.parse`; unique within the file. Shared with
    /// the file's edges whose source this symbol is.
    pub qualified_name: Arc<str>,
    /// Length of the parent's qualified name, a prefix of `qualified_name`; `NO_PARENT`.
    parent_len: u32,
    pub start_line: u32,
    pub start_character: u32,
    pub end_line: u32,
    pub end_character: u32,
    pub signature: Box<str>,
    pub doc: Option<Box<str>>,
    pub is_public: bool,
    pub lines: u32,
    /// Cognitive complexity, for functions, methods and constructors.
    pub complexity: Option<u32>,
}

const NO_PARENT: u32 = u32::MAX;

/// A symbol's fields as they come from analysis or from a stored row.
pub struct SymbolParts<'a> {
    pub kind: &'static str,
    pub name: &'a str,
    pub qualified_name: &'a str,
    pub parent: Option<&'a str>,
    pub start: (u32, u32),
    pub end: (u32, u32),
    pub signature: &'a str,
    pub doc: Option<&'a str>,
    pub is_public: bool,
    pub complexity: Option<u32>,
}

impl Symbol {
    /// Build a symbol. The parent must be a prefix of the qualified name followed by `.`
    /// (analysis always makes it so); one that is not is dropped.
    pub fn new(p: SymbolParts<'_>) -> Symbol {
        let parent_len = match p.parent {
            Some(parent)
                if p.qualified_name.len() > parent.len()
                    && p.qualified_name.starts_with(parent)
                    && p.qualified_name.as_bytes()[parent.len()] == b'.' =>
            {
                u32::try_from(parent.len()).unwrap_or(NO_PARENT)
            }
            _ => NO_PARENT,
        };
        Symbol {
            kind: p.kind,
            name: p.name.into(),
            qualified_name: p.qualified_name.into(),
            parent_len,
            start_line: p.start.0,
            start_character: p.start.1,
            end_line: p.end.0,
            end_character: p.end.1,
            signature: p.signature.into(),
            doc: p.doc.map(Into::into),
            is_public: p.is_public,
            lines: p.end.0.saturating_sub(p.start.0) + 1,
            complexity: p.complexity,
        }
    }

    /// The parent a qualified name implies: `Type` of `Type.name` or `Type.name#2` (see
    /// `Walker::add_symbol`); `None` for a top-level name.
    pub fn parent_in_name<'q>(qualified_name: &'q str, name: &str) -> Option<&'q str> {
        let unsuffixed = match qualified_name.rsplit_once('#') {
            Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
            _ => qualified_name,
        };
        unsuffixed.strip_suffix(name)?.strip_suffix('.')
    }

    /// Qualified name of the enclosing symbol (or of the type an `impl` block names).
    pub fn parent(&self) -> Option<&str> {
        (self.parent_len != NO_PARENT).then(|| &self.qualified_name[..self.parent_len as usize])
    }

    /// A one-line summary: the doc comment's first sentence, else derived from the signature.
    pub fn summary(&self) -> String {
        summarize(
            self.kind,
            &self.qualified_name,
            self.doc.as_deref(),
            &self.signature,
        )
    }
}

/// Kind of a relationship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    Calls,
    Inherits,
    Implements,
    References,
    Imports,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Calls => "calls",
            EdgeKind::Inherits => "inherits",
            EdgeKind::Implements => "implements",
            EdgeKind::References => "references",
            EdgeKind::Imports => "imports",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "calls" => EdgeKind::Calls,
            "inherits" => EdgeKind::Inherits,
            "implements" => EdgeKind::Implements,
            "references" => EdgeKind::References,
            "imports" => EdgeKind::Imports,
            _ => return None,
        })
    }
}

/// An edge as found in the source: its target is a name (plus the qualifier written before
/// it, e.g. `self`, `Foo`, a module path), resolved later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEdge {
    pub kind: EdgeKind,
    /// Qualified name of the source symbol (shared with it); `None` for the file itself.
    pub source: Option<Arc<str>>,
    pub line: u32,
    pub character: u32,
    pub target_name: Box<str>,
    pub qualifier: Option<Box<str>>,
    /// The declared type of the receiver a call's qualifier names (`StringBuilder` for
    /// `sb.append(…)` after `StringBuilder sb = …`, `Engine` for `engine.run()` where field
    /// or parameter `engine` is declared `Engine`): its path as written (`sql.DB`), without
    /// generic arguments, pointers or references ([`rules::type_name`]). Calls, and field
    /// references read from a value (`params.width` with `params: &CrcParams`). For a local
    /// or field bound to a call's result (`let cfg = Config::load(p)?;`), that call as
    /// written (`Config::load(p)?`), whose type resolution finds ([`returns::chained`]).
    pub receiver_type: Option<Box<str>>,
    /// The name an import binds the target to when it renames it (`np` in `import numpy as
    /// np`, `E` in `use a::Entry as E`). Imports only.
    pub alias: Option<Box<str>>,
}

/// Everything analysis finds in one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileAnalysis {
    pub symbols: Vec<Symbol>,
    pub edges: Vec<RawEdge>,
    /// True when the parse contained syntax errors (what parsed is still indexed).
    pub had_errors: bool,
    /// Go: the file's build constraint ([`crate::gobuild::build_line`]), which resolution
    /// reads to choose among a package's per-platform definitions. Not stored in a table: a
    /// file reloaded from its rows reads it from its content again.
    pub go_build: Option<String>,
}

#[cfg(test)]
impl FileAnalysis {
    /// The file's import edges as (name, module), in order.
    pub fn import_pairs(&self) -> Vec<(&str, Option<&str>)> {
        self.edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Imports)
            .map(|e| (&*e.target_name, e.qualifier.as_deref()))
            .collect()
    }
}

thread_local! {
    /// Kind names of the language being analysed on this thread, indexed by kind id.
    static KIND_NAMES: std::cell::Cell<&'static [&'static str]> = const { std::cell::Cell::new(&[]) };
}

/// A node's kind, as `Node::kind()` answers it but without its `strlen` and UTF-8 check
/// (8 % of analysis time): the grammar's kind names are read once into a table.
///
/// The rules ask for the kind of the node being visited several times in a row, so while
/// `analyze` walks a tree the last answer is kept, by node id (unique within a tree) and
/// language. That answer is inlined into every rule (~10 calls per node visited; as a call
/// it was ~5 % of analysis), the table lookup is not.
#[inline]
pub(crate) fn kind_of<'t>(n: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    let n = n.borrow();
    let names = KIND_NAMES.with(|names| names.get());
    let key = (n.id(), names.as_ptr() as usize);
    let (last, last_kind) = LAST_KIND.with(|last| last.get());
    if last == key {
        return last_kind;
    }
    kind_looked_up(n, names, key, last)
}

#[inline(never)]
fn kind_looked_up(
    n: &Node<'_>,
    names: &'static [&'static str],
    key: (usize, usize),
    last: (usize, usize),
) -> &'static str {
    let kind = names
        .get(usize::from(n.kind_id()))
        .copied()
        .unwrap_or_else(|| intern(n.kind()));
    if last != NOT_KEPT {
        LAST_KIND.with(|last| last.set((key, kind)));
    }
    kind
}

/// A kind name as `&'static str`: tree-sitter (0.26 on) lends them for as long as the
/// `Language` or tree lives, though every grammar's are static C strings. Each distinct name
/// is copied once per process (a few thousand across all grammars).
fn intern(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Option<std::collections::HashSet<&'static str>>> =
        std::sync::Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let names = names.get_or_insert_with(Default::default);
    if let Some(&known) = names.get(name) {
        return known;
    }
    let kept: &'static str = Box::leak(name.into());
    names.insert(kept);
    kept
}

/// `LAST_KIND` outside `analyze`: nothing kept (trees come and go, and ids with them).
const NOT_KEPT: (usize, usize) = (usize::MAX, usize::MAX);

thread_local! {
    /// `kind_of`'s last answer while `analyze` walks a tree: ((node id, kind-name table),
    /// kind); `NOT_KEPT` otherwise.
    static LAST_KIND: std::cell::Cell<((usize, usize), &'static str)> =
        const { std::cell::Cell::new((NOT_KEPT, "")) };
}

thread_local! {
    /// Field ids looked up on this thread, by (language, the name's address): field names are
    /// literals. `Node::child_by_field_name` finds the id by comparing the name with every
    /// field name of the grammar (`strncmp`, ~1 % of parsing on the cargo registry). 0: none.
    static FIELD_IDS: std::cell::RefCell<rustc_hash::FxHashMap<(usize, usize), u16>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// A node's child in field `name`, as `Node::child_by_field_name` answers it, with the field's
/// id looked up once per language and thread.
pub(crate) fn field_of<'t>(n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
    // The language being analysed, by its kind-name table (one per grammar, never freed).
    let names = KIND_NAMES.with(|names| names.get());
    if names.is_empty() {
        // Not inside `analyze` (a unit test of one rule): no language to key the cache by.
        return n.child_by_field_name(name);
    }
    let lang = names.as_ptr() as usize;
    let key = (lang, name.as_ptr() as usize);
    let id = FIELD_IDS.with(|ids| {
        *ids.borrow_mut().entry(key).or_insert_with(|| {
            n.language()
                .field_id_for_name(name)
                .map_or(0, std::num::NonZeroU16::get)
        })
    });
    match id {
        0 => None,
        id => n.child_by_field_id(id),
    }
}

/// The kind-name and complexity-class tables of a grammar, by kind id (built once per language
/// per process).
fn kind_names(
    lang: Lang,
    grammar: &tree_sitter::Language,
) -> (&'static [&'static str], &'static [complexity::Class]) {
    type Tables = (&'static [&'static str], &'static [complexity::Class]);
    static TABLES: std::sync::Mutex<Vec<(Lang, Tables)>> = std::sync::Mutex::new(Vec::new());
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, found)) = tables.iter().find(|(l, _)| *l == lang) {
        return *found;
    }
    let names: Vec<&'static str> = (0..grammar.node_kind_count())
        .map(|id| {
            u16::try_from(id)
                .ok()
                .and_then(|id| grammar.node_kind_for_id(id))
                .map_or("", intern)
        })
        .collect();
    let classes: Vec<complexity::Class> = names
        .iter()
        .map(|n| complexity::Class::of_name(n))
        .collect();
    // Two small tables per grammar for the life of the process.
    let names: &'static [&'static str] = Box::leak(names.into_boxed_slice());
    let classes: &'static [complexity::Class] = Box::leak(classes.into_boxed_slice());
    tables.push((lang, (names, classes)));
    (names, classes)
}

/// Tree-sitter's memory for one file's parse may reach this, or [`PARSE_BYTES_PER_BYTE`]
/// times the file's size if that is more, before the parse is given up. Tree-sitter's error
/// recovery is unbounded on some inputs: 900 KB of `a<a<a<…` held 23 GB as Java and 17 GB as
/// C# within two minutes, still parsing. Well-formed files hold ~35 bytes per byte (a 0.9 MB
/// Rust file ~30 MB); a 0.8 MB file of random Rust tokens ~160 MB.
pub const PARSE_MEMORY_BUDGET: usize = 256 << 20;
/// See [`PARSE_MEMORY_BUDGET`].
pub const PARSE_BYTES_PER_BYTE: usize = 64;
/// The most one file's parse may hold, whatever its size: a file past it (a well-formed one
/// of ~15 MB and more, which `--max-file-size` admits only when raised far above its 1 MiB
/// default) is stored without symbols or edges, counted as unanalysed, and still searched.
pub const PARSE_MEMORY_CAP: usize = 512 << 20;

/// Files at least this large are parsed and analysed one at a time in the process, each
/// holding [`LARGE_PARSES`] until its tree's memory is free again. A tree takes ~35 bytes a
/// byte (a 0.9 MB Rust file ~30 MB of arena), so two large files parsed at once were a first
/// index's highest moments while files were parsed. Files
/// this large are few (38 of the cargo registry copy's 19 000), so the other threads seldom
/// wait; smaller files never do.
pub const LARGE_PARSE_BYTES: usize = 256 << 10;
static LARGE_PARSES: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Why a file's parse was given up (the file is still stored and grep-able).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseGivenUp {
    /// Tree-sitter's memory passed the budget (in bytes).
    Memory(usize),
}

impl std::fmt::Display for ParseGivenUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseGivenUp::Memory(budget) => write!(
                f,
                "not analysed: tree-sitter's parse needed more than {} MiB (its error recovery \
                 on malformed or unusual input); the file is stored and grep-able, without \
                 symbols or edges",
                budget >> 20
            ),
        }
    }
}

/// Analyse a file. Languages without a grammar, and files whose parse is given up
/// ([`analyze_within_budget`]), yield an empty analysis.
pub fn analyze(lang: Lang, src: &str) -> FileAnalysis {
    analyze_within_budget(lang, src).unwrap_or_default()
}

/// The text tree-sitter parses for a file: its own, or for C and C++ a copy with annotation
/// macros blanked out (`analyze::macros`; same length and offsets).
pub fn parsed_text(lang: Lang, src: &str) -> std::borrow::Cow<'_, [u8]> {
    match macros::blanked(lang, src) {
        Some(b) => b.text.into(),
        None => src.as_bytes().into(),
    }
}

/// Free what the threads that parsed keep for the next file (each rayon worker's arena chunk,
/// up to 2 MiB): call once a repository's files are parsed. Waits for every worker to take it.
pub fn release_parse_memory() {
    rayon::broadcast(|_| arena::release());
}

/// Analyse a file, giving the parse up when tree-sitter's memory for it passes
/// [`PARSE_MEMORY_BUDGET`] (scaled by size, at most [`PARSE_MEMORY_CAP`]). Languages without a
/// grammar yield an empty analysis.
pub fn analyze_within_budget(lang: Lang, src: &str) -> Result<FileAnalysis, ParseGivenUp> {
    let budget = PARSE_MEMORY_BUDGET
        .max(src.len().saturating_mul(PARSE_BYTES_PER_BYTE))
        .min(PARSE_MEMORY_CAP);
    analyze_with_budget(lang, src, budget)
}

fn analyze_with_budget(lang: Lang, src: &str, budget: usize) -> Result<FileAnalysis, ParseGivenUp> {
    let Some(grammar) = lang.grammar_for(src.len()) else {
        return Ok(FileAnalysis::default());
    };
    let (names, classes) = kind_names(lang, &grammar);
    KIND_NAMES.with(|t| t.set(names));
    complexity::KIND_CLASSES.with(|t| t.set(classes));
    // Node ids are addresses, reused by the next tree: nothing of a previous tree is kept,
    // and nothing is kept once this one is gone.
    LAST_KIND.with(|last| last.set(((0, 0), "")));
    let _forget = Forget;
    // Held until the arena is free again (it drops after `_arena`).
    let _large = (src.len() >= LARGE_PARSE_BYTES)
        .then(|| LARGE_PARSES.lock().unwrap_or_else(|e| e.into_inner()));
    // Tree-sitter allocates the parser and the tree from this thread's arena, which is all
    // free again when `_arena` drops (after the parser: locals drop in reverse order).
    let _arena = arena::Scope::enter();
    let mut parser = Parser::new();
    if parser.set_language(&grammar).is_err() {
        return Ok(FileAnalysis::default());
    }
    // Tree-sitter asks every 100 of its operations whether to go on.
    let mut over = false;
    let mut check = |_: &tree_sitter::ParseState| match arena::scope_bytes() > budget {
        true => {
            over = true;
            std::ops::ControlFlow::Break(())
        }
        false => std::ops::ControlFlow::Continue(()),
    };
    // C and C++ annotation macros are blanked out of the parsed text (same offsets: the
    // walk reads names and signatures from `src`).
    let mut blanked = macros::blanked(lang, src);
    let bytes = blanked.as_ref().map_or(src.as_bytes(), |b| &b.text[..]);
    let mut parse = |bytes: &[u8]| {
        parser.parse_with_options(
            &mut |at, _| bytes.get(at..).unwrap_or_default(),
            None,
            Some(tree_sitter::ParseOptions::new().progress_callback(&mut check)),
        )
    };
    let mut parsed = parse(bytes);
    // Rust items inside item-level macro invocations: parsed again unwrapped.
    let rust_unwrapped = match &parsed {
        Some(tree) if lang == Lang::Rust => unwrap_rust_items(tree, src, &mut parse),
        _ => None,
    };
    if let Some((text, unwrapped)) = rust_unwrapped {
        // (The first tree's memory is the arena's, as the last one's.)
        std::mem::forget(parsed.replace(unwrapped));
        blanked = Some(macros::Blanked {
            text,
            ranges: Vec::new(),
        });
    }
    let Some(tree) = parsed else {
        return match over {
            true => Err(ParseGivenUp::Memory(budget)),
            false => Ok(FileAnalysis::default()),
        };
    };
    LAST_KIND.with(|last| last.set(((0, 0), "")));
    let root = tree.root_node();
    let mut w = Walker {
        lang,
        src,
        line_starts: line_starts(src),
        out: FileAnalysis {
            had_errors: root.has_error(),
            go_build: (lang == Lang::Go)
                .then(|| crate::gobuild::build_line(src))
                .flatten(),
            ..Default::default()
        },
        seen_qnames: Default::default(),
        seen_refs: Default::default(),
        complexity: Default::default(),
        at: (0, 0),
        types: Types::default(),
        values: Vec::new(),
        python_defs: None,
        blanked,
    };
    w.walk(root);
    w.settle_field_receivers();
    w.settle_values();
    // Analyses stay in memory until resolution: give back what growth over-allocated.
    w.out.symbols.shrink_to_fit();
    w.out.edges.shrink_to_fit();
    let out = w.out;
    // Not deleted node by node: its memory is the arena's.
    std::mem::forget(tree);
    Ok(out)
}

/// Rust: the text with the wrappers of item-level macro invocations whose bodies are items
/// blanked, and its tree ([`rust_macros`]); `None` when there are none (or a parse is given
/// up: the first tree stands).
fn unwrap_rust_items(
    first: &tree_sitter::Tree,
    src: &str,
    parse: &mut impl FnMut(&[u8]) -> Option<tree_sitter::Tree>,
) -> Option<(Vec<u8>, tree_sitter::Tree)> {
    let bytes = src.as_bytes();
    let mut unwrapped: Vec<rust_macros::Wrapper> = Vec::new();
    let mut last: Option<(Vec<u8>, tree_sitter::Tree)> = None;
    let mut within: Vec<(usize, usize)> = Vec::new();
    for _ in 0..rust_macros::MAX_DEPTH {
        let root = last
            .as_ref()
            .map_or(first.root_node(), |(_, t)| t.root_node());
        let found = rust_macros::wrappers(root, bytes, &within);
        if found.is_empty() {
            break;
        }
        let mut tried = unwrapped.clone();
        tried.extend(&found);
        let text = rust_macros::blank(bytes, &tried);
        let tree = parse(&text)?;
        let good: Vec<_> = found
            .iter()
            .copied()
            .filter(|w| rust_macros::parses_clean(tree.root_node(), w.body))
            .collect();
        within = good.iter().map(|w| w.body).collect();
        let (text, tree) = if good.len() == found.len() {
            (text, tree)
        } else if good.is_empty() {
            std::mem::forget(tree);
            break;
        } else {
            std::mem::forget(tree);
            let mut kept = unwrapped.clone();
            kept.extend(&good);
            let text = rust_macros::blank(bytes, &kept);
            let tree = parse(&text)?;
            (text, tree)
        };
        unwrapped.extend(good);
        if let Some((_, old)) = last.replace((text, tree)) {
            std::mem::forget(old);
        }
        LAST_KIND.with(|last| last.set(((0, 0), "")));
    }
    last
}

/// Stops `kind_of` keeping answers when `analyze` returns (or unwinds).
struct Forget;

impl Drop for Forget {
    fn drop(&mut self) {
        LAST_KIND.with(|last| last.set((NOT_KEPT, "")));
    }
}

/// Byte offsets where each line starts.
fn line_starts(src: &str) -> Vec<usize> {
    let mut v = vec![0];
    // memchr's vector search: `match_indices` goes through core's word-at-a-time `memchr`.
    v.extend(memchr::memchr_iter(b'\n', src.as_bytes()).map(|i| i + 1));
    v
}

/// `s` with each run of whitespace made one space and none at either end (borrowed when it
/// already is so).
fn collapse_whitespace(s: &str) -> std::borrow::Cow<'_, str> {
    collapse_whitespace_within(s, usize::MAX)
}

/// [`collapse_whitespace`], for a caller that keeps at most `max` bytes of the result or drops
/// a longer one: a result longer than `max` may end as soon as it is (a qualifier written over
/// many lines is read up to there, not whole). One pass to check, one to build.
fn collapse_whitespace_within(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    // Already collapsed: no whitespace but single spaces, none first or last.
    let mut after_space = true;
    let already = s.chars().all(|c| {
        if c == ' ' {
            !std::mem::replace(&mut after_space, true)
        } else if c.is_whitespace() {
            false
        } else {
            after_space = false;
            true
        }
    }) && !(after_space && !s.is_empty());
    if already {
        return s.into();
    }
    let mut out = String::with_capacity(s.len().min(max.saturating_add(1)));
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > max {
            break;
        }
    }
    out.into()
}

/// Every symbol kind analysis produces.
pub const KINDS: &[&str] = &[
    "function",
    "method",
    "constructor",
    "class",
    "struct",
    "interface",
    "trait",
    "enum",
    "variant",
    "module",
    "constant",
    "variable",
    "field",
    "property",
    "type_alias",
    "macro",
];

/// Calls `f` with a cursor on every node of `tree`, in document order (each node before its
/// children): for comparing trees node by node (the dense grammars' tests, `analyze_bench`'s
/// tree fingerprint).
pub fn each_node(tree: &tree_sitter::Tree, mut f: impl FnMut(&tree_sitter::TreeCursor<'_>)) {
    let mut cursor = tree.walk();
    'walk: loop {
        f(&cursor);
        if cursor.goto_first_child() || cursor.goto_next_sibling() {
            continue;
        }
        while cursor.goto_parent() {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
        }
        return;
    }
}

/// The kind among [`KINDS`] spelled `s`; `symbol` for any other.
pub fn static_kind(s: &str) -> &'static str {
    KINDS.iter().find(|k| **k == s).copied().unwrap_or("symbol")
}

/// A one-line summary: the doc comment's first sentence, else derived from the signature.
pub fn summarize(kind: &str, qualified_name: &str, doc: Option<&str>, signature: &str) -> String {
    let mut out = String::new();
    summarize_into(&mut out, kind, qualified_name, doc, signature);
    out
}

/// [`summarize`], appended to `out` (rows are built without a string per summary).
pub fn summarize_into(
    out: &mut String,
    kind: &str,
    qualified_name: &str,
    doc: Option<&str>,
    signature: &str,
) {
    let start = out.len();
    if let Some(doc) = doc {
        first_sentence(out, doc);
        if out.len() > start {
            return;
        }
    }
    out.push_str(kind);
    out.push(' ');
    out.push_str(qualified_name);
    out.push_str(": ");
    out.push_str(prefix_chars(signature, 160));
}

/// The first `n` characters of `s` (all of it if it has fewer), as one slice: pushing a
/// summary's characters one by one was ~a tenth of deriving it.
fn prefix_chars(s: &str, n: usize) -> &str {
    if s.len() <= n {
        return s;
    }
    &s[..s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)]
}

/// The first sentence of the first paragraph, whitespace collapsed, at most 200 characters.
fn first_sentence(out: &mut String, doc: &str) {
    let para = doc.split("\n\n").next().unwrap_or("");
    let mut words = para.split_whitespace().peekable();
    let mut chars = 0;
    while let Some(word) = words.next() {
        if chars > 0 {
            if chars == 200 {
                return;
            }
            out.push(' ');
            chars += 1;
        }
        let n = word.chars().count();
        if chars + n > 200 {
            out.push_str(prefix_chars(word, 200 - chars));
            return;
        }
        out.push_str(word);
        chars += n;
        // A sentence ends at a period followed by a space (that is, by another word).
        if word.ends_with('.') && words.peek().is_some() {
            return;
        }
    }
}

#[cfg(test)]
mod tests;
