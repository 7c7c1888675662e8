//! Go: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(up: Up<'_, 't>, n: Node<'t>, _src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "function_declaration" => "function",
        "method_declaration" | "method_elem" | "method_spec" => "method",
        "type_spec" => match field(n, "type").map(kind_of) {
            Some("struct_type") => "struct",
            Some("interface_type") => "interface",
            _ => "type_alias",
        },
        "type_alias" => "type_alias",
        "const_spec" => "constant",
        // Package-level `var ErrX = …` (not a function's locals).
        "var_spec"
            if up.parent(n).is_some_and(|d| {
                let d = if kind_of(d) == "var_spec_list" {
                    up.parent(d)
                } else {
                    Some(d)
                };
                d.and_then(|d| up.parent(d))
                    .is_some_and(|f| kind_of(f) == "source_file")
            }) =>
        {
            "variable"
        }
        "field_declaration" if field(n, "name").is_some() => "field",
        _ => return None,
    })
}

/// The typed names node `n` declares ([`super::typed_bindings`]).
pub(super) fn typed_bindings<'t>(
    b: &mut Bindings<'_, 't>,
    n: Node<'t>,
    _src: &str,
    _in_type: bool,
) {
    let k = kind_of(n);
    match k {
        "parameter_declaration" | "var_spec" | "field_declaration" => {
            let is_field = k == "field_declaration";
            let ty = field(n, "type");
            let names = children_by_field(n, "name");
            let values = field(n, "value").map(named_children).unwrap_or_default();
            for (i, name) in names.into_iter().enumerate() {
                match ty {
                    Some(ty) => b.bind(Some(name), Some(ty), false, is_field),
                    None => b.bind(Some(name), values.get(i).copied(), true, is_field),
                }
            }
        }
        // `switch v := x.(type) { case *T: v.f() }`: in a case of one type, the alias is
        // of that type; in a case of several (or `default`), of `x`'s (its declared type
        // when `x` is a local or parameter of one).
        "type_case" | "default_case" => {
            let switch = n
                .parent()
                .filter(|p| kind_of(*p) == "type_switch_statement");
            let alias = switch
                .and_then(|p| field(p, "alias"))
                .and_then(|a| a.named_child(0))
                .filter(|a| kind_of(*a) == "identifier");
            match children_by_field(n, "type")[..] {
                [ty] => b.bind(alias, Some(ty), false, false),
                _ => b.bind(alias, switch.and_then(|p| field(p, "value")), true, false),
            }
        }
        "short_var_declaration" => {
            let left = field(n, "left").map(named_children).unwrap_or_default();
            let right = field(n, "right").map(named_children).unwrap_or_default();
            // `a, b := x, y` pairs them; `srv, err := NewServer()` gives the call's first
            // result, by convention the value, to the first name.
            if left.len() == right.len() || right.len() == 1 {
                for (l, r) in left.into_iter().zip(right) {
                    if kind_of(l) == "identifier" {
                        b.bind(Some(l), Some(r), true, false);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "import_spec" => {
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
        _ => vec![],
    }
}

/// The name a Go import path binds when the import does not rename it, as `goimports`
/// assumes it: the path's last element (the one before a major version's `v2`), without a
/// `go-` prefix, up to its first character that cannot be in an identifier — `yaml` of
/// `gopkg.in/yaml.v3`, `toml` of `github.com/pelletier/go-toml`, `cmp` of
/// `github.com/google/go-cmp/cmp`. (The package's own `package` clause may say otherwise; a
/// repository rarely names a package unlike its directory.)
pub(super) fn go_package_name(path: &str) -> &str {
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
