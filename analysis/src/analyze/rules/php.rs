//! PHP: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(_up: Up<'_, 't>, n: Node<'t>, _src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "function_definition" => "function",
        "class_declaration" => "class",
        "interface_declaration" => "interface",
        "trait_declaration" => "trait",
        "enum_declaration" => "enum",
        "method_declaration" => "method",
        "property_declaration" => "field",
        "const_declaration" => "constant",
        "namespace_definition" if field(n, "name").is_some() => "module",
        "enum_case" => "variant",
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
        "simple_parameter" => b.bind(field(n, "name"), field(n, "type"), false, false),
        "property_promotion_parameter" => b.bind(field(n, "name"), field(n, "type"), false, true),
        // `catch (RuntimeException $e)`: one type (a union, `A | B $e`, is none).
        "catch_clause" => {
            let types = field(n, "type").map(named_children).unwrap_or_default();
            let ty = match types.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
            b.bind(field(n, "name"), ty, false, false)
        }
        "property_declaration" => {
            if let Some(ty) = field(n, "type") {
                for el in named_children(n) {
                    if kind_of(el) == "property_element" {
                        let name = named_children(el)
                            .into_iter()
                            .find(|c| kind_of(c) == "variable_name");
                        b.bind(name, Some(ty), false, true);
                    }
                }
            }
        }
        "assignment_expression" => b.bind(
            field(n, "left").filter(|l| kind_of(l) == "variable_name"),
            field(n, "right"),
            true,
            false,
        ),
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "namespace_use_clause" => {
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

/// PHP's references: a type named in a declaration (`named_type`: parameter, return,
/// property and `catch` types), after `instanceof`, or before `::` (`Foo::BAR`,
/// `Foo::class`, `Foo::$instance`: the class); a class's own constant or static property
/// (`self::BAR`, `static::$instance`: the member; not `self::class`, the class's name); a
/// property read or written (`$this->email`, `$user?->name`: the property). Heritage
/// clauses (`extends`, `implements`) name their types with `name` nodes directly, not
/// `named_type`, and are edges already; `new Foo()` and `Foo::f()` are calls.
pub(super) fn php_reference<'t>(n: Node<'t>, src: &str) -> Option<Node<'t>> {
    let class = |c: Node<'t>| {
        matches!(kind_of(c), "name" | "qualified_name" | "relative_name")
            .then(|| last_name(c))
            .filter(|c| kind_of(*c) == "name")
    };
    match kind_of(n) {
        "named_type" => class(n.named_child(0)?),
        "binary_expression" => {
            let op = field(n, "operator")?;
            (kind_of(op) == "instanceof")
                .then(|| field(n, "right"))
                .flatten()
                .and_then(class)
        }
        "class_constant_access_expression" | "scoped_property_access_expression" => {
            let (scope, member) = match kind_of(n) {
                "class_constant_access_expression" => (n.named_child(0)?, n.named_child(1)?),
                _ => (field(n, "scope")?, field(n, "name")?),
            };
            if kind_of(scope) == "relative_scope" {
                let class = src.get(member.byte_range()) == Some("class");
                return (matches!(kind_of(member), "name" | "variable_name") && !class)
                    .then_some(member);
            }
            class(scope)
        }
        // `($this->handler)(…)` calls the value read, which is a read all the same.
        "member_access_expression" | "nullsafe_member_access_expression" => {
            field(n, "name").filter(|m| kind_of(*m) == "name")
        }
        _ => None,
    }
}
