//! C#: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(_up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "class_declaration" | "record_declaration" => "class",
        "struct_declaration" => "struct",
        "interface_declaration" => "interface",
        "enum_declaration" => "enum",
        "method_declaration" | "operator_declaration" => "method",
        "local_function_statement" => "function",
        "constructor_declaration" => "constructor",
        "property_declaration" | "indexer_declaration" | "event_declaration" => "property",
        "field_declaration" | "event_field_declaration" => {
            if modifiers_text(Lang::CSharp, n, src).contains("const") {
                "constant"
            } else {
                "field"
            }
        }
        "namespace_declaration" | "file_scoped_namespace_declaration" => "module",
        "delegate_declaration" => "type_alias",
        "enum_member_declaration" => "variant",
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
        "parameter" => b.bind(field(n, "name"), field(n, "type"), false, false),
        "property_declaration" => b.bind(field(n, "name"), field(n, "type"), false, true),
        "foreach_statement" => b.bind(
            field(n, "left").filter(|l| kind_of(l) == "identifier"),
            field(n, "type"),
            false,
            false,
        ),
        "variable_declaration" => {
            if let Some(ty) = field(n, "type") {
                let decls = named_children(n)
                    .into_iter()
                    .filter(|c| kind_of(c) == "variable_declarator")
                    .collect();
                let is_field = parent_kind(n) == "field_declaration";
                b.declarators(ty, decls, is_field);
            }
        }
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "using_directive" => named_children(n)
            .into_iter()
            .rfind(|c| matches!(kind_of(c), "qualified_name" | "identifier"))
            .map(|c| plain(split_path(&text(c), ".")))
            .into_iter()
            .collect(),
        _ => vec![],
    }
}
