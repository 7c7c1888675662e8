//! Python: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<&'static str> {
    Some(match kind_of(n) {
        "function_definition" => "function",
        "class_definition" => "class",
        // `self.name = …` in `__init__`: an attribute of the instance, a field of the
        // class (see [`instance_attribute`]).
        "assignment" if instance_attribute(Lang::Python, up, n, src) => "field",
        "assignment" if up.parent_kind(n) == "expression_statement" => {
            let left = field(n, "left").filter(|l| kind_of(*l) == "identifier")?;
            let name = src.get(left.byte_range())?;
            let constant = name.len() > 1
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            let statement = up.parent(n)?;
            match up.parent_kind(statement) {
                "module" if constant => "constant",
                // `logger = logging.getLogger(…)`, `sep = '/'`, `app = Flask(…)`: what
                // `os.sep` or `from app import app` names (not search units).
                "module" => "variable",
                // A class body's `name: str = ""` (dataclasses, models) or `TABLE = …`.
                "block"
                    if up
                        .parent(statement)
                        .and_then(|b| up.parent(b))
                        .is_some_and(|c| kind_of(c) == "class_definition") =>
                {
                    if constant {
                        "constant"
                    } else {
                        "field"
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The typed names node `n` declares ([`super::typed_bindings`]).
pub(super) fn typed_bindings<'t>(b: &mut Bindings<'_, 't>, n: Node<'t>, _src: &str, in_type: bool) {
    let k = kind_of(n);
    match k {
        "typed_parameter" => b.bind(
            named_children(n)
                .into_iter()
                .find(|c| kind_of(c) == "identifier"),
            field(n, "type"),
            false,
            false,
        ),
        "typed_default_parameter" => b.bind(field(n, "name"), field(n, "type"), false, false),
        "assignment" => {
            let left = field(n, "left");
            // `self.engine = Engine()` in a method: a field of the class.
            let (name, is_field) = match left {
                Some(l) if kind_of(l) == "identifier" => (Some(l), in_type),
                Some(l) if kind_of(l) == "attribute" => (
                    field(l, "object")
                        .filter(|o| kind_of(o) == "identifier")
                        .and_then(|_| field(l, "attribute")),
                    true,
                ),
                _ => (None, false),
            };
            match field(n, "type") {
                Some(ty) => b.bind(name, Some(ty), false, is_field),
                None => b.bind(name, field(n, "right"), true, is_field),
            }
        }
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "import_statement" => named_children(n)
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
        "import_from_statement" => {
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
        _ => vec![],
    }
}
