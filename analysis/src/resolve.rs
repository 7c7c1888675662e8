//! Repository-wide edge resolution: turn each raw edge's target *name* into a symbol (or file)
//! identifier with scope and import heuristics, recording how it was resolved:
//!
//! | resolution      | meaning                                                            |
//! |-----------------|--------------------------------------------------------------------|
//! | `same_class`    | `self.f()` / `this.f()`: a member of the caller's own type         |
//! | `inherited`     | `self.f()` / `super().f()`: a member of a base of the caller's type |
//! | `qualified`     | `Type::f()` / `Type.f()`: a member of the named type               |
//! | `declared_type` | `x.f()` where `x` is declared of a type: a member of it or its bases |
//! | `same_file`     | a definition of that name in the same file                         |
//! | `import`        | a definition the file imports (by name or module path); for a      |
//! |                 | Python import, also the module's file; in C and C++, a definition  |
//! |                 | in a header the file includes, directly or not, and an `#include`  |
//! |                 | found under an include directory                                   |
//! | `relative_path` | an import of a relative path that names a file of the repository   |
//! | `unique_name`   | the only definition of that name in the repository                 |
//! | `ambiguous`     | several candidates; the nearest by directory was chosen            |
//! | `unresolved`    | no definition in the repository (external or dynamic: also a call  |
//! |                 | on a literal, a global, or a standard type's method, [`builtins`]); |
//! |                 | target null                                                        |
//!
//! Resolution is recomputed for every edge on every index run (it is cheap); only parsing is
//! incremental.

// FxHash: resolution hashes millions of short keys (names, paths); SipHash was a tenth of
// the phase. No output depends on map order.
use rustc_hash::FxHashMap as HashMap;

use crate::analyze::packed::Names;
use crate::analyze::returns::called;
use crate::analyze::{EdgeKind, FileAnalysis, RawEdge, Symbol, TYPE_KINDS};
use crate::builtins;
use crate::gobuild;

/// One analysed file, as input to resolution: its names (the whole analysis is only needed
/// for the file's own rows, and is passed in then).
pub struct FileInput<'a> {
    pub path: &'a str,
    pub language: &'a str,
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

/// A file's or a symbol's identifier (SPEC 2.2) by its parts: a row's identifiers are
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
}

/// The identifier of a file (SPEC 2.2).
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
/// Functions and tuple variants Rust's prelude puts in scope (`size_of` and the others since
/// Rust 1.80), called bare.
const RUST_PRELUDE_CALLS: &[&str] = &[
    "Ok",
    "Err",
    "Some",
    "drop",
    "size_of",
    "size_of_val",
    "align_of",
    "align_of_val",
];
/// Types and traits Rust's prelude puts in scope, named bare.
const RUST_PRELUDE_TYPES: &[&str] = &[
    "Option",
    "Result",
    "Vec",
    "String",
    "Box",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "Default",
    "Drop",
    "Clone",
    "Copy",
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Extend",
    "FromIterator",
    "Fn",
    "FnMut",
    "FnOnce",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "AsRef",
    "AsMut",
    "ToString",
    "ToOwned",
];
/// Whether a Rust path starts in the standard library's crates (`std::…`, `::core::…`).
fn is_rust_std_path(path: &str) -> bool {
    matches!(rust_path_head(path), "std" | "core" | "alloc")
}

/// A Rust path's first segment (`std` in `::std::sync::Arc`): what follows any leading `::`s,
/// up to the next `::`. (Scanned by bytes: `split("::")` builds a substring searcher per call,
/// and resolution asks this for nearly every Rust edge with a qualifier.)
fn rust_path_head(path: &str) -> &str {
    let mut p = path;
    while let Some(rest) = p.strip_prefix("::") {
        p = rest;
    }
    let end = p.as_bytes().windows(2).position(|w| w == b"::");
    &p[..end.unwrap_or(p.len())]
}

const SELF_WORDS: &[&str] = &["self", "this", "Self", "cls", "@", "$this"];

/// Whether `q` is a path of constants (`Worker`, `Gem::Specification`): Ruby's classes and
/// modules, as a call's receiver.
fn is_constant_path(q: &str) -> bool {
    !q.is_empty()
        && q.split("::").all(|c| {
            c.starts_with(|ch: char| ch.is_ascii_uppercase())
                && c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        })
}

/// Whether qualified name `inner` is nested in `outer` (`Outer.Inner.run` in `Outer`).
fn nested_in(inner: &str, outer: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'.'
}

/// Does qualifier `q` of a call name the caller's base type in `language` (`super().f()` and
/// Python 2's `super(Cls, self).f()`, `super.f()`, C#'s `base.F()`, PHP's `parent::f()`)?
/// By language: elsewhere `base` and `parent` are ordinary names (a module, a variable).
fn is_super(language: &str, q: &str) -> bool {
    match language {
        "python" => q == "super()" || q.starts_with("super("),
        "csharp" => q == "base",
        "php" => q == "parent",
        _ => q == "super",
    }
}

/// Languages where an unqualified call in a method may call a member of the instance
/// (`size()` for `this.size()`). Not Python, JavaScript, PHP (they need `self`/`this`), Rust
/// (`self.`), Go (the receiver's name) or C (no methods).
fn implicit_this(language: &str) -> bool {
    matches!(language, "java" | "csharp" | "cpp" | "ruby")
}

/// Whether a bare call (no qualifier) in `language` takes a method only of a type enclosing
/// the caller, or through an import: in Java, C# and C++ the instance's own methods and its
/// bases' are tried before [`Index::pick`] ([`Index::implicit_receiver`]); what is left is a
/// free function (C++), a static import's member, or an outer class's member — not an
/// unrelated class's method of that name. Not Ruby, whose bare calls reach mixed-in and
/// top-level methods.
fn enclosing_only(kind: EdgeKind, language: &str, qualifier: Option<&str>) -> bool {
    kind == EdgeKind::Calls && qualifier.is_none() && matches!(language, "java" | "csharp" | "cpp")
}

/// Whether receiver type `t` is a field read a local was bound to (`v.Args[0]`,
/// `self.title`), not a type ([`crate::analyze::returns::plainly_a_field`]).
fn reads_a_field(t: &str) -> bool {
    use crate::analyze::returns::{field_read, plainly_a_field};
    field_read(t).is_some_and(|r| plainly_a_field(&r))
}

/// What an edge's receiver is made from, which resolution needs first: another call
/// (`a.b().c()`: [`crate::analyze::returns::Chained`]) or a field read (`v.Args[0].Reg()`:
/// [`crate::analyze::returns::FieldRead`], `indexed` when an element of the field is).
enum Link<'q> {
    Call(crate::analyze::returns::Chained<'q>),
    Field { indexed: bool },
}

/// The name a Go method binds its receiver to, read from its signature: `s` in
/// `func (s *Server) Handle()`; none for `func (*Server) Handle()` or `func (_ Server) …`.
fn go_receiver(signature: &str) -> Option<&str> {
    let rest = signature
        .strip_prefix("func")?
        .trim_start()
        .strip_prefix('(')?
        .trim_start();
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let name = &rest[..end];
    (end > 0 && rest[end..].starts_with(' ') && name != "_").then_some(name)
}

/// How many levels of base types a `self.f()` call looks up through, and how many base
/// types at most.
const MAX_BASE_DEPTH: usize = 8;
const MAX_BASES: usize = 64;
/// How many files with clauses for types of one name a call looks through for its own
/// type's clauses ([`Index::own_clause_files`]).
const MAX_CLAUSE_FILES: usize = 32;

/// A definition: (file index, symbol index in the file).
type Cand = (u32, u32);

/// [`Index::pick`]'s answers within one file, keyed by all it reads of an edge there: (kind,
/// name, qualifier, the caller's type when there is a qualifier — or the caller itself for a
/// bare call in Java, C# or C++, [`enclosing_only`]).
type PickMemo<'b> =
    HashMap<(EdgeKind, &'b str, Option<&'b str>, Option<&'b str>), Option<(Cand, &'static str)>>;

/// Candidate definitions of one name, for one kind class and language family, answering the
/// lookups resolution makes. Most names have a handful of definitions: those are scanned
/// (a slice of pairs, 8 bytes each). Names with many (`new`, `fmt`: thousands on the
/// registry) are searched instead: their candidates are in file order, so a file's are found
/// by binary search, and a directory's too (a directory's files are one range of file
/// numbers, [`Index::dir_ranges`]); only `Type` in `Type::f` needs a map.
/// Keys borrow from the files' [`Names`] (a `String` per key was ~10 M allocations on the
/// registry).
#[derive(Clone, Copy)]
struct Cands<'x, 'a> {
    /// In file order (then symbol order within a file).
    all: &'x [Cand],
    /// Whether each of `all` is a member of some type (has a parent): scans for members
    /// read these bytes in order instead of each candidate's symbol in its file's names.
    members: &'x [bool],
    /// Built when there are more than [`SCAN_MAX`] candidates.
    maps: Option<&'x CandMaps<'a>>,
}

/// Up to this many candidates are scanned instead of searched (a map costs hundreds of bytes
/// per name, for names with one or two definitions).
const SCAN_MAX: usize = 16;

thread_local! {
    /// The index and file [`Resolver::edges`] is resolving, and the hashes
    /// ([`segment_hash`]) of the type names that file names: its imports, the types it
    /// references, inherits or implements, the paths it calls through (`Foo` in `Foo::new()`),
    /// its receivers' declared types and its own types ([`Index::file_names_type`]).
    static NAMED_TYPES: std::cell::RefCell<(u64, u32, rustc_hash::FxHashSet<u64>)> =
        std::cell::RefCell::new((u64::MAX, 0, rustc_hash::FxHashSet::default()));
    /// What each of those names resolves to from that file, once asked
    /// ([`Index::names_parent_of`]), by the name's hash.
    static NAMED_TYPE_PICKS: std::cell::RefCell<HashMap<u64, Option<Cand>>> =
        std::cell::RefCell::new(HashMap::default());
    /// Set while [`Index::names_parent_of`] resolves a type name, whose own lookup must not
    /// ask it again (a class nested in a class of its own name).
    static IN_NAMED_CHECK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The most files a C or C++ file's include closure holds ([`Index::with_include_closure`]).
const MAX_INCLUDE_CLOSURE: usize = 4096;

/// In [`Index::includes`]: an `#include` of a header the repository lacks (not a standard one).
const NO_FILE: u32 = u32::MAX;

/// What a name with many candidates keeps beside them. No maps by file, by (file, parent) or
/// by directory: on the cargo registry they were 1.85 M entries, about half of the resolver's
/// memory, and binary searches over the candidates answer the same.
#[derive(Default)]
struct CandMaps<'a> {
    /// First candidate whose parent's last segment is this name (`Type` in `Type::f`).
    by_parent_last: HashMap<&'a str, Cand>,
}

/// Is `dir` (as [`ancestors`] yields it) an ancestor directory of `path`?
fn is_under(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || (path.len() > dir.len() && path.starts_with(dir) && path.as_bytes()[dir.len()] == b'/')
}

impl CandMaps<'_> {
    /// The maps of a name with many candidates (`all`, in path order).
    fn new<'a>(all: &[Cand], files: &'a [FileInput<'a>]) -> CandMaps<'a> {
        let mut m = CandMaps::default();
        for &id in all {
            if let Some(p) = files[id.0 as usize].names.parent(id.1 as usize) {
                m.by_parent_last.entry(last_segment(p)).or_insert(id);
            }
        }
        m
    }
}

impl<'a> Cands<'_, 'a> {
    fn first(&self, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        self.all.iter().copied().find(|&c| keep(c))
    }

    /// The candidates from file `fi` on (binary search: `all` is in file order).
    fn from_file(&self, fi: u32) -> &[Cand] {
        &self.all[self.all.partition_point(|c| c.0 < fi)..]
    }

    fn in_file(&self, fi: u32) -> Option<Cand> {
        match &self.maps {
            Some(_) => self.from_file(fi).first().copied().filter(|c| c.0 == fi),
            None => self.first(|c| c.0 == fi),
        }
    }

    fn in_file_where(&self, fi: u32, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        match &self.maps {
            Some(_) => self
                .from_file(fi)
                .iter()
                .take_while(|c| c.0 == fi)
                .copied()
                .find(|&c| keep(c)),
            None => self.first(|c| c.0 == fi && keep(c)),
        }
    }

    fn in_file_with_parent(&self, ix: &Index<'a>, fi: u32, parent: &str) -> Option<Cand> {
        match &self.maps {
            Some(_) => self
                .from_file(fi)
                .iter()
                .take_while(|c| c.0 == fi)
                .copied()
                .find(|&c| ix.parent(c) == Some(parent)),
            None => self.first(|c| c.0 == fi && ix.parent(c) == Some(parent)),
        }
    }

    /// The first candidate (within [`SCAN_LIMIT`]) that is a member of some type.
    fn member_where(&self, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        self.all
            .iter()
            .zip(self.members)
            .take(SCAN_LIMIT)
            .find(|&(&c, &member)| member && keep(c))
            .map(|(&c, _)| c)
    }

    fn with_parent_last(&self, ix: &Index<'a>, last: &str) -> Option<Cand> {
        match &self.maps {
            Some(m) => m.by_parent_last.get(last).copied(),
            None => self.member_where(|c| ix.parent(c).map(last_segment) == Some(last)),
        }
    }

    /// A member of a type named like `ty`'s last segment: the nearest by directory (a Go
    /// package's methods are spread over its files; another package may have a type of the
    /// same name); for names with many candidates the first, else one under `path`'s
    /// directory (`Decoder.Decode` beside its type, where the first `Decode` of a `Decoder`
    /// is another package's). Only candidates `keep` accepts count.
    fn nearest_with_parent_last(
        &self,
        ix: &Index<'a>,
        path: &str,
        ty: &str,
        keep: impl Fn(Cand) -> bool,
    ) -> Option<Cand> {
        let last = last_segment(ty);
        match self.maps {
            Some(_) => self
                .with_parent_last(ix, last)
                .filter(|&c| keep(c))
                .or_else(|| {
                    self.directly_in(ix, dir_of(path), |c| {
                        ix.parent(c).map(last_segment) == Some(last) && keep(c)
                    })
                }),
            None => self.nearest_where(ix, path, |c| {
                ix.parent(c).map(last_segment) == Some(last) && keep(c)
            }),
        }
    }

    /// The candidate nearest `path` by directory among those `keep` accepts (the first
    /// [`SCAN_LIMIT`] are looked at): in the deepest shared directory, directly in it before
    /// below it.
    fn nearest_where(
        &self,
        ix: &Index<'a>,
        path: &str,
        keep: impl Fn(Cand) -> bool,
    ) -> Option<Cand> {
        // One pass, each candidate ranked by [`nearness`]: the first of the best rank is what
        // asking each ancestor in turn (directly in it, then under it) finds. That took two
        // scans per ancestor, each splitting every candidate's path (on the cargo registry its
        // `memrchr` alone was 1.2 % of a first index).
        let dir = dir_of(path);
        let mut best: Option<((usize, bool), Cand)> = None;
        for c in self.all.iter().take(SCAN_LIMIT).copied() {
            let rank = nearness(dir, ix.path(c));
            if best.is_some_and(|(b, _)| b >= rank) || !keep(c) {
                continue;
            }
            best = Some((rank, c));
            if rank == (dir.len(), true) {
                break;
            }
        }
        best.map(|(_, c)| c)
    }

    /// The candidates in files under directory `dir`, through its range of files
    /// ([`Index::dir_ranges`]); all of them when it has none.
    fn under(&self, ix: &Index<'a>, dir: &str) -> &[Cand] {
        match ix.dir_ranges.get(dir) {
            Some(&(lo, hi)) => {
                let from = self.from_file(lo);
                &from[..from.partition_point(|c| c.0 <= hi)]
            }
            None => self.all,
        }
    }

    /// A candidate directly in directory `dir` (of the first [`SCAN_LIMIT`] under it), found
    /// through the directory's range of files ([`Index::dir_ranges`]); `None` without one.
    fn directly_in(&self, ix: &Index<'a>, dir: &str, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        ix.dir_ranges.get(dir)?;
        self.under(ix, dir)
            .iter()
            .copied()
            .take(SCAN_LIMIT)
            .find(|&c| ix.dir_lens[c.0 as usize] as usize == dir.len() && keep(c))
    }

    /// A candidate under directory `dir`: one directly in it before one in a subdirectory
    /// (`go/server.go` is nearer `go/handlers.go` than `go/admin/admin.go` is).
    fn under_dir(&self, ix: &Index<'a>, dir: &str, keep: impl Fn(Cand) -> bool) -> Option<Cand> {
        let directly_in = |c: &Cand| dir_of(ix.path(*c)) == dir && keep(*c);
        match (&self.maps, ix.dir_ranges.get(dir)) {
            (Some(_), Some(&(lo, hi))) => {
                let from = self.from_file(lo);
                let under = &from[..from.partition_point(|c| c.0 <= hi)];
                // Every file of the range is under `dir`: one directly in it is one whose
                // directory is as long (comparing lengths rather than splitting each path was
                // ~12 % of writing `edges` on the cargo registry).
                let direct = under
                    .iter()
                    .take(SCAN_LIMIT)
                    .copied()
                    .find(|&c| ix.dir_lens[c.0 as usize] as usize == dir.len() && keep(c));
                direct.or_else(|| under.iter().copied().find(|&c| keep(c)))
            }
            _ => self
                .first(|c| directly_in(&c))
                .or_else(|| self.first(|c| is_under(ix.path(c), dir) && keep(c))),
        }
    }
}

/// Kind classes: which definitions an edge kind may point at.
const CLASSES: [&[&str]; 4] = [CALLABLE, TYPE_KINDS, REFERABLE, IMPORTABLE];

fn class_of(kind: EdgeKind) -> usize {
    match kind {
        EdgeKind::Calls => 0,
        EdgeKind::Inherits | EdgeKind::Implements => 1,
        EdgeKind::References => 2,
        EdgeKind::Imports => 3,
    }
}

/// A candidate key: (kind class, language family number, name).
type CandKey<'a> = (u8, u8, &'a str);

/// The key a candidate of `class` is found under: its file's family and its name.
fn key_of<'a>(
    files: &'a [FileInput<'a>],
    file_family: &[u8],
    class: u8,
    (fi, si): Cand,
) -> CandKey<'a> {
    let names = files[fi as usize].names;
    (class, file_family[fi as usize], names.name(si as usize))
}

fn key_hash((class, family, name): CandKey<'_>) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    (class, family, name).hash(&mut h);
    h.finish()
}

/// Each candidate key's candidates: a range of `cand_list`. The table holds only a key's
/// number and class; its family and name are its first candidate's, so no key is stored (a
/// map of `(class, family, &str)` keys was 17 MB of the registry copy's 31 MB index,
/// docs/benchmarks.md).
#[derive(Default)]
struct CandTable {
    /// (key number, class).
    table: hashbrown::HashTable<(u32, u8)>,
    /// Per key number: (start, count) in `cand_list`.
    ranges: Vec<(u32, u32)>,
}

impl CandTable {
    /// Keys and ranges for every `(key, candidate)` that `each` gives, in its order (which is
    /// each key's candidates' order); `key_of` tells a candidate's key from its class.
    fn new<'a>(
        each: impl Fn(&mut dyn FnMut(CandKey<'a>, Cand)),
        key_of: impl Fn(u8, Cand) -> CandKey<'a>,
    ) -> (CandTable, Vec<Cand>) {
        let mut table: hashbrown::HashTable<(u32, u8)> = hashbrown::HashTable::new();
        // Per key number: its first candidate and its count; per candidate, its key number.
        let (mut first, mut counts, mut numbers) =
            (Vec::<Cand>::new(), Vec::<u32>::new(), Vec::new());
        each(&mut |key, cand| {
            let hash = key_hash(key);
            let found = table.find(hash, |&(k, class)| key_of(class, first[k as usize]) == key);
            let k = match found {
                Some(&(k, _)) => k,
                None => {
                    let k = first.len() as u32;
                    first.push(cand);
                    counts.push(0);
                    table.insert_unique(hash, (k, key.0), |&(k, class)| {
                        key_hash(key_of(class, first[k as usize]))
                    });
                    k
                }
            };
            counts[k as usize] += 1;
            numbers.push(k);
        });
        drop(first);
        let mut ranges = Vec::with_capacity(counts.len());
        let mut total = 0u32;
        for n in counts {
            ranges.push((total, 0));
            total += n;
        }
        let mut list = vec![(0u32, 0u32); total as usize];
        let mut next = numbers.iter();
        each(&mut |_, cand| {
            if let Some(&k) = next.next() {
                let (start, count) = &mut ranges[k as usize];
                list[(*start + *count) as usize] = cand;
                *count += 1;
            }
        });
        (CandTable { table, ranges }, list)
    }

    /// The range of `key`'s candidates in `list` (as [`Self::new`] made it).
    fn get<'a>(
        &self,
        key: CandKey<'a>,
        list: &[Cand],
        key_of: impl Fn(u8, Cand) -> CandKey<'a>,
    ) -> Option<(u32, u32)> {
        let first = |k: u32| list[self.ranges[k as usize].0 as usize];
        let found = self
            .table
            .find(key_hash(key), |&(k, class)| key_of(class, first(k)) == key)?;
        Some(self.ranges[found.0 as usize])
    }
}

struct Index<'a> {
    files: &'a [FileInput<'a>],
    /// Language families, numbered for [`CandKey`].
    families: Vec<&'a str>,
    /// Each file's language family number.
    file_family: Vec<u8>,
    /// Each key's candidates: a range of `cand_list`. One flat list instead of a vector per
    /// name: on the registry this index went from ~180 MB to under half that.
    cands: CandTable,
    cand_list: Vec<Cand>,
    /// Whether each of `cand_list` has a parent ([`Cands::members`]).
    cand_members: Vec<bool>,
    /// The maps of keys with more than [`SCAN_MAX`] candidates, by their start.
    cand_maps: HashMap<u32, CandMaps<'a>>,
    by_path: HashMap<&'a str, usize>,
    /// Each file's directory's length in bytes (of [`dir_of`] its path).
    dir_lens: Vec<u32>,
    /// The [`segment_hash`]es of each file's path segments and its stem: file `i`'s are
    /// `segment_hashes[segment_starts[i]..segment_starts[i + 1]]`.
    segment_hashes: Vec<u64>,
    segment_starts: Vec<u32>,
    /// Each directory whose files are consecutive in `files` (all of them in a listing,
    /// which is depth first or sorted by path): the first and last file number under it.
    dir_ranges: HashMap<&'a str, (u32, u32)>,
    /// The files with an inheritance or implementation clause for a type of this name (its
    /// last segment), in file order: where a type's clauses are when they are not in the
    /// file of the method calling through them.
    clause_files: HashMap<&'a str, Vec<u32>>,
    /// The files with a clause naming a base type of this name (its last segment), in file
    /// order: where a mixin's subclasses are.
    base_files: HashMap<&'a str, Vec<u32>>,
    /// C and C++: the files each file's `#include`s name ([`Index::include_file`]), file `i`'s
    /// being `includes[include_starts[i]..include_starts[i + 1]]`; both empty when the
    /// repository has no C or C++.
    include_starts: Vec<u32>,
    includes: Vec<u32>,
    /// C and C++: whether each file is included by another (a header, or a `.c` file a
    /// unity build includes): it sees what its includer included before it.
    included: Vec<bool>,
    /// C and C++: every file by its name (its path's last component), for `#include` paths
    /// found under an include directory. Empty when the repository has no C or C++.
    by_file_name: HashMap<&'a str, Vec<u32>>,
    /// Go: each directory with Go files (a package), by its last name, with the file that
    /// stands for the package as an import's target ([`Index::go_package`]). Empty when the
    /// repository has no Go.
    go_packages: HashMap<&'a str, Vec<(&'a str, u32)>>,
    /// Java: the same of each directory with Java files, the target of an on-demand import
    /// (`import a.b.*;`). Empty when the repository has no Java.
    java_packages: HashMap<&'a str, Vec<(&'a str, u32)>>,
    /// Go: each file's build constraint, parsed ([`gobuild::Constraint`]), and whether a
    /// default build for some platform satisfies it; empty when the repository has no Go
    /// file that states one.
    go_builds: Vec<Option<(gobuild::Constraint, bool)>>,
    /// The hashes ([`segment_hash`]) of the repository's directories' names, when it has
    /// JavaScript or TypeScript: whether a package imported by name may be here
    /// ([`Index::outside_module_call`]).
    dir_names: rustc_hash::FxHashSet<u64>,
    /// Rust: the crates ([`RustCrates`]), when the repository has Rust and `Cargo.toml`s.
    rust_crates: RustCrates,
    /// Distinct for every index the process builds: the key of the per-thread caches
    /// ([`Index::with_include_closure`], [`Index::file_names_type`]).
    id: u64,
}

/// Languages whose definitions can refer to each other.
fn family(language: &str) -> &str {
    match language {
        "c" | "cpp" => "c",
        "javascript" | "typescript" | "tsx" => "js",
        other => other,
    }
}

fn last_segment(qname: &str) -> &str {
    qname.rsplit('.').next().unwrap_or(qname)
}

fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// The packages of `language`, Go's or Java's: each directory with files of the language by
/// its last name (the root's is ``), with the file that stands for it — not a test: Go's
/// `doc.go`, else the one named like the directory; Java's `package-info.java`; else the
/// first.
fn packages<'a>(files: &[FileInput<'a>], language: &str) -> HashMap<&'a str, Vec<(&'a str, u32)>> {
    let mut best: HashMap<&'a str, (u8, u32)> = HashMap::default();
    for (fi, f) in files.iter().enumerate() {
        if f.language != language {
            continue;
        }
        let (dir, name) = match f.path.rsplit_once('/') {
            Some((d, n)) => (d, n),
            None => ("", f.path),
        };
        let last = dir.rsplit('/').next().unwrap_or(dir);
        let rank = if name.ends_with("_test.go") {
            3
        } else if matches!(name, "doc.go" | "package-info.java") {
            0
        } else if name.strip_suffix(".go") == Some(last) {
            1
        } else {
            2
        };
        let e = best.entry(dir).or_insert((rank, fi as u32));
        if rank < e.0 {
            *e = (rank, fi as u32);
        }
    }
    let mut out: HashMap<&'a str, Vec<(&'a str, u32)>> = HashMap::default();
    for (dir, (_, fi)) in best {
        out.entry(dir.rsplit('/').next().unwrap_or(dir))
            .or_default()
            .push((dir, fi));
    }
    for dirs in out.values_mut() {
        dirs.sort_unstable();
    }
    out
}

/// Whether a symbol of `kind` in a file of `language` is a Go defined type that is neither a
/// struct nor an interface (`type Map map[string]any`, stored as a `type_alias`): a type
/// for resolution, with methods, embedders and conversions (`Map(m)`).
fn go_defined_type(kind: &str, language: &str) -> bool {
    kind == "type_alias" && language == "go"
}

/// The last name of qualifier `q` (`Map` of `java.util.Map`, `Config` of `crate::Config`),
/// without a turbofish's arguments: `GenericListArray::<O>::try_new` is `GenericListArray`'s.
fn qualifier_last(q: &str) -> &str {
    let last = q
        .rsplit(['.', ':', '/', '\\'])
        .find(|s| !s.is_empty() && !s.starts_with('<'))
        .unwrap_or(q);
    last.split('<').next().unwrap_or(last)
}

/// Whether Go type `ty` (as a field declares it) is a function type: `func(int) error`.
fn go_func_type(ty: &str) -> bool {
    ty.strip_prefix("func")
        .is_some_and(|rest| rest.trim_start().starts_with('('))
}

/// What Go function type `ty` returns, as a function declared with it would
/// (`func(string) (*Conn, error)` returns `*Conn`), when resolution can use it.
fn go_func_result(ty: &str) -> Option<String> {
    let signature = format!("func f{}", ty.strip_prefix("func")?.trim_start());
    crate::analyze::returns::declared_return(&signature, "f")
        .filter(|t| crate::analyze::returns::kept(t))
        .map(str::to_string)
}

/// The `testdata` directory `path` is under, if any (its path, with the name): the go
/// command ignores such directories, whose packages are test inputs.
fn go_testdata(path: &str) -> Option<&str> {
    let at = if path.starts_with("testdata/") {
        0
    } else {
        path.find("/testdata/")? + 1
    };
    Some(&path[..at + "testdata".len()])
}

/// Rust's crates: each directory with a `Cargo.toml`, `src/lib.rs` or `src/main.rs`, the
/// crate of each Rust file (the nearest such directory above it), and the crates each crate
/// names — the first names of its files' `use` paths (`linux_raw_sys` of `use
/// linux_raw_sys::ctypes::*`). (Not the paths calls are written with: counting them, `cc`'s
/// `libc::…` made every bare `hash` or `stdout` in `cc` a guess into libc.)
#[derive(Default)]
struct RustCrates {
    /// Per file, its crate's number, or [`NO_CRATE`].
    of_file: Vec<u32>,
    /// Per crate, the other crates it names ([`reached_crates`]), sorted: asked once per
    /// candidate in another crate, so answered by a binary search rather than by comparing
    /// every `use` head of the crate with the other's name (~4 % of writing `edges` on the
    /// cargo registry).
    reached: Vec<Vec<u32>>,
}

const NO_CRATE: u32 = u32::MAX;

impl RustCrates {
    fn new<'a>(files: &[FileInput<'a>]) -> RustCrates {
        if !files.iter().any(|f| f.language == "rust") {
            return RustCrates::default();
        }
        let mut roots: HashMap<&'a str, u32> = HashMap::default();
        let mut names = Vec::new();
        // (A registry's `Cargo.toml` is skipped as generated: its `src/lib.rs` or
        // `src/main.rs` tells the crate too.)
        for f in files {
            let root = ["Cargo.toml", "src/lib.rs", "src/main.rs"]
                .iter()
                .find_map(|end| f.path.strip_suffix(end));
            if let Some(dir) = root
                && (dir.is_empty() || dir.ends_with('/'))
            {
                let dir = dir.trim_end_matches('/');
                let last = dir.rsplit('/').next().unwrap_or(dir);
                roots.entry(dir).or_insert_with(|| {
                    names.push(without_version(last).replace('-', "_"));
                    (names.len() - 1) as u32
                });
            }
        }
        let mut named = vec![rustc_hash::FxHashSet::default(); names.len()];
        let of_file = files
            .iter()
            .map(|f| {
                if f.language != "rust" {
                    return NO_CRATE;
                }
                let Some(&k) = ancestors(f.path).find_map(|d| roots.get(d)) else {
                    return NO_CRATE;
                };
                for (name, module) in f.names.imports() {
                    let head = module.unwrap_or(name).split("::").find(|s| !s.is_empty());
                    if let Some(head) = head.filter(|h| !matches!(*h, "crate" | "self" | "super")) {
                        named[k as usize].insert(head);
                    }
                }
                k
            })
            .collect();
        RustCrates {
            of_file,
            reached: reached_crates(&names, &named),
        }
    }

    /// Whether a Rust file `from` may name a definition of file `to` without a path: both in
    /// one crate (or either in none), or `from`'s crate names `to`'s in a `use` — by its
    /// name, a facade's (`arrow` for `arrow_array`), or a renamed one ending in it
    /// (`quarry_analysis` for `analysis/`).
    fn reaches(&self, from: u32, to: u32) -> bool {
        let crate_of = |f: u32| self.of_file.get(f as usize).copied().unwrap_or(NO_CRATE);
        let (a, b) = (crate_of(from), crate_of(to));
        if a == b || a == NO_CRATE || b == NO_CRATE {
            return true;
        }
        self.reached
            .get(a as usize)
            .is_some_and(|r| r.binary_search(&b).is_ok())
    }
}

