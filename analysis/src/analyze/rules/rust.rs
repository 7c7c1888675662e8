//! Rust: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(_up: Up<'_, 't>, n: Node<'t>, _src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "function_item" | "function_signature_item" => "function",
        "struct_item" | "union_item" => "struct",
        "enum_item" => "enum",
        "trait_item" => "trait",
        "mod_item" => "module",
        "const_item" | "static_item" => "constant",
        "type_item" | "associated_type" => "type_alias",
        "macro_definition" => "macro",
        "field_declaration" => "field",
        "enum_variant" => "variant",
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
        "parameter" => b.bind(
            field(n, "pattern").filter(|p| kind_of(p) == "identifier"),
            field(n, "type"),
            false,
            false,
        ),
        "let_declaration" => {
            let name = field(n, "pattern").filter(|p| kind_of(p) == "identifier");
            match field(n, "type") {
                Some(ty) => b.bind(name, Some(ty), false, false),
                None => b.bind(name, field(n, "value"), true, false),
            }
        }
        "field_declaration" => b.bind(field(n, "name"), field(n, "type"), false, true),
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "use_declaration" => {
            let Some(arg) = field(n, "argument") else {
                return vec![];
            };
            expand_rust_use(&text(arg))
        }
        _ => vec![],
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
