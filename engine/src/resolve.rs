//! Repository-wide edge resolution: turn each raw edge's target *name* into a symbol (or file)
//! identifier with scope and import heuristics, recording how it was resolved:
//!
//! | resolution      | meaning                                                            |
//! |-----------------|--------------------------------------------------------------------|
//! | `same_class`    | `self.f()` / `this.f()`: a member of the caller's own type         |
//! | `qualified`     | `Type::f()` / `Type.f()`: a member of the named type               |
//! | `same_file`     | a definition of that name in the same file                         |
//! | `import`        | a definition the file imports (by name or module path)             |
//! | `relative_path` | an import of a relative path that names a file of the repository   |
//! | `unique_name`   | the only definition of that name in the repository                 |
//! | `ambiguous`     | several candidates; the nearest by directory was chosen            |
//! | `unresolved`    | no definition in the repository (external or dynamic); target null |
//!
//! Resolution is recomputed for every edge on every index run (it is cheap); only parsing is
//! incremental.

// FxHash: resolution hashes millions of short keys (names, paths); SipHash was a tenth of
// the phase. No output depends on map order.
use rustc_hash::FxHashMap as HashMap;

use crate::analyze::{EdgeKind, FileAnalysis, Symbol, TYPE_KINDS};

/// One analysed file, as input to resolution.
pub struct FileInput<'a> {
    pub path: &'a str,
    pub language: &'a str,
    pub analysis: &'a FileAnalysis,
}

/// A symbol ready to be stored.
pub struct SymbolRow<'a> {
    pub identifier: String,
    pub path: &'a str,
    pub language: &'a str,
    pub parent: Option<String>,
    pub symbol: &'a Symbol,
}

/// An edge ready to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeRow {
    pub kind: EdgeKind,
    pub source: String,
    pub source_qname: Option<String>,
    pub source_path: String,
    pub line: i64,
    pub character: i64,
    pub target_name: String,
    pub target_qualifier: Option<String>,
    pub target: Option<String>,
    pub resolution: &'static str,
}

/// The identifier of a file (SPEC 2.2).
pub fn file_identifier(prefix: &str, path: &str) -> String {
    format!("{prefix}::{path}")
}

/// The identifier of a symbol (SPEC 2.2).
pub fn symbol_identifier(prefix: &str, path: &str, qname: &str) -> String {
    format!("{prefix}::{path}::{qname}")
}

const CALLABLE: &[&str] = &[
    "function",
    "method",
    "constructor",
    "class",
    "struct",
    "macro",
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
    "module",
    "macro",
];
const SELF_WORDS: &[&str] = &["self", "this", "Self", "cls", "@", "$this", "base", "super"];

/// Candidate definitions of one name, for one kind class and language family, indexed for
/// the lookups resolution makes (each O(1) or O(path depth), so common names such as `new`
/// with thousands of definitions cost no more than rare ones).
/// Keys borrow from the analyses (a `String` per key was ~10 M allocations on the registry).
#[derive(Default)]
struct Cands<'a> {
    /// In path order.
    all: Vec<(usize, usize)>,
    /// First candidate in a file.
    by_file: HashMap<usize, (usize, usize)>,
    /// First candidate in a file with a given parent qualified name.
    by_file_parent: HashMap<(usize, &'a str), (usize, usize)>,
    /// First candidate whose parent's last segment is this name (`Type` in `Type::f`).
    by_parent_last: HashMap<&'a str, (usize, usize)>,
    /// First candidate under each directory (every ancestor of its path).
    by_dir: HashMap<&'a str, (usize, usize)>,
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

struct Index<'a> {
    files: &'a [FileInput<'a>],
    cands: HashMap<(usize, &'a str, &'a str), Cands<'a>>,
    by_path: HashMap<&'a str, usize>,
    imports: Vec<Vec<(&'a str, Option<&'a str>)>>,
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

/// `a/b/c.rs` → `a/b`, `a`, ``.
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut cur = Some(dir_of(path));
    std::iter::from_fn(move || {
        let d = cur?;
        cur = if d.is_empty() { None } else { Some(dir_of(d)) };
        Some(d)
    })
}

