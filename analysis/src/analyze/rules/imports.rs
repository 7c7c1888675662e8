//! Imports: what each import statement binds, from which module, under which alias.

use super::*;

/// An import's names, from one module: each name it binds (with its alias), or the module's
/// last path part when it binds none (`import './polyfill'`, a bare `require('x')`).
pub(super) fn bound_from(mut names: Vec<(String, Option<String>)>, module: String) -> Vec<Import> {
    if names.is_empty() {
        names.push((
            module.rsplit('/').next().unwrap_or(&module).to_string(),
            None,
        ));
    }
    names
        .into_iter()
        .map(|(x, alias)| (x, Some(module.clone()), alias))
        .collect()
}

/// One name an import binds: (the imported name, the module qualifier, the alias the file
/// binds it to when it renames it — `np` in `import numpy as np`, `E` in `use a::Entry as E`,
/// `ns` in `import * as ns from './m'`).
pub type Import = (String, Option<String>, Option<String>);

/// An import without an alias.
pub(super) fn plain((name, module): (String, Option<String>)) -> Import {
    (name, module, None)
}

/// A node's source text.
pub(super) fn node_text(x: Node, src: &str) -> String {
    src.get(x.byte_range()).unwrap_or("").to_string()
}

/// A module path without its quotes (`"fmt"`, `'./x'`, `<stdio.h>`).
pub(super) fn unquote(s: String) -> String {
    s.trim_matches(['"', '\'', '`', '<', '>']).to_string()
}

/// Imports declared by a node.
pub fn imports(lang: Lang, n: Node, src: &str) -> Vec<Import> {
    match lang {
        Lang::Rust => rust::imports(n, src),
        Lang::Python => python::imports(n, src),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js_ts::imports(n, src),
        Lang::Go => go::imports(n, src),
        Lang::Java => java::imports(n, src),
        Lang::C | Lang::Cpp => c_cpp::imports(n, src),
        Lang::CSharp => csharp::imports(n, src),
        Lang::Ruby => ruby::imports(n, src),
        Lang::Php => php::imports(n, src),
        Lang::Other(_) => vec![],
    }
}

pub(super) fn split_path(path: &str, sep: &str) -> (String, Option<String>) {
    let path = path.trim().trim_start_matches(sep);
    match path.rsplit_once(sep) {
        Some((q, name)) => (name.to_string(), Some(q.to_string())),
        None => (path.to_string(), None),
    }
}
