//! Calls and heritage: a call's callee and qualifier, a type's bases and mixins.

use super::*;

/// For a call node: the node naming the callee, and the qualifier written before it.
pub fn call_target<'t>(lang: Lang, n: Node<'t>) -> Option<(Node<'t>, Option<Node<'t>>)> {
    let callee = match (lang, kind_of(n)) {
        (_, "call_expression") => field(n, "function"),
        (Lang::Python, "call") => field(n, "function"),
        (Lang::Ruby, "call") => {
            // (`require` is an import and `include M` heritage: `imports` and `heritage` are
            // asked first.)
            let m = field(n, "method")?;
            return Some((m, field(n, "receiver")));
        }
        (Lang::Java, "method_invocation") => return Some((field(n, "name")?, field(n, "object"))),
        (Lang::CSharp, "invocation_expression") => field(n, "function"),
        (Lang::Php, "function_call_expression") => field(n, "function"),
        (Lang::Php, "member_call_expression" | "nullsafe_member_call_expression") => {
            return Some((field(n, "name")?, field(n, "object")));
        }
        (Lang::Php, "scoped_call_expression") => {
            return Some((field(n, "name")?, field(n, "scope")));
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "new_expression") => {
            field(n, "constructor")
        }
        (Lang::Cpp, "new_expression") => field(n, "type"),
        (Lang::Java | Lang::CSharp, "object_creation_expression") => field(n, "type"),
        (Lang::Php, "object_creation_expression") => named_children(n)
            .into_iter()
            .find(|c| matches!(kind_of(c), "name" | "qualified_name")),
        _ => None,
    }?;
    split_callee(callee)
}

pub(super) fn split_callee(c: Node) -> Option<(Node, Option<Node>)> {
    let pair = |name: &'static str, qual: &'static str| Some((field(c, name)?, field(c, qual)));
    match kind_of(c) {
        "identifier"
        | "field_identifier"
        | "property_identifier"
        | "type_identifier"
        | "name"
        | "constant"
        | "simple_identifier" => Some((c, None)),
        "field_expression" => match field(c, "value") {
            Some(_) => pair("field", "value"),
            None => pair("field", "argument"),
        },
        "member_expression" => pair("property", "object"),
        "selector_expression" => pair("field", "operand"),
        "attribute" => pair("attribute", "object"),
        "member_access_expression" => pair("name", "expression"),
        "scoped_identifier" | "scoped_type_identifier" => pair("name", "path"),
        "qualified_identifier" => {
            let (n, _) = split_callee(field(c, "name")?)?;
            Some((n, field(c, "scope")))
        }
        "qualified_name" => Some((
            field(c, "name")
                .or_else(|| php_name_part(c, "name"))
                .unwrap_or(c),
            php_name_part(c, "namespace_name").or_else(|| field(c, "prefix")),
        )),
        // PHP's `namespace\f()`: the file's own namespace's `f`, looked up as `f()` alone is
        // (the file's namespace first). (`namespace\Sub\f()`, rare, stays no edge.)
        "relative_name" => {
            let kids = named_children(c);
            if kids.iter().any(|k| kind_of(*k) == "namespace_name") {
                return None;
            }
            Some((kids.into_iter().rfind(|k| kind_of(*k) == "name")?, None))
        }
        "generic_function" => split_callee(field(c, "function")?),
        "generic_name" | "generic_type" | "template_function" | "template_type" => {
            split_callee(field(c, "name").or_else(|| c.named_child(0))?)
        }
        _ => None,
    }
}