/// Per crate, the crates (by number, sorted) one of its `use` heads names: by the crate's
/// name, as a facade's (`arrow` for `arrow_array`), or as a renamed one ending in it
/// (`quarry_analysis` for `analysis/`). Found through the names' and heads' `_`-separated
/// parts instead of by comparing every head with every crate's name.
fn reached_crates(names: &[String], heads: &[rustc_hash::FxHashSet<&str>]) -> Vec<Vec<u32>> {
    // Crates by their whole name, and by each prefix of it that ends before a `_`.
    let mut by_name: HashMap<&str, Vec<u32>> = HashMap::default();
    let mut by_prefix: HashMap<&str, Vec<u32>> = HashMap::default();
    for (b, name) in names.iter().enumerate() {
        by_name.entry(name).or_default().push(b as u32);
        for (p, _) in name.match_indices('_') {
            by_prefix.entry(&name[..p]).or_default().push(b as u32);
        }
    }
    heads
        .iter()
        .map(|heads| {
            let mut out: Vec<u32> = Vec::new();
            for &h in heads {
                // `h` itself, a name `h_…`, and a name `…_h'` where `h` ends in `_h'`.
                let suffixes = h.match_indices('_').map(|(p, _)| &h[p + 1..]);
                for found in [by_name.get(h), by_prefix.get(h)]
                    .into_iter()
                    .chain(suffixes.map(|s| by_name.get(s)))
                    .flatten()
                {
                    out.extend_from_slice(found);
                }
            }
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// Whether the file at `path` is a test by its name, as test runners find them, in languages
/// whose files reach others only through imports: JavaScript's and TypeScript's
/// `x.test.ts`, `x.spec.js` or a file under `__tests__/`; Python's `test_x.py`, `x_test.py`;
/// Ruby's `x_spec.rb`, `x_test.rb`, `test_x.rb`. (Go's test files see their package's other
/// test files, as Java's test classes see their package's: [`gobuild::is_test_file`].)
fn is_script_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    match ext {
        "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => {
            stem.ends_with(".test")
                || stem.ends_with(".spec")
                || path.starts_with("__tests__/")
                || path.contains("/__tests__/")
        }
        "py" | "rb" => {
            stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_spec")
        }
        _ => false,
    }
}

/// How near a file at `other` is to one in directory `dir`: the length of their deepest shared
/// directory (one of [`ancestors`] of a file in `dir`, so longer is deeper), and whether
/// `other` is directly in it. Ranks as asking each ancestor in turn would.
fn nearness(dir: &str, other: &str) -> (usize, bool) {
    let (d, o) = (dir.as_bytes(), other.as_bytes());
    let common = d.iter().zip(o).take_while(|(a, b)| a == b).count();
    let shared = if !d.is_empty() && common == d.len() && o.get(common) == Some(&b'/') {
        d.len()
    } else {
        // The last separator both share (they agree up to `common`), else the root.
        d[..common].iter().rposition(|&b| b == b'/').unwrap_or(0)
    };
    // `other[shared]` is the separator after the shared directory, unless that is the root.
    let rest = if shared == 0 { o } else { &o[shared + 1..] };
    (shared, !rest.contains(&b'/'))
}

/// `a/b/c.rs` → `a/b`, `a`, ``.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut cur = Some(dir_of(path));
    std::iter::from_fn(move || {
        let d = cur?;
        cur = if d.is_empty() { None } else { Some(dir_of(d)) };
        Some(d)
    })
}

/// The segment of a module path (`a::b`, `a.b`, `./x/y.js`, `github.com/o/r/pkg`) that names a
/// file or directory: the last one that is not `crate`, `self`, `super`, `..`, `src` or `lib`.
/// A path with slashes is split at them alone, and its file's extension dropped (`y` of
/// `./x/y.js`, `yaml` of `gopkg.in/yaml.v3`).
fn module_last_segment(module: &str) -> Option<&str> {
    let keep = |s: &&str| {
        !s.is_empty() && !matches!(*s, "crate" | "self" | "super" | "." | ".." | "src" | "lib")
    };
    if module.contains('/') {
        return module
            .rsplit('/')
            .map(|s| s.split('.').next().unwrap_or(s))
            .find(keep);
    }
    module.rsplit(['.', ':', '\\']).find(keep)
}

/// The name a Rust path gives the crate in directory `dir`, when it differs from the
/// directory's name: `-` is `_` (`my-lib` is `my_lib`), and a registry's version suffix is
/// dropped (`rand-0.8.8` is `rand`, `lance-index-14.0.2` is `lance_index`).
fn rust_crate_name(dir: &str) -> Option<String> {
    let base = without_version(dir);
    (base.len() < dir.len() || base.contains('-')).then(|| base.replace('-', "_"))
}

/// Whether crate directory `dir` is named `name` by Rust paths ([`rust_crate_name`], without
/// allocating: asked of each directory of each candidate a module path may name).
fn rust_crate_dir_is(dir: &str, name: &str) -> bool {
    let base = without_version(dir);
    base.len() == name.len()
        && base
            .bytes()
            .zip(name.bytes())
            .all(|(a, b)| a == b || (a == b'-' && b == b'_'))
}

/// A registry directory's name without its version (`rand-0.8.8` → `rand`).
fn without_version(dir: &str) -> &str {
    match dir.rfind('-') {
        Some(i) if dir[i + 1..].starts_with(|c: char| c.is_ascii_digit()) => &dir[..i],
        _ => dir,
    }
}

/// A hash of a path segment (a directory's or file's name, or a file's stem), for
/// [`Index::may_name`].
fn segment_hash(segment: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(segment)
}

/// A path's directory and its file's stem: `a/b/c.rs` → (`a/b`, `c`).
fn dir_and_stem(path: &str) -> (&str, &str) {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    (dir, file.split('.').next().unwrap_or(file))
}

/// A module path's [`module_last_segment`], ready to be matched against many files' paths:
/// [`Index::may_name`] rules most out by hash, [`Self::names`] decides.
struct ModuleSegment<'m> {
    last: &'m str,
    hash: u64,
}

impl<'m> ModuleSegment<'m> {
    fn new(last: &'m str) -> Self {
        ModuleSegment {
            last,
            hash: segment_hash(last),
        }
    }

    /// Does a module whose [`module_last_segment`] is `last` name this file's path? It
    /// neither allocates nor re-splits the module (splitting it per candidate was a quarter
    /// of writing `edges` on the cargo registry).
    fn names(&self, path: &str) -> bool {
        self.is_module_file(path) || path.split('/').any(|c| c == self.last)
    }

    /// Whether the file at `path` is the module itself (`scheduler.rs`, `scheduler/mod.rs`,
    /// `scheduler/__init__.py`), not a file below a directory named like it.
    fn is_module_file(&self, path: &str) -> bool {
        let last = self.last;
        let (dir, stem) = dir_and_stem(path);
        let parent = dir.rsplit('/').next().unwrap_or("");
        last == stem || (last == parent && matches!(stem, "mod" | "__init__" | "index"))
    }
}

/// Linear scans (module-path matching) stop after this many candidates.
const SCAN_LIMIT: usize = 512;

