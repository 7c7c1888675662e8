// FxHash: resolution hashes millions of short keys (names, paths); SipHash was a tenth of
// the phase. No output depends on map order.
use rustc_hash::FxHashMap as HashMap;

use crate::analyze::packed::Names;
use crate::analyze::returns::called;
use crate::analyze::{EdgeKind, FileAnalysis, RawEdge, Symbol, TYPE_KINDS};
use crate::builtins;
use crate::gobuild;
use crate::lang::Lang;

mod c_cpp;
mod cands;
mod edges;
mod go;
mod imports;
mod index;
mod members;
mod php;
mod pick;
mod python;
mod ruby;
mod rust;

use self::{c_cpp::*, cands::*, go::*, imports::*, index::*, pick::*, python::*, ruby::*, rust::*};

/// One analysed file, as input to resolution: its names (the whole analysis is only needed
/// for the file's own rows, and is passed in then).
pub struct FileInput<'a> {
    pub path: &'a str,
    /// The `language` column's value.
    pub language: &'a str,
    /// The same, as the rules compare it ([`Lang::from_name`]).
    pub lang: Lang,
    pub names: &'a Names,
}

/// A symbol ready to be stored.
pub struct SymbolRow<'a> {
    pub identifier: Ident<'a>,
    /// Position among all the repository's symbols (see [`Resolver::symbol_count`]).
    pub number: usize,
    pub path: &'a str,
    pub language: &'a str,
    pub parent: Option<Ident<'a>>,
    pub symbol: &'a Symbol,
}

/// A file's or a symbol's identifier (docs/tables.md) by its parts: a row's identifiers are
/// written straight into the Arrow column ([`Ident::parts`]), never built as a `String` of
/// their own (two per edge and up to two per symbol, ~7.6 M on the cargo registry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ident<'a> {
    /// A file, by path.
    File(&'a str),
    /// A symbol, by its file's path and its qualified name.
    Symbol(&'a str, &'a str),
}

impl<'a> Ident<'a> {
    /// The pieces whose concatenation is the identifier — `prefix::path` for a file,
    /// `prefix::path::qualified.name` for a symbol — and how many of the five are used.
    pub fn parts(&self, prefix: &'a str) -> ([&'a str; 5], usize) {
        match *self {
            Ident::File(path) => ([prefix, "::", path, "", ""], 3),
            Ident::Symbol(path, qname) => ([prefix, "::", path, "::", qname], 5),
        }
    }
}

/// An edge ready to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeRow<'a> {
    pub kind: EdgeKind,
    pub source: Ident<'a>,
    /// The source symbol's number, when the source is a symbol (not the file).
    pub source_number: Option<usize>,
    pub source_qname: Option<&'a str>,
    pub source_path: &'a str,
    pub line: u32,
    pub character: u32,
    pub target_name: &'a str,
    pub target_qualifier: Option<&'a str>,
    pub receiver_type: Option<&'a str>,
    /// What an import binds its target to when it renames it ([`RawEdge::alias`]).
    pub alias: Option<&'a str>,
    pub target: Option<Ident<'a>>,
    /// The target symbol's number, when the target is a symbol (not a file, not unresolved).
    pub target_number: Option<usize>,
    pub resolution: &'static str,
    /// The target is one of several overloads, which the call's name alone does not tell
    /// apart: a guess, however its type was found.
    pub overload_guess: bool,
}

impl EdgeRow<'_> {
    /// How sure the edge's target is ([`Confidence::of`]); `None` when unresolved.
    pub fn confidence(&self) -> Option<Confidence> {
        let sure = Confidence::of(self.resolution, self.target_qualifier.is_some())?;
        Some(match self.overload_guess {
            true => Confidence::Guess,
            false => sure,
        })
    }
}

/// How sure a resolved edge's target is (docs/resolution.md): the `edges` table's
/// `confidence`, the relationship tools' filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// A name-only pick among the definitions of that name.
    Guess,
    /// A declared or inferred type decides it.
    Likely,
    /// The language's scope and import rules decide it.
    Exact,
}

impl Confidence {
    pub const ALL: [Confidence; 3] = [Confidence::Exact, Confidence::Likely, Confidence::Guess];

