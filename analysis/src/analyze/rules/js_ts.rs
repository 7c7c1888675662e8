//! JavaScript, TypeScript and TSX: the rules of this language family.

use super::*;

/// The symbol kind a node defines, if any ([`super::def_kind`]).
pub(super) fn def_kind<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    src: &str,
) -> Option<&'static str> {
    Some(match kind_of(n) {
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            "function"
        }
        "class_declaration" | "abstract_class_declaration" => "class",
        // A named class expression (`module.exports = class Minipass extends Stream {…}`,
        // `exports.Parser = class Parser {…}`) is its class; as a declared value (`const
        // Foo = class Bar {…}`) the declarator names it.
        "class" if field(n, "name").is_some() && up.parent_kind(n) != "variable_declarator" => {
            "class"
        }
        // An object literal's `get(url) {…}` is a function (a class's, a method).
        "method_definition" if up.parent_kind(n) == "object" => "function",
        "method_definition" | "method_signature" | "abstract_method_signature" => "method",
        "interface_declaration" => "interface",
        "type_alias_declaration" => "type_alias",
        "enum_declaration" => "enum",
        "internal_module" | "module" => "module",
        // `handle = (e) => {…}` in a class body is a method bound to the instance.
        "public_field_definition" | "field_definition" => match field(n, "value").map(kind_of) {
            Some(v) if JS_FUNCTION_VALUES.contains(&v) => "function",
            _ => "field",
        },
        "property_signature" => "field",
        // `constructor(private db: Db)`: a field of the class (see
        // [`parameter_property`]).
        "required_parameter" | "optional_parameter" if parameter_property(up, n, src) => "field",
        "variable_declarator" => {
            let value = js_unwrapped(field(n, "value")?);
            match kind_of(value) {
                v if JS_FUNCTION_VALUES.contains(&v) => "function",
                "class" => "class",
                // `const api = { get(url) {…}, … }` at the top of a module: its functions
                // are `api.get`.
                "object" if js_module_level(up, n) => "variable",
                // `export const sep = '/'`, `const LIMIT = 10` at the top of a module
                // (not `const fs = require('fs')`: that is an import).
                _ if js_module_constant(up, n, value, src) => "constant",
                _ => return None,
            }
        }
        // `{ post: function (url) {…}, del: (url) => … }`
        "pair"
            if field(n, "key").is_some_and(|k| kind_of(k) == "property_identifier")
                && field(n, "value").is_some_and(|v| JS_FUNCTION_VALUES.contains(&kind_of(v))) =>
        {
            "function"
        }
        // `this.name = …` in a class's constructor (see [`instance_attribute`]).
        "assignment_expression" if instance_attribute(lang, up, n, src) => "field",
        // `exports.run = function …`, `Foo.prototype.bar = function …`
        "assignment_expression" => {
            let right = field(n, "right")?;
            if !JS_FUNCTION_VALUES.contains(&kind_of(right)) {
                return None;
            }
            js_assigned_owner(n, src)?;
            "function"
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
        "required_parameter" | "optional_parameter" => {
            let name = field(n, "pattern")
                .or_else(|| field(n, "name"))
                .filter(|p| kind_of(p) == "identifier");
            // `constructor(private db: Db)` declares field `db` too.
            let property = named_children(n)
                .iter()
                .any(|c| kind_of(c) == "accessibility_modifier");
            b.bind(name, field(n, "type"), false, property);
        }
        "variable_declarator" | "public_field_definition" | "field_definition" => {
            let name = field(n, "name")
                .or_else(|| field(n, "property"))
                .filter(|p| matches!(kind_of(p), "identifier" | "property_identifier"));
            let is_field = k != "variable_declarator";
            match field(n, "type") {
                Some(ty) => b.bind(name, Some(ty), false, is_field),
                None => b.bind(name, field(n, "value"), true, is_field),
            }
        }
        // `this.engine = new Engine()` in a method: a field of the class.
        "assignment_expression" => {
            let name = field(n, "left")
                .filter(|l| kind_of(l) == "member_expression")
                .filter(|l| field(*l, "object").is_some_and(|o| kind_of(o) == "this"))
                .and_then(|l| field(l, "property"));
            b.bind(name, field(n, "right"), true, true);
        }
        _ => {}
    }
}