/// Does a module path (`a::b`, `a.b`, `./x/y`, `github.com/o/r/pkg`) name this file's path?
fn module_matches_path(module: &str, path: &str) -> bool {
    let segs: Vec<&str> = module
        .split(['.', ':', '/', '\\'])
        .filter(|s| {
            !s.is_empty() && !matches!(*s, "crate" | "self" | "super" | ".." | "src" | "lib")
        })
        .collect();
    let Some(last) = segs.last() else {
        return false;
    };
    let stem = path.rsplit('/').next().unwrap_or(path);
    let stem = stem.split('.').next().unwrap_or(stem);
    let parent = dir_of(path).rsplit('/').next().unwrap_or("");
    *last == stem
        || (*last == parent && matches!(stem, "mod" | "__init__" | "index"))
        || path.split('/').any(|c| c == *last)
}

/// Linear scans (module-path matching) stop after this many candidates.
const SCAN_LIMIT: usize = 512;

impl<'a> Index<'a> {
    fn new(files: &'a [FileInput<'a>]) -> Self {
        let mut cands: HashMap<(usize, &str, &str), Cands> = HashMap::default();
        let mut by_path = HashMap::default();
        let mut imports = Vec::with_capacity(files.len());
        for (fi, f) in files.iter().enumerate() {
            by_path.insert(f.path, fi);
            let fam = family(f.language);
            for (si, s) in f.analysis.symbols.iter().enumerate() {
                for (class, kinds) in CLASSES.iter().enumerate() {
                    if !kinds.contains(&s.kind) {
                        continue;
                    }
                    let c = cands.entry((class, fam, s.name.as_str())).or_default();
                    let id = (fi, si);
                    c.all.push(id);
                    c.by_file.entry(fi).or_insert(id);
                    if let Some(p) = &s.parent {
                        c.by_file_parent.entry((fi, p.as_str())).or_insert(id);
                        c.by_parent_last.entry(last_segment(p)).or_insert(id);
                    }
                    for d in ancestors(f.path) {
                        c.by_dir.entry(d).or_insert(id);
                    }
                }
            }
            imports.push(
                f.analysis
                    .edges
                    .iter()
                    .filter(|e| e.kind == EdgeKind::Imports)
                    .map(|e| (e.target_name.as_str(), e.qualifier.as_deref()))
                    .collect(),
            );
        }
        Index {
            files,
            cands,
            by_path,
            imports,
        }
    }

    fn sym(&self, c: (usize, usize)) -> &'a Symbol {
        &self.files[c.0].analysis.symbols[c.1]
    }

    fn pick(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<((usize, usize), &'static str)> {
        let fam = family(self.files[fi].language);
        let cands = self.cands.get(&(class_of(kind), fam, name))?;
        let path = self.files[fi].path;
        let matches_module = |m: &str| {
            cands
                .all
                .iter()
                .take(SCAN_LIMIT)
                .copied()
                .find(|&c| module_matches_path(m, self.files[c.0].path))
        };
        // An import of a relative path names its file exactly.
        if kind == EdgeKind::Imports
            && let Some(file) = qualifier.and_then(|m| self.relative_file(path, m))
            && let Some(&fi2) = self.by_path.get(file)
            && let Some(&c) = cands.by_file.get(&fi2)
        {
            return Some((c, "import"));
        }
        if let Some(q) = qualifier {
            let q = q.trim();
            if SELF_WORDS.contains(&q) || q.starts_with("self.") || q.starts_with("this.") {
                // A member of the caller's own type: the source's parent prefix.
                if let Some((own, _)) = source_qname.and_then(|s| s.rsplit_once('.')) {
                    let hit = cands
                        .by_file_parent
                        .get(&(fi, own))
                        .or_else(|| cands.by_parent_last.get(last_segment(own)));
                    if let Some(&c) = hit {
                        return Some((c, "same_class"));
                    }
                }
            } else {
                let q_last = q
                    .rsplit(['.', ':', '/', '\\'])
                    .find(|s| !s.is_empty())
                    .unwrap_or(q);
                let q_last = q_last.split('<').next().unwrap_or(q_last);
                if let Some(&c) = cands.by_parent_last.get(q_last) {
                    return Some((c, "qualified"));
                }
                // `module.f()` where the file imported `module`.
                if self.imports[fi].iter().any(|(n, _)| *n == q_last)
                    && let Some(c) = matches_module(q)
                {
                    return Some((c, "import"));
                }
            }
        }
        if kind != EdgeKind::Imports
            && let Some(&c) = cands.by_file.get(&fi)
        {
            return Some((c, "same_file"));
        }
        for (imported, module) in &self.imports[fi] {
            if *imported == name {
                if let Some(c) = module.and_then(matches_module) {
                    return Some((c, "import"));
                }
                if kind == EdgeKind::Imports && cands.all.len() == 1 {
                    return Some((cands.all[0], "unique_name"));
                }
            }
        }
        if cands.all.len() == 1 {
            return Some((cands.all[0], "unique_name"));
        }
        // The nearest by directory (deepest shared ancestor; ties by path order).
        let best = ancestors(path).find_map(|d| cands.by_dir.get(d)).copied()?;
        Some((best, "ambiguous"))
    }

    /// `./util` imported from `src/app.js` → `src/util.js` (or `src/util/index.js`);
    /// `#include "util.h"` from `c/util.c` → `c/util.h`.
    fn relative_file(&self, from: &str, module: &str) -> Option<&'a str> {
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

/// Resolution over one repository: the candidate index is built once, then rows are produced
/// per file, so a caller can stream them (the index is the only repository-wide structure).
pub struct Resolver<'a> {
    prefix: &'a str,
    index: Index<'a>,
}