impl<'a> Index<'a> {
    fn new(files: &'a [FileInput<'a>]) -> Self {
        // Symbols and paths are counted in u32 (a repository has far fewer than 4 G).
        let mut families: Vec<&'a str> = Vec::new();
        let file_family: Vec<u8> = files
            .iter()
            .map(|f| {
                let fam = family(f.language);
                match families.iter().position(|x| *x == fam) {
                    Some(i) => i as u8,
                    None => {
                        families.push(fam);
                        (families.len() - 1) as u8
                    }
                }
            })
            .collect();
        // Every (file, symbol, class) a definition is a candidate for, in path order.
        let each = |f: &mut dyn FnMut(CandKey<'a>, Cand)| {
            for (fi, file) in files.iter().enumerate() {
                let names = file.names;
                for si in 0..names.symbol_count() {
                    let kind = names.kind(si);
                    for (class, kinds) in CLASSES.iter().enumerate() {
                        // A Go defined type is a type, and called it converts.
                        let go_type = go_defined_type(kind, file.language)
                            && (class == class_of(EdgeKind::Inherits)
                                || class == class_of(EdgeKind::Calls));
                        // A Ruby module is a constant too (`Module === x`), and an
                        // ancestor of what mixes it in (`include Comparable`).
                        let ruby_module = kind == "module"
                            && file.language == "ruby"
                            && (class == class_of(EdgeKind::References)
                                || class == class_of(EdgeKind::Inherits));
                        // A Go field of a function type is called (`s.handler(r)`).
                        let go_func_field = class == class_of(EdgeKind::Calls)
                            && kind == "field"
                            && file.language == "go"
                            && names.declared_return(si).is_some_and(go_func_type);
                        // And a Go package-level variable called holds a function (`var
                        // DaysIn = daysIn`, `var Usage = func() {…}`): Go calls nothing else,
                        // and a name written alone is its package's.
                        let go_func_var = class == class_of(EdgeKind::Calls)
                            && kind == "variable"
                            && file.language == "go"
                            && names.parent(si).is_none();
                        if kinds.contains(&kind)
                            || go_type
                            || ruby_module
                            || go_func_field
                            || go_func_var
                        {
                            f(
                                (class as u8, file_family[fi], names.name(si)),
                                (fi as u32, si as u32),
                            );
                        }
                    }
                }
            }
        };
        // Count per key, give each key its range of the flat list, then fill the ranges.
        let (cands, cand_list) =
            CandTable::new(each, |class, c| key_of(files, &file_family, class, c));
        let cand_members = cand_list
            .iter()
            .map(|&(fi, si)| files[fi as usize].names.parent(si as usize).is_some())
            .collect();
        let cand_maps = {
            use rayon::prelude::*;
            let big: Vec<(u32, u32)> = cands
                .ranges
                .iter()
                .copied()
                .filter(|&(_, n)| n as usize > SCAN_MAX)
                .collect();
            big.into_par_iter()
                .map(|(start, n)| {
                    let all = &cand_list[start as usize..(start + n) as usize];
                    (start, CandMaps::new(all, files))
                })
                .collect()
        };
        let by_path = files
            .iter()
            .enumerate()
            .map(|(fi, f)| (f.path, fi))
            .collect();
        // (first, last, count) of the files under each directory.
        let mut spans: HashMap<&'a str, (u32, u32, u32)> = HashMap::default();
        for (fi, f) in files.iter().enumerate() {
            let fi = fi as u32;
            for d in ancestors(f.path) {
                let span = spans.entry(d).or_insert((fi, fi, 0));
                span.1 = fi;
                span.2 += 1;
            }
        }
        let dir_lens = files.iter().map(|f| dir_of(f.path).len() as u32).collect();
        let mut segment_hashes = Vec::new();
        let mut segment_starts = Vec::with_capacity(files.len() + 1);
        for f in files {
            segment_starts.push(segment_hashes.len() as u32);
            segment_hashes.push(segment_hash(dir_and_stem(f.path).1));
            segment_hashes.extend(f.path.split('/').map(segment_hash));
            // A Rust crate's directory by the name its paths use (`my-lib` is `my_lib`,
            // a registry's `rand-0.8.8` is `rand`).
            if f.language == "rust" {
                let dirs = dir_of(f.path).split('/');
                segment_hashes.extend(dirs.filter_map(rust_crate_name).map(|n| segment_hash(&n)));
            }
        }
        segment_starts.push(segment_hashes.len() as u32);
        // JavaScript and TypeScript: the names of the repository's directories, where a
        // package imported by name would be (`node_modules/zod/`).
        let dir_names = match files
            .iter()
            .any(|f| matches!(f.language, "javascript" | "typescript" | "tsx"))
        {
            true => spans
                .keys()
                .map(|d| segment_hash(d.rsplit('/').next().unwrap_or(d)))
                .collect(),
            false => rustc_hash::FxHashSet::default(),
        };
        let dir_ranges = spans
            .into_iter()
            .filter(|(_, (lo, hi, n))| hi - lo + 1 == *n)
            .map(|(d, (lo, hi, _))| (d, (lo, hi)))
            .collect();
        let mut clause_files: HashMap<&'a str, Vec<u32>> = HashMap::default();
        let mut base_files: HashMap<&'a str, Vec<u32>> = HashMap::default();
        for (fi, f) in files.iter().enumerate() {
            for (t, base, _) in f.names.heritage() {
                for (map, name) in [(&mut clause_files, t), (&mut base_files, base)] {
                    let in_files = map.entry(last_segment(name)).or_default();
                    if in_files.last() != Some(&(fi as u32)) {
                        in_files.push(fi as u32);
                    }
                }
            }
        }
        let c_family = files.iter().any(|f| matches!(f.language, "c" | "cpp"));
        let by_file_name = if c_family {
            let mut m: HashMap<&'a str, Vec<u32>> = HashMap::default();
            for (fi, f) in files.iter().enumerate() {
                let name = f.path.rsplit('/').next().unwrap_or(f.path);
                m.entry(name).or_default().push(fi as u32);
            }
            m
        } else {
            HashMap::default()
        };
        let rust_crates = RustCrates::new(files);
        let go_packages = packages(files, "go");
        let java_packages = packages(files, "java");
        let go_builds = match files.iter().any(|f| f.names.go_build().is_some()) {
            true => files
                .iter()
                .map(|f| {
                    let c = gobuild::Constraint::parse(f.names.go_build()?)?;
                    let anywhere = c.holds_anywhere();
                    Some((c, anywhere))
                })
                .collect(),
            false => Vec::new(),
        };
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut index = Index {
            files,
            families,
            file_family,
            cands,
            cand_list,
            cand_members,
            cand_maps,
            by_path,
            dir_lens,
            segment_hashes,
            segment_starts,
            dir_ranges,
            clause_files,
            base_files,
            include_starts: Vec::new(),
            includes: Vec::new(),
            included: Vec::new(),
            by_file_name,
            go_packages,
            java_packages,
            go_builds,
            dir_names,
            rust_crates,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        if c_family {
            let mut starts = Vec::with_capacity(files.len() + 1);
            let mut includes = Vec::new();
            for (fi, f) in files.iter().enumerate() {
                starts.push(includes.len() as u32);
                if matches!(f.language, "c" | "cpp") {
                    // An include that names no file here and no standard header (a generated
                    // `config.h`) is [`NO_FILE`]: what the file sees is then not all known.
                    let found = f.names.imports().filter_map(|(_, path)| {
                        let path = path?;
                        match index.include_file(fi, path) {
                            Some((i, _)) => Some(i),
                            None if builtins::is_c_standard_header(path) => None,
                            None => Some(NO_FILE),
                        }
                    });
                    includes.extend(found);
                }
            }
            starts.push(includes.len() as u32);
            index.include_starts = starts;
            let mut included = vec![false; files.len()];
            for &f in includes.iter().filter(|&&f| f != NO_FILE) {
                included[f as usize] = true;
            }
            index.included = included;
            index.includes = includes;
        }
        index
    }

    /// The file a C or C++ `#include` path of file `fi` names, and how it was found: beside
    /// the including file, or by a path relative to it (`../x.h`: `relative_path`); else, as
    /// through an include directory the build adds, a file whose path ends with the include's
    /// whole path (`jemalloc/internal/mutex.h` is `include/jemalloc/internal/mutex.h`) — the
    /// nearest by directory (`import`, or `ambiguous` among several). A standard header
    /// named alone (`stdio.h`, `vector`) is only ever the file beside the includer: elsewhere
    /// in the repository it is a compatibility copy for another platform.
    fn include_file(&self, fi: usize, include: &str) -> Option<(u32, &'static str)> {
        let from = self.files[fi].path;
        let mut parts: Vec<&str> = dir_of(from).split('/').filter(|s| !s.is_empty()).collect();
        let mut rest = include;
        let mut ok = true;
        for seg in include.split('/') {
            match seg {
                "." | "" => {}
                ".." => ok &= parts.pop().is_some(),
                _ => break,
            }
            rest = rest.get(seg.len() + 1..).unwrap_or("");
        }
        if ok && !rest.is_empty() {
            let beside = if parts.is_empty() {
                rest.to_string()
            } else {
                format!("{}/{rest}", parts.join("/"))
            };
            if let Some(&f) = self.by_path.get(beside.as_str()) {
                return Some((f as u32, "relative_path"));
            }
        }
        if rest.is_empty() || builtins::is_c_standard_header(rest) {
            return None;
        }
        // A header the build generates is found by its template (`config.h` by `config.h.in`).
        let template;
        let (name, rest) = match rest.rsplit('/').next().unwrap_or(rest) {
            name if self.by_file_name.contains_key(name) => (name, rest),
            name => {
                template = format!("{rest}.in");
                let name = &template[template.len() - name.len() - 3..];
                (name, template.as_str())
            }
        };
        let named = |f: &&u32| {
            let p = self.files[**f as usize].path;
            p == rest || p.strip_suffix(rest).is_some_and(|head| head.ends_with('/'))
        };
        let mut found = self.by_file_name.get(name)?.iter().filter(named);
        let first = *found.next()?;
        if found.next().is_none() {
            return Some((first, "import"));
        }
        let dir = dir_of(from);
        let best = self.by_file_name[name]
            .iter()
            .filter(named)
            .copied()
            .max_by_key(|&f| {
                (
                    nearness(dir, self.files[f as usize].path),
                    std::cmp::Reverse(f),
                )
            })?;
        Some((best, "ambiguous"))
    }

    /// Runs `f` with the files C or C++ file `fi` includes, directly or through other
    /// headers (at most [`MAX_INCLUDE_CLOSURE`]), each with its rank in breadth-first order
    /// (the file's own includes first), and whether they are all it includes (no include of
    /// theirs names a header the repository lacks, other than a standard one). Cached per
    /// thread for the last file asked: the resolver asks for one file's edges at a time.
    fn with_include_closure<R>(
        &self,
        fi: usize,
        f: impl FnOnce(&HashMap<u32, u32>, bool) -> R,
    ) -> R {
        type Closure = (u64, u32, HashMap<u32, u32>, bool);
        thread_local! {
            static CLOSURE: std::cell::RefCell<Closure> =
                std::cell::RefCell::new((u64::MAX, 0, HashMap::default(), false));
        }
        CLOSURE.with(|cell| {
            let mut cached = cell.borrow_mut();
            if cached.0 != self.id || cached.1 != fi as u32 {
                let mut complete = true;
                let rank = &mut cached.2;
                rank.clear();
                let mut order = vec![fi as u32];
                rank.insert(fi as u32, 0);
                let mut at = 0;
                while at < order.len() && order.len() < MAX_INCLUDE_CLOSURE {
                    let file = order[at] as usize;
                    at += 1;
                    let Some(range) = self
                        .include_starts
                        .get(file)
                        .zip(self.include_starts.get(file + 1))
                    else {
                        continue;
                    };
                    for &inc in &self.includes[*range.0 as usize..*range.1 as usize] {
                        if inc == NO_FILE {
                            complete = false;
                            continue;
                        }
                        if order.len() >= MAX_INCLUDE_CLOSURE {
                            complete = false;
                            break;
                        }
                        let next = order.len() as u32;
                        rank.entry(inc).or_insert_with(|| {
                            order.push(inc);
                            next
                        });
                    }
                }
                rank.remove(&(fi as u32));
                cached.0 = self.id;
                cached.1 = fi as u32;
                cached.3 = complete;
            }
            f(&cached.2, cached.3)
        })
    }

    /// The file [`Resolver::edges`] is resolving on this thread, when it is one of this
    /// index's.
    fn resolving(&self) -> Option<usize> {
        NAMED_TYPES.with(|cell| {
            let named = cell.borrow();
            (named.0 == self.id).then_some(named.1 as usize)
        })
    }

    /// Whether file `fi` names a type called `name` ([`Resolver::edges`] records, per thread,
    /// the names of the file whose edges it is resolving; `None` for any other file).
    fn file_names_type(&self, fi: usize, name: &str) -> Option<bool> {
        NAMED_TYPES.with(|cell| {
            let named = cell.borrow();
            (named.0 == self.id && named.1 == fi as u32)
                .then(|| named.2.contains(&segment_hash(name)))
        })
    }

    /// Whether file `fi` names the type candidate `c` is a member of: a name the file uses
    /// for a type ([`Self::file_names_type`]) that resolves, from the file, to the type in
    /// `c`'s file or directory — syn's own `Receiver`, not another crate's test `Receiver`.
    fn names_parent_of(&self, fi: usize, c: Cand) -> bool {
        let Some(parent) = self.parent(c) else {
            return false;
        };
        let ty = last_segment(parent);
        if self.file_names_type(fi, ty) != Some(true) {
            return false;
        }
        let key = segment_hash(ty);
        let known = NAMED_TYPE_PICKS.with(|m| m.borrow().get(&key).copied());
        let resolved = match known {
            Some(r) => r,
            None => {
                IN_NAMED_CHECK.with(|f| f.set(true));
                let r = self
                    .pick(fi, None, EdgeKind::References, ty, None)
                    .map(|(t, _)| t);
                IN_NAMED_CHECK.with(|f| f.set(false));
                NAMED_TYPE_PICKS.with(|m| m.borrow_mut().insert(key, r));
                r
            }
        };
        resolved.is_some_and(|t| t.0 == c.0 || dir_of(self.path(t)) == dir_of(self.path(c)))
    }

    /// Among `cands` (those `keep` accepts), the definition in the nearest header C or C++
    /// file `fi` includes, directly or not ([`Self::with_include_closure`]): `import`, or
    /// `ambiguous` when several headers define the name (platform variants). Also whether
    /// all the file includes is known.
    fn in_includes(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        keep: impl Fn(Cand) -> bool,
    ) -> (Option<(Cand, &'static str)>, bool) {
        self.with_include_closure(fi, |rank, complete| {
            // (rank, candidate) of the nearest so far, and whether another file has one.
            let mut best: Option<(u32, Cand)> = None;
            let mut several = false;
            let mut consider = |c: Cand| {
                let Some(&r) = rank.get(&c.0) else { return };
                match best {
                    Some((_, b)) if b.0 == c.0 => {}
                    Some((br, _)) => {
                        several = true;
                        if r < br {
                            best = Some((r, c));
                        }
                    }
                    None => best = Some((r, c)),
                }
            };
            if cands.all.len() <= rank.len() {
                cands
                    .all
                    .iter()
                    .copied()
                    .filter(|&c| keep(c))
                    .for_each(&mut consider);
            } else {
                for &file in rank.keys() {
                    if let Some(c) = cands.in_file_where(file, &keep) {
                        consider(c);
                    }
                }
            }
            let how = if several { "ambiguous" } else { "import" };
            (best.map(|(_, c)| (c, how)), complete)
        })
    }

    /// The namespace PHP file `fi` declares first (`namespace App\Models;`), `""` for none
    /// (the global namespace).
    fn php_namespace(&self, fi: u32) -> &'a str {
        let names = self.files[fi as usize].names;
        (0..names.symbol_count())
            .find(|&si| names.kind(si) == "module" && names.parent(si).is_none())
            .map_or("", |si| {
                let q = names.qualified_name(si);
                q.split('#').next().unwrap_or(q)
            })
    }

    /// PHP: the class, interface, trait or enum that `name`, written after namespace
    /// `qualifier` (`Class_` and `Stmt` for `Stmt\Class_`; no qualifier for a bare `User`),
    /// names in file `fi`, by PHP's rules: a namespace written from the root (`\A\B`) as
    /// it is; a first segment — or the bare name — that a `use` imports (`use
    /// PhpParser\Node;` then `Node\Stmt`), through that import (`import`); else the file's
    /// own namespace (`qualified`), then, for a qualifier, the namespace as written (a type
    /// read from a declaration loses its leading `\`). `None` when no file of the
    /// repository defines it there: a class of another namespace is not this one.
    fn php_class(
        &self,
        fi: usize,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<(Cand, &'static str)> {
        let names = self.files[fi].names;
        let own = || self.php_namespace(fi as u32);
        let join = |a: &str, b: &str| match (a.is_empty(), b.is_empty()) {
            (true, _) => b.to_owned(),
            (_, true) => a.to_owned(),
            _ => format!("{a}\\{b}"),
        };
        let mut real = name;
        let mut how = "qualified";
        let spaces: Vec<String> = match qualifier.map(str::trim).filter(|q| !q.is_empty()) {
            Some(q) if q.starts_with('\\') => vec![q.trim_start_matches('\\').to_owned()],
            Some(q) => {
                let (head, rest) = q.split_once('\\').unwrap_or((q, ""));
                match names.import_bound(head) {
                    Some((module, imported)) => {
                        how = "import";
                        let module = module.unwrap_or("").trim_start_matches('\\');
                        vec![join(&join(module, imported), rest)]
                    }
                    None => vec![join(own(), q), q.to_owned()],
                }
            }
            None => match names.import_bound(name) {
                Some((module, imported)) => {
                    how = "import";
                    real = imported;
                    vec![module.unwrap_or("").trim_start_matches('\\').to_owned()]
                }
                None => vec![own().to_owned()],
            },
        };
        let cands = self.candidates(EdgeKind::Implements, "php", real)?;
        let path = self.files[fi].path;
        spaces.iter().find_map(|ns| {
            cands
                .nearest_where(self, path, |c| self.php_in_namespace(c.0, ns))
                .map(|c| (c, how))
        })
    }

    /// [`Index::php_class`] for a class written as a path (`Stmt\Class_`, `\Exception`,
    /// `User`): its last name, in the namespace before it.
    fn php_class_at(&self, fi: usize, path: &str) -> Option<(Cand, &'static str)> {
        match path.rsplit_once('\\') {
            Some(("", class)) => self.php_class(fi, class, Some("\\")),
            Some((ns, class)) => self.php_class(fi, class, Some(ns)),
            None => self.php_class(fi, path, None),
        }
    }

    /// Whether PHP file `fi` declares namespace `ns`, or, for `""`, none.
    fn php_in_namespace(&self, fi: u32, ns: &str) -> bool {
        if ns.is_empty() {
            self.php_namespace(fi).is_empty()
        } else {
            self.php_declares_namespace(fi, ns)
        }
    }

    /// Ruby: `Worker.new(…)`, `Gem::Specification.new` (`class` the constant path `q`)
    /// construct that class: its own `self.new` if it defines one, else the class itself —
    /// never another class's `new` (`String.new` is no `OptionParser.new`); `None`
    /// (unresolved) when the repository defines no class of the name.
    fn ruby_new(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        q: &str,
    ) -> Option<(Cand, &'static str)> {
        let (prefix, class) = match q.rsplit_once("::") {
            Some((p, c)) => (Some(p), c),
            None => (None, q),
        };
        if let Some(own) = self
            .candidates(EdgeKind::Calls, "ruby", "new")
            .and_then(|c| c.with_parent_last(self, class))
        {
            return Some((own, "qualified"));
        }
        let found = match prefix {
            // A path's class is found as a base's is.
            Some(_) => self
                .pick(fi, source_qname, EdgeKind::Inherits, class, prefix)
                .map(|(c, _)| c),
            // A bare constant is a top-level class, this file's, or one nested in a module
            // around the caller: `Array.new` in `matrix.rb` is not `TypeProf::Type::Array`.
            None => self
                .candidates(EdgeKind::Inherits, "ruby", class)?
                .nearest_where(self, self.files[fi].path, |c| {
                    self.ruby_in_scope(fi, source_qname, c)
                }),
        };
        found.map(|c| (c, "qualified"))
    }

    /// Ruby: whether a bare constant in file `fi`, in `source_qname`, may name candidate `c`:
    /// a top-level one, this file's, or one nested in a module or class around the caller.
    fn ruby_in_scope(&self, fi: usize, source_qname: Option<&str>, c: Cand) -> bool {
        match self.parent(c) {
            None => true,
            Some(p) => c.0 == fi as u32 || source_qname.is_some_and(|s| nested_in(s, p)),
        }
    }

    /// Ruby: the constant `name` written alone in file `fi` (a class or a constant): the
    /// file's own, one defined at the top level, or one nested in a module or class around
    /// the caller (`source_qname`) — not another module's namesake (`TypeProf::Type::Array`
    /// for `Array`). `None` when the repository has none (`ArgumentError`, `IOError`).
    fn ruby_constant(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        let cands = self.candidates(EdgeKind::References, "ruby", name)?;
        if let Some(c) = cands.in_file(fi as u32) {
            return Some((c, "same_file"));
        }
        let visible = |c: Cand| self.ruby_in_scope(fi, source_qname, c);
        let first = cands.first(visible)?;
        if cands.first(|c| c != first && visible(c)).is_none() {
            return Some((first, "unique_name"));
        }
        let best = cands.nearest_where(self, self.files[fi].path, visible)?;
        Some((best, "ambiguous"))
    }

    /// PHP: an edge that names a class by PHP's rules ([`Index::php_class`]) — a base, a type
    /// a declaration or `instanceof` names, `new Foo()`, and `Foo::f()` (the class's member,
    /// or its bases') — resolved so; `None` for any other edge, which is looked up as every
    /// language's is. A name of a class the repository defines only in other namespaces is
    /// unresolved (`Some(None)`).
    fn php_pick(
        &self,
        fi: usize,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<Option<(Cand, &'static str)>> {
        let q = qualifier.map(str::trim).filter(|q| !q.is_empty());
        let on_value = |q: &str| {
            q.starts_with('$')
                || matches!(q, "self" | "static" | "parent" | "this")
                || q.contains(['-', '(', ':', ' '])
        };
        match kind {
            EdgeKind::Inherits | EdgeKind::Implements => Some(self.php_class(fi, name, q)),
            EdgeKind::References | EdgeKind::Calls if q.is_none_or(|q| !on_value(q)) => {
                if kind == EdgeKind::Calls
                    && let Some(q) = q
                {
                    // `Foo::create()`, `Stmt\Class_::make()`: a member of the class, or of
                    // its bases.
                    if let Some((ty, _)) = self.php_class_at(fi, q) {
                        let cands = self.candidates(kind, "php", name)?;
                        let own = self.qualified_name(ty);
                        return cands
                            .in_file_with_parent(self, ty.0, own)
                            .or_else(|| self.inherited(&cands, ty.0, own))
                            .map(|c| Some((c, "qualified")));
                    }
                    // `new Models\User()`, `new \Exception()`: the class, in that namespace.
                    if let Some(found) = self.php_class(fi, name, Some(q)) {
                        return Some(Some(found));
                    }
                    // `\strlen()`, `new \Exception()`: the global namespace's, or a library's.
                    if q == "\\" {
                        let cands = self.candidates(kind, "php", name)?;
                        let path = self.files[fi].path;
                        return Some(
                            cands
                                .nearest_where(self, path, |c| self.php_in_namespace(c.0, ""))
                                .map(|c| (c, "qualified")),
                        );
                    }
                    // A namespaced function (`Foo\bar()`): looked up as before.
                    return None;
                }
                if let Some(found) = self.php_class(fi, name, q) {
                    return Some(Some(found));
                }
                // Only classes of that name, all in other namespaces.
                let types = self.candidates(EdgeKind::Implements, "php", name)?;
                let any = self.candidates(kind, "php", name)?;
                (any.all.len() == types.all.len()).then_some(None)
            }
            _ => None,
        }
    }

    /// Whether PHP file `fi` declares namespace `ns` (`namespace google\net;`: a `module`
    /// symbol of that name; PHP's names are case-insensitive).
    fn php_declares_namespace(&self, fi: u32, ns: &str) -> bool {
        let names = self.files[fi as usize].names;
        (0..names.symbol_count()).any(|si| {
            names.kind(si) == "module"
                && names.parent(si).is_none()
                && names
                    .qualified_name(si)
                    .split('#')
                    .next()
                    .is_some_and(|q| q.eq_ignore_ascii_case(ns))
        })
    }

    /// Whether file `fi` is a C or C++ header (not a source file, which the build compiles
    /// on its own and links).
    fn is_header(&self, fi: u32) -> bool {
        let path = self.files[fi as usize].path;
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        !matches!(ext, "c" | "cc" | "cpp" | "cxx" | "c++" | "m" | "mm" | "cu")
    }

    /// Whether candidate `c` is visible only inside its own file: in a C or C++ source file
    /// (not a header), a `static` definition or a macro.
    fn file_local(&self, c: Cand) -> bool {
        !self.is_header(c.0)
            && (self.kind(c) == "macro" || !self.files[c.0 as usize].names.is_public(c.1 as usize))
    }

    /// A member of a base type of `ty` (a qualified name, of a type of file `fi`), the nearest
    /// base first: breadth first up the inheritance and implementation clauses (`ty`'s own
    /// wherever [`Index::own_clause_files`] finds them), each base
    /// resolved from the file of the clause naming it (as that clause's own edge is), and
    /// its members and clauses looked for in the file that defines it. At most
    /// [`MAX_BASE_DEPTH`] levels and [`MAX_BASES`] types.
    fn inherited(&self, cands: &Cands<'_, 'a>, fi: u32, ty: &str) -> Option<Cand> {
        self.up_bases(
            fi,
            ty,
            |_| None,
            |b| {
                let b = b?;
                cands
                    .in_file_with_parent(self, b.0, self.qualified_name(b))
                    .or_else(|| self.go_method_elsewhere(cands, b))
            },
        )
    }

    /// Walks type `ty` of file `fi` up its bases, level by level, as the clauses of the
    /// files holding its clauses name them ([`Self::own_clause_files`]; at most
    /// [`MAX_BASE_DEPTH`] levels and [`MAX_BASES`] bases). Each clause's base, as written,
    /// goes to `written` first: `Some(Some(answer))` ends the walk, `Some(None)` passes the
    /// base over, `None` looks it up; then its definition, as that file names it, to `found`
    /// (once per definition; `None` when not found), whose `Some` ends the walk.
    fn up_bases<R>(
        &self,
        fi: u32,
        ty: &str,
        mut written: impl FnMut(&str) -> Option<Option<R>>,
        mut found: impl FnMut(Option<Cand>) -> Option<R>,
    ) -> Option<R> {
        let mut seen: Vec<(u32, &str)> = vec![(fi, ty)];
        let mut level = self.own_clause_files(fi, ty);
        for _ in 0..MAX_BASE_DEPTH {
            let mut next = Vec::new();
            for (file, ty) in level {
                let ty = last_segment(ty);
                for (t, base, qualifier) in self.files[file as usize].names.heritage() {
                    if last_segment(t) != ty {
                        continue;
                    }
                    match written(base) {
                        Some(Some(answer)) => return Some(answer),
                        Some(None) => continue,
                        None => {}
                    }
                    let Some((b, _)) =
                        self.pick(file as usize, Some(t), EdgeKind::Inherits, base, qualifier)
                    else {
                        if let Some(answer) = found(None) {
                            return Some(answer);
                        }
                        continue;
                    };
                    let key = (b.0, self.qualified_name(b));
                    if seen.contains(&key) {
                        continue;
                    }
                    if seen.len() > MAX_BASES {
                        return None;
                    }
                    if let Some(answer) = found(Some(b)) {
                        return Some(answer);
                    }
                    seen.push(key);
                    next.push(key);
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        None
    }

    /// Go: a call or field read on a package-level variable (`CommandLine.VarP(…)` in
    /// another file of `flag`, `base.Ctxt.Pkgpath` through `import ".../base"`): a member of
    /// the type the variable's declaration gives it, found from its file. `None` when `q`
    /// names no such variable (a local, a parameter), or its type is not known.
    fn go_var_member(
        &self,
        fi: usize,
        q: &str,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        let names = self.files[fi].names;
        // A local of the function shadows a package's variable, and locals of unknown type
        // are not told apart here: a name written alone counts when exported or longer than
        // the `s`, `b`, `f` locals mostly are (`CommandLine`, `memstats`, `ehdr`).
        let may_be_global = |v: &str| v.len() >= 4 || v.starts_with(|c: char| c.is_uppercase());
        let (dir, var) = match q.split_once('.') {
            None if names.import_bound(q).is_none() && may_be_global(q) => {
                (dir_of(self.files[fi].path), q)
            }
            Some((pkg, var)) if !var.contains('.') => {
                let (module, _) = names.import_bound(pkg)?;
                (self.go_package(fi, module?)?.0, var)
            }
            _ => return None,
        };
        if !var.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let cands = self.candidates(EdgeKind::References, "go", var)?;
        let v = cands.under(self, dir).iter().copied().find(|&c| {
            self.kind(c) == "variable" && self.parent(c).is_none() && dir_of(self.path(c)) == dir
        })?;
        let ty = self.files[v.0 as usize]
            .names
            .declared_return(v.1 as usize)
            .filter(|t| called(t).is_none())?;
        self.declared_type_member(v.0 as usize, ty, kind, name)
    }

    /// Python: a call or attribute on a module variable made by a call — the file's (`_inst =
    /// Random()`, then `_inst.seed()` in a function) or one it imports (`from config import
    /// settings`, then `settings.reload()`): a member of the class called (`declared_type`),
    /// or of the type the function called declares it returns (`db = make_db()` with `def
    /// make_db() -> Database`: `return_type`), as [`Self::call_result_member`] finds it from
    /// the variable's file. `None` when `q` names no such variable, or its callee or type is
    /// none the repository defines: the lookup by name then stands.
    fn python_var_member(
        &self,
        fi: usize,
        q: &str,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        if matches!(q, "self" | "cls") || !q.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        // The file's own variable, or the one `from config import settings` imports.
        let (vf, var) = match self.files[fi].names.import_bound(q) {
            None => (fi, q),
            Some((Some(module), imported)) => {
                let file = self.python_module_file(self.files[fi].path, module)?;
                (*self.by_path.get(file)?, imported)
            }
            Some((None, _)) => return None,
        };
        let cands = self.candidates(EdgeKind::References, "python", var)?;
        let v = cands.in_file_where(vf as u32, |c| {
            self.kind(c) == "variable" && self.parent(c).is_none()
        })?;
        let names = self.files[vf].names;
        let call = called(names.declared_return(v.1 as usize)?)?;
        // The callee, from the variable's file: a class makes an instance of itself, a
        // function returns what it declares.
        let (qualifier, callee) = match call.rsplit_once('.') {
            Some((q, n)) => (Some(q), n),
            None => (None, call),
        };
        let target = self
            .pick(vf, None, EdgeKind::Calls, callee, qualifier)
            .map(|(c, _)| c);
        let chain = crate::analyze::returns::Chained {
            qualifier,
            name: callee,
            unwrap: false,
            new: false,
        };
        let (c, how) = self.call_result_member(vf, kind, name, &chain, target)??;
        let class = target.is_some_and(|t| TYPE_KINDS.contains(&self.kind(t)));
        Some(Some((c, if class { "declared_type" } else { how })))
    }

    /// Go: the definition a name written alone in the file at `path` names in its own package
    /// (its directory; test files only from a test file, which alone builds with them):
    /// `same_package`, the one there is, or among a name's definitions for several platforms
    /// (`sigblock` in `os_linux.go`, `os_darwin.go`…) the one built for the caller's platform
    /// ([`gobuild::Platform::of`]); `ambiguous` where none or several are.
    fn go_in_package(
        &self,
        cands: &Cands<'_, 'a>,
        path: &str,
        near: impl Fn(Cand) -> bool,
    ) -> Option<(Cand, &'static str)> {
        let dir = dir_of(path);
        let test = gobuild::is_test_file(path);
        let in_package = |c: Cand| {
            near(c)
                && self.parent(c).is_none()
                && dir_of(self.path(c)) == dir
                && (test || !gobuild::is_test_file(self.path(c)))
        };
        let all = cands.under(self, dir);
        let mut found = all.iter().copied().filter(|&c| in_package(c));
        let first = found.next()?;
        let platform = self.go_platform(path);
        if found.next().is_none() {
            let how = match self.go_built(&platform, first) > 0 {
                true => "same_package",
                // (The only one, for another platform than the caller's: the caller may be
                // built for several, or the name is a local.)
                false => "unique_name",
            };
            return Some((first, how));
        }
        // The definitions built for the caller's platform, else their stand-ins.
        for rank in [2, 1] {
            let mut built = all
                .iter()
                .copied()
                .filter(|&c| in_package(c) && self.go_built(&platform, c) == rank);
            match (built.next(), built.next()) {
                (Some(c), None) => return Some((c, "same_package")),
                (Some(c), Some(_)) => return Some((c, "ambiguous")),
                (None, _) => {}
            }
        }
        Some((first, "ambiguous"))
    }

    /// Go: the platform definitions for several platforms are chosen for, looking up a name
    /// from the file at `path`: that of the file whose edges are being resolved, else of
    /// `path`. A type's embedded types are looked up from the type's file, but are the ones
    /// built with the caller (`mp.waitsema` in `os_aix.go` is of `m`'s embedded `mOS` of
    /// `os_aix.go`).
    fn go_platform<'p>(&'p self, path: &'p str) -> gobuild::Platform<'p> {
        let fi = self.resolving().or_else(|| self.by_path.get(path).copied());
        match fi {
            Some(fi) => gobuild::Platform::of(self.files[fi].path, self.go_constraint(fi)),
            None => gobuild::Platform::of(path, None),
        }
    }

    /// Go: file `fi`'s build constraint, if it states one.
    fn go_constraint(&self, fi: usize) -> Option<&gobuild::Constraint> {
        self.go_builds.get(fi)?.as_ref().map(|(c, _)| c)
    }

    /// Go: whether a build for `platform` includes definition `c`'s file: 2 when it does, by
    /// its name and its build constraint; 1 when its name fits and its constraint holds on
    /// no platform's default build (`//go:build ignore`: the input of a generator, such as
    /// `x/sys/unix`'s `types_linux.go`, which stands in for the generated files a listing
    /// skips; `faketime`), so it is taken when nothing is built; 0 otherwise.
    fn go_built(&self, platform: &gobuild::Platform<'_>, c: Cand) -> u8 {
        let (path, fi) = (self.path(c), c.0 as usize);
        if platform.builds(path, self.go_constraint(fi)) {
            return 2;
        }
        let nowhere = matches!(self.go_builds.get(fi), Some(Some((_, false))));
        u8::from(nowhere && platform.builds(path, None))
    }

    /// Go: whether definitions `a` and `b` are one type under different build constraints —
    /// the same name in files of one package (`runtime`'s `sigctxt` in
    /// `signal_linux_amd64.go`, `signal_darwin_amd64.go`…), whose methods a call in a file
    /// of either may reach.
    fn go_variant(&self, a: Cand, b: Cand) -> bool {
        self.files[a.0 as usize].language == "go"
            && self.qualified_name(a) == self.qualified_name(b)
            && dir_of(self.path(a)) == dir_of(self.path(b))
    }

    /// Go: a method of type `ty` (a definition) in another file of its package, where Go
    /// methods often are (`dgramopt.go`'s `func (c *dgramOpt) JoinGroup` beside
    /// `endpoint.go`'s `type dgramOpt struct`).
    fn go_method_elsewhere(&self, cands: &Cands<'_, 'a>, ty: Cand) -> Option<Cand> {
        if self.files[ty.0 as usize].language != "go" {
            return None;
        }
        let (path, name) = (self.path(ty), self.qualified_name(ty));
        let dir = dir_of(path);
        cands.nearest_with_parent_last(self, path, name, |c| {
            dir_of(self.path(c)) == dir
                && self
                    .type_definition(c.0, name)
                    .is_some_and(|t| t == ty || self.go_variant(t, ty))
        })
    }

    /// The definition that type `ty` (by its last segment) names in file `fi`, found as an
    /// `impl` clause's type is.
    fn type_definition(&self, fi: u32, ty: &str) -> Option<Cand> {
        // PHP: `Expr\Assign`, `\App\Models\User`, by its namespace.
        if self.files[fi as usize].language == "php" && ty.contains('\\') {
            return self.php_class_at(fi as usize, ty).map(|(c, _)| c);
        }
        self.pick(
            fi as usize,
            None,
            EdgeKind::Implements,
            last_segment(ty),
            None,
        )
        .map(|(c, _)| c)
    }

    /// The files holding the clauses of type `ty`, as file `fi` names it: `fi` itself, and
    /// the files whose clauses name a type of that name that resolves, from there, to the
    /// same definition as `ty` from `fi` — the file defining it (a Go struct's embedded
    /// fields beside methods in another file), and Rust's `impl Trait for T` anywhere. A
    /// type defined outside the repository has only `fi` (every `impl … for [u8]` is not a
    /// base of one crate's `[u8]`). Beyond [`MAX_CLAUSE_FILES`] such files only the defining
    /// one is looked at.
    fn own_clause_files<'q>(&self, fi: u32, ty: &'q str) -> Vec<(u32, &'q str)> {
        let mut out = vec![(fi, ty)];
        let Some(files) = self.clause_files.get(last_segment(ty)) else {
            return out;
        };
        let def_from = |file: u32| self.type_definition(file, ty);
        let Some(def) = def_from(fi) else {
            return out;
        };
        for &g in files {
            let near = g == def.0 || files.len() <= MAX_CLAUSE_FILES;
            if g != fi && near && def_from(g) == Some(def) {
                out.push((g, ty));
            }
        }
        out
    }

    /// For a type with no such member up its own bases (a mixin, a base class calling a hook):
    /// a member of a subclass in the same file, or of one of that subclass's other bases —
    /// what `self` is when the call runs. Subclasses nearest first, at most 4 levels down;
    /// then [`Index::through_subclasses_elsewhere`].
    fn through_subclasses<'q>(
        &'q self,
        cands: &Cands<'_, 'a>,
        fi: u32,
        ty: &'q str,
    ) -> Option<Cand> {
        let names = self.files[fi as usize].names;
        let mut seen: Vec<&'q str> = vec![last_segment(ty)];
        let mut level = seen.clone();
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in level {
                for (sub, base, _) in names.heritage() {
                    let sub_last = last_segment(sub);
                    if base != t || seen.contains(&sub_last) || seen.len() > MAX_BASES {
                        continue;
                    }
                    seen.push(sub_last);
                    if let Some(c) = cands
                        .in_file_with_parent(self, fi, sub)
                        .or_else(|| self.inherited(cands, fi, sub))
                    {
                        return Some(c);
                    }
                    next.push(sub_last);
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        self.through_subclasses_elsewhere(cands, fi, ty)
    }

    /// A member of a direct subclass of `ty` (of file `fi`) in another file, or of one of
    /// that subclass's bases: `class StrTest(string_tests.MixinTest, unittest.TestCase)`
    /// makes `self.assertEqual` in `MixinTest` a `TestCase` member. A clause counts when its
    /// base resolves, from its file, to the definition `ty` resolves to from `fi`. Files in
    /// the nearest directories first; at most [`MAX_CLAUSE_FILES`] of them. Only where a
    /// type may call what only its subclasses define (Python, Ruby, PHP's traits,
    /// JavaScript): elsewhere a type calls what it declares or inherits, and a trait named
    /// by thousands of `impl` clauses made every call that missed scan them.
    fn through_subclasses_elsewhere(
        &self,
        cands: &Cands<'_, 'a>,
        fi: u32,
        ty: &str,
    ) -> Option<Cand> {
        if !matches!(
            family(self.files[fi as usize].language),
            "python" | "ruby" | "php" | "js"
        ) {
            return None;
        }
        let ty_last = last_segment(ty);
        let files = self.base_files.get(ty_last)?;
        let (def, _) = self.pick(fi as usize, None, EdgeKind::Implements, ty_last, None)?;
        let here = dir_of(self.files[fi as usize].path);
        // The length of the deepest directory holding both files.
        let shared = |g: &u32| {
            ancestors(self.files[*g as usize].path)
                .find(|d| here == *d || is_under(here, d))
                .map_or(0, str::len)
        };
        let mut near: Vec<u32> = files.iter().copied().filter(|&g| g != fi).collect();
        near.sort_by_cached_key(|g| std::cmp::Reverse(shared(g)));
        for g in near.into_iter().take(MAX_CLAUSE_FILES) {
            for (sub, base, qualifier) in self.files[g as usize].names.heritage() {
                if last_segment(base) != ty_last {
                    continue;
                }
                let same = self
                    .pick(g as usize, Some(sub), EdgeKind::Inherits, base, qualifier)
                    .is_some_and(|(b, _)| b == def);
                if !same {
                    continue;
                }
                if let Some(c) = cands
                    .in_file_with_parent(self, g, sub)
                    .or_else(|| self.inherited(cands, g, sub))
                {
                    return Some(c);
                }
            }
        }
        None
    }

    /// The candidates of `name` for an edge of `kind` from a file in `language`.
    fn candidates(&self, kind: EdgeKind, language: &str, name: &str) -> Option<Cands<'_, 'a>> {
        let fam = family(language);
        let fam = self.families.iter().position(|x| *x == fam)? as u8;
        let key = (class_of(kind) as u8, fam, name);
        let (start, n) = self.cands.get(key, &self.cand_list, |class, c| {
            key_of(self.files, &self.file_family, class, c)
        })?;
        let range = start as usize..(start + n) as usize;
        Some(Cands {
            all: self.cand_list.get(range.clone())?,
            members: self.cand_members.get(range)?,
            maps: self.cand_maps.get(&start),
        })
    }

    fn qualified_name(&self, c: Cand) -> &'a str {
        self.files[c.0 as usize].names.qualified_name(c.1 as usize)
    }

    fn parent(&self, c: Cand) -> Option<&'a str> {
        self.files[c.0 as usize].names.parent(c.1 as usize)
    }

    /// The kind of candidate `c`'s parent, the last symbol of that qualified name before it
    /// in its file (`None` without a parent).
    fn parent_kind(&self, c: Cand) -> Option<&'static str> {
        let parent = self.parent(c)?;
        let names = self.files[c.0 as usize].names;
        (0..c.1 as usize)
            .rev()
            .find(|&i| names.qualified_name(i) == parent)
            .map(|i| names.kind(i))
    }

    fn kind(&self, c: Cand) -> &'static str {
        self.files[c.0 as usize].names.kind(c.1 as usize)
    }

    /// Whether `c` is defined inside a function or method (its parent, which comes before
    /// it in its file's symbols, usually just before, is one).
    fn nested_in_function(&self, c: Cand) -> bool {
        let names = self.files[c.0 as usize].names;
        let Some(parent) = names.parent(c.1 as usize) else {
            return false;
        };
        (0..c.1 as usize)
            .rev()
            .find(|&i| names.qualified_name(i) == parent)
            .is_some_and(|i| matches!(names.kind(i), "function" | "method" | "constructor"))
    }

    /// See [`Resolver::foreign_parents`]: the type a parent names is looked up as the type of
    /// an `impl Trait for T` clause is (nearest definition first).
    fn foreign_parents(&self, first_symbol: &[usize]) -> HashMap<usize, Option<Cand>> {
        let mut out = HashMap::default();
        for (fi, f) in self.files.iter().enumerate() {
            let names = f.names;
            let mut own: Option<std::collections::HashSet<&str>> = None;
            let mut found: HashMap<&str, Option<Cand>> = HashMap::default();
            for si in 0..names.symbol_count() {
                let Some(parent) = names.parent(si) else {
                    continue;
                };
                let own = own.get_or_insert_with(|| {
                    (0..names.symbol_count())
                        .map(|i| names.qualified_name(i))
                        .collect()
                });
                if own.contains(parent) {
                    continue;
                }
                let target = *found.entry(parent).or_insert_with(|| {
                    self.pick(fi, None, EdgeKind::Implements, last_segment(parent), None)
                        .map(|(c, _)| c)
                });
                out.insert(first_symbol[fi] + si, target);
            }
        }
        out
    }

    fn path(&self, c: Cand) -> &'a str {
        self.files[c.0 as usize].path
    }

    /// Whether `segment` may name file `fi`'s path: false when no segment of the path, nor
    /// its stem, hashes as it does ([`ModuleSegment::names`] needs one of them equal). Most
    /// of the up to [`SCAN_LIMIT`] candidates an edge looks at fail here, on a few integers
    /// instead of a substring search of their path (~5 % of writing `edges` on the cargo
    /// registry).
    fn may_name(&self, segment: &ModuleSegment<'_>, fi: u32) -> bool {
        let (lo, hi) = (
            self.segment_starts[fi as usize] as usize,
            self.segment_starts[fi as usize + 1] as usize,
        );
        self.segment_hashes[lo..hi].contains(&segment.hash)
    }

    /// The definition an edge of file `fi` names, and how it was found. A function of its
    /// arguments, and of `source_qname` only through the caller's type (the part before its
    /// last `.`) when there is a `qualifier`, or whole for a bare call [`enclosing_only`]
    /// applies to: `Resolver::edges` keeps its answers per file by exactly that
    /// ([`PickMemo`]); keep the two in step.
    fn pick(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<(Cand, &'static str)> {
        let language = self.files[fi].language;
        // Rust: a path into the standard library (`std::sync::Arc::new`; `use std::sync::Arc`
        // then `Arc`; `use std::fmt` then `fmt::Display`) names no definition here, however a
        // file of the repository is named (`sync.rs` with an `Arc` of its own).
        if language == "rust" {
            let from_std = |n: &str| {
                let mut modules = self.files[fi].names.imports_of(n).peekable();
                !matches!(n, "self" | "Self" | "super" | "crate")
                    && modules.peek().is_some()
                    && modules.all(|m| m.is_some_and(is_rust_std_path))
            };
            let external = match qualifier {
                Some(q) => is_rust_std_path(q) || from_std(rust_path_head(q)),
                None => from_std(name),
            };
            if external {
                return None;
            }
        }
        // C: a call on a field (`hooks->purge(…)`, `ops.read(…)`) goes through a function
        // pointer, set at run time: no definition is its target by that name (a test's
        // `static void purge(void)` is not).
        if language == "c" && kind == EdgeKind::Calls && qualifier.is_some() {
            return None;
        }
        // An `#include` names a file ([`Index::include_file`]), never a definition: `<ctime>`
        // is not `time.h`'s function `ctime`.
        if matches!(language, "c" | "cpp") && kind == EdgeKind::Imports {
            return None;
        }
        // A Rust tuple variant constructs its enum (`GetRange::Suffix(2)`, `Self::Int64(v)`):
        // a variant of the type the qualifier names, found as `Type::f()`'s member is. Only
        // so: a bare `Ok(…)` is the prelude's, and another enum's variant of the name is not.
        if language == "rust"
            && kind == EdgeKind::Calls
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && let Some(q) = qualifier
            && let Some(found) = self.variant_of(fi, source_qname, q.trim(), name)
        {
            return Some(found);
        }
        // Nor is another definition of the name, when the qualifier is a type's (`Poll::Ready`
        // of the standard library, `DataType::List` of a type whose variants are not found):
        // an imported or nearby struct `Ready` or `List` is no variant of it.
        if language == "rust"
            && kind == EdgeKind::Calls
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && qualifier.is_some_and(|q| {
                let last = qualifier_last(q.trim());
                last != "Self"
                    && last.len() > 1
                    && last.starts_with(|c: char| c.is_ascii_uppercase())
                    && last.contains(|c: char| c.is_ascii_lowercase())
            })
        {
            return None;
        }
        if language == "php"
            && let Some(found) = self.php_pick(fi, kind, name, qualifier)
        {
            return found;
        }
        if language == "ruby"
            && kind == EdgeKind::Calls
            && name == "new"
            && let Some(q) = qualifier.map(|q| q.trim().trim_start_matches("::"))
            && is_constant_path(q)
        {
            return self.ruby_new(fi, source_qname, q);
        }
        // Ruby: a constant written alone (`rescue FooError`, `is_a?(Payload)`) is looked up
        // lexically, as Ruby does.
        if language == "ruby"
            && kind == EdgeKind::References
            && qualifier.is_none()
            && name.starts_with(|c: char| c.is_ascii_uppercase())
        {
            return self.ruby_constant(fi, source_qname, name);
        }
        // A Go import names a package, which is no definition (a namesake `types` or `url`
        // elsewhere had been its target): its directory's file, in `Resolver::edges`.
        if kind == EdgeKind::Imports && language == "go" {
            return None;
        }
        let cands = self.candidates(kind, language, name)?;
        let path = self.files[fi].path;
        // A bare call (`print(x)`, `drop(v)`, `helper()`) names no method outside Java, C#,
        // C++ and Ruby: Python, JavaScript, PHP and Rust reach one only through `self`/`this`
        // or a type, Go through a receiver. So there it takes a function, a class, a macro —
        // or nothing: Python's `print` is not `TracebackException.print`, nor Rust's
        // `drop(guard)` some type's `Drop::drop`.
        // Nor, from another file, a function nested in a function (a test's local `drop`,
        // `f`): it is visible only inside the function that defines it.
        let bare = kind == EdgeKind::Calls && qualifier.is_none() && !implicit_this(language);
        // Rust's macros are invoked with `!`, which is no call edge: `f(x)` is not `f!`.
        // Go: `x.f()` and `x.f` on a value (not an imported package) name a method or a
        // field — never a function or a type (a conversion is `pkg.T(x)` or `T(x)`).
        let go_member = language == "go"
            && matches!(kind, EdgeKind::Calls | EdgeKind::References)
            && qualifier.is_some_and(|q| {
                let head = q.split('.').next().unwrap_or(q);
                self.files[fi].names.import_bound(head).is_none()
            });
        // Python: `x.f()` and `x.f` on a value — not an imported module, nor the file's own
        // module by its name — name an attribute of an object: a class's member, never a
        // top-level function, class or variable (`loop.create_task()` in a file defining
        // `create_task`, `sample = _inst.sample`).
        let py_member = language == "python"
            && matches!(kind, EdgeKind::Calls | EdgeKind::References)
            && qualifier.is_some_and(|q| {
                let q = q.trim();
                let head = q.split('.').next().unwrap_or(q);
                // (`import xml.sax.saxutils` binds `xml`: `xml.sax.ErrorHandler`.)
                let names = self.files[fi].names;
                let bound = names.imports().any(|(n, _)| {
                    n.strip_prefix(head)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                }) || names.import_bound(head).is_some();
                !bound && !python_module_named(self.files[fi].path, head)
            });
        let keep = |c: Cand| {
            !(language == "rust" && kind == EdgeKind::Calls && self.kind(c) == "macro")
                && (!go_member || self.parent(c).is_some())
                && (!py_member || self.parent(c).is_some())
                && (!bare
                    || !(matches!(self.kind(c), "method" | "constructor" | "field")
                        || (c.0 != fi as u32 && self.nested_in_function(c))))
        };
        // Beyond imports, see [`enclosing_only`]: `Outer.Inner.run` may call `Outer.helper`.
        let enclosing = enclosing_only(kind, language, qualifier);
        let near = |c: Cand| {
            keep(c)
                && (!enclosing
                    || !matches!(self.kind(c), "method" | "constructor")
                    || self
                        .parent(c)
                        .zip(source_qname)
                        .is_some_and(|(p, s)| nested_in(s, p)))
        };
        // A candidate in a file the module path names: a top-level definition before a nested
        // one (`unittest.TestCase` is `unittest/case.py`'s, not a test's local `TestCase`
        // class); of several, the nearest (two versions of a crate, a monorepo's packages
        // with a `utils` module each).
        let matches_module = |m: &str| {
            // Go: the package's own directory, when the repository has it.
            let go_dir = match language {
                "go" => Some(self.go_package(fi, m)?.0),
                _ => None,
            };
            let last = module_last_segment(m)?;
            let segment = ModuleSegment::new(last);
            let named = |c: Cand| {
                self.may_name(&segment, c.0)
                    && (segment.names(self.path(c))
                        || (language == "rust"
                            && dir_of(self.path(c))
                                .split('/')
                                .any(|d| rust_crate_dir_is(d, last))))
                    && match language {
                        "python" => python_module_names(m, self.path(c)),
                        "java" => package_dir_names(m, '.', self.path(c)),
                        // (A package's test files build only with its own tests, which
                        // an external test package in its directory is: `runtime_test`
                        // sees `export_test.go`'s `Escape`.)
                        "go" => {
                            Some(dir_of(self.path(c))) == go_dir
                                && (!gobuild::is_test_file(self.path(c))
                                    || (gobuild::is_test_file(path)
                                        && Some(dir_of(path)) == go_dir))
                        }
                        _ => true,
                    }
            };
            // One pass: per tier (top-level, nested), the first match and whether another
            // file has one too.
            let mut first: [Option<Cand>; 2] = [None, None];
            let mut several = [false, false];
            for c in cands.all.iter().take(SCAN_LIMIT).copied() {
                if !named(c) || !keep(c) {
                    continue;
                }
                let tier = usize::from(self.parent(c).is_some());
                match first[tier] {
                    None => first[tier] = Some(c),
                    Some(f) => several[tier] |= f.0 != c.0,
                }
                if several[0] {
                    break;
                }
            }
            let tier = first.iter().position(Option::is_some)?;
            if !several[tier] {
                return first[tier];
            }
            // Go: of a package's definitions for several platforms, the caller's.
            if language == "go" && tier == 0 {
                let platform = self.go_platform(path);
                for rank in [2, 1] {
                    let built = cands.all.iter().take(SCAN_LIMIT).copied().find(|&c| {
                        named(c)
                            && keep(c)
                            && self.parent(c).is_none()
                            && self.go_built(&platform, c) == rank
                    });
                    if built.is_some() {
                        return built;
                    }
                }
            }
            let top = tier == 0;
            let in_tier = |c: Cand| named(c) && keep(c) && self.parent(c).is_none() == top;
            let best = cands.nearest_where(self, path, in_tier)?;
            // As near as the nearest, the module's own file before a file below it:
            // `scheduler::Handle` is `scheduler/mod.rs`'s, not `scheduler/current_thread/
            // mod.rs`'s, which sorts first. (Go's package is its directory.)
            // (Only below a directory the caller shares: across crates or packages, every
            // candidate is as near, and another crate's `sync.rs` is no `tokio::sync`.)
            let dir = dir_of(path);
            let as_near = nearness(dir, self.path(best));
            if language != "go" && as_near.0 > 0 && !segment.is_module_file(self.path(best)) {
                let own = cands.all.iter().take(SCAN_LIMIT).copied().find(|&c| {
                    in_tier(c)
                        && segment.is_module_file(self.path(c))
                        && nearness(dir, self.path(c)) == as_near
                });
                if own.is_some() {
                    return own;
                }
            }
            Some(best)
        };
        // A candidate in the module an import names: the file a relative path names, else a
        // file the module path names.
        let in_module = |module: Option<&str>| {
            self.in_relative_module(&cands, fi, module)
                .filter(|&c| keep(c))
                .or_else(|| module.and_then(matches_module))
        };
        // Python: `from M import N` is N as M's file defines it; else, when `M.N` is a module
        // of its own, that file (`Resolver::edges`); else a definition of a file under M's
        // package (which re-exports it) — never another module's N, nor a definition named
        // like `import io`'s `io`.
        if kind == EdgeKind::Imports && language == "python" {
            let m = qualifier?;
            if let Some(file) = self.python_module_file(path, m)
                && let Some(&fi2) = self.by_path.get(file)
                && let Some(c) = cands.in_file(fi2 as u32)
            {
                return Some((c, "import"));
            }
            if self
                .python_module_file(path, &python_submodule(m, name))
                .is_some()
            {
                return None;
            }
            return matches_module(m).map(|c| (c, "import"));
        }
        // An import of a relative path names its file exactly.
        if kind == EdgeKind::Imports
            && let Some(file) = qualifier.and_then(|m| self.relative_file(fi, m))
            && let Some(&fi2) = self.by_path.get(file)
            && let Some(c) = cands.in_file(fi2 as u32)
        {
            return Some((c, "import"));
        }
        // `self.f()` and `super().f()` call a member of the caller's type or of one of its
        // bases: never a free function, whatever else is nearer.
        let mut members_only = false;
        // For `super().f()`: the caller's own type, whose members are not targets.
        let mut not_of: Option<&str> = None;
        // For `self.f()`: whether the caller's type has a base the repository does not define.
        let mut external_base = false;
        // For `self.x.f()`: the caller itself is not a target.
        let mut not_caller = false;
        if let Some(q) = qualifier {
            let q = q.trim();
            let own = source_qname
                .and_then(|s| s.rsplit_once('.'))
                .map(|(own, _)| own);
            let sup = kind == EdgeKind::Calls && is_super(self.files[fi].language, q);
            // `self.f()` itself, or `self.field.f()` (a member of some type).
            let on_self = SELF_WORDS.contains(&q);
            // (A field read on a field, `self.db.conn`, is not looked up on the caller's
            // type as a delegating call is.)
            let on_field =
                kind == EdgeKind::Calls && (q.starts_with("self.") || q.starts_with("this."));
            if on_self || sup || on_field {
                // `self.items.append(x)`: a field of a type the file does not declare, called
                // by a standard method's name, is a built-in's (not this type's `append`).
                if !(on_self || sup)
                    && kind == EdgeKind::Calls
                    && builtins::is_builtin_method(language, name)
                {
                    return None;
                }
                members_only = kind == EdgeKind::Calls;
                not_of = own.filter(|_| sup);
                // `self.inner.try_read(buf)` in `try_read` delegates to a field's object:
                // the caller itself is not its target (of the registry's 7 286 such calls
                // taken as the caller's own type's, 6 105 were the caller calling itself,
                // nearly all delegation).
                not_caller = kind == EdgeKind::Calls && !(on_self || sup);
                if let Some(own) = own
                    && let Some(found) =
                        self.own_type_member(&cands, fi, own, kind, sup, on_self || sup)
                    && !(not_caller
                        && found.0.0 == fi as u32
                        && Some(self.qualified_name(found.0)) == source_qname)
                {
                    return Some(found);
                }
                external_base = (on_self || sup)
                    && kind == EdgeKind::Calls
                    && own.is_some_and(|own| self.has_external_base(fi, own));
            } else {
                let q_last = qualifier_last(q);
                // `Config::new()`, `Builder.create()`: a member of the type `Config` names
                // from this file (its own, an import's, the nearest), when there is one: not
                // the first type of that name in the repository (another crate's, another
                // version's).
                // (Among a name's few candidates, one member of a type of that name is the
                // answer either way; none may still be an alias's, `ListArray::new()`.)
                if matches!(kind, EdgeKind::Calls | EdgeKind::References)
                    && q_last.starts_with(|c: char| c.is_uppercase())
                    && (cands.maps.is_some()
                        || cands
                            .all
                            .iter()
                            .filter(|&&c| self.parent(c).map(last_segment) == Some(q_last))
                            .take(2)
                            .count()
                            != 1)
                    && let Some(ty) = crate::analyze::type_name(q)
                    && let Some(Some((c, _))) = self.declared_type_member(fi, ty, kind, name)
                {
                    return Some((c, "qualified"));
                }
                // Of several types of that name, the file's own, else the nearest
                // (`_State.CREATED` is the file's own `_State`'s). A member of an imported
                // module (`time.tzname` after `import time`) is the module's, not a member
                // of a class named like it; a field read from a value (`ctx.common.issues`)
                // is no member of a type named like the value.
                let of_type = |c: Cand| self.parent(c).map(last_segment) == Some(q_last);
                // (A Rust qualifier is always a path: `f16::PI`, `half::f16::from_f32`.)
                let lower = !q_last.starts_with(char::is_uppercase) && language != "rust";
                let module = lower && self.files[fi].names.import_bound(q).is_some();
                // (Go's values were always read so: `go_member` below.)
                let value = kind == EdgeKind::References && lower && language != "go";
                if !module
                    && !value
                    && let Some(c) = cands
                        .in_file_where(fi as u32, of_type)
                        .or_else(|| cands.nearest_with_parent_last(self, path, q_last, |_| true))
                {
                    return Some((c, "qualified"));
                }
                // Rust: `Layout::new()`, `StdRng::seed_from_u64(…)` — a function the type (the
                // repository's, as the file names it; not an alias, a generic parameter or an
                // outside type, left to the lookups below) was not found to have — is one of
                // a trait's that the type implements where this cannot see (a derive, another
                // crate's impl, a provided method): an imported trait's, else a trait's
                // nearby. Never another type's own function of that name (hashbrown's
                // `TableLayout.new`).
                if language == "rust"
                    && kind == EdgeKind::Calls
                    // (A path: not a value, `Self::Int(v).cmp(o)`, `T::builder().build()`.)
                    && !q.contains(['(', '.', '[', '{'])
                    && q_last != "Self"
                    && q_last.starts_with(|c: char| c.is_ascii_uppercase())
                    && q_last.contains(|c: char| c.is_ascii_lowercase())
                    && let Some(ty) = crate::analyze::type_name(q)
                    && let Some(Some((_, false))) = self.declared_type(fi, ty)
                {
                    return self.rust_trait_function(&cands, fi, name, &near);
                }
                // PHP: a name in a namespace that is no class (`use google\appengine\Bar;`, a
                // namespaced function; classes and bases are [`Index::php_pick`]'s) is a
                // definition in a file that declares that namespace, or a library's — not a
                // `Bar` of another.
                if language == "php" && q.contains('\\') {
                    let ns = q.trim_start_matches('\\');
                    if !ns.is_empty() && !ns.starts_with('$') {
                        let declares = |file: u32| self.php_declares_namespace(file, ns);
                        let how = match kind {
                            EdgeKind::Imports => "import",
                            _ => "qualified",
                        };
                        return cands
                            .nearest_where(self, path, |c| near(c) && declares(c.0))
                            .map(|c| (c, how));
                    }
                }
                // `module.f()` where the file imported `module`: from the file a relative
                // import names, else by the module's name (Python's and Go's, below, by its
                // whole path).
                if !matches!(language, "python" | "go")
                    && let Some(module) = self.files[fi].names.imports_of(q_last).next()
                    && let Some(c) = self
                        .in_relative_module(&cands, fi, module)
                        .or_else(|| matches_module(q))
                {
                    return Some((c, "import"));
                }
                // Java: a type written with its package (`java.nio.file.FileSystem`) is that
                // package's, imported or not.
                if language == "java"
                    && kind != EdgeKind::Imports
                    && q.contains('.')
                    && q.starts_with(|c: char| c.is_ascii_lowercase())
                    && let Some(c) = matches_module(q)
                {
                    return Some((c, "qualified"));
                }
                // Python: `os.remove(p)` after `import os`, or `models.Model` after `from
                // django.db import models`, names a member of what the file imported: found
                // here when the repository has that module, else nothing here — not whatever
                // `remove` or `Model` the repository defines (`MutableSet.remove`).
                // Go: `strings.Split(s)` after `import "strings"` (or `str "strings"`) is the
                // same: the imported package's function, or nothing here.
                let head = q.split('.').next().unwrap_or(q);
                let names = self.files[fi].names;
                // The import binding the receiver's first name (or the whole receiver: `import
                // os.path`): its module, and the name it imports (`numpy` for `np`).
                let imported = || {
                    names
                        .import_bound(head)
                        .map(|i| (head, i))
                        .or_else(|| names.import_bound(q).map(|i| (q, i)))
                };
                if matches!(
                    language,
                    "python" | "go" | "javascript" | "typescript" | "tsx"
                ) && kind != EdgeKind::Imports
                    && let Some((bound, (module, _))) = imported()
                {
                    // Go and JavaScript/TypeScript: the package or module the import names
                    // (`path.resolve()` after `require('path')` is Node's, not a `resolve`
                    // of the repository).
                    if language != "python" {
                        let found = match module {
                            Some(m) if m.starts_with('.') => {
                                self.in_relative_module(&cands, fi, Some(m))
                            }
                            m => matches_module(m.unwrap_or(q)),
                        };
                        return found.map(|c| (c, "import"));
                    }
                    // The module's whole path: `django.db.models` for `models.Model` after
                    // `from django.db import models`; its own file first, then the files
                    // under its package.
                    let rest = &q[bound.len()..];
                    let mut paths = Vec::new();
                    let found = names
                        .import_bindings(bound)
                        .find_map(|b| self.python_member(&cands, path, b, rest, &mut paths));
                    return found
                        .or_else(|| paths.iter().find_map(|p| matches_module(p)))
                        .map(|c| (c, "import"));
                }
                if kind == EdgeKind::Calls && self.external_receiver(fi, q, q_last, name) {
                    return None;
                }
                // `xs.length`, `frame.f_code`: the language's own values' property.
                if kind == EdgeKind::References && builtins::is_builtin_property(language, name) {
                    return None;
                }
                // Rust: `config::load()`, `crate::util::join()` name a module's function: the
                // files the path names, before any other `load` or `join`.
                if language == "rust"
                    && self.rust_module_path(fi, q, q_last)
                    && let Some(c) = matches_module(q)
                {
                    return Some((c, "import"));
                }
            }
        }
        if members_only {
            // A type with a base the repository does not define (`EventEmitter`,
            // `unittest.TestCase` outside the standard library) has its `self.emit()` there.
            // A Go type's methods are its own and its embedded types': one it lacks is an
            // embedded outside type's (`l.Lock()` of an embedded `sync.Mutex`).
            if external_base || language == "go" {
                return None;
            }
            // Another type's member of that name: in this file, the only one, or the nearest
            // by directory.
            let ix = self;
            let other = |c: Cand| {
                (not_of.is_none() || ix.parent(c) != not_of)
                    && !(not_caller
                        && c.0 == fi as u32
                        && Some(ix.qualified_name(c)) == source_qname)
            };
            if let Some(c) = cands.member_where(|c| c.0 == fi as u32 && other(c)) {
                return Some((c, "same_file"));
            }
            let first = cands.member_where(other)?;
            if cands.member_where(|c| c != first && other(c)).is_none() {
                return Some((first, "unique_name"));
            }
            let best = cands.nearest_where(ix, path, |c| ix.parent(c).is_some() && other(c))?;
            return Some((best, "ambiguous"));
        }
        if kind != EdgeKind::Imports
            && let Some(c) = cands.in_file_where(fi as u32, near)
        {
            return Some((c, "same_file"));
        }
        // JavaScript and TypeScript: a name imported from a package (not a relative path) is
        // that package's, found by its name, or a library's (`resolve` from `'path'`).
        if kind == EdgeKind::Imports
            && matches!(language, "javascript" | "typescript" | "tsx")
            && qualifier.is_some_and(|m| !m.starts_with('.'))
        {
            return in_module(qualifier).map(|c| (c, "import"));
        }
        let mut imported_by_name = false;
        for module in self.files[fi].names.imports_of(name) {
            imported_by_name = true;
            if let Some(c) = in_module(module) {
                return Some((c, "import"));
            }
            if kind == EdgeKind::Imports && cands.all.len() == 1 && language != "java" {
                return Some((cands.all[0], "unique_name"));
            }
        }
        // Java: `import a.b.C;` names one class, in package `a.b`'s directory (above), or a
        // nested one (`import java.lang.Thread.Builder;`: a member of `Thread`'s `Builder`);
        // else a library's — not another package's `C`.
        if language == "java" {
            let mut modules = self.files[fi].names.imports_of(name).flatten().peekable();
            if modules.peek().is_some() {
                let nested = modules
                    .filter_map(module_last_segment)
                    .filter(|outer| outer.starts_with(|c: char| c.is_uppercase()))
                    .find_map(|outer| cands.with_parent_last(self, outer));
                return nested.map(|c| (c, "import"));
            }
            // A simple type name the file neither declares nor imports by name is its
            // package's (its directory's: `same_package`), else a package's it imports on
            // demand (`import a.b.*;`) or `java.lang`'s (`import`), as JLS 6.4.1 scopes it —
            // before any other type of that name (`com.other.String`).
            if qualifier.is_none() && kind != EdgeKind::Imports {
                let top_type = |c: Cand| {
                    near(c) && self.parent(c).is_none() && TYPE_KINDS.contains(&self.kind(c))
                };
                if let Some(c) = cands.directly_in(self, dir_of(path), top_type) {
                    return Some((c, "same_package"));
                }
                let on_demand = self.files[fi].names.imports_of("*").flatten();
                let imported = on_demand
                    .chain(["java.lang"])
                    .find_map(|m| matches_module(m).filter(|&c| top_type(c)));
                if let Some(c) = imported {
                    return Some((c, "import"));
                }
            }
        }
        // A Python name is defined in its file, imported or built in: a bare call reaches
        // another file's definition only through an import of it (above) or a `*` import of
        // the module that defines it.
        if bare && language == "python" {
            let star = self.files[fi].names.imports_of("*").find_map(in_module);
            return star.map(|c| (c, "import"));
        }
        // A JavaScript or TypeScript file that imports anything is a module: a bare name is
        // its own, imported (above) or a global (`setTimeout`), not another file's function.
        if bare
            && matches!(language, "javascript" | "typescript" | "tsx")
            && self.files[fi].names.has_imports()
        {
            return None;
        }
        // A Go name written alone — a call, a type, a constant — is the caller's package's
        // (its directory's), or a package's imported with `.` (`*`), or built in: never
        // another package's namesake.
        if language == "go" && qualifier.is_none() && kind != EdgeKind::Imports {
            if let Some(found) = self.go_in_package(&cands, path, &near) {
                return Some(found);
            }
            let dot = self.files[fi].names.imports_of("*").find_map(in_module);
            return dot.map(|c| (c, "import"));
        }
        // Names a file uses without defining or importing them (above), which are not another
        // file's: Rust's prelude (`Ok(…)`, `Option`, `Vec`, `Result` — not anyhow's `fn Ok` or
        // `type Result` where the file does not import them), and a generic parameter (`T`,
        // `K`: one capital letter) — found in a module the file imports whole (`use a::*`)
        // or nowhere.
        let prelude = language == "rust"
            && match kind {
                EdgeKind::Calls => bare && RUST_PRELUDE_CALLS.contains(&name),
                _ => RUST_PRELUDE_TYPES.contains(&name),
            };
        let generic =
            qualifier.is_none() && name.len() == 1 && name.as_bytes()[0].is_ascii_uppercase();
        if prelude || generic {
            let star = self.files[fi].names.imports_of("*").find_map(in_module);
            return star.map(|c| (c, "import"));
        }
        // Rust: another module's function is called bare only where the file imports it — by
        // name (a `use` whose path did not name a file here: a re-export, a crate renamed,
        // so by name below) or with its module (`use a::*`). A name the file does not
        // import, with no glob import, is no other file's (a closure `f(x)`, a parameter).
        if bare && language == "rust" {
            let mut globs = self.files[fi].names.imports_of("*").peekable();
            let globbed = globs.peek().is_some();
            if let Some(c) = globs.find_map(in_module) {
                return Some((c, "import"));
            }
            if !globbed && !imported_by_name {
                return None;
            }
        }
        // C and C++: a name is declared in the file or in a header it includes, directly or
        // through other headers: a definition there first (the nearest include; `assert` is
        // `jemalloc/internal/assert.h`'s where a file includes it). Else a definition another
        // file links in: never a `static` function or a macro of another source file, which
        // only that file sees.
        // (A field read, `cfg->size`, too: its struct is in the file or a header.)
        if matches!(language, "c" | "cpp")
            && kind != EdgeKind::Imports
            && (qualifier.is_none() || kind == EdgeKind::References)
        {
            let (included, complete) = self.in_includes(&cands, fi, near);
            if included.is_some() {
                return included;
            }
            // The C library's `free`, `memcpy`, `printf`… where no included header defines
            // them.
            if kind == EdgeKind::Calls && builtins::is_c_library_function(name) {
                return None;
            }
            // Definitions in one file are one definition under `#if` branches (`thd_create`
            // for Windows and for POSIX). When all a source file includes is known, a header
            // it does not include defines nothing it sees. (A header, or a file another one
            // includes, also sees what its includer included before it: `TOBN` in ring's
            // `p256-nistz-table.h`.)
            let sees_all = complete && !self.is_header(fi as u32) && !self.included[fi];
            let visible =
                |c: Cand| near(c) && !self.file_local(c) && (!sees_all || !self.is_header(c.0));
            let first = cands.first(visible)?;
            if !cands.all.iter().any(|&c| c.0 != first.0 && visible(c)) {
                return Some((first, "unique_name"));
            }
            let best = match cands.maps {
                None => cands.nearest_where(self, path, visible),
                Some(_) => ancestors(path).find_map(|d| cands.under_dir(self, d, visible)),
            }?;
            return Some((best, "ambiguous"));
        }
        // C++: a member called on a value (`ptr->getType()`, `os.str()`) is of a class
        // complete where it is called, so one a header the file includes defines comes first.
        if language == "cpp"
            && kind != EdgeKind::Imports
            && qualifier.is_some()
            && let (Some(found), _) =
                self.in_includes(&cands, fi, |c| near(c) && self.parent(c).is_some())
        {
            return Some(found);
        }
        // Python: a reference not on the instance is a name used bare — the file's, imported
        // (above) or built in — or an attribute of a value (`x.path`; a module's or a
        // class's was looked up above), which is some type's member. So it takes no other
        // file's top-level definition (`Any` is
        // `typing`'s, not a vendored `typing_extensions.Any`), and a dunder attribute
        // (`__name__`, `__dict__`) is the language's — also on the instance, whose own type
        // and bases were asked above (`self.__class__` is `object`'s, not the one class that
        // assigns its own).
        let attribute = language == "python"
            && kind == EdgeKind::References
            && !qualifier.is_some_and(|q| SELF_WORDS.contains(&q.trim()));
        if language == "python"
            && kind == EdgeKind::References
            && name.starts_with("__")
            && name.ends_with("__")
        {
            return None;
        }
        // What is left is a guess by name, which in JavaScript, TypeScript, Python and Ruby
        // takes no other test file's definition: a test file is a leaf, which other files
        // reach only through an import (above) — a class in `instance-footprint.test.ts` is
        // no other test's `schema.parse()`.
        let scripts = matches!(
            language,
            "javascript" | "typescript" | "tsx" | "python" | "ruby"
        );
        // Ruby: a bare call that is no method of the caller's class or its bases (looked up
        // on the instance first) is a module's — mixed in — a top-level method's, or
        // `Kernel`'s and `Module`'s (`puts`, `format`, `include`, `private`): not another
        // class's method by its name, unless the file names that class as a base (`class
        // Atom < Base`, where `Base` was not found as the instance's).
        let ruby_bare = language == "ruby" && kind == EdgeKind::Calls && qualifier.is_none();
        // Nor, for a name of `Kernel`'s or `Module`'s own (`format`, `autoload`, `new`), a
        // module's method the file does not mix in: such a call is the built-in's unless a
        // base defines the name. Nor another file's `def` inside a method (concurrent-ruby's
        // `def self.new` in `safe_initialization!`, defined on whichever class calls that):
        // it is no method of any class a guess by name could tell.
        let ruby_kernel = ruby_bare && builtins::is_ruby_kernel_method(name);
        let named_base = |c: Cand| {
            self.parent(c).is_some_and(|p| {
                let p = last_segment(p);
                self.files[fi]
                    .names
                    .heritage()
                    .any(|(_, base, _)| last_segment(base) == p)
            })
        };
        // Rust: nor another crate's definition, unless the caller's crate names that crate
        // (libc's `c_int`, from `core::ffi` through a macro-made prelude, is no
        // `linux-raw-sys` `ctypes::c_int`).
        let rust = language == "rust";
        let near = |c: Cand| {
            near(c)
                && (!attribute || self.parent(c).is_some())
                && (!scripts || c.0 == fi as u32 || !is_script_test_file(self.path(c)))
                && !(ruby_bare
                    && match self.parent_kind(c) {
                        Some("class") => true,
                        Some("module") => ruby_kernel,
                        Some("function" | "method" | "constructor") => c.0 != fi as u32,
                        _ => false,
                    }
                    && !named_base(c))
                && (!rust || self.rust_crates.reaches(fi as u32, c.0))
        };
        if bare || enclosing || attribute {
            let first = cands.first(near)?;
            if !cands.all.iter().any(|&c| c != first && near(c)) {
                return Some((first, "unique_name"));
            }
        } else if let &[only] = &cands.all[..] {
            return near(only).then_some((only, "unique_name"));
        } else if go_member
            && let Some(only) = {
                // Go: a call on a value is a method's or a field's, never a package-level
                // variable's (which calls written alone or through an import may name): those
                // do not make the one method of a name less than the only one.
                let mut members = cands
                    .all
                    .iter()
                    .copied()
                    .filter(|&c| !(self.kind(c) == "variable" && self.parent(c).is_none()));
                let first = members.next();
                first.filter(|_| members.next().is_none())
            }
        {
            return near(only).then_some((only, "unique_name"));
        }
        // A member called on a value whose type the file does not declare (`req.headers()`),
        // or a field read from one (`entry.key`): the nearest by directory, and among the
        // nearest one of a type the file names — imports, references, calls through
        // (`Request`) — before another type's (`Part`). (Names with more candidates than a
        // scan reads are looked up by directory, below.)
        if ((kind == EdgeKind::Calls && qualifier.is_some()) || kind == EdgeKind::References)
            && cands.all.len() <= SCAN_LIMIT
            && !IN_NAMED_CHECK.with(|f| f.get())
        {
            let dir = dir_of(path);
            let named = |c: Cand| self.names_parent_of(fi, c);
            // (nearness, named) of the best so far: among the nearest, the first, unless it is
            // a member of a type the file does not name and a later one's type is named. (A
            // free function stays: `zstd_safe::compress()` is a path, written like a value.)
            let mut best: Option<(((usize, bool), bool), Cand)> = None;
            for c in cands.all.iter().take(SCAN_LIMIT).copied() {
                let rank = nearness(dir, self.path(c));
                let better = match best {
                    None => true,
                    Some(((b, b_named), b_c)) => {
                        rank > b
                            || (rank == b && !b_named && self.parent(b_c).is_some() && named(c))
                    }
                };
                if better && near(c) {
                    best = Some(((rank, named(c)), c));
                }
            }
            if let Some((_, c)) = best {
                return Some((c, "ambiguous"));
            }
        }
        // The nearest by directory (deepest shared ancestor; ties by path order): a few
        // candidates are ranked in one pass, many looked up per ancestor by file range.
        let best = match cands.maps {
            None => cands.nearest_where(self, path, near),
            Some(_) => ancestors(path).find_map(|d| cands.under_dir(self, d, near)),
        }?;
        Some((best, "ambiguous"))
    }

    /// A member of the caller's own type `own` (the source's parent) among `cands`: the type's
    /// own (`same_class`; not for `super`), then, when `up` (a call or reference on `self` or
    /// `super` itself, not on `self.field`), its bases' and (not for `super`) its subclasses'
    /// (`inherited`). Calls and references only go up: looking up a base resolves its clause
    /// with [`Index::pick`], which must not come back here.
    fn own_type_member(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        own: &str,
        kind: EdgeKind,
        sup: bool,
        up: bool,
    ) -> Option<(Cand, &'static str)> {
        let path = self.files[fi].path;
        // A member of a type of that name in another file counts when the type resolves
        // from there to the definition `own` resolves to from here: a Rust `impl` or a Go
        // method beside another file's type, not another package's `Stack.size`.
        let own_def = std::cell::OnceCell::new();
        let same_type = |c: Cand| {
            let Some(def) = *own_def.get_or_init(|| self.type_definition(fi as u32, own)) else {
                return false;
            };
            let theirs = self.type_definition(c.0, own);
            theirs == Some(def) || theirs.is_some_and(|t| self.go_variant(t, def))
        };
        // Go: of a method defined for several platforms, the caller's first.
        let go = self.files[fi].language == "go";
        let platform = go.then(|| self.go_platform(path));
        let built = |c: Cand| {
            platform
                .as_ref()
                .is_some_and(|p| self.go_built(p, c) > 0 && same_type(c))
        };
        if !sup
            && let Some(c) = cands
                .in_file_with_parent(self, fi as u32, own)
                .or_else(|| match go {
                    true => cands.nearest_with_parent_last(self, path, own, built),
                    false => None,
                })
                .or_else(|| cands.nearest_with_parent_last(self, path, own, same_type))
        {
            return Some((c, "same_class"));
        }
        if !(up && matches!(kind, EdgeKind::Calls | EdgeKind::References)) {
            return None;
        }
        self.inherited(cands, fi as u32, own)
            .or_else(|| {
                if sup {
                    None
                } else {
                    self.through_subclasses(cands, fi as u32, own)
                }
            })
            .map(|c| (c, "inherited"))
    }

    /// The definition of type `ty` as file `fi` names it (a declared type), and whether it is
    /// a type alias: `Some(None)` for a type outside the repository, `None` when not known
    /// (a generic parameter; a Go type its package lacks).
    fn declared_type(&self, fi: usize, ty: &str) -> Option<Option<(Cand, bool)>> {
        // The type as the file names it: defined in it, imported, or found by name near it —
        // in its directory or under a directory both share. A type of that name only in
        // unrelated directories (another crate's `Vec`, `Option`) is not this one.
        // An array's members are the language's.
        if ty == crate::analyze::ARRAY {
            return Some(None);
        }
        let dir = dir_of(self.files[fi].path);
        let language = self.files[fi].language;
        let (qualifier, ty) = crate::analyze::split_type_path(ty);
        // A generic parameter (`K parent`, `n: T`): its bound is not known here, so the
        // member is looked up by name.
        if qualifier.is_none() && ty.len() == 1 && ty.as_bytes()[0].is_ascii_uppercase() {
            return None;
        }
        let def = self
            .pick(fi, None, EdgeKind::Implements, ty, qualifier)
            .filter(|&(c, how)| {
                // Sharing a directory other than the root, or both at the root.
                let (shared, direct) = nearness(dir, self.path(c));
                !matches!(how, "ambiguous" | "unique_name")
                    || shared > 0
                    || (dir.is_empty() && direct)
            });
        // Else a type alias, found the same way: C's `typedef struct { … } buf_t;` has its
        // fields as its own members; what `typedef struct arena_s arena_t;` names is not
        // known here, so in C and C++ its members are looked up by name. (Elsewhere an alias
        // without members of its own — Rust's `type ParseStream = &ParseBuffer` — leaves the
        // call `unresolved`, as a type outside the repository does.)
        let alias = || {
            self.pick(fi, None, EdgeKind::References, ty, qualifier)
                .filter(|&(c, how)| {
                    let (shared, direct) = nearness(dir, self.path(c));
                    self.kind(c) == "type_alias"
                        && (!matches!(how, "ambiguous" | "unique_name")
                            || shared > 0
                            || (dir.is_empty() && direct))
                })
                .map(|(c, _)| c)
        };
        match def {
            Some((def, _)) => Some(Some((def, false))),
            None => match alias() {
                Some(def) => Some(Some((def, true))),
                // A Go type its package lacks — unqualified, its own package's; or of an
                // imported package the repository has — is a guess gone wrong (`ts :=
                // httptest.NewTLSServer(…)` is no `TLSServer`), or in a file not indexed:
                // not known to be an outside type.
                None if language == "go"
                    && match qualifier {
                        None => !builtins::is_go_predeclared_type(ty),
                        // (`v.Block`, a local's field read, is no type.)
                        Some(q) => {
                            self.files[fi]
                                .names
                                .import_bound(q)
                                .is_none_or(|(module, _)| {
                                    module.and_then(|m| self.go_package(fi, m)).is_some()
                                })
                        }
                    } =>
                {
                    None
                }
                None => Some(None),
            },
        }
    }

    /// A call on a receiver whose type its file declares (`sb.append()` after
    /// `StringBuilder sb = …`): the type's member, or its bases' (`declared_type`). `Some(None)`
    /// when the repository defines no type of that name (the receiver is a library's: the
    /// call is not to any definition here); `None` when the type has no such member here,
    /// which leaves the call to the usual lookup.
    fn declared_type_member(
        &self,
        fi: usize,
        ty: &str,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        let language = self.files[fi].language;
        let (def, aliased) = match self.declared_type(fi, ty)? {
            Some(found) => found,
            None => return Some(None),
        };
        let Some(cands) = self.candidates(kind, language, name) else {
            return Some(None);
        };
        let owner = self.qualified_name(def);
        match self.own_type_member(&cands, def.0 as usize, owner, kind, false, true) {
            Some((c, _)) => Some(Some((c, "declared_type"))),
            None if aliased && !matches!(language, "c" | "cpp") => Some(None),
            // An embedded type is a field named after it (`in.Stack` of `struct { Stack; … }`).
            None if language == "go" && kind == EdgeKind::References => {
                let names = self.files[def.0 as usize].names;
                let embedded = names
                    .heritage()
                    .find(|&(t, base, _)| t == owner && base == name);
                Some(embedded.and_then(|(t, base, q)| {
                    let (c, _) = self.pick(def.0 as usize, Some(t), EdgeKind::Inherits, base, q)?;
                    Some((c, "declared_type"))
                }))
            }
            // A Go type's methods are its own and its embedded types' (its bases here): one
            // it lacks is an embedded outside type's, or none — not another type's.
            None if language == "go" => Some(None),
            // A class with a base from outside the repository, up its bases: a member it
            // lacks is that base's (`$e->getMessage()` of PHP's `Exception`). (Not Rust's
            // types, whose outside "bases" are traits, nor C's.)
            None if !matches!(language, "rust" | "c")
                && self.has_external_ancestor(def.0, owner) =>
            {
                Some(None)
            }
            None => None,
        }
    }

    /// The variant `name` of the enum Rust qualifier `q` names in file `fi` (`Self` in a
    /// method: its own type, `same_class`; else the type as `Type::f()`'s is found,
    /// `qualified`), when it has one.
    fn variant_of(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        q: &str,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        let is_variant = |c: &Cand| self.kind(*c) == "variant";
        if q == "Self" {
            let own = source_qname?.rsplit_once('.')?.0;
            let cands = self.candidates(EdgeKind::References, "rust", name)?;
            let found =
                self.own_type_member(&cands, fi, own, EdgeKind::References, false, false)?;
            return Some(found.0).filter(is_variant).map(|c| (c, "same_class"));
        }
        let q_last = q
            .rsplit("::")
            .find(|s| !s.is_empty() && !s.starts_with('<'))?;
        if !q_last.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let ty = crate::analyze::type_name(q)?;
        match self.declared_type_member(fi, ty, EdgeKind::References, name) {
            Some(Some((c, _))) if is_variant(&c) => Some((c, "qualified")),
            _ => None,
        }
    }

    /// The traits the Rust file `fi` imports by name (`use futures::TryStreamExt;`), as
    /// the file's names resolve: the extension traits whose methods a value of a type from
    /// outside the repository may have ([`Self::imported_trait_member`]).
    fn imported_traits(&self, fi: usize) -> Vec<Cand> {
        let f = &self.files[fi];
        if f.language != "rust" {
            return Vec::new();
        }
        let mut traits: Vec<Cand> = f
            .names
            .imports()
            .filter(|(n, _)| n.starts_with(|c: char| c.is_ascii_uppercase()))
            .filter_map(|(n, _)| self.pick(fi, None, EdgeKind::Implements, n, None))
            .map(|(c, _)| c)
            .filter(|&c| self.kind(c) == "trait")
            .collect();
        traits.dedup();
        traits
    }

    /// A method called `name` of one of `traits` (the file's [`Self::imported_traits`]),
    /// labelled `import`: on a value whose type the repository does not define
    /// (`stream.try_collect()` with `use futures::TryStreamExt;`), unless the name is a
    /// standard method's ([`builtins::is_builtin_method`]).
    fn imported_trait_member(
        &self,
        traits: &[Cand],
        kind: EdgeKind,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        // A standard method's name (`map`, `next`, `len`) is more likely the standard
        // library's own (`Iterator::map`) than an extension trait's (`StreamExt::map`).
        if traits.is_empty() || kind != EdgeKind::Calls || builtins::is_builtin_method("rust", name)
        {
            return None;
        }
        let cands = self.candidates(kind, "rust", name)?;
        traits
            .iter()
            .find_map(|&t| cands.in_file_with_parent(self, t.0, self.qualified_name(t)))
            .map(|c| (c, "import"))
    }

    /// For a Rust `Type::f()` the type was not found to have: the file's imported traits' `f`
    /// (`import`), else a trait's `f` in the file (`same_file`), else the only definition of
    /// `f` if a trait's, else of a trait the file names, the only one (`unique_name`) or the
    /// nearest (`ambiguous`); `None` otherwise, and for a standard trait's method's name.
    fn rust_trait_function(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        name: &str,
        near: &dyn Fn(Cand) -> bool,
    ) -> Option<(Cand, &'static str)> {
        // A standard trait's method (`Type::default()` of a derived `Default`, `clone`,
        // `from`) is the standard library's, not a trait of the repository's by its name
        // (nor an imported one's: [`Self::imported_trait_member`] passes these over too).
        if builtins::is_builtin_method("rust", name) {
            return None;
        }
        let traits = self.imported_traits(fi);
        if let Some(found) = self.imported_trait_member(&traits, EdgeKind::Calls, name) {
            return Some(found);
        }
        let of_trait = |c: Cand| {
            self.parent_kind(c) == Some("trait")
                && near(c)
                && self.rust_crates.reaches(fi as u32, c.0)
        };
        if let Some(c) = cands.in_file_where(fi as u32, of_trait) {
            return Some((c, "same_file"));
        }
        // The one definition of the name there is (`StdRng::from_entropy()`: rand_core's
        // `SeedableRng`, imported through rand's re-export).
        if let [only] = cands.all
            && of_trait(*only)
        {
            return Some((*only, "unique_name"));
        }
        // Else a trait the file names (a bound, an import of its module's path, an impl): a
        // trait of that name only elsewhere is a guess more often wrong than right
        // (itertools' `CountItem.new` for a `FieldRef::new`).
        if IN_NAMED_CHECK.with(|f| f.get()) {
            return None;
        }
        let named = |c: Cand| of_trait(c) && self.names_parent_of(fi, c);
        let path = self.files[fi].path;
        let found = match cands.maps {
            None => cands.nearest_where(self, path, named),
            Some(_) => ancestors(path).find_map(|d| cands.under_dir(self, d, named)),
        }?;
        let only = cands.maps.is_none() && cands.member_where(|c| c != found && named(c)).is_none();
        Some((found, if only { "unique_name" } else { "ambiguous" }))
    }

    /// The member `name` of what field `field` (a definition) holds, or of an element of
    /// it when `indexed`, by the type its signature gives it (`declared_type`); `None` when
    /// it gives none this can read. As [`Index::declared_type_member`] answers.
    fn field_value_member(
        &self,
        field: Cand,
        indexed: bool,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        use crate::analyze::returns::{Returned, element, returned};
        let file = &self.files[field.0 as usize];
        // A member of `owner` (a qualified name in the field's file).
        let member_of = |owner: &str| {
            let cands = self.candidates(kind, file.language, name)?;
            match self.own_type_member(&cands, field.0 as usize, owner, kind, false, true) {
                Some((c, _)) => Some(Some((c, "declared_type"))),
                None if file.language == "go" => Some(None),
                None => None,
            }
        };
        // Go: an embedded type, read as a field (`in.Stack.Text()`).
        if !indexed
            && (TYPE_KINDS.contains(&self.kind(field))
                || go_defined_type(self.kind(field), file.language))
        {
            return member_of(self.qualified_name(field));
        }
        if !matches!(self.kind(field), "field" | "property" | "variable") {
            return None;
        }
        // (A variable made by a call, `x = Foo()`, is typed only by `python_var_member`.)
        let raw = file
            .names
            .declared_return(field.1 as usize)
            .filter(|t| called(t).is_none())?;
        let ty = if indexed { element(raw)? } else { raw };
        // Go: an anonymous struct's fields are the field's own members (`c.pool.size` of
        // `pool struct { start, size uint32 }`).
        // (Its signature is cut at the brace: `pool struct`.)
        if let Some(rest) = ty.strip_prefix("struct")
            && (rest.is_empty() || rest.trim_start().starts_with('{'))
        {
            return member_of(self.qualified_name(field));
        }
        match returned(ty, false)? {
            Returned::Type(ty) => self.declared_type_member(field.0 as usize, ty, kind, name),
            Returned::Own => None,
        }
    }

    /// A call on another call's result (`Config::load(p)?.validate()`, `b.with(x).build()`,
    /// `new Foo().run()`, `Foo().run()`), or on a local bound to one (`receiver_type` a call):
    /// a member of the type the inner call's target (`callee`) declares it returns
    /// (`return_type`), found as [`Self::declared_type_member`] finds a declared receiver's,
    /// from the file of the function that declares it. `None` when the inner call or what it
    /// returns is not known here, which leaves the call to the usual lookup.
    fn call_result_member(
        &self,
        fi: usize,
        kind: EdgeKind,
        name: &str,
        chain: &crate::analyze::returns::Chained<'_>,
        callee: Option<Cand>,
    ) -> Option<Option<(Cand, &'static str)>> {
        use crate::analyze::returns::{Returned, returned};
        // A member of the type `owner` (a qualified name in file `at`) found among the
        // nearest candidates, or the usual lookup.
        let member_of = |at: u32, owner: &str| {
            let cands = self.candidates(kind, self.files[at as usize].language, name)?;
            let found = self.own_type_member(&cands, at as usize, owner, kind, false, true)?;
            Some(Some(found))
        };
        let found = if chain.new {
            self.declared_type_member(fi, chain.name, kind, name)?
        } else {
            let callee = callee?;
            let names = self.files[callee.0 as usize].names;
            let owner = self.parent(callee);
            let go_type =
                go_defined_type(self.kind(callee), self.files[callee.0 as usize].language);
            if TYPE_KINDS.contains(&self.kind(callee)) || go_type {
                // `Foo(…)`: a class called makes an instance of it (Go: converts a value to
                // it, `socket.ControlMessage(b)`).
                member_of(callee.0, self.qualified_name(callee))?
            } else if self.kind(callee) == "constructor"
                || owner.is_some_and(|o| last_segment(o) == names.name(callee.1 as usize))
            {
                member_of(callee.0, owner?)?
            } else {
                let raw = names.declared_return(callee.1 as usize)?;
                // A Go field of a function type returns what the function does. A Go
                // variable's type (`var Ctxt *obj.Link`; a function type is not kept) is what
                // it holds, not what calling it returns.
                let raw = match self.kind(callee) {
                    "field" if go_func_type(raw) => std::borrow::Cow::Owned(go_func_result(raw)?),
                    "variable" if self.files[callee.0 as usize].language == "go" => return None,
                    _ => std::borrow::Cow::Borrowed(raw),
                };
                match returned(&raw, chain.unwrap)? {
                    Returned::Own => member_of(callee.0, owner?)?,
                    Returned::Type(ty) => {
                        self.declared_type_member(callee.0 as usize, ty, kind, name)?
                    }
                }
            }
        };
        Some(found.map(|(c, _)| (c, "return_type")))
    }

    /// Whether a call `q.name()` on a receiver that is not `self`, a type of the repository or
    /// an imported module names something the repository cannot define: a literal's method
    /// (`", ".join(xs)`), a global object's (`JSON.parse`), a member of a type no file defines
    /// (`HashMap::new()`, `Math.max(…)`, `Console.WriteLine`), or a standard method on a value
    /// whose type the file does not declare (`items.append(x)`, `opt.unwrap()`; see
    /// [`builtins`]). Such a call is `unresolved`, not the nearest definition of that name.
    fn external_receiver(&self, fi: usize, q: &str, q_last: &str, name: &str) -> bool {
        let language = self.files[fi].language;
        // C++'s standard library (`std::move`, `std::make_shared`).
        if builtins::is_literal(q) || (language == "cpp" && (q == "std" || q.starts_with("std::")))
        {
            return true;
        }
        let names = self.files[fi].names;
        let plain = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        };
        if plain(q)
            && builtins::is_global_object(language, q)
            && names.imports_of(q).next().is_none()
        {
            return true;
        }
        // A type's name (`HashMap`, `Console`; not a constant's, `DEFAULT_CONFIG`) in a path
        // of names, where types are written so.
        let type_like = q_last.starts_with(|c: char| c.is_uppercase())
            && (q_last.len() == 1 || q_last.contains(|c: char| c.is_lowercase()))
            && q.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '\\' | '.'));
        if type_like
            && !matches!(language, "go" | "c")
            && self
                .candidates(EdgeKind::Inherits, language, q_last)
                .is_none()
        {
            return true;
        }
        // A Rust module path (`util::join`) is not a value; a type's path is (`T::default()`
        // with no `default` of `T`'s here is derived or the standard library's).
        builtins::is_builtin_method(language, name)
            && !(language == "rust" && self.rust_module_path(fi, q, q_last))
    }

    /// Whether a call `m.f()` that found no target calls through a module the file imports
    /// and the repository lacks (`os.Create(p)`, `time.Now()`, `sys._getframe()`): what it
    /// returns is a value from outside the repository too, whose methods are none of the
    /// repository's (`t.Sub(u)` after `t := time.Now()`); also a bare call of a name so
    /// imported (`expect(x)` from `vitest`, then `.toBe(1)`). Go's packages and Python's
    /// modules are found by path here; a JavaScript or TypeScript package counts only where
    /// no directory is named like it — one the repository has may re-export what the lookup
    /// missed, so there a call on its result still goes by name.
    fn outside_module_call(
        &self,
        fi: usize,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> bool {
        let f = &self.files[fi];
        let script = matches!(f.language, "javascript" | "typescript" | "tsx");
        if kind != EdgeKind::Calls || !(script || matches!(f.language, "go" | "python")) {
            return false;
        }
        // (A bare call of an imported function — `expect(x)` from `vitest` — too, but in Go,
        // whose imports bind packages.)
        let head = match qualifier {
            Some(q) if !q.contains(['(', '[', ' ']) => q.split('.').next().unwrap_or(q),
            None if f.language != "go" => name,
            _ => return false,
        };
        match f.names.import_bound(head) {
            None => false,
            Some((module, _)) if f.language == "go" => {
                module.is_none_or(|m| self.go_package(fi, m).is_none())
            }
            // A package imported by name (not a relative path) that no directory here is
            // named like: `vitest`, `@scope/name` (by `name`).
            Some((module, _)) if script => module.is_some_and(|m| {
                let mut parts = m.split('/');
                let package = match parts.next() {
                    Some(scope) if scope.starts_with('@') => parts.next(),
                    first => first,
                };
                !m.starts_with(['.', '/'])
                    && package.is_some_and(|p| !self.dir_names.contains(&segment_hash(p)))
            }),
            Some((module, name)) => self
                .python_module_file(f.path, &python_path(module, name, ""))
                .or_else(|| module.and_then(|m| self.python_module_file(f.path, m)))
                .is_none(),
        }
    }

    /// Whether Rust qualifier `q` of a call in file `fi` is a module's path (`a::b`,
    /// `crate::util`, or `util` where the file declares `mod util`), not a value (`v` in
    /// `v.join()`: one name alone is written the same either way).
    fn rust_module_path(&self, fi: usize, q: &str, q_last: &str) -> bool {
        if !(q_last.starts_with(|c: char| c.is_lowercase())
            && q.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':')))
        {
            return false;
        }
        let names = self.files[fi].names;
        q.contains("::")
            || (0..names.symbol_count()).any(|i| names.kind(i) == "module" && names.name(i) == q)
    }

    /// A member of the Python module a receiver's import names (`(module, name)`: `os.path`
    /// is `(Some("os"), "path")`, `np` is `(None, "numpy")`, `rest` any further names of the
    /// receiver): defined in that module's own file. When no file is that module, but the
    /// module it is imported from imports it in turn (`from tests.unit import unittest`, with
    /// `import unittest` in `tests/unit/__init__.py`), each such import is followed (`try:
    /// import unittest2 as unittest` / `except: import unittest`), a few levels at most.
    /// `paths` gets each module path tried: with no such member, the files under those
    /// modules' packages are [`Index::pick`]'s to look through.
    fn python_member(
        &self,
        cands: &Cands<'_, 'a>,
        from: &'a str,
        (module, name): (Option<&'a str>, &'a str),
        rest: &str,
        paths: &mut Vec<String>,
    ) -> Option<Cand> {
        let path = python_path(module, name, rest);
        if let Some(file) = self.python_module_file(from, &path) {
            paths.push(path);
            return cands.in_file(*self.by_path.get(file)? as u32);
        }
        paths.push(path);
        if paths.len() > 8 {
            return None;
        }
        // The module it is imported from, importing it in turn.
        let file = self.python_module_file(from, module?)?;
        let fi = *self.by_path.get(file)?;
        let names = self.files[fi].names;
        let mut bindings = names.import_bindings(name).peekable();
        if bindings.peek().is_some() {
            return bindings
                .find_map(|(m2, n2)| self.python_member(cands, file, (m2, n2), rest, paths));
        }
        // Else `name` is that module's own object (`from …openssl.backend import backend as
        // ossl`, then `ossl.load_pkcs12()`), whose members are defined beside it; or a
        // package the module puts on the path at run time (`from setuptools.extern import
        // packaging`: a vendored `packaging`), found by its own name.
        paths.push(python_path(None, name, rest));
        cands.in_file(fi as u32)
    }

    /// Whether type `own`, as file `fi` declares it, names a base the repository does not
    /// define: no type of the repository has that name. (A base the resolver fails to
    /// resolve, but that the repository may define — a PHP `\google\net\ProtocolMessage` —
    /// does not count.)
    fn has_external_base(&self, fi: usize, own: &str) -> bool {
        let language = self.files[fi].language;
        self.files[fi]
            .names
            .heritage()
            .filter(|(ty, _, _)| *ty == own)
            .any(|(_, base, _)| {
                let base = base.rsplit(['.', ':', '\\']).next().unwrap_or(base);
                self.candidates(EdgeKind::Inherits, language, base)
                    .is_none()
            })
    }

    /// Whether type `ty` of file `fi` has, up its bases (as [`Self::inherited`] walks them),
    /// one the repository does not define — no type of its name at all, as for
    /// [`Self::has_external_base`]: `ExceptionWrapper` of PHPUnit extends its own
    /// `Exception`, which extends PHP's `RuntimeException`. (A base of a name the repository
    /// has that the lookup did not find ends that branch: it may be the repository's.)
    fn has_external_ancestor(&self, fi: u32, ty: &str) -> bool {
        let language = self.files[fi as usize].language;
        let outside = |base: &str| {
            // (Python's `object`, every class's root, adds no member of note.)
            if language == "python" && base == "object" {
                return Some(None);
            }
            let last = base.rsplit(['.', ':', '\\']).next().unwrap_or(base);
            let unknown = self
                .candidates(EdgeKind::Inherits, language, last)
                .is_none();
            unknown.then_some(Some(()))
        };
        // (PHP's classes are found by namespace, exactly: one not found, `\Exception` beside
        // an `App\Exception`, is outside.)
        let unfound = |b: Option<Cand>| (b.is_none() && language == "php").then_some(());
        self.up_bases(fi, ty, outside, unfound).is_some()
    }

    /// An unqualified call in a method, in a language where it is a call on the instance
    /// (`size()` in a Java, C#, C++ or Ruby method means `this.size()`): a member of the
    /// method's own type or of its bases, as for `this.size()`. `None` leaves the call to
    /// the usual lookup by name (a static import, a free function, an outer class's method).
    fn implicit_receiver(&self, fi: usize, own: &str, name: &str) -> Option<(Cand, &'static str)> {
        let cands = self.candidates(EdgeKind::Calls, self.files[fi].language, name)?;
        self.own_type_member(&cands, fi, own, EdgeKind::Calls, false, true)
    }

    /// A candidate defined in the file that a relative import (`./util`, `../x.js`) of file
    /// `fi` names.
    fn in_relative_module(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        module: Option<&str>,
    ) -> Option<Cand> {
        let module = module.filter(|m| m.starts_with('.'))?;
        let file = self.relative_file(fi, module)?;
        cands.in_file(*self.by_path.get(file)? as u32)
    }

    /// `./util` imported from `src/app.js` → `src/util.js` (or `src/util/index.js`);
    /// `#include "util.h"` from `c/util.c` → `c/util.h`; a Python module's file
    /// ([`Self::python_module_file`]).
    fn relative_file(&self, fi: usize, module: &str) -> Option<&'a str> {
        let from = self.files[fi].path;
        if self.files[fi].language == "python" {
            return self.python_module_file(from, module);
        }
        if !module.starts_with('.') {
            let sibling = match dir_of(from) {
                "" => module.to_string(),
                d => format!("{d}/{module}"),
            };
            return self
                .by_path
                .get_key_value(sibling.as_str())
                .map(|(k, _)| *k);
        }
        let mut parts: Vec<&str> = dir_of(from).split('/').filter(|s| !s.is_empty()).collect();
        for seg in module.split('/') {
            match seg {
                "." | "" => {}
                ".." => {
                    parts.pop()?;
                }
                s => parts.push(s),
            }
        }
        let base = parts.join("/");
        let exts = [
            "",
            ".ts",
            ".tsx",
            ".js",
            ".jsx",
            ".mjs",
            ".py",
            ".rb",
            "/index.ts",
            "/index.js",
            "/__init__.py",
        ];
        exts.iter().find_map(|e| {
            self.by_path
                .get_key_value(format!("{base}{e}").as_str())
                .map(|(k, _)| *k)
        })
    }
}