/// Heritage edges: (kind, target name node, its qualifier node, source override) for a
/// heritage clause node (`unittest` in `class T(unittest.TestCase)`, `fmt` in
/// `impl fmt::Display for T`).
pub fn heritage<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    src: &str,
) -> Option<Vec<(EdgeKind, Node<'t>, Option<Node<'t>>, Option<String>)>> {
    let k = kind_of(n);
    let (kind, container) = match lang {
        Lang::Rust => match k {
            "impl_item" => {
                let t = field(n, "trait")?;
                let ty = field(n, "type")?;
                let source = base_type_name(lang, ty, src);
                let target = type_names(t);
                return Some(
                    target
                        .into_iter()
                        .map(|(x, q)| (EdgeKind::Implements, x, q, Some(source.clone())))
                        .collect(),
                );
            }
            "trait_bounds" if up.parent_kind(n) == "trait_item" => (EdgeKind::Inherits, n),
            _ => return None,
        },
        Lang::Python if k == "argument_list" && up.parent_kind(n) == "class_definition" => {
            (EdgeKind::Inherits, n)
        }
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => match k {
            "class_heritage" if lang == Lang::JavaScript => (EdgeKind::Inherits, n),
            "extends_clause" | "extends_type_clause" => (EdgeKind::Inherits, n),
            "implements_clause" => (EdgeKind::Implements, n),
            _ => return None,
        },
        Lang::Go => match k {
            "field_declaration" if field(n, "name").is_none() => (EdgeKind::Inherits, n),
            "type_elem" if up.parent_kind(n) == "interface_type" => (EdgeKind::Inherits, n),
            _ => return None,
        },
        Lang::Java => match k {
            "superclass" | "extends_interfaces" => (EdgeKind::Inherits, n),
            "super_interfaces" => (EdgeKind::Implements, n),
            _ => return None,
        },
        Lang::C | Lang::Cpp if k == "base_class_clause" => (EdgeKind::Inherits, n),
        Lang::CSharp if k == "base_list" => (EdgeKind::Inherits, n),
        Lang::Ruby if k == "superclass" => (EdgeKind::Inherits, n),
        // A module mixed in (`include Comparable`, `extend ActiveSupport::Concern`, `prepend
        // M`): one of the class's or module's ancestors (its singleton class's, for `extend`).
        Lang::Ruby if k == "call" => (EdgeKind::Inherits, ruby_mixin(n, src)?),
        Lang::Php => match k {
            // A trait used in a class body (`use Loggable;`) gives the class its members.
            "base_clause" | "use_declaration" => (EdgeKind::Inherits, n),
            "class_interface_clause" => (EdgeKind::Implements, n),
            _ => return None,
        },
        _ => return None,
    };
    let targets = type_names(container);
    Some(
        targets
            .into_iter()
            .map(|(t, q)| {
                // C#: `I`-prefixed base types are interfaces by convention.
                let text = src.get(t.byte_range()).unwrap_or("");
                let kind = if lang == Lang::CSharp
                    && text.len() > 1
                    && text.starts_with('I')
                    && text[1..].starts_with(|c: char| c.is_ascii_uppercase())
                {
                    EdgeKind::Implements
                } else {
                    kind
                };
                (kind, t, q, None)
            })
            .collect(),
    )
}

/// The type names mentioned in a heritage clause, skipping generic arguments, each with the
/// node qualifying it (a module or namespace path), if any.
pub(super) fn type_names(container: Node) -> Vec<(Node, Option<Node>)> {
    let mut out = Vec::new();
    let mut stack = vec![container];
    while let Some(n) = stack.pop() {
        match kind_of(n) {
            "type_arguments"
            | "type_argument_list"
            | "template_argument_list"
            | "keyword_argument"
            | "arguments"
            | "argument_list"
            // PHP's `use A, B { A::f insteadof B; }`: the traits, not what the block renames.
            | "use_list"
                if n.id() != container.id() => {}
            "identifier" | "type_identifier" | "constant" | "name" | "simple_identifier" => {
                out.push((n, None))
            }
            k @ ("scoped_type_identifier"
            | "scoped_identifier"
            | "qualified_name"
            | "qualified_identifier"
            | "nested_type_identifier"
            | "qualified_type"
            | "scope_resolution"
            | "generic_name") => {
                let qualifier = match k {
                    "scoped_type_identifier" | "scoped_identifier" => field(n, "path"),
                    "qualified_identifier" | "scope_resolution" => field(n, "scope"),
                    "qualified_name" => field(n, "qualifier")
                        .or_else(|| php_name_part(n, "namespace_name"))
                        .or_else(|| field(n, "prefix")),
                    "nested_type_identifier" => field(n, "module"),
                    // Go's `transform.Transformer`.
                    "qualified_type" => field(n, "package"),
                    _ => None,
                };
                out.push((
                    last_name(field(n, "name").map(last_name).unwrap_or(n)),
                    qualifier,
                ));
            }
            "attribute" => out.extend(field(n, "attribute").map(|a| (a, field(n, "object")))),
            "member_expression" => {
                out.extend(field(n, "property").map(|p| (p, field(n, "object"))))
            }
            _ => {
                stack.extend(named_children(n).into_iter().rev());
            }
        }
    }
    out.retain(|(n, _)| kind_of(*n) != "access_specifier");
    out
}
