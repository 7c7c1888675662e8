//! Whether a definition is public, by each language's modifiers and conventions.

use super::*;

/// Members of `impl Trait for T` are as public as the trait; inherent impls decide per item.
pub fn impl_members_public(lang: Lang, n: Node) -> Option<bool> {
    (lang == Lang::Rust && kind_of(n) == "impl_item" && field(n, "trait").is_some()).then_some(true)
}

/// Publicity members inherit from their container, where the language implies it.
pub fn members_public(lang: Lang, kind: &str, container_public: bool) -> Option<bool> {
    match (lang, kind) {
        (Lang::Rust, "trait" | "enum") => Some(container_public),
        (Lang::Java | Lang::CSharp | Lang::Go, "interface") => Some(container_public),
        (Lang::TypeScript | Lang::Tsx, "interface" | "enum") => Some(container_public),
        _ => None,
    }
}

pub(super) fn modifiers_text(lang: Lang, n: Node, src: &str) -> String {
    let mut out = String::new();
    for c in named_children(n) {
        let hit = match lang {
            Lang::Java => kind_of(c) == "modifiers",
            Lang::CSharp => kind_of(c) == "modifier",
            Lang::Php => matches!(kind_of(c), "visibility_modifier" | "static_modifier"),
            Lang::Rust => kind_of(c) == "visibility_modifier",
            Lang::C | Lang::Cpp => kind_of(c) == "storage_class_specifier",
            Lang::TypeScript | Lang::Tsx => kind_of(c) == "accessibility_modifier",
            _ => false,
        };
        if hit {
            out.push_str(src.get(c.byte_range()).unwrap_or(""));
            out.push(' ');
        }
    }
    out
}

/// Whether a definition is part of the public API surface.
pub fn is_public<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>, name: &str, src: &str) -> bool {
    match lang {
        Lang::Rust => modifiers_text(lang, n, src).starts_with("pub"),
        Lang::Python => !name.starts_with('_') || (name.starts_with("__") && name.ends_with("__")),
        Lang::Go => name.chars().next().is_some_and(char::is_uppercase),
        Lang::Java => {
            let m = modifiers_text(lang, n, src);
            m.contains("public")
                || (!m.contains("private") && !m.contains("protected") && in_java_interface(up, n))
        }
        Lang::CSharp => {
            modifiers_text(lang, n, src).contains("public")
                || parent_is(up, n, "interface_declaration", 3)
                || matches!(
                    kind_of(n),
                    "namespace_declaration" | "file_scoped_namespace_declaration"
                )
        }
        Lang::Php => {
            let m = modifiers_text(lang, n, src);
            !(m.contains("private") || m.contains("protected"))
        }
        Lang::C | Lang::Cpp => {
            if modifiers_text(lang, n, src).contains("static")
                && !parent_is(up, n, "field_declaration_list", 1)
            {
                return false;
            }
            cpp_member_access(up, n).unwrap_or(true)
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            if name.starts_with('#') || modifiers_text(lang, n, src).contains("private") {
                return false;
            }
            match kind_of(n) {
                "method_definition"
                | "pair"
                | "assignment_expression"
                | "public_field_definition"
                | "field_definition"
                | "method_signature"
                | "property_signature"
                | "abstract_method_signature"
                | "required_parameter"
                | "optional_parameter" => true,
                _ => exported(up, n),
            }
        }
        Lang::Ruby => ruby_visibility(up, n, name, src),
        Lang::Other(_) => false,
    }
}

pub(super) fn parent_is<'t>(up: Up<'_, 't>, n: Node<'t>, kind: &str, levels: usize) -> bool {
    let mut p = up.parent(n);
    for _ in 0..levels {
        match p {
            Some(x) if kind_of(x) == kind => return true,
            Some(x) => p = up.parent(x),
            None => return false,
        }
    }
    false
}

pub(super) fn in_java_interface<'t>(up: Up<'_, 't>, n: Node<'t>) -> bool {
    parent_is(up, n, "interface_declaration", 2)
}

pub(super) fn exported<'t>(up: Up<'_, 't>, n: Node<'t>) -> bool {
    let mut p = up.parent(n);
    for _ in 0..3 {
        match p {
            Some(x) if kind_of(x) == "export_statement" => return true,
            Some(x) if matches!(kind_of(x), "lexical_declaration" | "variable_declaration") => {
                p = up.parent(x)
            }
            _ => return false,
        }
    }
    false
}

/// C++ access of a class member: the nearest preceding `public:`/`private:` label, else the
/// default of the class kind (`struct` public, `class` private). `None` outside classes.
pub(super) fn cpp_member_access<'t>(up: Up<'_, 't>, n: Node<'t>) -> Option<bool> {
    let list = up
        .parent(n)
        .filter(|p| kind_of(p) == "field_declaration_list")?;
    for p in up.prev_siblings(n) {
        if kind_of(p) == "access_specifier" {
            return Some(p.child(0).map(|k| kind_of(k) == "public").unwrap_or(false));
        }
    }
    Some(
        up.parent(list)
            .map(|c| kind_of(c) != "class_specifier")
            .unwrap_or(true),
    )
}
