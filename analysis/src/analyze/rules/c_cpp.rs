//! C and C++: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(
    _lang: Lang,
    _up: Up<'_, 't>,
    n: Node<'t>,
    _src: &str,
) -> Option<&'static str> {
    Some(match kind_of(n) {
        "function_definition" => "function",
        "struct_specifier" | "union_specifier" if field(n, "body").is_some() => "struct",
        "class_specifier" if field(n, "body").is_some() => "class",
        "enum_specifier" if field(n, "body").is_some() => "enum",
        "type_definition" | "alias_declaration" => "type_alias",
        "preproc_def" | "preproc_function_def" => "macro",
        "namespace_definition" if field(n, "name").is_some() => "module",
        "concept_definition" => "type_alias",
        "field_declaration" => {
            if declarator_is_function(n) {
                "method"
            } else {
                "field"
            }
        }
        "enumerator" => "variant",
        _ => return None,
    })
}

/// The typed names node `n` declares ([`super::typed_bindings`]).
pub(super) fn typed_bindings<'t>(b: &mut Bindings<'_, 't>, n: Node<'t>, src: &str, _in_type: bool) {
    let k = kind_of(n);
    match k {
        "parameter_declaration" | "optional_parameter_declaration" | "field_declaration" => {
            let is_field = k == "field_declaration";
            b.bind(
                field(n, "declarator").and_then(declarator_name),
                field(n, "type"),
                false,
                is_field,
            )
        }
        "declaration" => {
            if let Some(ty) = field(n, "type") {
                for d in children_by_field(n, "declarator") {
                    if is_var_type(ty, src) {
                        let value = field(d, "value");
                        b.bind(declarator_name(d), value, true, false);
                    } else {
                        b.bind(declarator_name(d), Some(ty), false, false);
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
        "preproc_include" => field(n, "path")
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
        _ => vec![],
    }
}

pub(super) fn declarator_is_function(n: Node) -> bool {
    let mut d = field(n, "declarator");
    while let Some(x) = d {
        if kind_of(x) == "function_declarator" {
            return true;
        }
        d = field(x, "declarator");
    }
    false
}