impl<'a> Index<'a> {
    /// The file an import edge of file `fi` names when no definition is its target: a
    /// relative path's file (`relative_path`); in Python, the module itself (`import a.b`,
    /// `from pkg import submodule`), else the package it is imported from (`import`, or
    /// `relative_path` for a relative module); in Go, the file that stands for the package
    /// ([`Self::go_package`]).
    fn imported_file(&self, fi: usize, e: &RawEdge) -> Option<(&'a str, &'static str)> {
        if e.kind != EdgeKind::Imports {
            return None;
        }
        let module = e.qualifier.as_deref();
        if matches!(self.files[fi].language, "c" | "cpp") {
            let (file, how) = self.include_file(fi, module?)?;
            return Some((self.files[file as usize].path, how));
        }
        // Go: the package's file, when the repository has the package.
        if self.files[fi].language == "go" {
            let (_, file) = self.go_package(fi, module?)?;
            return Some((self.files[file as usize].path, "import"));
        }
        // Java: `import a.b.*;` is the package's, in a directory ending `a/b`: the nearest.
        if self.files[fi].language == "java" {
            if &*e.target_name != "*" {
                return None;
            }
            let package = module?;
            let last = package.rsplit('.').next()?;
            let dir = dir_of(self.files[fi].path);
            let path = self
                .java_packages
                .get(last)?
                .iter()
                .map(|&(_, file)| self.files[file as usize].path)
                .filter(|path| package_dir_names(package, '.', path))
                .max_by_key(|path| nearness(dir, path).0)?;
            return Some((path, "import"));
        }
        let python = self.files[fi].language == "python";
        let file = if python {
            let path = self.files[fi].path;
            self.python_module_file(path, &python_path(module, &e.target_name, ""))
                .or_else(|| self.python_module_file(path, module?))
        } else {
            self.relative_file(fi, module?)
        }?;
        let relative = module.is_some_and(|m| m.starts_with('.'));
        Some((
            file,
            if python && !relative {
                "import"
            } else {
                "relative_path"
            },
        ))
    }