/// Imports declared by a node ([`super::imports`]).
pub(super) fn imports(n: Node, src: &str) -> Vec<Import> {
    let text = |x: Node| node_text(x, src);
    match kind_of(n) {
        "import_statement" => {
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
        "call_expression" => {
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
        _ => vec![],
    }
}

/// Whether a JavaScript/TypeScript variable is declared at the top of its module.
pub(super) fn js_module_level<'t>(up: Up<'_, 't>, declarator: Node<'t>) -> bool {
    let Some(decl) = up
        .parent(declarator)
        .filter(|d| matches!(kind_of(*d), "lexical_declaration" | "variable_declaration"))
    else {
        return false;
    };
    match up.parent(decl).map(|p| (kind_of(p), p)) {
        Some(("program", _)) => true,
        Some(("export_statement", e)) => up.parent_kind(e) == "program",
        _ => false,
    }
}

/// A `const` declarator with a plain name at the top of a module, whose value is not a
/// `require(…)` call.
pub(super) fn js_module_constant<'t>(
    up: Up<'_, 't>,
    declarator: Node<'t>,
    value: Node,
    src: &str,
) -> bool {
    let is_const = up
        .parent(declarator)
        .and_then(|d| field(d, "kind"))
        .is_some_and(|k| kind_of(k) == "const");
    let named = field(declarator, "name").is_some_and(|n| kind_of(n) == "identifier");
    let required = kind_of(value) == "call_expression"
        && field(value, "function")
            .and_then(|f| src.get(f.byte_range()))
            .is_some_and(|f| f == "require");
    is_const && named && !required && js_module_level(up, declarator)
}

/// For `X.prototype.m = function …` the type `X` (`Some("X")`); for `exports.m = …` and
/// `module.exports.m = …` nothing to qualify it (`Some("")`); for `obj.m = function …` written
/// at the top of a module (`res.send = function send(body) {…}`, `app.use = …`,
/// `utils.path.join = …`), the object's path (`Some("res")`); `None` for other assignments.
pub(super) fn js_assigned_owner<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    let left = field(n, "left").filter(|l| kind_of(*l) == "member_expression")?;
    field(left, "property").filter(|p| kind_of(*p) == "property_identifier")?;
    let object = field(left, "object")?;
    let text = src.get(object.byte_range())?;
    match text {
        "exports" | "module.exports" => Some(""),
        o => {
            if let Some(owner) = o.strip_suffix(".prototype") {
                let owner = owner.rsplit('.').next().unwrap_or(owner);
                return (!owner.is_empty() && !owner.contains(['(', '[', ' '])).then_some(owner);
            }
            // An object named by a path of plain names (not `this`, a call, an index).
            let plain = o.split('.').all(|part| {
                part.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$')
                    && part
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            });
            let top_level = n
                .parent()
                .filter(|s| kind_of(*s) == "expression_statement")
                .and_then(|s| s.parent())
                .is_some_and(|p| kind_of(p) == "program");
            (plain && top_level && !o.starts_with("this.") && o != "this").then_some(o)
        }
    }
}

/// JavaScript/TypeScript expressions whose value is a function, making the variable or class
/// field they initialise one.
pub(super) const JS_FUNCTION_VALUES: &[&str] = &[
    "arrow_function",
    "function_expression",
    "function",
    "generator_function",
];

/// A JavaScript or TypeScript value without what only types or groups it: `class {…}` of
/// `class {…} as any`, `(x) => x` of `((x) => x) satisfies F`, `v` of `(v)!`.
pub(super) fn js_unwrapped(mut value: Node) -> Node {
    for _ in 0..8 {
        match kind_of(value) {
            "as_expression"
            | "satisfies_expression"
            | "non_null_expression"
            | "parenthesized_expression" => match value.named_child(0) {
                Some(inner) => value = inner,
                None => break,
            },
            _ => break,
        }
    }
    value
}
