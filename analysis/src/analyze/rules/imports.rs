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

/// Imports declared by a node.
pub fn imports(lang: Lang, n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| src.get(x.byte_range()).unwrap_or("").to_string();
    let unquote = |s: String| s.trim_matches(['"', '\'', '`', '<', '>']).to_string();
    match (lang, kind_of(n)) {
        (Lang::Rust, "use_declaration") => {
            let Some(arg) = field(n, "argument") else {
                return vec![];
            };
            expand_rust_use(&text(arg))
        }
        (Lang::Python, "import_statement") => named_children(n)
            .into_iter()
            .map(|c| match kind_of(c) {
                "aliased_import" => (
                    field(c, "name").map(text).unwrap_or_default(),
                    None,
                    field(c, "alias").map(text),
                ),
                _ => (text(c), None, None),
            })
            .collect(),
        (Lang::Python, "import_from_statement") => {
            let module = field(n, "module_name").map(text);
            let mut c = n.walk();
            let names: Vec<_> = n
                .children_by_field_name("name", &mut c)
                .map(|x| match kind_of(x) {
                    "aliased_import" => (
                        field(x, "name").map(text).unwrap_or_default(),
                        field(x, "alias").map(text),
                    ),
                    _ => (text(x), None),
                })
                .collect();
            if names.is_empty() {
                vec![("*".to_string(), module, None)]
            } else {
                names
                    .into_iter()
                    .map(|(x, alias)| (x, module.clone(), alias))
                    .collect()
            }
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "import_statement") => {
            let Some(source) = field(n, "source").map(|s| unquote(text(s))) else {
                return vec![];
            };
            let mut names = Vec::new();
            let mut stack = named_children(n);
            while let Some(c) = stack.pop() {
                match kind_of(c) {
                    "import_specifier" => names
                        .extend(field(c, "name").map(|x| (text(x), field(c, "alias").map(text)))),
                    "identifier" if parent_kind(c) == "import_clause" => {
                        names.push((text(c), None))
                    }
                    // `* as ns`: the module's names, bound to `ns`.
                    "namespace_import" => names.push((
                        "*".into(),
                        named_children(c)
                            .into_iter()
                            .find(|x| kind_of(*x) == "identifier")
                            .map(text),
                    )),
                    "import_clause" | "named_imports" => stack.extend(named_children(c)),
                    _ => {}
                }
            }
            bound_from(names, source)
        }
        // CommonJS: `const x = require('./x')`, `const { a, b: c } = require('m')`.
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "call_expression") => {
            // Every call comes here: nothing is allocated unless it is a `require`.
            let is_require = field(n, "function").is_some_and(|f| {
                kind_of(f) == "identifier" && src.get(f.byte_range()) == Some("require")
            });
            let module = is_require
                .then(|| field(n, "arguments")?.named_child(0))
                .flatten()
                .filter(|s| kind_of(*s) == "string")
                .map(|s| unquote(text(s)));
            let Some(module) = module else {
                return vec![];
            };
            // The names it binds (asked of the tree only for a `require`, which is rare).
            let mut names = Vec::new();
            if let Some(bound) = n
                .parent()
                .filter(|p| kind_of(*p) == "variable_declarator")
                .and_then(|d| field(d, "name"))
            {
                match kind_of(bound) {
                    "identifier" => names.push((text(bound), None)),
                    "object_pattern" => {
                        for c in named_children(bound) {
                            match kind_of(c) {
                                "shorthand_property_identifier_pattern" => {
                                    names.push((text(c), None))
                                }
                                // `{ a: c }` binds `a` as `c`.
                                "pair_pattern" => names.extend(field(c, "key").map(|k| {
                                    let value = field(c, "value")
                                        .filter(|v| kind_of(*v) == "identifier")
                                        .map(text);
                                    (text(k), value)
                                })),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            bound_from(names, module)
        }
        (Lang::Go, "import_spec") => {
            let Some(path) = field(n, "path").map(|p| unquote(text(p))) else {
                return vec![];
            };
            // The package by the name its path implies (`yaml` of `gopkg.in/yaml.v3`), bound
            // to its alias (`str "strings"`); `*` for a dot import (`. "fmt"`: the package's
            // names unqualified).
            let last = go_package_name(&path).to_string();
            let (name, alias) = match field(n, "name") {
                Some(alias) if kind_of(alias) == "dot" => ("*".to_string(), None),
                Some(alias) if kind_of(alias) == "package_identifier" => (last, Some(text(alias))),
                _ => (last, None),
            };
            vec![(name, Some(path), alias)]
        }
        // `import a.b.C;` is `C` of `a.b`; `import a.b.*;` (on demand) is `*` of `a.b`, the
        // package's types (or, `import static a.b.C.*;`, the class's static members).
        (Lang::Java, "import_declaration") => {
            let children = named_children(n);
            let on_demand = children.iter().any(|c| kind_of(c) == "asterisk");
            children
                .into_iter()
                .filter(|c| matches!(kind_of(c), "scoped_identifier" | "identifier"))
                .map(|c| match on_demand {
                    true => ("*".to_string(), Some(text(c)), None),
                    false => plain(split_path(&text(c), ".")),
                })
                .collect()
        }
        (Lang::C | Lang::Cpp, "preproc_include") => field(n, "path")
            .map(|p| {
                let p = unquote(text(p));
                (
                    p.rsplit('/').next().unwrap_or(&p).to_string(),
                    Some(p),
                    None,
                )
            })
            .into_iter()
            .collect(),
        (Lang::CSharp, "using_directive") => named_children(n)
            .into_iter()
            .rfind(|c| matches!(kind_of(c), "qualified_name" | "identifier"))
            .map(|c| plain(split_path(&text(c), ".")))
            .into_iter()
            .collect(),
        (Lang::Ruby, "call") => {
            let method = field(n, "method").map(text).unwrap_or_default();
            if !matches!(method.as_str(), "require" | "require_relative" | "load")
                || field(n, "receiver").is_some()
            {
                return vec![];
            }
            field(n, "arguments")
                .and_then(|a| a.named_child(0))
                .map(|s| {
                    let p = unquote(text(s));
                    (
                        p.rsplit('/').next().unwrap_or(&p).to_string(),
                        Some(p),
                        None,
                    )
                })
                .into_iter()
                .collect()
        }
        (Lang::Php, "namespace_use_clause") => {
            // In a group (`use App\M\{B, C as D};`) the namespace is written before the
            // braces, once for all of its clauses.
            let group = n
                .parent()
                .filter(|g| kind_of(g) == "namespace_use_group")
                .and_then(|g| g.parent())
                .and_then(|d| {
                    named_children(d)
                        .into_iter()
                        .find(|c| kind_of(c) == "namespace_name")
                })
                .map(|p| text(p).trim_start_matches('\\').to_string());
            named_children(n)
                .into_iter()
                .find(|c| matches!(kind_of(c), "qualified_name" | "name"))
                .map(|c| {
                    let (name, module) = split_path(&text(c), "\\");
                    let module = match (group.clone(), module) {
                        (Some(g), Some(m)) => Some(format!("{g}\\{m}")),
                        (g, m) => g.or(m),
                    };
                    (name, module, field(n, "alias").map(text))
                })
                .into_iter()
                .collect()
        }
        _ => vec![],
    }
}

pub(super) fn split_path(path: &str, sep: &str) -> (String, Option<String>) {
    let path = path.trim().trim_start_matches(sep);
    match path.rsplit_once(sep) {
        Some((q, name)) => (name.to_string(), Some(q.to_string())),
        None => (path.to_string(), None),
    }
}

/// `a::b::{C, d::E as F}` → [(C, a::b), (E, a::b::d, as F)].
pub(super) fn expand_rust_use(arg: &str) -> Vec<Import> {
    // Keep `as` renames recognisable: `Entry as E` → `Entry@E`.
    let flat = arg
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" as ", "@")
        .replace(' ', "");
    let mut out = Vec::new();
    expand_use_into(&flat, "", &mut out);
    out
}

pub(super) fn expand_use_into(s: &str, prefix: &str, out: &mut Vec<Import>) {
    if out.len() > 256 {
        return;
    }
    let join = |p: &str, x: &str| {
        if p.is_empty() {
            x.to_string()
        } else {
            format!("{p}::{x}")
        }
    };
    if let Some(open) = s.find('{') {
        let head = s[..open].trim_end_matches("::");
        let inner = s[open + 1..].strip_suffix('}').unwrap_or(&s[open + 1..]);
        let base = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use_into(&inner[start..i], &base, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_use_into(&inner[start..], &base, out);
        return;
    }
    if s.is_empty() {
        return;
    }
    let (s, alias) = match s.split_once('@') {
        // `use a::b as _` imports a trait's methods and binds no name.
        Some((s, alias)) => (s, Some(alias.to_string()).filter(|a| a != "_")),
        None => (s, None),
    };
    let full = join(prefix, s);
    let (name, q) = split_path(&full, "::");
    let name = if name == "self" {
        q.as_deref()
            .and_then(|q| q.rsplit("::").next())
            .unwrap_or("self")
            .to_string()
    } else {
        name
    };
    out.push((name, q, alias));
}

/// The name a Go import path binds when the import does not rename it, as `goimports`
/// assumes it: the path's last element (the one before a major version's `v2`), without a
/// `go-` prefix, up to its first character that cannot be in an identifier — `yaml` of
/// `gopkg.in/yaml.v3`, `toml` of `github.com/pelletier/go-toml`, `cmp` of
/// `github.com/google/go-cmp/cmp`. (The package's own `package` clause may say otherwise; a
/// repository rarely names a package unlike its directory.)
pub fn go_package_name(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let mut base = parts.next().unwrap_or(path);
    if let Some(v) = base.strip_prefix('v')
        && !v.is_empty()
        && v.bytes().all(|b| b.is_ascii_digit())
        && let Some(before) = parts.next()
    {
        base = before;
    }
    let base = base.strip_prefix("go-").unwrap_or(base);
    let end = base
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(base.len());
    match &base[..end] {
        "" => base,
        name => name,
    }
}
