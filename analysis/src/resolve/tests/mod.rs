//! Tests of resolution, by language; the helpers that build analysed files are here.

use super::*;
use crate::analyze::packed::Packed;
use crate::analyze::{FileAnalysis, RawEdge, SymbolParts};

mod c_cpp;
mod general;
mod go;
mod others;
mod python;
mod rust;

pub(super) fn function(name: &str, parent: Option<&str>) -> Symbol {
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
pub(super) fn analysis(symbols: Vec<Symbol>, edges: Vec<RawEdge>) -> FileAnalysis {
    FileAnalysis {
        symbols,
        edges,
        ..Default::default()
    }
}

pub(super) fn pack(symbols: Vec<Symbol>, edges: Vec<RawEdge>) -> Packed {
    Packed::new(&analysis(symbols, edges)).unwrap()
}

/// An import of `name` from `module` (`None`: `import name` itself).
pub(super) fn import(name: &str, module: Option<&str>) -> RawEdge {
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
pub(super) fn of_kind(kind: &'static str, name: &str, parent: Option<&str>) -> Symbol {
    let mut s = function(name, parent);
    s.kind = kind;
    s
}

/// Resolution's inputs for packed analyses of files in one language.
pub(super) fn inputs<'a, P: AsRef<str>>(
    packed: &'a [(P, Packed)],
    language: &'a str,
) -> Vec<FileInput<'a>> {
    packed
        .iter()
        .map(|(path, p)| FileInput {
            path: path.as_ref(),
            language,
            lang: Lang::from_name(language),
            names: p.names(),
        })
        .collect()
}