    /// The confidence of a `resolution`, for an edge whose name was written with a qualifier
    /// (`x.f()`, `a::f`) or not. A namesake found in the caller's file or package is the
    /// language's scope for a name written alone, and a guess for a member of a receiver
    /// whose type is unknown.
    pub fn of(resolution: &str, qualified: bool) -> Option<Confidence> {
        Some(match resolution {
            "same_file" | "same_package" if qualified => Confidence::Guess,
            "same_class" | "inherited" | "qualified" | "same_file" | "same_package" | "import"
            | "relative_path" => Confidence::Exact,
            "declared_type" | "return_type" => Confidence::Likely,
            "unique_name" | "ambiguous" => Confidence::Guess,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Exact => "exact",
            Confidence::Likely => "likely",
            Confidence::Guess => "guess",
        }
    }

    pub fn from_name(name: &str) -> Option<Confidence> {
        Confidence::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

/// The identifier of a file (docs/tables.md).
pub fn file_identifier(prefix: &str, path: &str) -> String {
    let (parts, n) = Ident::File(path).parts(prefix);
    parts[..n].concat()
}

const CALLABLE: &[&str] = &[
    "function",
    "method",
    "constructor",
    "class",
    "struct",
    "macro",
    // Ruby's `attr_reader :name` defines method `name`.
    "property",
];
const REFERABLE: &[&str] = &[
    "class",
    "struct",
    "interface",
    "trait",
    "enum",
    "type_alias",
    "field",
    "property",
    "constant",
    "variable",
    "variant",
];
const IMPORTABLE: &[&str] = &[
    "function",
    "class",
    "struct",
    "interface",
    "trait",
    "enum",
    "type_alias",
    "constant",
    "variable",
    "module",
    "macro",
];
/// Resolution over one repository: the candidate index is built once, then rows are produced
/// per file, so a caller can stream them (the index is the only repository-wide structure).
/// Rows carry identifiers by their parts ([`Ident`]); the writer adds the repository's prefix.
pub struct Resolver<'a> {
    index: Index<'a>,
    /// Number of the first symbol of each file, and the total at the end.
    first_symbol: Vec<usize>,
    /// Symbols (by number) whose parent is not a symbol of their own file — a Rust `impl`
    /// of a type defined elsewhere, a C++ out-of-line `Type::method`, a Go method in another
    /// file than its receiver's type — and that type's definition, if the repository has
    /// one. Resolved up front: symbol rows are written after the candidates are released.
    foreign_parents: HashMap<usize, Option<Cand>>,
}

impl<'a> Resolver<'a> {
    pub fn new(files: &'a [FileInput<'a>]) -> Self {
        let mut first_symbol = Vec::with_capacity(files.len() + 1);
        let mut n = 0;
        for f in files {
            first_symbol.push(n);
            n += f.names.symbol_count();
        }
        first_symbol.push(n);
        let index = Index::new(files);
        let foreign_parents = index.foreign_parents(&first_symbol);
        Resolver {
            index,
            first_symbol,
            foreign_parents,
        }
    }

    /// Free the candidate index once every edge is resolved (symbol rows do not need it): on
    /// the registry it is hundreds of megabytes, held otherwise while `symbols` is written.
    pub fn release_candidates(&mut self) {
        self.index.cands = CandTable::default();
        self.index.cand_list = Vec::new();
        self.index.cand_members = Vec::new();
        self.index.cand_maps = HashMap::default();
        self.index.dir_ranges = HashMap::default();
        self.index.go_packages = HashMap::default();
        self.index.java_packages = HashMap::default();
        self.index.rust_crates = RustCrates::default();
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.index.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.files.is_empty()
    }

    /// Number of symbols; rows number them `0..symbol_count()` in file order.
    pub fn symbol_count(&self) -> usize {
        self.first_symbol.last().copied().unwrap_or(0)
    }

    /// The numbers of file `fi`'s symbols (its rows' [`SymbolRow::number`]s, in order).
    pub fn symbol_range(&self, fi: usize) -> std::ops::Range<usize> {
        self.first_symbol[fi]..self.first_symbol[fi + 1]
    }

    fn number(&self, c: Cand) -> usize {
        self.first_symbol[c.0 as usize] + c.1 as usize
    }

    /// The symbol rows of file `fi`, whose analysis is `analysis`.
    pub fn symbols<'b>(&'b self, fi: usize, analysis: &'b FileAnalysis) -> Vec<SymbolRow<'b>> {
        let f = &self.index.files[fi];
        let first = self.first_symbol[fi];
        analysis
            .symbols
            .iter()
            .enumerate()
            .map(|(si, s)| SymbolRow {
                identifier: Ident::Symbol(f.path, &s.qualified_name),
                number: first + si,
                path: f.path,
                language: f.language,
                parent: match self.foreign_parents.get(&(first + si)) {
                    Some(found) => found
                        .map(|c| Ident::Symbol(self.index.path(c), self.index.qualified_name(c))),
                    None => s.parent().map(|p| Ident::Symbol(f.path, p)),
                },
                symbol: s,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