    /// The directory of the Go package import path `import` names from file `fi`, and the
    /// file that stands for it. The directory is the path itself, under the repository's
    /// root, a GOPATH's `src` or a `vendor` directory (`golang.org/x/net/ipv4` in
    /// `src/golang.org/x/net/ipv4/`), or anywhere for a path that begins with a domain;
    /// else, for such a path, its last names (the repository is the module:
    /// `internal/util` of `example.com/m/internal/util`). A path without a domain is the
    /// standard library's (`net/http` is no `api/http/`, `reflect` no test's fake
    /// `testdata/src/reflect/`), and a `testdata` package is seen only from its own
    /// `testdata`. Of several, a whole path before last names, then the nearest.
    fn go_package(&self, fi: usize, import: &str) -> Option<(&'a str, u32)> {
        let import = import.trim_matches('/');
        let last = import.rsplit('/').next()?;
        let dirs = self.go_packages.get(last)?;
        let from = self.files[fi].path;
        let testdata = go_testdata(from);
        // A path through a `testdata` directory names that package from anywhere (`go build`
        // skips `testdata` only when listing packages, not when an import names one there);
        // any other path names a package under `testdata` only from that same `testdata`.
        let into_testdata = import.split('/').any(|s| s == "testdata");
        let domain = import.split('/').next().is_some_and(|f| f.contains('.'));
        // 0: the whole path; 1: its last names; none: not this package.
        let rank = |d: &str| -> Option<u8> {
            if !into_testdata && go_testdata(d).is_some_and(|t| Some(t) != testdata) {
                return None;
            }
            if d == import {
                return Some(0);
            }
            if let Some(prefix) = d.strip_suffix(import).and_then(|p| p.strip_suffix('/')) {
                let root = |name: &str| prefix.rsplit('/').next() == Some(name);
                return (domain || root("src") || root("vendor")).then_some(0);
            }
            (domain && !d.is_empty() && import.strip_suffix(d).is_some_and(|p| p.ends_with('/')))
                .then_some(1)
        };
        let dir = dir_of(from);
        dirs.iter()
            .filter_map(|&(d, f)| Some((rank(d)?, d, f)))
            .min_by_key(|&(r, d, _)| (r, std::cmp::Reverse(nearness(dir, d).0)))
            .map(|(_, d, f)| (d, f))
    }

    /// The file a Python module names for file `from`: a relative module (`.case`, `..util`,
    /// `.`) from the importing file's package; an absolute one (`email.utils`) under the
    /// nearest ancestor directory of the importing file that has it (the repository's source
    /// root: the root, `src/`, a package's parent). The module `a.b` is `a/b.py` or the
    /// package `a/b/__init__.py` (or their `.pyi` stubs).
    fn python_module_file(&self, from: &str, module: &str) -> Option<&'a str> {
        let dots = module.len() - module.trim_start_matches('.').len();
        let rest = module[dots..].replace('.', "/");
        let lookup = |base: &str| -> Option<&'a str> {
            let stem = match (base.is_empty(), rest.is_empty()) {
                (true, _) => rest.clone(),
                (false, true) => base.to_string(),
                (false, false) => format!("{base}/{rest}"),
            };
            ["py", "pyi"].iter().find_map(|ext| {
                // `from . import x` names the package alone, not a `pkg.py` beside it.
                let module_file = (!rest.is_empty()).then(|| format!("{stem}.{ext}"));
                let package = match stem.as_str() {
                    "" => format!("__init__.{ext}"),
                    s => format!("{s}/__init__.{ext}"),
                };
                module_file
                    .iter()
                    .chain([&package])
                    .find_map(|p| self.by_path.get_key_value(p.as_str()).map(|(k, _)| *k))
            })
        };
        if dots > 0 {
            let mut dir = dir_of(from);
            for _ in 1..dots {
                if dir.is_empty() {
                    return None;
                }
                dir = dir_of(dir);
            }
            return lookup(dir);
        }
        if rest.is_empty() {
            return None;
        }
        ancestors(from).find_map(lookup)
    }
}

/// Whether a package named by directories — Java's `a.b` (`sep` `.`) — may name `path`: the
/// file is directly in a directory whose last names are the package's
/// (`src/main/java/a/b/C.java`), or, when the repository's root is inside the package's
/// path, its directories are the package's last names. `java.security` does not name
/// `sun/security/util/Key.java`. (Go's import paths are [`Index::go_package`]'s.)
fn package_dir_names(package: &str, sep: char, path: &str) -> bool {
    let segments: Vec<&str> = package.split(sep).filter(|s| !s.is_empty()).collect();
    let dirs: Vec<&str> = dir_of(path).split('/').filter(|s| !s.is_empty()).collect();
    !segments.is_empty()
        && (dirs.ends_with(&segments) || (!dirs.is_empty() && segments.ends_with(&dirs)))
}

/// The dotted path of what a Python import binds, and names after it: `(Some("a"), "b")`
/// with `.c` is `a.b.c`; `(None, "numpy")` is `numpy`.
fn python_path(module: Option<&str>, name: &str, rest: &str) -> String {
    match module {
        Some(m) => format!("{}{rest}", python_submodule(m, name)),
        None => format!("{name}{rest}"),
    }
}

/// Python's module `N` of package `M` (`from M import N`): `M.N`, `.N` for `from . import N`.
fn python_submodule(m: &str, name: &str) -> String {
    if m.ends_with('.') {
        format!("{m}{name}")
    } else {
        format!("{m}.{name}")
    }
}

/// Whether `head` is the name of the Python module at `path` (its file's stem, or its
/// package's directory for an `__init__.py`).
fn python_module_named(path: &str, head: &str) -> bool {
    match dir_and_stem(path) {
        (dir, "__init__") => dir.rsplit('/').next() == Some(head),
        (_, stem) => stem == head,
    }
}

