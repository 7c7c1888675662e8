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

use std::collections::HashMap;

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

struct Index<'a> {
    files: &'a [FileInput<'a>],
    by_name: HashMap<&'a str, Vec<(usize, usize)>>,
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

fn common_dir_depth(a: &str, b: &str) -> usize {
    dir_of(a)
        .split('/')
        .zip(dir_of(b).split('/'))
        .take_while(|(x, y)| x == y)
        .count()
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

impl<'a> Index<'a> {
    fn new(files: &'a [FileInput<'a>]) -> Self {
        let mut by_name: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        let mut by_path = HashMap::new();
        let mut imports = Vec::with_capacity(files.len());
        for (fi, f) in files.iter().enumerate() {
            by_path.insert(f.path, fi);
            for (si, s) in f.analysis.symbols.iter().enumerate() {
                by_name.entry(s.name.as_str()).or_default().push((fi, si));
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
            by_name,
            by_path,
            imports,
        }
    }

    fn sym(&self, c: (usize, usize)) -> &'a Symbol {
        &self.files[c.0].analysis.symbols[c.1]
    }

    /// Definitions of `name` of the given kinds in the same language family as file `fi`.
    fn candidates(&self, fi: usize, name: &str, kinds: &[&str]) -> Vec<(usize, usize)> {
        let fam = family(self.files[fi].language);
        self.by_name
            .get(name)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&c| {
                        kinds.contains(&self.sym(c).kind) && family(self.files[c.0].language) == fam
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn pick(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<((usize, usize), &'static str)> {
        let kinds: &[&str] = match kind {
            EdgeKind::Calls => CALLABLE,
            EdgeKind::Inherits | EdgeKind::Implements => TYPE_KINDS,
            EdgeKind::References => REFERABLE,
            EdgeKind::Imports => IMPORTABLE,
        };
        let cands = self.candidates(fi, name, kinds);
        if cands.is_empty() {
            return None;
        }
        let path = self.files[fi].path;
        // An import of a relative path names its file exactly.
        if kind == EdgeKind::Imports
            && let Some(file) = qualifier.and_then(|m| self.relative_file(path, m))
            && let Some(c) = cands
                .iter()
                .copied()
                .find(|&c| self.files[c.0].path == file)
        {
            return Some((c, "import"));
        }
        if let Some(q) = qualifier {
            let q = q.trim();
            if SELF_WORDS.contains(&q) || q.starts_with("self.") || q.starts_with("this.") {
                // A member of the caller's own type: the source's parent prefix.
                let own = source_qname
                    .and_then(|s| s.rsplit_once('.'))
                    .map(|(p, _)| p);
                if let Some(own) = own {
                    let own_last = last_segment(own);
                    let hit = cands
                        .iter()
                        .copied()
                        .find(|&c| c.0 == fi && self.sym(c).parent.as_deref() == Some(own))
                        .or_else(|| {
                            cands.iter().copied().find(|&c| {
                                self.sym(c).parent.as_deref().map(last_segment) == Some(own_last)
                            })
                        });
                    if let Some(c) = hit {
                        return Some((c, "same_class"));
                    }
                }
            } else {
                let q_last = q
                    .rsplit(['.', ':', '/', '\\'])
                    .find(|s| !s.is_empty())
                    .unwrap_or(q);
                let q_last = q_last.split('<').next().unwrap_or(q_last);
                if let Some(c) = cands
                    .iter()
                    .copied()
                    .find(|&c| self.sym(c).parent.as_deref().map(last_segment) == Some(q_last))
                {
                    return Some((c, "qualified"));
                }
                // `module.f()` where the file imported `module`.
                if self.imports[fi].iter().any(|(n, _)| *n == q_last)
                    && let Some(c) = cands
                        .iter()
                        .copied()
                        .find(|&c| module_matches_path(q, self.files[c.0].path))
                {
                    return Some((c, "import"));
                }
            }
        }
        if kind != EdgeKind::Imports
            && let Some(c) = cands.iter().copied().find(|&c| c.0 == fi)
        {
            return Some((c, "same_file"));
        }
        for (imported, module) in &self.imports[fi] {
            if *imported == name {
                if let Some(m) = module
                    && let Some(c) = cands
                        .iter()
                        .copied()
                        .find(|&c| module_matches_path(m, self.files[c.0].path))
                {
                    return Some((c, "import"));
                }
                if kind == EdgeKind::Imports && cands.len() == 1 {
                    return Some((cands[0], "unique_name"));
                }
            }
        }
        if cands.len() == 1 {
            return Some((cands[0], "unique_name"));
        }
        let best = cands.iter().copied().max_by_key(|&c| {
            (
                common_dir_depth(path, self.files[c.0].path),
                std::cmp::Reverse(self.files[c.0].path),
            )
        })?;
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

/// Resolve all edges of a repository and produce storable rows.
pub fn resolve<'a>(prefix: &str, files: &'a [FileInput<'a>]) -> (Vec<SymbolRow<'a>>, Vec<EdgeRow>) {
    let index = Index::new(files);
    let mut symbols = Vec::new();
    let mut edges = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for s in &f.analysis.symbols {
            symbols.push(SymbolRow {
                identifier: symbol_identifier(prefix, f.path, &s.qualified_name),
                path: f.path,
                language: f.language,
                parent: s
                    .parent
                    .as_deref()
                    .map(|p| symbol_identifier(prefix, f.path, p)),
                symbol: s,
            });
        }
        let file_ident = file_identifier(prefix, f.path);
        let own: std::collections::HashSet<&str> = f
            .analysis
            .symbols
            .iter()
            .map(|s| s.qualified_name.as_str())
            .collect();
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
    }
    (symbols, edges)
}