impl<'a> Resolver<'a> {
    pub fn new(prefix: &'a str, files: &'a [FileInput<'a>]) -> Self {
        Resolver {
            prefix,
            index: Index::new(files),
        }
    }

    /// Free the candidate index once every edge is resolved (symbol rows do not need it): on
    /// the registry it is hundreds of megabytes, held otherwise while `symbols` is written.
    pub fn release_candidates(&mut self) {
        self.index.cands = HashMap::default();
        self.index.imports = Vec::new();
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.index.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.files.is_empty()
    }

    /// The symbol rows of file `fi`.
    pub fn symbols(&self, fi: usize) -> Vec<SymbolRow<'a>> {
        let f = &self.index.files[fi];
        let prefix = self.prefix;
        f.analysis
            .symbols
            .iter()
            .map(|s| SymbolRow {
                identifier: symbol_identifier(prefix, f.path, &s.qualified_name),
                path: f.path,
                language: f.language,
                parent: s
                    .parent
                    .as_deref()
                    .map(|p| symbol_identifier(prefix, f.path, p)),
                symbol: s,
            })
            .collect()
    }

    /// The resolved edge rows of file `fi`.
    pub fn edges(&self, fi: usize) -> Vec<EdgeRow> {
        resolve_file_edges(self.prefix, &self.index, fi, &self.index.files[fi])
    }
}

fn resolve_file_edges<'a>(
    prefix: &str,
    index: &Index<'a>,
    fi: usize,
    f: &'a FileInput<'a>,
) -> Vec<EdgeRow> {
    let files = index.files;
    let file_ident = file_identifier(prefix, f.path);
    let own: std::collections::HashSet<&str> = f
        .analysis
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    let mut edges = Vec::with_capacity(f.analysis.edges.len());
    for e in &f.analysis.edges {
        // The source: a symbol of this file, or (for `impl Trait for T` with `T` defined
        // elsewhere) the type it names, or the file.
        let source = match e.source.as_deref() {
            None => file_ident.clone(),
            Some(q) if own.contains(q) => symbol_identifier(prefix, f.path, q),
            Some(q) => index
                .pick(fi, None, EdgeKind::Implements, last_segment(q), None)
                .map(|(c, _)| {
                    symbol_identifier(prefix, files[c.0].path, &index.sym(c).qualified_name)
                })
                .unwrap_or_else(|| file_ident.clone()),
        };
        let (target, resolution) = match index.pick(
            fi,
            e.source.as_deref(),
            e.kind,
            &e.target_name,
            e.qualifier.as_deref(),
        ) {
            Some((c, how)) => (
                Some(symbol_identifier(
                    prefix,
                    files[c.0].path,
                    &index.sym(c).qualified_name,
                )),
                how,
            ),
            None => match e
                .qualifier
                .as_deref()
                .filter(|_| e.kind == EdgeKind::Imports)
                .and_then(|m| index.relative_file(f.path, m))
            {
                Some(p) => (Some(file_identifier(prefix, p)), "relative_path"),
                None => (None, "unresolved"),
            },
        };
        edges.push(EdgeRow {
            kind: e.kind,
            source,
            source_qname: e.source.clone(),
            source_path: f.path.to_string(),
            line: e.line,
            character: e.character,
            target_name: e.target_name.clone(),
            target_qualifier: e.qualifier.clone(),
            target,
            resolution,
        });
    }
    edges
}