/// Whether Python module `module` (`a.b`, `.a.b`) may name `path`: its names are consecutive
/// directories of the path, ending at the file (`a/b.py`, `a/b/__init__.py`) or at a
/// directory above it (`a/b/c.py`, a package re-exporting its modules' names) — or, when the
/// repository's root is inside the package, the module's last names are the path's first.
/// `os.path` does not name a repository's `util/path.py`.
fn python_module_names(module: &str, path: &str) -> bool {
    let segments: Vec<&str> = module.split('.').filter(|s| !s.is_empty()).collect();
    let (dir, stem) = dir_and_stem(path);
    let mut components: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    if stem != "__init__" {
        components.push(stem);
    }
    if segments.is_empty() {
        return false;
    }
    (0..components.len()).any(|i| components[i..].starts_with(&segments))
        || (1..segments.len()).any(|m| components.starts_with(&segments[segments.len() - m..]))
}

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

    /// The resolved edge rows of file `fi`, whose analysis is `analysis`.
    pub fn edges<'b>(&'b self, fi: usize, analysis: &'b FileAnalysis) -> Vec<EdgeRow<'b>> {
        let index = &self.index;
        let f: &'a FileInput<'a> = &index.files[fi];
        let file_ident = Ident::File(f.path);
        let own: HashMap<&str, u32> = analysis
            .symbols
            .iter()
            .enumerate()
            .map(|(si, s)| (&*s.qualified_name, si as u32))
            .collect();
        let symbol = |c: Cand| {
            (
                Ident::Symbol(index.path(c), index.qualified_name(c)),
                self.number(c),
            )
        };
        // `Index::pick`'s answers in this file, by what it reads of an edge: the kind, the
        // name, the qualifier and (with a qualifier) the caller's type. A file calls the same
        // names again and again (`new`, `clone`, `unwrap`, its own helpers), and a name with
        // many definitions is the most expensive to pick.
        let mut picked_before: PickMemo<'b> = HashMap::default();
        // A call on another call's result (`a.b().c()`), or on a local the result of a call
        // was bound to (`let c = a.b(); c.d()`, `receiver_type` `a.b()`), needs that call's
        // target: the edge of the same name and qualifier just after it at the same position
        // (a chain's calls all start where it starts), or the last before it. A call or
        // reference on a field read (`v.Args[0].Reg()`, `self.repo.find()`) needs the field's:
        // the reference to it from the same source (a source references a name once).
        let edges_in = &analysis.edges;
        // The file's calls by name, built for the first local bound to a call's result.
        let calls_named = std::cell::OnceCell::new();
        // The file's references by source and name, built for the first field read.
        let refs_named = std::cell::OnceCell::new();
        let inner: Vec<Option<(Link<'b>, Option<usize>)>> = edges_in
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (text, after) =
                    match (e.kind, e.receiver_type.as_deref(), e.qualifier.as_deref()) {
                        (EdgeKind::Calls | EdgeKind::References, None, Some(q)) => (q, true),
                        (EdgeKind::Calls | EdgeKind::References, Some(t), _) => (t, false),
                        _ => return None,
                    };
                let go_new = || {
                    (f.language == "go")
                        .then(|| crate::analyze::returns::go_new(text))
                        .flatten()
                };
                let chain = match go_new().or_else(|| crate::analyze::returns::chained(text)) {
                    Some(chain) if e.kind == EdgeKind::Calls || !after => chain,
                    Some(_) => return None,
                    None => {
                        let read = crate::analyze::returns::field_read(text)?;
                        let refs = refs_named.get_or_init(|| {
                            let mut m: HashMap<(Option<&str>, &str), Vec<usize>> =
                                HashMap::default();
                            for (j, x) in edges_in.iter().enumerate() {
                                if x.kind == EdgeKind::References {
                                    m.entry((x.source.as_deref(), &*x.target_name))
                                        .or_default()
                                        .push(j);
                                }
                            }
                            m
                        });
                        let j = refs
                            .get(&(e.source.as_deref(), read.field))?
                            .iter()
                            .copied()
                            .find(|&j| {
                                // (PHP's `$this->repo` reads a field PHP's analysis
                                // records on `this`.)
                                let of = edges_in[j].qualifier.as_deref().map(str::trim);
                                j != i
                                    && of.map(|q| q.trim_start_matches('$'))
                                        == Some(read.of.trim_start_matches('$'))
                            })?;
                        let link = Link::Field {
                            indexed: read.indexed,
                        };
                        return Some((link, Some(j)));
                    }
                };
                if chain.new {
                    return Some((Link::Call(chain), None));
                }
                let is_inner = |x: &RawEdge| {
                    let q = x.qualifier.as_deref().map(str::trim);
                    x.kind == EdgeKind::Calls
                        && *x.target_name == *chain.name
                        && (q == chain.qualifier
                            || (q.is_some()
                                && q == chain.qualifier.and_then(|q| q.strip_suffix('?'))))
                };
                let j = if after {
                    (i + 1..edges_in.len().min(i + 16)).find(|&j| {
                        let x = &edges_in[j];
                        x.line == e.line && x.character == e.character && is_inner(x)
                    })
                } else {
                    let calls = calls_named.get_or_init(|| {
                        let mut m: HashMap<&str, Vec<usize>> = HashMap::default();
                        for (j, x) in edges_in.iter().enumerate() {
                            if x.kind == EdgeKind::Calls {
                                m.entry(&*x.target_name).or_default().push(j);
                            }
                        }
                        m
                    });
                    let named = calls.get(chain.name).map_or(&[][..], |v| &v[..]);
                    named[..named.partition_point(|&j| j < i)]
                        .iter()
                        .rev()
                        .copied()
                        .find(|&j| is_inner(&edges_in[j]))
                };
                Some((Link::Call(chain), j))
            })
            .collect();
        NAMED_TYPES.with(|cell| {
            let mut named = cell.borrow_mut();
            named.0 = index.id;
            named.1 = fi as u32;
            let set = &mut named.2;
            set.clear();
            NAMED_TYPE_PICKS.with(|m| m.borrow_mut().clear());
            let mut add = |n: &str| {
                set.insert(segment_hash(n));
            };
            for (e, inner) in analysis.edges.iter().zip(&inner) {
                match e.kind {
                    EdgeKind::Calls => {
                        if let Some(q) = e.qualifier.as_deref() {
                            add(q.rsplit([':', '.']).next().unwrap_or(q));
                        }
                    }
                    _ => {
                        add(&e.target_name);
                        if let Some(alias) = e.alias.as_deref() {
                            add(alias);
                        }
                    }
                }
                // (A receiver type that is a call, `Config::load(p)?`, names no type.)
                if let Some(t) = e.receiver_type.as_deref()
                    && inner.is_none()
                {
                    add(t);
                }
            }
            for s in analysis
                .symbols
                .iter()
                .filter(|s| TYPE_KINDS.contains(&s.kind))
            {
                add(&s.name);
            }
        });
        let traits = std::cell::OnceCell::new();
        type Found = Option<Option<(Cand, &'static str)>>;
        let mut returned_before: HashMap<(EdgeKind, &str, &str, bool, Option<Cand>, bool), Found> =
            HashMap::default();
        let mut typed_before: HashMap<(EdgeKind, &str, &str), Found> = HashMap::default();
        let mut vars_before: HashMap<(EdgeKind, &str, &str), Found> = HashMap::default();
        let mut fields_before: HashMap<(EdgeKind, &str, Cand, bool), Found> = HashMap::default();
        let mut targets: Vec<Option<Cand>> = vec![None; edges_in.len()];
        let mut rows: Vec<Option<EdgeRow<'b>>> = (0..edges_in.len()).map(|_| None).collect();
        // Whether each edge resolved is a call on a value of a type from outside the
        // repository (`unresolved` for that reason): a call on its result is too.
        let mut outside: Vec<bool> = vec![false; edges_in.len()];
        // Whether each edge resolved is a call on a receiver whose target was guessed by name
        // (`ambiguous`, `unique_name`).
        let mut guessed: Vec<bool> = vec![false; edges_in.len()];
        let mut resolve_at = |i: usize,
                              targets: &[Option<Cand>],
                              outside: &[bool],
                              guessed: &[bool]| {
            let e = &edges_in[i];
            // The source: a symbol of this file, or (for `impl Trait for T` with `T` defined
            // elsewhere) the type it names, or the file.
            let (source, source_number) = match e.source.as_deref() {
                None => (file_ident, None),
                Some(q) => match own.get(q) {
                    Some(&si) => {
                        let (id, n) = symbol((fi as u32, si));
                        (id, Some(n))
                    }
                    None => match index.pick(fi, None, EdgeKind::Implements, last_segment(q), None)
                    {
                        Some((c, _)) => {
                            let (id, n) = symbol(c);
                            (id, Some(n))
                        }
                        None => (file_ident, None),
                    },
                },
            };
            // What the edge names, looked up as an edge of `kind`: the target and whether the
            // receiver's type was found outside the repository.
            let mut lookup = |kind: EdgeKind| {
                // A Go method's calls on its receiver (`s.notFound()` in `func (s *Server) …`)
                // are calls on `self`; the stored qualifier stays as written.
                let qualifier = match (kind, e.source.as_deref(), e.qualifier.as_deref()) {
                    (EdgeKind::Calls, Some(q), Some(written))
                        if f.language == "go"
                            && own.get(q).and_then(|&si| {
                                go_receiver(&analysis.symbols[si as usize].signature)
                            }) == Some(written) =>
                    {
                        Some("self")
                    }
                    (_, _, written) => written,
                };
                // A call on a receiver of a declared type is that type's member; on a call's
                // result, the member of the type that call returns.
                // The member on the receiver's declared type (remembered per file).
                let mut declared = |ty: &'b str| {
                    *typed_before
                        .entry((kind, &*e.target_name, ty))
                        .or_insert_with(|| index.declared_type_member(fi, ty, kind, &e.target_name))
                };
                let typed = match (&inner[i], kind, e.receiver_type.as_deref(), qualifier) {
                    // Both remembered per file: a builder chain or a declared type's calls repeat.
                    // The result of an outside type's method (`f.debug_struct("X")`, then
                    // `.field(…)`, `.finish()`) is an outside value, unless the method hands out
                    // what the value holds (`v.first()`, `m.lock()`: the element's own type).
                    (Some((Link::Call(chain), Some(j))), ..)
                        if outside[*j] && !crate::analyze::returns::hands_out(chain.name) =>
                    {
                        Some(None)
                    }
                    // A field of an outside type's value holds another outside value. (A
                    // field a type of the repository lacks, as Go's lookup found it, may be
                    // a build variant's or an embedded type's: looked up by name.)
                    (Some((Link::Field { .. }, Some(j))), ..) if outside[*j] => {
                        // (A receiver type that is a call or field read found outside is.)
                        let foreign = match edges_in[*j].receiver_type.as_deref() {
                            Some(t) if inner[*j].is_none() => {
                                matches!(index.declared_type(fi, t), Some(None))
                            }
                            _ => true,
                        };
                        foreign.then_some(None)
                    }
                    (Some((Link::Field { indexed }, j)), ..) => {
                        let field = j.and_then(|j| targets[j]).filter(|&c| {
                            e.receiver_type.is_none()
                                || matches!(index.kind(c), "field" | "property" | "variable")
                        });
                        match field {
                            // A receiver type that reads as a field (`pkg.Type`) but is none.
                            None => match e.receiver_type.as_deref() {
                                Some(ty) if !reads_a_field(ty) => declared(ty),
                                _ => None,
                            },
                            Some(field) => {
                                let key = (kind, &*e.target_name, field, *indexed);
                                let found = *fields_before.entry(key).or_insert_with(|| {
                                    index.field_value_member(field, *indexed, kind, &e.target_name)
                                });
                                // (A field found by name may not be the value's.)
                                match found {
                                    Some(None) if j.is_some_and(|j| guessed[j]) => None,
                                    found => found,
                                }
                            }
                        }
                    }
                    (Some((Link::Call(chain), j)), ..) => {
                        let callee = j.and_then(|j| targets[j]);
                        let key = (
                            kind,
                            &*e.target_name,
                            chain.name,
                            chain.unwrap,
                            callee,
                            chain.new,
                        );
                        let found = *returned_before.entry(key).or_insert_with(|| {
                            index.call_result_member(fi, kind, &e.target_name, chain, callee)
                        });
                        // A Go type lacking the member says the call is none of the repository's
                        // (`declared_type_member`) — unless the inner call's target was a guess,
                        // whose type may not be the value's.
                        match found {
                            Some(None) if f.language == "go" && j.is_some_and(|j| guessed[j]) => {
                                None
                            }
                            found => found,
                        }
                    }
                    // A local bound to a field read not found above: by name.
                    (None, EdgeKind::Calls | EdgeKind::References, Some(ty), _)
                        if reads_a_field(ty) =>
                    {
                        None
                    }
                    (None, EdgeKind::Calls | EdgeKind::References, Some(ty), q)
                        if !q.is_some_and(|q| SELF_WORDS.contains(&q)) =>
                    {
                        declared(ty)
                    }
                    // Go: on a package-level variable of this package or an imported one.
                    (None, EdgeKind::Calls | EdgeKind::References, None, Some(q))
                        if f.language == "go" && q != "self" =>
                    {
                        *vars_before
                            .entry((kind, &*e.target_name, q))
                            .or_insert_with(|| index.go_var_member(fi, q, kind, &e.target_name))
                    }
                    // Python: on a module variable made by a call (the file's or imported).
                    (None, EdgeKind::Calls | EdgeKind::References, None, Some(q))
                        if f.language == "python" =>
                    {
                        *vars_before
                            .entry((kind, &*e.target_name, q))
                            .or_insert_with(|| {
                                index.python_var_member(fi, q.trim(), kind, &e.target_name)
                            })
                    }
                    _ => None,
                };
                // An unqualified call in a method of a language that calls its own members
                // without `this` is first looked for on the instance.
                let on_instance = match (kind, e.source.as_deref(), qualifier) {
                    (EdgeKind::Calls, Some(q), None) if implicit_this(f.language) => own
                        .get(q)
                        .filter(|&&si| {
                            matches!(analysis.symbols[si as usize].kind, "method" | "constructor")
                        })
                        .and_then(|_| q.rsplit_once('.'))
                        .and_then(|(ty, _)| index.implicit_receiver(fi, ty, &e.target_name)),
                    _ => None,
                };
                // A renamed import's name is looked up as what it imports: `b()` after `from m
                // import a as b` as `a()`, `np.array()` after `import numpy as np` as
                // `numpy.array()`, `E::new()` after `use a::Entry as E` as `Entry::new()`.
                let renamed = |n: &str| {
                    f.names
                        .renames()
                        .then(|| f.names.renamed(n))
                        .flatten()
                        .filter(|o| *o != "*")
                };
                let (renamed_name, renamed_qualifier) = match (kind, qualifier) {
                    (EdgeKind::Imports, _) => (None, None),
                    // PHP's names go through their `use` in `pick` (`Index::php_class`): `new
                    // FilterDirectory()` after `use …\Filter\Directory as FilterDirectory` is
                    // that `Directory`, not the file's own namespace's.
                    _ if f.language == "php" => (None, None),
                    (_, None) => (renamed(&e.target_name), None),
                    // Python's and Go's receivers are looked up through their import in `pick`,
                    // which tells two aliases of one name apart (`flags as compute_flags`) and
                    // finds a Go package by its path (`jsonrpc2 "…/jsonrpc2_v2"`).
                    (_, Some(_)) if matches!(f.language, "python" | "go") => (None, None),
                    (_, Some(q)) => {
                        let head_end = q.find(['.', ':']).unwrap_or(q.len());
                        let q = renamed(&q[..head_end]).map(|o| format!("{o}{}", &q[head_end..]));
                        (None, q)
                    }
                };
                let picked = match typed {
                    // A Rust method on a value of a type from outside the repository may be an
                    // extension trait's that the file imports (`stream.try_collect()` with
                    // `use futures::TryStreamExt`).
                    Some(None) => index.imported_trait_member(
                        traits.get_or_init(|| index.imported_traits(fi)),
                        kind,
                        &e.target_name,
                    ),
                    Some(found) => found,
                    None if renamed_name.is_some() || renamed_qualifier.is_some() => on_instance
                        .or_else(|| {
                            index.pick(
                                fi,
                                e.source.as_deref(),
                                kind,
                                renamed_name.unwrap_or(&e.target_name),
                                renamed_qualifier.as_deref().or(qualifier),
                            )
                        }),
                    None => on_instance.or_else(|| {
                        let source = e.source.as_deref();
                        // `self.x.f()` is never its caller `f` itself (`Index::pick`'s
                        // `not_caller`), so its answer depends on the caller.
                        let delegates = kind == EdgeKind::Calls
                            && qualifier.is_some_and(|q| {
                                let q = q.trim();
                                q.starts_with("self.") || q.starts_with("this.")
                            });
                        let owner = if delegates || enclosing_only(kind, f.language, qualifier) {
                            source
                        } else {
                            qualifier
                                .and(source.and_then(|s| s.rsplit_once('.')))
                                .map(|(o, _)| o)
                        };
                        let key = (kind, &*e.target_name, qualifier, owner);
                        *picked_before.entry(key).or_insert_with(|| {
                            index.pick(fi, source, kind, &e.target_name, qualifier)
                        })
                    }),
                };
                (qualifier, picked, matches!(typed, Some(None)))
            };
            let (qualifier, mut picked, typed_outside) = lookup(e.kind);
            // Rust: a path used as a value (`u64::MAX`, `Ordering::Less`, `T::ZERO`,
            // `Into::into`, `Self::DEFAULT`) is the member of the type, module or crate its
            // path names — else of a primitive, the standard library, a generic parameter, a
            // trait or a crate not indexed: no other definition of that name.
            if f.language == "rust"
                && e.kind == EdgeKind::References
                && qualifier.is_some_and(|q| !matches!(q.trim(), "self" | "this"))
                && picked.is_some_and(|(_, how)| {
                    matches!(how, "same_file" | "unique_name" | "ambiguous")
                })
            {
                picked = None;
            }
            // A method or function named as a value, not called: on a receiver
            // (`self.on_click`, `this.handleClick`, Rust's `Self::parse`, Java's `this::visit`,
            // Go's `s.serve`) or written alone (`register(handler)`, C's `.read = my_read`;
            // the analysis keeps only the file's functions and imported names). Where
            // references find no field or type of the name but by a guess — or, for a name
            // alone, only a field or variable — it is looked up as a call on the same
            // receiver, or a bare call, would be, and taken only when that finds a method or
            // function on the receiver's type, an import or a path's module (a name alone: in
            // the file or an import), not by a guess. Not Rust's `self.x`, always a field; nor,
            // on a receiver, the source itself: a getter reads the field of its own name (`fn
            // size(&self) { self.size }`). (A reference without a qualifier is one written
            // alone but in Rust, PHP and Go, whose field reads may have none.)
            let alone = e.qualifier.is_none() && e.receiver_type.is_none() && inner[i].is_none();
            let applies = match alone {
                true => match f.language {
                    "python" | "javascript" | "typescript" | "tsx" | "c" => true,
                    // (A name alone may be a value's member in Go and C++: taken when no
                    // field or type of the name answered but by a guess — or, in Go, by
                    // another file of the package, which may be for another platform or
                    // another `testdata` program: the file's own function comes first. Rust's
                    // field reads keep no qualifier at all: only when none answered, or
                    // `x.data` would become a function `data` of the file.)
                    "go" | "cpp" => picked.is_none_or(|(_, how)| {
                        matches!(how, "ambiguous" | "unique_name" | "same_package")
                    }),
                    "rust" => picked.is_none(),
                    _ => false,
                },
                false => !(f.language == "rust" && qualifier.is_some_and(|q| q.trim() == "self")),
            };
            let taken = |c: Cand, how: &str| match alone {
                true => matches!(how, "same_file" | "import") && index.kind(c) == "function",
                false => {
                    let found = match how {
                        "same_class" | "inherited" | "declared_type" | "return_type" | "import" => {
                            true
                        }
                        // (Go: a method expression, `T.m`; `d.Name.Name` reads a value, whose
                        // type is not the one named `Name`.)
                        "qualified" => {
                            f.language != "go"
                                || qualifier.is_some_and(|q| {
                                    !q.contains('.') && q.starts_with(char::is_uppercase)
                                })
                        }
                        _ => false,
                    };
                    found
                        && matches!(index.kind(c), "method" | "function")
                        && Some(symbol(c).1) != source_number
                }
            };
            if e.kind == EdgeKind::References
                && applies
                && picked.is_none_or(|(c, how)| {
                    matches!(how, "ambiguous" | "unique_name" | "same_package")
                        || (alone && matches!(index.kind(c), "field" | "property" | "variable"))
                })
                && let (_, Some((c, how)), _) = lookup(EdgeKind::Calls)
                && taken(c, how)
            {
                picked = Some((c, how));
            }
            // JavaScript, TypeScript: `exports.x`, `module.exports.x` is the file's own
            // export — a definition in the file, else its top-level `x`, or nothing (compiled
            // CommonJS names every export first, `exports.a = exports.b = void 0;`) — never
            // another file's namesake.
            if matches!(f.language, "javascript" | "typescript" | "tsx")
                && matches!(qualifier.map(str::trim), Some("exports" | "module.exports"))
            {
                picked = picked.filter(|&(c, _)| c.0 as usize == fi).or_else(|| {
                    // (`exports.run = run;`: the file's top-level `run`, a function too.)
                    let &si = own.get(&*e.target_name)?;
                    Some(((fi as u32, si), "same_file"))
                });
            }
            let target_cand = picked.map(|(c, _)| c);
            let (target, target_number, resolution) = match picked {
                Some((c, how)) => {
                    let (id, n) = symbol(c);
                    (Some(id), Some(n), how)
                }
                None => match index.imported_file(fi, e) {
                    Some((p, how)) => (Some(Ident::File(p)), None, how),
                    None => (None, None, "unresolved"),
                },
            };
            let row = EdgeRow {
                kind: e.kind,
                source,
                source_number,
                source_qname: e.source.as_deref(),
                source_path: f.path,
                line: e.line,
                character: e.character,
                target_name: &e.target_name,
                target_qualifier: e.qualifier.as_deref(),
                receiver_type: e.receiver_type.as_deref(),
                alias: e.alias.as_deref(),
                target,
                target_number,
                resolution,
            };
            (
                row,
                target_cand,
                picked.is_none()
                    && (typed_outside
                        || index.outside_module_call(fi, e.kind, &e.target_name, qualifier)),
            )
        };
        // Each edge after the one it needs ([`inner`]): a chain's links are resolved from
        // its first call on, a local's call before the uses of the local. A cycle (a local
        // bound to a call on itself, `let x = x.next()`) or a long chain is cut short.
        let mut stack = Vec::new();
        for start in (0..edges_in.len()).rev() {
            stack.clear();
            stack.push(start);
            while let Some(&i) = stack.last() {
                if rows[i].is_some() {
                    stack.pop();
                    continue;
                }
                if let Some((_, Some(j))) = inner[i]
                    && rows[j].is_none()
                    && !stack.contains(&j)
                    && stack.len() < 64
                {
                    stack.push(j);
                    continue;
                }
                let (row, target, from_outside) = resolve_at(i, &targets, &outside, &guessed);
                guessed[i] = edges_in[i].qualifier.is_some()
                    && matches!(row.resolution, "ambiguous" | "unique_name" | "same_file");
                rows[i] = Some(row);
                targets[i] = target;
                outside[i] = from_outside;
                stack.pop();
            }
        }
        rows.into_iter().flatten().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::packed::Packed;
    use crate::analyze::{FileAnalysis, RawEdge, SymbolParts};

    fn function(name: &str, parent: Option<&str>) -> Symbol {
        let qualified_name = match parent {
            Some(p) => format!("{p}.{name}"),
            None => name.to_string(),
        };
        Symbol::new(SymbolParts {
            kind: "function",
            name,
            qualified_name: &qualified_name,
            parent,
            start: (1, 0),
            end: (1, 10),
            signature: "fn new()",
            doc: None,
            is_public: true,
            complexity: Some(0),
        })
    }

    /// A file's packed analysis from its symbols and raw edges.
    fn analysis(symbols: Vec<Symbol>, edges: Vec<RawEdge>) -> FileAnalysis {
        FileAnalysis {
            symbols,
            edges,
            ..Default::default()
        }
    }

    fn pack(symbols: Vec<Symbol>, edges: Vec<RawEdge>) -> Packed {
        Packed::new(&analysis(symbols, edges)).unwrap()
    }

    /// An import of `name` from `module` (`None`: `import name` itself).
    fn import(name: &str, module: Option<&str>) -> RawEdge {
        RawEdge {
            kind: EdgeKind::Imports,
            source: None,
            line: 1,
            character: 0,
            target_name: name.into(),
            qualifier: module.map(Into::into),
            receiver_type: None,
            alias: None,
        }
    }

    /// [`function`] as a symbol of another kind (`method`, `class`, `struct`).
    fn of_kind(kind: &'static str, name: &str, parent: Option<&str>) -> Symbol {
        let mut s = function(name, parent);
        s.kind = kind;
        s
    }

    /// Resolution's inputs for packed analyses of files in one language.
    fn inputs<'a, P: AsRef<str>>(
        packed: &'a [(P, Packed)],
        language: &'a str,
    ) -> Vec<FileInput<'a>> {
        packed
            .iter()
            .map(|(path, p)| FileInput {
                path: path.as_ref(),
                language,
                names: p.names(),
            })
            .collect()
    }

    #[test]
    fn rust_path_heads_as_split_reads_them() {
        for path in [
            "",
            "::",
            "::::",
            "std",
            "::std::sync::Arc",
            "a::b",
            "a:b::c",
            "a:::b",
            ":::a::b",
            "crate::x",
            "Vec::<u8>::new",
            "a:",
            ":a",
            "é::x",
            "::é",
        ] {
            let split = path
                .trim_start_matches("::")
                .split("::")
                .next()
                .unwrap_or("");
            assert_eq!(rust_path_head(path), split, "{path:?}");
        }
    }

    /// What [`reached_crates`] finds, head by head and name by name.
    fn head_names_crate(head: &str, name: &str) -> bool {
        head == name
            || name.strip_prefix(head).is_some_and(|r| r.starts_with('_'))
            || head.strip_suffix(name).is_some_and(|r| r.ends_with('_'))
    }

    #[test]
    fn crates_reached_as_every_head_compared_with_every_name() {
        let names: Vec<String> = [
            "arrow",
            "arrow_array",
            "arrow_array_x",
            "analysis",
            "quarry_analysis",
            "",
            "a_b",
            "b",
            "tokio",
            "tokio_util",
            "linux_raw_sys",
            "sys",
        ]
        .map(String::from)
        .to_vec();
        let heads: Vec<rustc_hash::FxHashSet<&str>> = [
            &["arrow", "std"][..],
            &["quarry_analysis", "tokio"],
            &["x_", "_b", "a"],
            &["linux_raw_sys", "raw", "arrow_array"],
            &[],
            &["tokio_util_more", "b_tokio", "a_b"],
        ]
        .iter()
        .map(|h| h.iter().copied().collect())
        .collect();
        let reached = reached_crates(&names, &heads);
        for (a, heads) in heads.iter().enumerate() {
            let expected: Vec<u32> = (0..names.len() as u32)
                .filter(|&b| {
                    heads
                        .iter()
                        .any(|h| head_names_crate(h, &names[b as usize]))
                })
                .collect();
            assert_eq!(reached[a], expected, "crate {a}'s heads {heads:?}");
        }
        // Spelled out for two: a facade reaches its parts, a renamed dependency its crate.
        assert_eq!(reached[0], vec![0, 1, 2]);
        assert!(reached[1].contains(&3) && reached[1].contains(&4) && reached[1].contains(&8));
    }

    #[test]
    fn super_words_are_per_language() {
        assert!(is_super("python", "super()") && is_super("python", "super(Cls, self)"));
        assert!(is_super("java", "super") && is_super("csharp", "base"));
        assert!(is_super("php", "parent"));
        // Elsewhere `base` and `parent` are ordinary names (modules, variables).
        assert!(!is_super("python", "base") && !is_super("javascript", "parent"));
        assert!(!is_super("python", "superclass"));
    }

    #[test]
    fn go_receivers_are_read_from_signatures() {
        assert_eq!(
            go_receiver("func (s *Server) Handle(path string) string"),
            Some("s")
        );
        assert_eq!(go_receiver("func (srv Server[T]) Run()"), Some("srv"));
        assert_eq!(go_receiver("func (*Server) Handle()"), None);
        assert_eq!(go_receiver("func (Server) Handle()"), None);
        assert_eq!(go_receiver("func (_ *Server) Handle()"), None);
        assert_eq!(go_receiver("func Handle(s *Server)"), None);
    }

    /// A bare call (`print(x)`) takes no method outside Java, C#, C++ and Ruby: a function of
    /// that name, or nothing. A call on a receiver still takes a method.
    #[test]
    fn bare_calls_take_no_method_where_methods_need_a_receiver() {
        let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
        let class = |name: &str| of_kind("class", name, None);
        let files = |language: &'static str| {
            let packed = vec![
                (
                    "a/traceback.py",
                    pack(
                        vec![class("Tb"), method("print", "Tb"), method("helper", "Tb")],
                        vec![],
                    ),
                ),
                (
                    "b/util.py",
                    pack(
                        vec![
                            function("helper", None),
                            function("outer", None),
                            function("inner", Some("outer")),
                            function("Ok", None),
                        ],
                        vec![],
                    ),
                ),
                (
                    "c/main.py",
                    pack(
                        vec![class("Main"), method("run", "Main"), function("go", None)],
                        vec![],
                    ),
                ),
            ];
            (packed, language)
        };
        for (language, bare_reaches_methods) in [
            ("python", false),
            ("rust", false),
            ("go", false),
            ("javascript", false),
            ("php", false),
            // Java, C# and C++: `bare_calls_in_java_take_enclosing_types_methods_only`.
            ("ruby", true),
        ] {
            let (packed, language) = files(language);
            let files = inputs(&packed, language);
            let index = Index::new(&files);
            let pick = |name: &str, q: Option<&str>| {
                index
                    .pick(2, Some("go"), EdgeKind::Calls, name, q)
                    .map(|(c, how)| (index.qualified_name(c), how))
            };
            if bare_reaches_methods {
                // Ruby: a method in the file, or a module's (mixed in), but not another
                // class's (`ruby_bare_calls_take_no_unrelated_class_method`).
                assert_eq!(pick("print", None), None);
                assert_eq!(pick("run", None), Some(("Main.run", "same_file")));
            } else {
                // Not the only method of that name, not the method in the caller's own file.
                assert_eq!(pick("print", None), None, "{language}");
                assert_eq!(pick("run", None), None, "{language}");
                // The function, though a method of that name comes first (in Python and
                // Rust only if imported: `rust_bare_calls_need_an_import`; in Go only in
                // the caller's package: below).
                let elsewhere = !matches!(language, "python" | "go" | "rust");
                let helper = elsewhere.then_some(("helper", "unique_name"));
                assert_eq!(pick("helper", None), helper, "{language}");
                // Rust's `Ok(x)` is the prelude's, not another file's `fn Ok`.
                let ok = (elsewhere && language != "rust").then_some(("Ok", "unique_name"));
                assert_eq!(pick("Ok", None), ok, "{language}");
                // A function nested in another file's function is out of reach; in its own
                // file it is found.
                assert_eq!(pick("inner", None), None, "{language}");
                assert_eq!(
                    index
                        .pick(1, Some("outer"), EdgeKind::Calls, "inner", None)
                        .map(|(c, how)| (index.qualified_name(c), how)),
                    Some(("outer.inner", "same_file")),
                    "{language}"
                );
            }
            // On a receiver, the method.
            assert_eq!(
                pick("print", Some("tb")),
                Some(("Tb.print", "unique_name")),
                "{language}"
            );
        }
        // Python: another file's function through an import of it, or of `*` from its module.
        for (imports, found) in [
            (
                vec![import("helper", Some("util"))],
                Some(("helper", "import")),
            ),
            (vec![import("*", Some("util"))], Some(("helper", "import"))),
            (vec![import("*", Some("elsewhere"))], None),
            (vec![import("other", Some("util"))], None),
        ] {
            let packed = vec![
                ("b/util.py", pack(vec![function("helper", None)], vec![])),
                ("c/main.py", pack(vec![function("go", None)], imports)),
            ];
            let files = inputs(&packed, "python");
            let index = Index::new(&files);
            let picked = index
                .pick(1, Some("go"), EdgeKind::Calls, "helper", None)
                .map(|(c, how)| (index.qualified_name(c), how));
            assert_eq!(picked, found);
        }
    }

    /// Go: a bare call names its own package's function (its directory) or a dot-imported
    /// package's. JavaScript: a file that imports anything is a module, whose bare names are
    /// its own, imported or global; a script without imports still reaches other files'.
    #[test]
    fn go_packages_and_javascript_modules_bound_bare_calls() {
        let resolve = |language: &str, caller_imports: Vec<RawEdge>, name: &str| {
            let packed = vec![
                ("app/util.go", pack(vec![function("near", None)], vec![])),
                (
                    "lib/other/other.go",
                    pack(vec![function("far", None), function("near", None)], vec![]),
                ),
                (
                    "app/main.go",
                    pack(vec![function("main", None)], caller_imports),
                ),
            ];
            let files = inputs(&packed, language);
            let index = Index::new(&files);
            index
                .pick(2, Some("main"), EdgeKind::Calls, name, None)
                .map(|(c, how)| (index.path(c).to_string(), how))
        };
        assert_eq!(
            resolve("go", vec![], "near"),
            Some(("app/util.go".to_string(), "same_package"))
        );
        assert_eq!(resolve("go", vec![], "far"), None);
        assert_eq!(
            resolve(
                "go",
                vec![import("*", Some("example.com/lib/other"))],
                "far"
            ),
            Some(("lib/other/other.go".to_string(), "import"))
        );
        // An alias binds a package name, not its functions.
        assert_eq!(
            resolve(
                "go",
                vec![import("o", Some("example.com/lib/other"))],
                "far"
            ),
            None
        );
        // JavaScript: a script reaches another file's function; a module does not.
        assert_eq!(
            resolve("javascript", vec![], "far"),
            Some(("lib/other/other.go".to_string(), "unique_name"))
        );
        assert_eq!(
            resolve("javascript", vec![import("x", Some("./x"))], "far"),
            None
        );
        assert_eq!(
            resolve(
                "typescript",
                vec![import("far", Some("../lib/other/other"))],
                "far"
            ),
            Some(("lib/other/other.go".to_string(), "import"))
        );
    }

    /// Go: a call written alone may call a package-level variable of its package (`var
    /// DaysIn = daysIn`, `var Usage = func() {…}`), not another package's; what calling one
    /// returns is not its declared type.
    #[test]
    fn go_calls_reach_package_level_function_variables() {
        let var = |name: &str, signature: &str| {
            let mut s = of_kind("variable", name, None);
            s.signature = signature.into();
            s
        };
        let packed = vec![
            (
                "time/export_test.go",
                pack(
                    vec![
                        var("DaysIn", "DaysIn = daysIn"),
                        var("Ctxt", "Ctxt *File"),
                        var("Discard", "Discard Writer"),
                    ],
                    vec![],
                ),
            ),
            (
                "time/file.go",
                pack(
                    vec![
                        of_kind("struct", "File", None),
                        of_kind("method", "Close", Some("File")),
                        of_kind("method", "Discard", Some("File")),
                    ],
                    vec![],
                ),
            ),
            (
                "time/time_test.go",
                pack(vec![function("TestDaysIn", None)], vec![]),
            ),
            ("other/main.go", pack(vec![function("main", None)], vec![])),
        ];
        let files = inputs(&packed, "go");
        let index = Index::new(&files);
        let pick = |from: usize, source: &str, name: &str| {
            index
                .pick(from, Some(source), EdgeKind::Calls, name, None)
                .map(|(c, how)| (index.qualified_name(c).to_string(), how))
        };
        assert_eq!(
            pick(2, "TestDaysIn", "DaysIn"),
            Some(("DaysIn".to_string(), "same_package"))
        );
        assert_eq!(pick(3, "main", "DaysIn"), None);
        // `f.Discard(n)` on a value: the one method of that name, as sure as before variables
        // were called.
        assert_eq!(
            index
                .pick(2, Some("TestDaysIn"), EdgeKind::Calls, "Discard", Some("f"))
                .map(|(c, how)| (index.qualified_name(c).to_string(), how)),
            Some(("File.Discard".to_string(), "unique_name"))
        );
        // `Ctxt(name).Close()`: `Ctxt` holds a `*File`, which calling does not return.
        let chain = crate::analyze::returns::chained("Ctxt(name)").expect("a call");
        let ctxt = pick(2, "TestDaysIn", "Ctxt");
        assert_eq!(ctxt, Some(("Ctxt".to_string(), "same_package")));
        let callee = index.pick(2, Some("TestDaysIn"), EdgeKind::Calls, "Ctxt", None);
        let close =
            index.call_result_member(2, EdgeKind::Calls, "Close", &chain, callee.map(|t| t.0));
        assert_eq!(close.flatten(), None);
    }

    /// Go: a name defined in several files of the caller's package, one per platform, is
    /// the one built beside the caller (by the platforms file names and `//go:build` lines
    /// state; `linux`/`amd64` for a file that states none); a test file's definitions are
    /// seen only from test files.
    #[test]
    fn go_names_defined_per_platform_take_the_callers_platform() {
        let built = |path, name, line: Option<&str>| {
            let a = FileAnalysis {
                symbols: vec![function(name, None)],
                go_build: line.map(str::to_string),
                ..Default::default()
            };
            (path, Packed::new(&a).unwrap())
        };
        let defines = |path, name| built(path, name, None);
        let packed = vec![
            defines("rt/os_darwin.go", "sigblock"),
            defines("rt/os_linux.go", "sigblock"),
            defines("rt/os_windows.go", "sigblock"),
            built(
                "rt/lock_futex.go",
                "lock",
                Some("dragonfly || freebsd || linux"),
            ),
            built("rt/lock_sema.go", "lock", Some("aix || darwin || windows")),
            defines("rt/stubs_arm64.go", "getg"),
            defines("rt/stubs_386.go", "getg"),
            defines("rt/export_test.go", "Exported"),
            defines("rt/proc.go", "main"),
            defines("rt/signal_windows.go", "handle"),
            defines("rt/proc_test.go", "TestX"),
            built("rt/mem.go", "alloc", Some("windows")),
            // Its line does not parse: it constrains nothing.
            built("rt/odd.go", "odd", Some("linux &&")),
            // Generators' inputs, built by no default build: stand-ins for the generated
            // files (skipped), by their names.
            built("rt/types_linux.go", "Stat", Some("ignore")),
            built("rt/types_darwin.go", "Stat", Some("ignore")),
            built("rt/time_fake.go", "nanotime", Some("faketime && !windows")),
            built("rt/time_nofake.go", "nanotime", Some("!faketime")),
        ];
        let files = inputs(&packed, "go");
        let index = Index::new(&files);
        let pick = |from: usize, name: &str| {
            index
                .pick(from, None, EdgeKind::Calls, name, None)
                .map(|(c, how)| (index.path(c), how))
        };
        let (proc, windows, test) = (8, 9, 10);
        assert_eq!(
            pick(proc, "sigblock"),
            Some(("rt/os_linux.go", "same_package"))
        );
        assert_eq!(
            pick(windows, "sigblock"),
            Some(("rt/os_windows.go", "same_package"))
        );
        // Both fit any platform by name; their `//go:build` lines choose.
        assert_eq!(
            pick(proc, "lock"),
            Some(("rt/lock_futex.go", "same_package"))
        );
        // A file built for Windows by its line alone calls Windows's `sigblock` and `lock`.
        let (mem, odd) = (11, 12);
        assert_eq!(
            pick(mem, "sigblock"),
            Some(("rt/os_windows.go", "same_package"))
        );
        assert_eq!(pick(mem, "lock"), Some(("rt/lock_sema.go", "same_package")));
        assert_eq!(
            pick(odd, "lock"),
            Some(("rt/lock_futex.go", "same_package"))
        );
        assert_eq!(
            pick(proc, "Stat"),
            Some(("rt/types_linux.go", "same_package"))
        );
        assert_eq!(
            pick(proc, "nanotime"),
            Some(("rt/time_nofake.go", "same_package"))
        );
        // None fits `amd64`: a guess among them.
        assert_eq!(pick(proc, "getg").map(|(_, how)| how), Some("ambiguous"));
        // The only one, but for another platform: a guess (the caller may be built for
        // several).
        assert_eq!(
            pick(proc, "handle"),
            Some(("rt/signal_windows.go", "unique_name"))
        );
        assert_eq!(pick(proc, "Exported"), None);
        assert_eq!(
            pick(test, "Exported"),
            Some(("rt/export_test.go", "same_package"))
        );
    }

    /// JavaScript, TypeScript, Python, Ruby: a guess by name takes no other test file's
    /// definition (a test is reached only through an import); Go's test files see their
    /// package's.
    #[test]
    fn guesses_by_name_skip_other_test_files() {
        for (language, lib, test, caller) in [
            (
                "typescript",
                "lib/schemas.ts",
                "tests/a.test.ts",
                "tests/b.test.ts",
            ),
            (
                "python",
                "lib/schemas.py",
                "tests/test_a.py",
                "tests/test_b.py",
            ),
            ("ruby", "lib/schemas.rb", "spec/a_spec.rb", "spec/b_spec.rb"),
            ("go", "other/schemas.go", "lib/a_test.go", "lib/b_test.go"),
        ] {
            let packed = vec![
                (
                    lib,
                    pack(vec![of_kind("method", "parse", Some("Schema"))], vec![]),
                ),
                (
                    test,
                    pack(vec![of_kind("method", "parse", Some("First"))], vec![]),
                ),
                (caller, pack(vec![function("check", None)], vec![])),
            ];
            let files = inputs(&packed, language);
            let index = Index::new(&files);
            let picked = index
                .pick(2, Some("check"), EdgeKind::Calls, "parse", Some("schema"))
                .map(|(c, _)| index.qualified_name(c));
            let expected = match language {
                "go" => "First.parse",
                _ => "Schema.parse",
            };
            assert_eq!(picked, Some(expected), "{language}");
        }
    }

    /// Python: a call on an imported module (`os.remove(p)` after `import os`) is that
    /// module's member, or, when the repository lacks the module, nothing here.
    #[test]
    fn python_calls_on_imported_modules_stay_in_them() {
        let remove = of_kind("method", "remove", Some("MutableSet"));
        let packed = vec![
            (
                "abc.py",
                pack(
                    vec![
                        remove,
                        function("exists", None),
                        of_kind("method", "audit", Some("Checker")),
                    ],
                    vec![],
                ),
            ),
            ("pkg/sub.py", pack(vec![function("helper", None)], vec![])),
            (
                "main.py",
                pack(
                    vec![function("main", None)],
                    vec![
                        import("os", None),
                        import("os.path", None),
                        import("pkg", None),
                    ],
                ),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |name: &str, q: &str| {
            index
                .pick(2, Some("main"), EdgeKind::Calls, name, Some(q))
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(pick("remove", "os"), None);
        assert_eq!(pick("exists", "os.path"), None);
        assert_eq!(pick("helper", "pkg.sub"), Some(("helper", "import")));
        // A receiver the file did not import is a value: its method goes by name, but no
        // top-level function is one.
        assert_eq!(
            pick("audit", "checker"),
            Some(("Checker.audit", "unique_name"))
        );
        assert_eq!(pick("exists", "checker"), None);
    }

    /// Rust: a guess by name takes another crate's definition only where the caller's crate
    /// names that crate in a `use` (crates by `Cargo.toml`, `src/lib.rs` or `src/main.rs`).
    #[test]
    fn rust_guesses_stay_in_crates_the_caller_names() {
        let packed = vec![
            ("libc-0.2.1/src/lib.rs", pack(vec![], vec![])),
            (
                "libc-0.2.1/src/unix/mod.rs",
                pack(vec![function("f", None)], vec![]),
            ),
            (
                "linux-raw-sys-0.12.1/src/lib.rs",
                pack(vec![of_kind("type_alias", "c_int", Some("ctypes"))], vec![]),
            ),
            (
                "rustix-1.0.0/src/lib.rs",
                pack(
                    vec![function("g", None)],
                    vec![import("general", Some("linux_raw_sys"))],
                ),
            ),
        ];
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let pick = |from: usize| {
            index
                .pick(from, None, EdgeKind::References, "c_int", None)
                .map(|(c, _)| index.qualified_name(c))
        };
        assert_eq!(pick(1), None);
        assert_eq!(pick(3), Some("ctypes.c_int"));
    }

    /// Ruby: a bare call found neither on the instance nor in the file is a module's method
    /// (mixed in), a top-level one, or one of a class the file names as a base — never an
    /// unrelated class's method of that name (`include`, `private`, `format` are `Module`'s
    /// and `Kernel`'s), nor, for such a built-in name, a module's the file does not mix in.
    #[test]
    fn ruby_bare_calls_take_no_unrelated_class_method() {
        let inherits = |ty: &str, base: &str| RawEdge {
            kind: EdgeKind::Inherits,
            source: Some(ty.into()),
            ..import(base, None)
        };
        let method = |name, parent| of_kind("method", name, Some(parent));
        let packed = vec![
            (
                "lib/file_list.rb",
                pack(
                    vec![
                        of_kind("class", "FileList", None),
                        method("include", "FileList"),
                    ],
                    vec![],
                ),
            ),
            (
                "lib/helpers.rb",
                pack(
                    vec![of_kind("module", "Helpers", None), method("say", "Helpers")],
                    vec![],
                ),
            ),
            (
                "lib/base.rb",
                pack(
                    vec![of_kind("class", "Base", None), method("setup", "Base")],
                    vec![],
                ),
            ),
            (
                "lib/atom.rb",
                pack(
                    vec![of_kind("class", "Atom", None), method("run", "Atom")],
                    vec![inherits("Atom", "Base")],
                ),
            ),
            (
                "lib/other.rb",
                pack(
                    vec![of_kind("class", "Other", None), method("go", "Other")],
                    vec![],
                ),
            ),
            (
                "lib/fmt.rb",
                pack(
                    vec![of_kind("module", "Fmt", None), method("format", "Fmt")],
                    vec![],
                ),
            ),
            (
                "lib/printer.rb",
                pack(
                    vec![of_kind("class", "Printer", None), method("run", "Printer")],
                    vec![inherits("Printer", "Fmt")],
                ),
            ),
            (
                "lib/sync.rb",
                pack(
                    vec![
                        of_kind("class", "Sync", None),
                        method("safe!", "Sync"),
                        // `def self.new` inside `def self.safe!`.
                        function("new", Some("Sync.safe!")),
                        method("build", "Sync"),
                    ],
                    vec![],
                ),
            ),
        ];
        let files = inputs(&packed, "ruby");
        let index = Index::new(&files);
        let pick = |from: usize, source: &str, name: &str| {
            index
                .pick(from, Some(source), EdgeKind::Calls, name, None)
                .map(|(c, _)| index.qualified_name(c))
        };
        let (atom, other, printer) = (3, 4, 6);
        assert_eq!(pick(other, "Other.go", "include"), None);
        assert_eq!(pick(other, "Other.go", "say"), Some("Helpers.say"));
        assert_eq!(pick(other, "Other.go", "setup"), None);
        assert_eq!(pick(atom, "Atom.run", "setup"), Some("Base.setup"));
        // `Kernel#format`, unless the caller mixes in the module that defines it.
        assert_eq!(pick(other, "Other.go", "format"), None);
        assert_eq!(pick(printer, "Printer.run", "format"), Some("Fmt.format"));
        // A `def` nested in another file's method is not a bare call's by its name; in its own
        // file it still is.
        let sync = 7;
        assert_eq!(pick(other, "Other.go", "new"), None);
        assert_eq!(pick(sync, "Sync.build", "new"), Some("Sync.safe!.new"));
    }

    /// `self.f()` that neither the caller's type nor its bases here define is another type's
    /// `f` only when every base is the repository's: else it is the outside base's.
    #[test]
    fn self_calls_stay_with_a_base_from_outside() {
        let inherits = |ty: &str, base: &str| RawEdge {
            kind: EdgeKind::Inherits,
            source: Some(ty.into()),
            ..import(base, None)
        };
        let method = |name, parent| of_kind("method", name, Some(parent));
        let packed = vec![
            (
                "other.py",
                pack(
                    vec![of_kind("class", "Other", None), method("emit", "Other")],
                    vec![],
                ),
            ),
            (
                "handler.py",
                pack(
                    vec![
                        of_kind("class", "Handler", None),
                        method("run", "Handler"),
                        of_kind("class", "Plain", None),
                        method("run", "Plain"),
                    ],
                    vec![inherits("Handler", "EventEmitter")],
                ),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |source: &str| {
            index
                .pick(1, Some(source), EdgeKind::Calls, "emit", Some("self"))
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(pick("Handler.run"), None);
        assert_eq!(pick("Plain.run"), Some(("Other.emit", "unique_name")));
    }

    /// A module imported from a package that itself imports it (`from tests.unit import
    /// unittest`, `import unittest` in `tests/unit/__init__.py`) is followed there.
    #[test]
    fn python_imports_are_followed_through_a_package() {
        let packed = vec![
            (
                "py/unittest/case.py",
                pack(vec![of_kind("class", "TestCase", None)], vec![]),
            ),
            (
                "boto/tests/unit/__init__.py",
                pack(vec![], vec![import("unittest", None)]),
            ),
            (
                "boto/tests/unit/test_x.py",
                pack(vec![], vec![import("unittest", Some("tests.unit"))]),
            ),
            (
                "other/case.py",
                pack(vec![of_kind("class", "TestCase", None)], vec![]),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let got = index
            .pick(2, None, EdgeKind::Inherits, "TestCase", Some("unittest"))
            .map(|(c, how)| (index.path(c), how));
        assert_eq!(got, Some(("py/unittest/case.py", "import")));
        // A module's own object, renamed (`from crypto.backend import backend as ossl`):
        // `ossl.load()` is a member defined beside it.
        let ossl = RawEdge {
            alias: Some("ossl".into()),
            ..import("backend", Some("crypto.backend"))
        };
        let packed = vec![
            (
                "crypto/backend.py",
                pack(
                    vec![
                        of_kind("class", "Backend", None),
                        of_kind("method", "load", Some("Backend")),
                    ],
                    vec![],
                ),
            ),
            (
                "other/loader.py",
                pack(vec![function("load", None)], vec![]),
            ),
            (
                "crypto/x509.py",
                pack(vec![function("main", None)], vec![ossl]),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let got = index
            .pick(2, Some("main"), EdgeKind::Calls, "load", Some("ossl"))
            .map(|(c, how)| (index.qualified_name(c), how));
        assert_eq!(got, Some(("Backend.load", "import")));
    }

    /// A Python reference without a receiver is a bare name (the file's, imported, or built
    /// in) or an attribute (a member): never another file's top-level definition by name.
    #[test]
    fn python_references_take_members_or_imports() {
        let packed = vec![
            (
                "vendor/typing_extensions.py",
                pack(
                    vec![
                        of_kind("class", "Any", None),
                        of_kind("class", "Prefix", None),
                        of_kind("field", "path", Some("Prefix")),
                        of_kind("field", "__name__", Some("Prefix")),
                    ],
                    vec![],
                ),
            ),
            ("app/main.py", pack(vec![function("main", None)], vec![])),
            (
                "app/typed.py",
                pack(
                    vec![function("main", None)],
                    vec![import("Any", Some("vendor.typing_extensions"))],
                ),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |fi: usize, name: &str| {
            index
                .pick(fi, Some("main"), EdgeKind::References, name, None)
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(pick(1, "Any"), None);
        assert_eq!(pick(1, "path"), Some(("Prefix.path", "unique_name")));
        assert_eq!(pick(1, "__name__"), None);
        assert_eq!(pick(2, "Any"), Some(("Any", "import")));
        // On the instance, whose type lacks it: the language's too (`self.__name__` is no
        // other class's field).
        let on_self = index
            .pick(
                1,
                Some("main"),
                EdgeKind::References,
                "__name__",
                Some("self"),
            )
            .map(|(c, how)| (index.qualified_name(c), how));
        assert_eq!(on_self, None);
    }

    /// Python: `x.f()` on a value names a class's member, never a top-level function or
    /// variable — in its own file or another — unless `x` is an imported module or the
    /// file's own module by its name.
    #[test]
    fn python_members_on_values_are_no_top_level_definitions() {
        let packed = vec![
            (
                "app/tasks.py",
                pack(
                    vec![
                        function("create_task", None),
                        of_kind("variable", "sample", None),
                        of_kind("class", "Loop", None),
                        of_kind("method", "create_task", Some("Loop")),
                    ],
                    vec![],
                ),
            ),
            (
                "app/util.py",
                pack(vec![function("to_bytes", None)], vec![]),
            ),
            (
                "app/main.py",
                pack(
                    vec![function("main", None)],
                    vec![import("util", Some("app")), import("app.tasks", None)],
                ),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |fi: usize, kind: EdgeKind, name: &str, qualifier: Option<&str>| {
            index
                .pick(fi, Some("main"), kind, name, qualifier)
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        let call = EdgeKind::Calls;
        assert_eq!(
            pick(0, call, "create_task", Some("loop")),
            Some(("Loop.create_task", "same_file"))
        );
        assert_eq!(
            pick(0, call, "create_task", None),
            Some(("create_task", "same_file"))
        );
        assert_eq!(
            pick(0, call, "create_task", Some("tasks")),
            Some(("create_task", "same_file"))
        );
        assert_eq!(pick(0, EdgeKind::References, "sample", Some("_inst")), None);
        assert_eq!(pick(2, call, "to_bytes", Some("rkey")), None);
        assert_eq!(
            pick(2, call, "to_bytes", Some("util")),
            Some(("to_bytes", "import"))
        );
        assert_eq!(
            pick(2, call, "create_task", Some("app.tasks")),
            Some(("create_task", "import"))
        );
    }

    /// Python imports name what the module's file defines, the module's own file, or a
    /// definition under the package — never another module's namesake.
    #[test]
    fn python_imports_name_the_modules_files() {
        let imports = vec![
            import("formatdate", Some("email.utils")),
            import("join", Some("os.path")),
            import("io", None),
            import("utils", Some("email")),
            import("message_from_string", Some("email")),
            import("f", Some("pkg")),
            import("email.utils", None),
        ];
        let packed = vec![
            (
                "src/email/__init__.py",
                pack(vec![function("message_from_string", None)], vec![]),
            ),
            (
                "src/email/utils.py",
                pack(vec![function("formatdate", None)], vec![]),
            ),
            (
                "src/email/_parseaddr.py",
                pack(vec![function("parsedate", None)], vec![]),
            ),
            (
                "src/util/path.py",
                pack(vec![function("join", None)], vec![]),
            ),
            (
                "src/typing.py",
                pack(vec![of_kind("class", "io", None)], vec![]),
            ),
            ("src/pkg/__init__.py", pack(vec![], vec![])),
            (
                "src/pkg/sub/mod.py",
                pack(vec![function("f", None)], vec![]),
            ),
            (
                "src/pkg/utils.py",
                pack(vec![function("formatdate", None)], vec![]),
            ),
            (
                "src/email/mime/text.py",
                pack(vec![], vec![import("parsedate", Some(".._parseaddr"))]),
            ),
            (
                "src/app/main.py",
                pack(vec![function("main", None)], imports.clone()),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let resolve = |fi: usize, e: &RawEdge| {
            let name = &*e.target_name;
            match index.pick(fi, None, EdgeKind::Imports, name, e.qualifier.as_deref()) {
                Some((c, how)) => Some((index.path(c), index.qualified_name(c), how)),
                None => index.imported_file(fi, e).map(|(p, how)| (p, "", how)),
            }
        };
        let main = files.len() - 1;
        let got: Vec<_> = imports.iter().map(|e| resolve(main, e)).collect();
        assert_eq!(
            got,
            [
                Some(("src/email/utils.py", "formatdate", "import")),
                None,
                None,
                Some(("src/email/utils.py", "", "import")),
                Some(("src/email/__init__.py", "message_from_string", "import")),
                Some(("src/pkg/sub/mod.py", "f", "import")),
                Some(("src/email/utils.py", "", "import")),
            ]
        );
        assert_eq!(
            resolve(main - 1, &import("parsedate", Some(".._parseaddr"))),
            Some(("src/email/_parseaddr.py", "parsedate", "import"))
        );
        assert!(python_module_names("os.path", "lib/os/path.py"));
        assert!(python_module_names("pkg", "src/pkg/sub/mod.py"));
        assert!(!python_module_names("os.path", "src/util/path.py"));
        // The repository's root inside the package: `requests.api` is `api.py`.
        assert!(python_module_names("requests.api", "api.py"));
    }

    /// A renamed import's alias is looked up as the name it imports: bare (`g()` after `from
    /// m import f as g`) or as a receiver (`np.array()`, `m.f()`).
    #[test]
    fn aliases_resolve_as_what_they_import() {
        let aliased = |name: &str, module: Option<&str>, alias: &str| RawEdge {
            alias: Some(alias.into()),
            ..import(name, module)
        };
        let call = |name: &str, q: Option<&str>| RawEdge {
            kind: EdgeKind::Calls,
            source: Some("main".into()),
            qualifier: q.map(Into::into),
            ..import(name, None)
        };
        let analyses = [
            ("pkg/mod.py", analysis(vec![function("f", None)], vec![])),
            (
                "lib/arrays.py",
                analysis(vec![function("array", None)], vec![]),
            ),
            (
                "main.py",
                analysis(
                    vec![function("main", None)],
                    vec![
                        aliased("numpy", None, "np"),
                        aliased("mod", Some("pkg"), "m"),
                        aliased("f", Some("pkg.mod"), "g"),
                        call("array", Some("np")),
                        call("f", Some("m")),
                        call("g", None),
                    ],
                ),
            ),
        ];
        let packed: Vec<_> = analyses
            .iter()
            .map(|(p, a)| (*p, Packed::new(a).unwrap()))
            .collect();
        let files = inputs(&packed, "python");
        let resolver = Resolver::new(&files);
        let rows = resolver.edges(2, &analyses[2].1);
        let got: Vec<_> = rows
            .iter()
            .map(|r| (r.target_name, r.alias, r.target, r.resolution))
            .collect();
        let f = Some(Ident::Symbol("pkg/mod.py", "f"));
        assert_eq!(
            got,
            [
                ("numpy", Some("np"), None, "unresolved"),
                ("mod", Some("m"), Some(Ident::File("pkg/mod.py")), "import"),
                ("f", Some("g"), f, "import"),
                ("array", None, None, "unresolved"),
                ("f", None, f, "import"),
                ("g", None, f, "import"),
            ]
        );
        // Two aliases of one module name (`flags as compute_flags`, `flags as routers_flags`)
        // each stay with their own module.
        let analyses = [
            (
                "cli/compute/flags.py",
                analysis(vec![function("AddRegionFlag", None)], vec![]),
            ),
            (
                "cli/routers/flags.py",
                analysis(vec![function("AddRouterFlag", None)], vec![]),
            ),
            (
                "cli/ad/flags.py",
                analysis(vec![function("AddRegionFlag", None)], vec![]),
            ),
            (
                "cli/main.py",
                analysis(
                    vec![function("main", None)],
                    vec![
                        aliased("flags", Some("cli.compute"), "compute_flags"),
                        aliased("flags", Some("cli.routers"), "routers_flags"),
                        call("AddRegionFlag", Some("compute_flags")),
                        call("AddRegionFlag", Some("routers_flags")),
                        call("AddRouterFlag", Some("routers_flags")),
                    ],
                ),
            ),
        ];
        let packed: Vec<_> = analyses
            .iter()
            .map(|(p, a)| (*p, Packed::new(a).unwrap()))
            .collect();
        let files = inputs(&packed, "python");
        let resolver = Resolver::new(&files);
        let targets: Vec<_> = resolver
            .edges(3, &analyses[3].1)
            .iter()
            .filter(|r| r.kind == EdgeKind::Calls)
            .map(|r| r.target)
            .collect();
        assert_eq!(
            targets,
            [
                Some(Ident::Symbol("cli/compute/flags.py", "AddRegionFlag")),
                None,
                Some(Ident::Symbol("cli/routers/flags.py", "AddRouterFlag")),
            ]
        );
    }

    /// Rust's prelude types and generic parameters (`T`) are another file's only where the
    /// file imports them (by name or a whole module); its own come first.
    #[test]
    fn prelude_types_and_generic_parameters_stay_in_their_file() {
        let packed = vec![
            (
                "a/lib.rs",
                pack(
                    vec![
                        of_kind("type_alias", "Result", None),
                        of_kind("struct", "T", None),
                    ],
                    vec![],
                ),
            ),
            ("b/main.rs", pack(vec![function("main", None)], vec![])),
            (
                "c/uses.rs",
                pack(
                    vec![function("main", None)],
                    vec![import("Result", Some("a"))],
                ),
            ),
            (
                "d/star.rs",
                pack(vec![function("main", None)], vec![import("*", Some("a"))]),
            ),
            (
                "e/own.rs",
                pack(
                    vec![of_kind("struct", "T", None), function("main", None)],
                    vec![],
                ),
            ),
        ];
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let pick = |fi: usize, name: &str| {
            index
                .pick(fi, Some("main"), EdgeKind::References, name, None)
                .map(|(c, how)| (index.path(c), how))
        };
        assert_eq!(pick(1, "Result"), None);
        assert_eq!(pick(1, "T"), None);
        assert_eq!(pick(2, "Result"), Some(("a/lib.rs", "import")));
        assert_eq!(pick(3, "T"), Some(("a/lib.rs", "import")));
        assert_eq!(pick(3, "Result"), Some(("a/lib.rs", "import")));
        assert_eq!(pick(4, "T"), Some(("e/own.rs", "same_file")));
    }

    /// Java: a single-type import names its package's class (its directory exactly), or a
    /// nested class; a class of that name elsewhere is not it.
    #[test]
    fn java_imports_name_their_package() {
        let packed = vec![
            (
                "src/main/java/com/acme/util/Key.java",
                pack(vec![of_kind("class", "Key", None)], vec![]),
            ),
            (
                "src/main/java/com/acme/model/Thing.java",
                pack(
                    vec![
                        of_kind("class", "Thing", None),
                        of_kind("class", "Inner", Some("Thing")),
                    ],
                    vec![],
                ),
            ),
            (
                "src/main/java/com/acme/App.java",
                pack(
                    vec![function("main", None)],
                    vec![
                        import("Key", Some("java.security")),
                        import("Thing", Some("com.acme.model")),
                        import("Inner", Some("com.acme.model.Thing")),
                    ],
                ),
            ),
            (
                "src/main/java/com/acme/Other.java",
                pack(vec![function("main", None)], vec![]),
            ),
        ];
        let files = inputs(&packed, "java");
        let index = Index::new(&files);
        let pick = |fi: usize, kind: EdgeKind, name: &str, q: Option<&str>| {
            index
                .pick(fi, Some("main"), kind, name, q)
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(pick(2, EdgeKind::References, "Key", None), None);
        assert_eq!(
            pick(2, EdgeKind::Imports, "Key", Some("java.security")),
            None
        );
        assert_eq!(
            pick(2, EdgeKind::References, "Thing", None),
            Some(("Thing", "import"))
        );
        assert_eq!(
            pick(2, EdgeKind::References, "Inner", None),
            Some(("Thing.Inner", "import"))
        );
        // Without an import, by name as before (the same package, or `java.lang`'s).
        assert_eq!(
            pick(3, EdgeKind::References, "Key", None),
            Some(("Key", "unique_name"))
        );
        let java = |p, path| package_dir_names(p, '.', path);
        assert!(java(
            "com.acme.util",
            "src/main/java/com/acme/util/Key.java"
        ));
        assert!(!java("java.security", "sun/security/util/Key.java"));
        assert!(!java("com.acme", "src/main/java/com/acme/util/Key.java"));
    }

    /// Go: an import path names a package's directory — the path under a GOPATH `src/`, a
    /// `vendor/` or the root, anywhere for a domain's path, else its last names (the
    /// repository is the module) — and its file: not a test, `doc.go` first. A path without
    /// a domain is the standard library's, and `testdata` is seen only from inside it.
    #[test]
    fn go_import_paths_name_package_directories() {
        let packed: Vec<(&str, Packed)> = [
            "api/http/server.go",
            "internal/util/util_test.go",
            "internal/util/x.go",
            "src/golang.org/x/net/ipv4/doc.go",
            "src/golang.org/x/net/ipv4/ipv4.go",
            "src/golang.org/x/tools/go/testdata/lib/lib.go",
            "tools/testdata/src/fmt/fmt.go",
            "tools/testdata/src/a/a.go",
            "yaml.v3/decode.go",
            "main.go",
        ]
        .into_iter()
        .map(|p| (p, pack(vec![], vec![])))
        .collect();
        let files = inputs(&packed, "go");
        let index = Index::new(&files);
        let from = |fi: usize, import: &str| {
            index
                .go_package(fi, import)
                .map(|(dir, file)| (dir, index.files[file as usize].path))
        };
        let main = 9;
        assert_eq!(
            from(main, "example.com/m/internal/util"),
            Some(("internal/util", "internal/util/x.go"))
        );
        assert_eq!(from(main, "example.com/m/pkg/util"), None);
        assert_eq!(from(main, "net/http"), None);
        assert_eq!(
            from(main, "golang.org/x/net/ipv4"),
            Some((
                "src/golang.org/x/net/ipv4",
                "src/golang.org/x/net/ipv4/doc.go"
            ))
        );
        assert_eq!(
            from(main, "gopkg.in/yaml.v3"),
            Some(("yaml.v3", "yaml.v3/decode.go"))
        );
        assert_eq!(from(main, "fmt"), None);
        assert_eq!(
            from(7, "fmt"),
            Some(("tools/testdata/src/fmt", "tools/testdata/src/fmt/fmt.go"))
        );
        // A path through `testdata` names that package from outside it.
        assert_eq!(
            from(main, "golang.org/x/tools/go/testdata/lib"),
            Some((
                "src/golang.org/x/tools/go/testdata/lib",
                "src/golang.org/x/tools/go/testdata/lib/lib.go"
            ))
        );
    }

    /// A Rust bare call reaches another file's function only through an import: by name
    /// (found by name when its path names no file here, as a re-export's does), or of its
    /// module whole. A macro is never a call's target (`f!` is no call edge).
    #[test]
    fn rust_bare_calls_need_an_import() {
        let packed = vec![
            (
                "src/util.rs",
                pack(
                    vec![function("helper", None), of_kind("macro", "f", None)],
                    vec![],
                ),
            ),
            ("src/plain.rs", pack(vec![function("main", None)], vec![])),
            (
                "src/glob.rs",
                pack(
                    vec![function("main", None)],
                    vec![import("*", Some("crate::util"))],
                ),
            ),
            (
                "src/reexport.rs",
                pack(
                    vec![function("main", None)],
                    vec![import("helper", Some("crate::prelude"))],
                ),
            ),
        ];
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let pick = |fi: usize, name: &str| {
            index
                .pick(fi, Some("main"), EdgeKind::Calls, name, None)
                .map(|(c, how)| (index.path(c), how))
        };
        assert_eq!(pick(1, "helper"), None);
        assert_eq!(pick(1, "f"), None);
        assert_eq!(pick(2, "helper"), Some(("src/util.rs", "import")));
        assert_eq!(pick(3, "helper"), Some(("src/util.rs", "unique_name")));
        assert_eq!(pick(0, "f"), None);
        // A crate's directory by the name its paths use: `my-lib` is `my_lib`, a registry's
        // `rand-0.8.8` is `rand`.
        assert_eq!(rust_crate_name("rand-0.8.8").as_deref(), Some("rand"));
        assert_eq!(
            rust_crate_name("lance-index-14.0.2").as_deref(),
            Some("lance_index")
        );
        assert_eq!(rust_crate_name("my-lib").as_deref(), Some("my_lib"));
        assert_eq!(rust_crate_name("src"), None);
        let packed = vec![
            (
                "vendor/rand-0.8.8/src/rng.rs",
                pack(vec![of_kind("trait", "Rng", None)], vec![]),
            ),
            (
                "crates/my-lib/src/util.rs",
                pack(vec![function("helper", None)], vec![]),
            ),
            (
                "other/util.rs",
                pack(vec![function("helper", None)], vec![]),
            ),
            (
                "crates/app/src/main.rs",
                pack(
                    vec![function("main", None)],
                    vec![
                        import("Rng", Some("rand")),
                        import("helper", Some("my_lib::util")),
                    ],
                ),
            ),
        ];
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let pick = |kind: EdgeKind, name: &str| {
            index
                .pick(3, Some("main"), kind, name, None)
                .map(|(c, how)| (index.path(c), how))
        };
        assert_eq!(
            pick(EdgeKind::References, "Rng"),
            Some(("vendor/rand-0.8.8/src/rng.rs", "import"))
        );
        assert_eq!(
            pick(EdgeKind::Calls, "helper"),
            Some(("crates/my-lib/src/util.rs", "import"))
        );
    }

    /// Rust: `Type::f()` of a type of the repository that was not found to have `f` is a
    /// trait's `f` (a derive, another crate's impl, a provided method) — never another type's.
    #[test]
    fn rust_type_functions_it_lacks_are_traits() {
        let packed = vec![
            (
                "rand_core-0.6.4/src/lib.rs",
                pack(
                    vec![
                        of_kind("trait", "SeedableRng", None),
                        of_kind("method", "seed_from_u64", Some("SeedableRng")),
                        of_kind("method", "from_entropy", Some("SeedableRng")),
                    ],
                    vec![],
                ),
            ),
            (
                "hashbrown-0.15.0/src/raw.rs",
                pack(
                    vec![
                        of_kind("struct", "TableLayout", None),
                        of_kind("method", "new", Some("TableLayout")),
                        of_kind("method", "seed_from_u64", Some("TableLayout")),
                    ],
                    vec![],
                ),
            ),
            (
                "app/src/rng.rs",
                pack(vec![of_kind("struct", "StdRng", None)], vec![]),
            ),
            (
                "app/src/main.rs",
                pack(
                    vec![function("main", None)],
                    vec![
                        import("SeedableRng", Some("rand_core")),
                        import("HashMap", Some("hashbrown")),
                        import("StdRng", Some("crate::rng")),
                    ],
                ),
            ),
            (
                "app/src/other.rs",
                pack(
                    vec![function("main", None)],
                    vec![import("StdRng", Some("crate::rng"))],
                ),
            ),
        ];
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let pick = |fi: usize, name: &str, q: &str| {
            index
                .pick(fi, Some("main"), EdgeKind::Calls, name, Some(q))
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        // The imported trait's, not hashbrown's type's namesake.
        assert_eq!(
            pick(3, "seed_from_u64", "StdRng"),
            Some(("SeedableRng.seed_from_u64", "import"))
        );
        // No trait has `new`: nothing, not `TableLayout.new`.
        assert_eq!(pick(3, "new", "StdRng"), None);
        // Without the import: the one definition of the name, a trait's.
        assert_eq!(
            pick(4, "from_entropy", "StdRng"),
            Some(("SeedableRng.from_entropy", "unique_name"))
        );
        // A standard trait's function (a derived `Default`) is the standard library's.
        assert_eq!(pick(3, "default", "StdRng"), None);
    }

    /// Rust: what a file takes from the standard library (`use std::sync::Arc`, `std::…`
    /// paths) is never a definition of the repository, whatever its files are named.
    #[test]
    fn rust_standard_library_paths_name_nothing_here() {
        let arc = of_kind("struct", "Arc", None);
        let new = of_kind("method", "new", Some("Arc"));
        let packed = vec![
            ("a/sync.rs", pack(vec![arc, new], vec![])),
            (
                "b/main.rs",
                pack(
                    vec![function("main", None)],
                    vec![import("Arc", Some("std::sync")), import("fmt", Some("std"))],
                ),
            ),
            ("c/other.rs", pack(vec![function("other", None)], vec![])),
        ];
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let pick = |fi: usize, kind: EdgeKind, name: &str, q: Option<&str>| {
            index
                .pick(fi, Some("main"), kind, name, q)
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(pick(1, EdgeKind::References, "Arc", None), None);
        assert_eq!(pick(1, EdgeKind::Imports, "Arc", Some("std::sync")), None);
        assert_eq!(pick(1, EdgeKind::Calls, "new", Some("Arc")), None);
        assert_eq!(
            pick(1, EdgeKind::Calls, "new", Some("::std::sync::Arc")),
            None
        );
        assert_eq!(
            pick(1, EdgeKind::Calls, "new", Some("fmt::Arguments")),
            None
        );
        // A file that does not import it finds the repository's.
        assert_eq!(
            pick(2, EdgeKind::References, "Arc", None),
            Some(("Arc", "unique_name"))
        );
        assert_eq!(
            pick(2, EdgeKind::Calls, "new", Some("Arc")),
            Some(("Arc.new", "qualified"))
        );
    }

    /// A call on a receiver the repository cannot have defined — a literal, a global object,
    /// a type no file defines, a value of an undeclared type called by a standard method's
    /// name — names nothing here; other calls on such values still go by name.
    #[test]
    fn receivers_the_repository_cannot_define_name_nothing_here() {
        let in_lang = |language: &str,
                       packed: &[(&str, Packed)],
                       checks: &[(&str, &str, &str, Option<(&str, &str)>)]| {
            let files = inputs(packed, language);
            let index = Index::new(&files);
            let last = files.len() - 1;
            for &(source, name, q, want) in checks {
                let got = index
                    .pick(last, Some(source), EdgeKind::Calls, name, Some(q))
                    .map(|(c, how)| (index.qualified_name(c), how));
                assert_eq!(got, want, "{language}: {q}.{name}() in {source}");
            }
        };
        let method = |name, parent| of_kind("method", name, Some(parent));
        let class = |name| of_kind("class", name, None);
        in_lang(
            "python",
            &[
                (
                    "buffer.py",
                    pack(
                        vec![
                            class("Buffer"),
                            method("append", "Buffer"),
                            method("add", "Buffer"),
                        ],
                        vec![],
                    ),
                ),
                (
                    "checks.py",
                    pack(
                        vec![class("Checker"), method("validate", "Checker")],
                        vec![],
                    ),
                ),
                ("main.py", pack(vec![function("main", None)], vec![])),
            ],
            &[
                ("main", "append", "items", None),
                ("main", "join", "\", \"", None),
                ("main", "join", "f\"{x}\"", None),
                ("main", "fromkeys", "dict", None),
                (
                    "main",
                    "validate",
                    "checker",
                    Some(("Checker.validate", "unique_name")),
                ),
                (
                    "main",
                    "append",
                    "Buffer",
                    Some(("Buffer.append", "qualified")),
                ),
            ],
        );
        // `self.items.append(x)` in `Buffer.add` is the list's, not `Buffer.append`.
        let packed = [(
            "buffer.py",
            pack(
                vec![
                    class("Buffer"),
                    method("append", "Buffer"),
                    method("add", "Buffer"),
                ],
                vec![],
            ),
        )];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |q| index.pick(0, Some("Buffer.add"), EdgeKind::Calls, "append", Some(q));
        assert_eq!(pick("self.items"), None);
        assert!(pick("self").is_some());
        in_lang(
            "rust",
            &[
                (
                    "src/wrapper.rs",
                    pack(
                        vec![
                            of_kind("struct", "Wrapper", None),
                            method("unwrap", "Wrapper"),
                            of_kind("struct", "Config", None),
                            method("new", "Wrapper"),
                        ],
                        vec![],
                    ),
                ),
                ("src/util.rs", pack(vec![function("join", None)], vec![])),
                ("src/other.rs", pack(vec![function("join", None)], vec![])),
                ("src/main.rs", pack(vec![function("main", None)], vec![])),
            ],
            &[
                ("main", "unwrap", "opt", None),
                ("main", "unwrap", "File::open(p)", None),
                ("main", "new", "HashMap", None),
                ("main", "new", "T", None),
                ("main", "default", "Config", None),
                ("main", "new", "Wrapper", Some(("Wrapper.new", "qualified"))),
                ("main", "join", "crate::util", Some(("join", "import"))),
            ],
        );
        in_lang(
            "javascript",
            &[
                (
                    "lib/parse.js",
                    pack(
                        vec![
                            function("parse", None),
                            function("map", None),
                            function("resolve", None),
                        ],
                        vec![],
                    ),
                ),
                (
                    "semver/functions/valid.js",
                    pack(vec![function("valid", None)], vec![]),
                ),
                (
                    "main.js",
                    pack(
                        vec![function("main", None)],
                        vec![
                            import("path", Some("path")),
                            import("semver", Some("semver")),
                        ],
                    ),
                ),
            ],
            &[
                ("main", "parse", "JSON", None),
                ("main", "map", "rows", None),
                ("main", "parse", "parser", Some(("parse", "unique_name"))),
                // Node's `path`, which the repository does not have; a package it has.
                ("main", "resolve", "path", None),
                ("main", "valid", "semver", Some(("valid", "import"))),
            ],
        );
        in_lang(
            "go",
            &[
                ("text/split.go", pack(vec![function("Split", None)], vec![])),
                (
                    "textutil/x.go",
                    pack(vec![function("Fields", None)], vec![]),
                ),
                (
                    "cmd/main.go",
                    pack(
                        vec![function("main", None)],
                        vec![
                            import("strings", Some("strings")),
                            import("tu", Some("example.com/m/textutil")),
                        ],
                    ),
                ),
            ],
            &[
                ("main", "Split", "strings", None),
                ("main", "Fields", "tu", Some(("Fields", "import"))),
            ],
        );
        in_lang(
            "cpp",
            &[
                ("util.cpp", pack(vec![function("move", None)], vec![])),
                ("main.cpp", pack(vec![function("main", None)], vec![])),
            ],
            &[("main", "move", "std", None)],
        );
    }

    /// In Java, C# and C++ a bare call that is not the instance's takes an enclosing type's
    /// method, a statically imported one, or a free function — not an unrelated class's.
    #[test]
    fn bare_calls_in_java_take_enclosing_types_methods_only() {
        let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
        for language in ["java", "csharp", "cpp"] {
            let packed = vec![
                (
                    "a/Outer.java",
                    pack(
                        vec![
                            function("Outer", None),
                            method("helper", "Outer"),
                            function("Inner", Some("Outer")),
                            method("run", "Outer.Inner"),
                            function("Sibling", None),
                            method("only", "Sibling"),
                        ],
                        vec![import("imported", Some("b.Other"))],
                    ),
                ),
                (
                    "b/Other.java",
                    pack(
                        vec![
                            function("Other", None),
                            method("helper2", "Other"),
                            method("imported", "Other"),
                            function("loose", None),
                        ],
                        vec![],
                    ),
                ),
            ];
            let files = inputs(&packed, language);
            let index = Index::new(&files);
            let pick = |name: &str| {
                index
                    .pick(0, Some("Outer.Inner.run"), EdgeKind::Calls, name, None)
                    .map(|(c, how)| (index.qualified_name(c), how))
            };
            assert_eq!(
                pick("helper"),
                Some(("Outer.helper", "same_file")),
                "{language}"
            );
            assert_eq!(pick("only"), None, "{language}");
            assert_eq!(pick("helper2"), None, "{language}");
            assert_eq!(
                pick("imported"),
                Some(("Other.imported", "import")),
                "{language}"
            );
            assert_eq!(pick("loose"), Some(("loose", "unique_name")), "{language}");
            // A receiver's method is still found by name.
            assert_eq!(
                index
                    .pick(
                        0,
                        Some("Outer.Inner.run"),
                        EdgeKind::Calls,
                        "helper2",
                        Some("o")
                    )
                    .map(|(c, how)| (index.qualified_name(c), how)),
                Some(("Other.helper2", "unique_name"))
            );
        }
    }

    /// `self.f()` goes up the bases breadth first, nearest first, through cycles; members
    /// only, never a free function of that name nearer by directory.
    #[test]
    fn self_calls_take_the_nearest_base_member() {
        let heritage = |ty: &str, base: &str| RawEdge {
            kind: EdgeKind::Inherits,
            source: Some(ty.into()),
            line: 1,
            character: 0,
            target_name: base.into(),
            qualifier: None,
            receiver_type: None,
            alias: None,
        };
        // A file from its definitions ("class T", "T.method", "function") and clauses.
        let file = |defs: &[&str], bases: &[(&str, &str)]| {
            let symbols = defs
                .iter()
                .map(|d| match d.strip_prefix("class ") {
                    Some(name) => {
                        let mut class = function(name, None);
                        class.kind = "class";
                        class
                    }
                    None => match d.split_once('.') {
                        Some((ty, name)) => function(name, Some(ty)),
                        None => function(d, None),
                    },
                })
                .collect();
            let edges = bases.iter().map(|(ty, base)| heritage(ty, base)).collect();
            pack(symbols, edges)
        };
        let packed = [
            // Top and Mid name each other: a cycle must end.
            (
                "a/top.py",
                file(&["class Top", "Top.run"], &[("Top", "Mid")]),
            ),
            (
                "a/mid.py",
                file(&["class Mid", "Mid.run", "Mid.stop"], &[("Mid", "Top")]),
            ),
            (
                "b/leaf.py",
                file(
                    &["class Leaf", "Leaf.go", "class Low", "done"],
                    &[("Leaf", "Low"), ("Low", "Mid")],
                ),
            ),
            ("b/other.py", file(&["halt"], &[])),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |name: &str, q: &str| {
            index
                .pick(2, Some("Leaf.go"), EdgeKind::Calls, name, Some(q))
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        // Leaf → Low → Mid: Mid's `run`, not Top's.
        assert_eq!(pick("run", "self"), Some(("Mid.run", "inherited")));
        assert_eq!(pick("stop", "super()"), Some(("Mid.stop", "inherited")));
        assert_eq!(pick("go", "self"), Some(("Leaf.go", "same_class")));
        // `super()` skips the caller's own type.
        assert_eq!(pick("go", "super()"), None);
        // A free function of that name is no target of `self.f()`, wherever it is ...
        assert_eq!(pick("done", "self"), None);
        assert_eq!(pick("halt", "self"), None);
        // ... but stays one of an unqualified call (in its own file; from another, in
        // Python, once imported: `bare_calls_take_no_method_where_methods_need_a_receiver`).
        assert_eq!(
            index
                .pick(2, Some("Leaf.go"), EdgeKind::Calls, "done", None)
                .map(|(c, how)| (index.qualified_name(c), how)),
            Some(("done", "same_file"))
        );
    }

    /// `from pkg import base` then `base.Model`: the nearest file of that module, and in it a
    /// top-level definition before a nested one under a directory of that name.
    #[test]
    fn module_members_are_the_nearest_top_level_definitions() {
        let file = |defs: &[(&str, Option<&str>)], imports: &[(&str, &str)]| {
            let symbols = defs
                .iter()
                .map(|(name, parent)| {
                    let mut class = function(name, *parent);
                    class.kind = "class";
                    class
                })
                .collect();
            let edges = imports.iter().map(|(n, m)| import(n, Some(m))).collect();
            pack(symbols, edges)
        };
        let packed = [
            // First in path order, but in another package than the importer.
            ("app/legacy/models/base.py", file(&[("Model", None)], &[])),
            ("app/models/base.py", file(&[("Model", None)], &[])),
            (
                "app/models/user.py",
                file(&[("User", None)], &[("base", "models")]),
            ),
            ("lib/base.py", file(&[("Model", None)], &[])),
            // A test's local class, nearer, in a directory named like the module.
            (
                "lib/base/fakes.py",
                file(&[("test_x", None), ("Model", Some("test_x"))], &[]),
            ),
            (
                "lib/base/check.py",
                file(&[("Check", None)], &[("base", "lib")]),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let base_of = |fi: usize| {
            index
                .pick(fi, None, EdgeKind::Inherits, "Model", Some("base"))
                .map(|(c, how)| (index.path(c), index.qualified_name(c), how))
        };
        assert_eq!(base_of(2), Some(("app/models/base.py", "Model", "import")));
        assert_eq!(base_of(5), Some(("lib/base.py", "Model", "import")));
    }

    /// C: an `#include` names a file beside the includer or, as through an include
    /// directory, one whose path ends with it; a name is first a definition in the headers
    /// the file includes, directly or not; another source file's `static` function or macro
    /// is never a target; a call on a field goes through a function pointer.
    #[test]
    fn c_names_resolve_through_includes() {
        let of = |kind: &'static str, name: &str, public: bool| {
            let mut s = of_kind(kind, name, None);
            s.is_public = public;
            s
        };
        let include = |path: &str| import(path.rsplit('/').next().unwrap(), Some(path));
        let packed = [
            (
                "include/lib/inner.h",
                pack(vec![of("macro", "likely", true)], vec![]),
            ),
            (
                "include/lib/util.h",
                pack(
                    vec![of("macro", "assert", true), of("function", "fast", false)],
                    vec![include("lib/inner.h")],
                ),
            ),
            (
                "src/a.c",
                pack(
                    vec![of("function", "run", true)],
                    vec![
                        include("lib/util.h"),
                        include("local.h"),
                        include("stdio.h"),
                    ],
                ),
            ),
            (
                "src/b.c",
                pack(
                    vec![
                        of("function", "helper", false),
                        of("function", "shared", true),
                        of("macro", "assert", true),
                        of("macro", "likely", true),
                        of("macro", "only_here", true),
                    ],
                    vec![],
                ),
            ),
            (
                "src/compat/stdio.h",
                pack(vec![of("function", "printf", true)], vec![]),
            ),
            (
                "src/d.c",
                pack(vec![of("function", "helper", false)], vec![]),
            ),
            // Includes a header the repository lacks (generated by the build).
            (
                "src/e.c",
                pack(vec![of("function", "go", true)], vec![include("config.h")]),
            ),
            (
                "src/free.c",
                pack(
                    vec![of("function", "free", true)],
                    vec![include("lib/util.h")],
                ),
            ),
            ("src/local.h", pack(vec![], vec![])),
            ("src/version.h.in", pack(vec![], vec![])),
            (
                "src/other.h",
                pack(vec![of("macro", "elsewhere", true)], vec![]),
            ),
            (
                "tests/check.h",
                pack(
                    vec![of("macro", "assert", true), of("macro", "likely", true)],
                    vec![],
                ),
            ),
        ];
        let files = inputs(&packed, "c");
        let index = Index::new(&files);
        let include_of = |fi: usize, p: &str| {
            index
                .include_file(fi, p)
                .map(|(f, how)| (files[f as usize].path, how))
        };
        assert_eq!(
            include_of(2, "lib/util.h"),
            Some(("include/lib/util.h", "import"))
        );
        assert_eq!(
            include_of(2, "local.h"),
            Some(("src/local.h", "relative_path"))
        );
        assert_eq!(
            include_of(2, "./local.h"),
            Some(("src/local.h", "relative_path"))
        );
        assert_eq!(
            include_of(2, "../src/local.h"),
            Some(("src/local.h", "relative_path"))
        );
        // A standard header is the system's, not a compatibility copy elsewhere.
        assert_eq!(include_of(2, "stdio.h"), None);
        assert_eq!(include_of(2, "missing/util.h"), None);
        // A header the build generates, by its template.
        assert_eq!(
            include_of(2, "../src/version.h"),
            Some(("src/version.h.in", "import"))
        );
        let pick = |name: &str, qualifier: Option<&str>| {
            index
                .pick(2, Some("run"), EdgeKind::Calls, name, qualifier)
                .map(|(c, how)| (index.path(c), how))
        };
        // In an included header (through another one for `likely`), not another file's.
        assert_eq!(pick("assert", None), Some(("include/lib/util.h", "import")));
        assert_eq!(
            pick("likely", None),
            Some(("include/lib/inner.h", "import"))
        );
        // A header's static inline function is seen where the header is included.
        assert_eq!(pick("fast", None), Some(("include/lib/util.h", "import")));
        // Linked in from another source file: its public function, not its statics.
        assert_eq!(pick("shared", None), Some(("src/b.c", "unique_name")));
        assert_eq!(pick("helper", None), None);
        assert_eq!(pick("only_here", None), None);
        // A call through a function pointer field.
        assert_eq!(pick("shared", Some("ops")), None);
        // The C library's, not the repository's replacement.
        assert_eq!(pick("free", None), None);
        // All `a.c` includes is known: a header it does not include defines nothing it sees.
        // `e.c` includes a header the repository lacks, which may include that one.
        assert_eq!(pick("elsewhere", None), None);
        assert_eq!(
            index
                .pick(6, Some("go"), EdgeKind::Calls, "elsewhere", None)
                .map(|(c, how)| (index.path(c), how)),
            Some(("src/other.h", "unique_name"))
        );
    }

    /// C++: a member called on a value of undeclared type is first one a header the file
    /// includes defines (the class must be complete where it is called).
    #[test]
    fn cpp_members_come_from_included_headers_first() {
        let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
        let class = |name: &str| of_kind("class", name, None);
        let include = |path: &str| import(path.rsplit('/').next().unwrap(), Some(path));
        let packed = [
            (
                "include/ir/type.h",
                pack(vec![class("Type"), method("bits", "Type")], vec![]),
            ),
            (
                "include/ir/value.h",
                pack(
                    vec![class("Value"), method("type", "Value")],
                    vec![include("ir/type.h")],
                ),
            ),
            (
                "include/codegen/evt.h",
                pack(vec![class("Evt"), method("bits", "Evt")], vec![]),
            ),
            (
                "src/pass.cpp",
                pack(vec![function("run", None)], vec![include("ir/value.h")]),
            ),
            ("src/other.cpp", pack(vec![function("go", None)], vec![])),
        ];
        let files = inputs(&packed, "cpp");
        let index = Index::new(&files);
        let pick = |fi: usize, source: &str| {
            index
                .pick(fi, Some(source), EdgeKind::Calls, "bits", Some("v->type()"))
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(pick(3, "run"), Some(("Type.bits", "import")));
        // Without includes it is still found by name.
        assert_eq!(pick(4, "go").map(|(_, how)| how), Some("ambiguous"));
    }

    /// A member called on a value of undeclared type: among the nearest candidates, one of
    /// a type the file names before another; a nearer one, or a free function (a path call
    /// written like a value), stays.
    #[test]
    fn members_of_types_the_file_names_come_first_among_the_nearest() {
        let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
        let class = |name: &str| of_kind("struct", name, None);
        let reference = |name: &str| RawEdge {
            kind: EdgeKind::References,
            source: Some("run".into()),
            line: 2,
            character: 0,
            target_name: name.into(),
            qualifier: None,
            receiver_type: None,
            alias: None,
        };
        let packed = [
            (
                "app/src/part.rs",
                pack(vec![method("headers", "Part")], vec![]),
            ),
            (
                "app/src/request.rs",
                pack(vec![class("Request"), method("headers", "Request")], vec![]),
            ),
            (
                "app/src/client.rs",
                pack(vec![function("run", None)], vec![reference("Request")]),
            ),
            ("app/src/plain.rs", pack(vec![function("go", None)], vec![])),
            (
                "app/src/deep/local.rs",
                pack(vec![class("Local"), method("headers", "Local")], vec![]),
            ),
            (
                "app/src/deep/near.rs",
                pack(vec![function("near", None)], vec![reference("Request")]),
            ),
        ];
        let files = inputs(&packed, "rust");
        let resolver = Resolver::new(&files);
        // The call `req.headers()` from `source` in file `fi`, which also references
        // `Request` when `names` says so: its target's qualified name and resolution.
        let target = |fi: usize, source: &str, names: bool| {
            let call = RawEdge {
                kind: EdgeKind::Calls,
                source: Some(source.into()),
                line: 3,
                character: 4,
                target_name: "headers".into(),
                qualifier: Some("req".into()),
                receiver_type: None,
                alias: None,
            };
            let mut edges = vec![call];
            if names {
                edges.push(reference("Request"));
            }
            let caller = analysis(vec![function(source, None)], edges);
            let rows = resolver.edges(fi, &caller);
            let row = &rows[0];
            let qname = match row.target {
                Some(Ident::Symbol(_, q)) => Some(q.to_string()),
                _ => None,
            };
            (qname, row.resolution)
        };
        assert_eq!(
            target(2, "run", true),
            (Some("Request.headers".into()), "ambiguous")
        );
        // A file that names neither: the first of the nearest, as before.
        assert_eq!(target(3, "go", false).0.as_deref(), Some("Part.headers"));
        // A nearer type's member stays, named or not.
        assert_eq!(
            target(5, "near", true),
            (Some("Local.headers".into()), "ambiguous")
        );
    }

    /// `self.inner.fetch()` in `fetch` delegates to a field's object: the caller itself is
    /// not the target; another type's `fetch` is, or nothing.
    #[test]
    fn delegation_through_a_field_is_not_recursion() {
        let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
        let class = |name: &str| of_kind("class", name, None);
        let packed = [
            (
                "io/buffer.py",
                pack(
                    vec![
                        class("Buffer"),
                        method("fetch", "Buffer"),
                        method("flush", "Buffer"),
                    ],
                    vec![],
                ),
            ),
            (
                "io/raw.py",
                pack(vec![class("Raw"), method("fetch", "Raw")], vec![]),
            ),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let pick = |source: &str, name: &str, q: &str| {
            index
                .pick(0, Some(source), EdgeKind::Calls, name, Some(q))
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(
            pick("Buffer.fetch", "fetch", "self.inner"),
            Some(("Raw.fetch", "unique_name"))
        );
        // From another method the own type's member is still the guess.
        assert_eq!(
            pick("Buffer.flush", "fetch", "self.inner"),
            Some(("Buffer.fetch", "same_class"))
        );
        // `self.fetch()` itself is recursion.
        assert_eq!(
            pick("Buffer.fetch", "fetch", "self"),
            Some(("Buffer.fetch", "same_class"))
        );
        assert_eq!(pick("Buffer.flush", "flush", "self.inner"), None);
    }

    /// PHP: a name in a namespace is a definition in a file declaring that namespace, or
    /// nothing here.
    #[test]
    fn php_namespaced_names_are_their_namespaces() {
        let module = |name: &str| of_kind("module", name, None);
        let class = |name: &str| of_kind("class", name, None);
        let packed = [
            (
                "api/mail/Message.php",
                pack(
                    vec![module("google\\appengine\\api\\mail"), class("Message")],
                    vec![],
                ),
            ),
            (
                "runtime/ProtocolMessage.php",
                pack(
                    vec![module("google\\net"), class("ProtocolMessage")],
                    vec![],
                ),
            ),
            ("app/Mail.php", pack(vec![class("Mail")], vec![])),
        ];
        let files = inputs(&packed, "php");
        let index = Index::new(&files);
        let base = |name: &str, ns: &str| {
            index
                .pick(2, Some("Mail"), EdgeKind::Inherits, name, Some(ns))
                .map(|(c, how)| (index.path(c), how))
        };
        assert_eq!(
            base("ProtocolMessage", "\\Google\\Net"),
            Some(("runtime/ProtocolMessage.php", "qualified"))
        );
        assert_eq!(base("Message", "DrSlump\\Protobuf"), None);
        assert_eq!(
            base("Message", "google\\appengine\\api\\mail"),
            Some(("api/mail/Message.php", "qualified"))
        );
    }

    #[test]
    fn module_paths_name_files() {
        let names = |m: &str, p: &str| {
            module_last_segment(m).is_some_and(|l| ModuleSegment::new(l).names(p))
        };
        assert!(names("crate::parser::lexer", "src/parser/lexer.rs"));
        assert!(names("crate::parser", "src/parser/mod.rs"));
        assert!(names("pkg.util", "pkg/util/__init__.py"));
        assert!(names("./components/button", "web/components/button.tsx"));
        assert!(names("github.com/o/r/store", "store/bolt.go"));
        assert!(!names("crate::parser", "src/lexer.rs"));
        assert!(!names("crate::self::super", "src/lib.rs"));
        assert_eq!(module_last_segment("std::io::"), Some("io"));
        // A path with slashes: its file, without the extension.
        assert_eq!(module_last_segment("./utils/log-shim.js"), Some("log-shim"));
        assert_eq!(module_last_segment("gopkg.in/yaml.v3"), Some("yaml"));
        assert_eq!(module_last_segment("../lib"), None);
        assert!(names("./utils/log-shim.js", "lib/utils/log-shim.js"));
        assert_eq!(module_last_segment("crate"), None);
    }

    /// The hashes of a file's path segments rule out no module that names it, and most that
    /// do not.
    #[test]
    fn segment_hashes_keep_every_module_that_names_a_path() {
        let paths = [
            "src/parser/lexer.rs",
            "src/parser/mod.rs",
            "pkg/util/__init__.py",
            "web/components/button.tsx",
            "store/bolt.go",
            "lib/utils/log-shim.js",
            "README",
            "a.b.c/d.e",
        ];
        let packed: Vec<(&str, Packed)> = paths
            .iter()
            .map(|&p| (p, Packed::new(&FileAnalysis::default()).unwrap()))
            .collect();
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let segments = [
            "src",
            "parser",
            "lexer",
            "mod",
            "util",
            "pkg",
            "button",
            "components",
            "store",
            "bolt",
            "log-shim",
            "utils",
            "README",
            "a",
            "d",
            "a.b.c",
            "d.e",
            "lexer.rs",
            "x",
            "par",
            "ser",
        ];
        let mut ruled_out = 0;
        for (fi, path) in paths.iter().enumerate() {
            for last in segments {
                let segment = ModuleSegment::new(last);
                let may = index.may_name(&segment, fi as u32);
                assert!(may || !segment.names(path), "{last} names {path}");
                ruled_out += usize::from(!may);
            }
        }
        assert!(ruled_out > paths.len() * segments.len() / 2);
    }

    /// Lookups answer the same whether a name's candidates are scanned or searched, with the
    /// files in an order that keeps each directory's together (a listing's) or not.
    #[test]
    fn scanned_and_searched_candidates_agree() {
        for sorted in [false, true] {
            scanned_and_searched_agree(sorted);
        }
    }

    fn scanned_and_searched_agree(sorted: bool) {
        let parents = [Some("A"), Some("m.B"), None, Some("A")];
        let mut packed: Vec<(String, Packed)> = (0..40)
            .map(|i| {
                let path = format!("d{}/s{}/f{i}.rs", i % 3, i % 2);
                let mut symbols = vec![function("new", parents[i % 4])];
                if i % 5 == 0 {
                    symbols.push(function("new", Some("C")));
                }
                let a = FileAnalysis {
                    symbols,
                    ..Default::default()
                };
                (path, Packed::new(&a).unwrap())
            })
            .collect();
        if sorted {
            packed.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        assert_eq!(index.dir_ranges.contains_key("d1/s1"), sorted);
        assert!(index.dir_ranges.contains_key(""));
        let hashed = index.candidates(EdgeKind::Calls, "rust", "new").unwrap();
        assert!(hashed.maps.is_some() && hashed.all.len() > SCAN_MAX);
        let scanned = Cands {
            all: hashed.all,
            members: hashed.members,
            maps: None,
        };
        let mut dirs: Vec<&str> = files.iter().flat_map(|f| ancestors(f.path)).collect();
        dirs.extend(["d9", "d1/s", "d1/s1/f"]);
        for fi in 0..files.len() as u32 + 2 {
            assert_eq!(hashed.in_file(fi), scanned.in_file(fi));
            for p in ["A", "m.B", "C", "B", "X"] {
                assert_eq!(
                    hashed.in_file_with_parent(&index, fi, p),
                    scanned.in_file_with_parent(&index, fi, p)
                );
            }
        }
        for last in ["A", "B", "C", "m", "X"] {
            assert_eq!(
                hashed.with_parent_last(&index, last),
                scanned.with_parent_last(&index, last),
                "{last}"
            );
        }
        // And among some candidates only (a bare call's non-methods).
        let odd = |c: Cand| c.1 % 2 == 1;
        for fi in 0..files.len() as u32 + 2 {
            assert_eq!(
                hashed.in_file_where(fi, odd),
                scanned.in_file_where(fi, odd)
            );
        }
        for d in dirs {
            assert_eq!(
                hashed.under_dir(&index, d, |_| true),
                scanned.under_dir(&index, d, |_| true),
                "{d}"
            );
            assert_eq!(
                hashed.under_dir(&index, d, odd),
                scanned.under_dir(&index, d, odd),
                "{d}"
            );
        }
    }

    /// The one-pass nearest candidate is what asking each ancestor in turn finds: one directly
    /// in it, else the first under it; only candidates `keep` accepts count.
    #[test]
    fn nearest_is_the_deepest_shared_directory_in_one_pass() {
        let paths = [
            "a.rs",
            "a/b.rs",
            "a/b/c.rs",
            "a/b/d.rs",
            "a/bc/e.rs",
            "a/bc.rs",
            "a/b/c/f.rs",
            "ab/g.rs",
            "x/y/z.rs",
            "x/y.rs",
            "x/w/v/u.rs",
            "b",
            "a/b",
        ];
        let mut paths = paths.to_vec();
        paths.sort();
        let packed: Vec<(String, Packed)> = paths
            .iter()
            .map(|p| (p.to_string(), pack(vec![function("go", None)], vec![])))
            .collect();
        let files = inputs(&packed, "rust");
        let index = Index::new(&files);
        let cands = index.candidates(EdgeKind::Calls, "rust", "go").unwrap();
        assert_eq!(cands.all.len(), paths.len());
        let by_ancestor = |path: &str, keep: &dyn Fn(Cand) -> bool| {
            ancestors(path).find_map(|d| {
                cands
                    .first(|c| keep(c) && dir_of(index.path(c)) == d)
                    .or_else(|| cands.first(|c| keep(c) && is_under(index.path(c), d)))
            })
        };
        let keeps: [&dyn Fn(Cand) -> bool; 3] = [&|_| true, &|c| c.0 % 2 == 0, &|c| {
            !index.path(c).starts_with("a/b")
        }];
        for from in paths
            .iter()
            .chain(&["q.rs", "a/b/c/d/e.rs", "x/q.rs", "a/bcd/q.rs"])
        {
            for (k, keep) in keeps.iter().enumerate() {
                let got = cands.nearest_where(&index, from, keep);
                assert_eq!(got, by_ancestor(from, keep), "from {from}, keep {k}");
            }
        }
        assert_eq!(nearness("a/b", "a/b/c.rs"), (3, true));
        assert_eq!(nearness("a/b", "a/bc/e.rs"), (1, false));
        assert_eq!(nearness("a/b", "x.rs"), (0, true));
        assert_eq!(nearness("", "x/y.rs"), (0, false));
    }
}
