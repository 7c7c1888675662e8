//! Java: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "class_declaration" | "record_declaration" => "class",
        "interface_declaration" | "annotation_type_declaration" => "interface",
        "enum_declaration" => "enum",
        "method_declaration" | "annotation_type_element_declaration" => "method",
        "constructor_declaration" | "compact_constructor_declaration" => "constructor",
        "field_declaration" => {
            let m = modifiers_text(Lang::Java, n, src);
            if m.contains("static") && m.contains("final") {
                "constant"
            } else {
                "field"
            }
        }
        "constant_declaration" => "constant",
        "enum_constant" => "variant",
        // `record Point(int x, int y)`: its components are its fields.
        "formal_parameter"
            if up
                .parent(n)
                .and_then(|p| up.parent(p))
                .is_some_and(|r| kind_of(r) == "record_declaration") =>
        {
            "field"
        }
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
        "formal_parameter" | "enhanced_for_statement" | "resource" => {
            b.bind(field(n, "name"), field(n, "type"), false, false)
        }
        "local_variable_declaration" | "field_declaration" => {
            if let Some(ty) = field(n, "type") {
                let decls = children_by_field(n, "declarator");
                b.declarators(ty, decls, k == "field_declaration");
            }
        }
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        // `import a.b.C;` is `C` of `a.b`; `import a.b.*;` (on demand) is `*` of `a.b`, the
        // package's types (or, `import static a.b.C.*;`, the class's static members).
        "import_declaration" => {
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
        _ => vec![],
    }
}
