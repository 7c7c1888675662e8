//! What a node defines: its kind, the names it binds, its qualified name's prefix, per language.

use super::*;

/// Whether nothing under a node of kind `k` is a definition, call, heritage, import,
/// reference or complexity increment, so the walk need not enter it: comments, Rust's
/// string literals (no interpolation) and macro token trees (unparsed tokens).
pub fn opaque(lang: Lang, k: &str) -> bool {
    match lang {
        Lang::Rust => matches!(
            k,
            "token_tree"
                | "line_comment"
                | "block_comment"
                | "string_literal"
                | "raw_string_literal"
        ),
        _ => k == "comment",
    }
}

/// Whether `n` is Python's `self.name = …` (annotated or not) in a method of a class, or
/// JavaScript's `this.name = …` in a class's method (arrow functions there included): how
/// instance attributes are declared (in `__init__` or a constructor mostly, `setUp` in
/// tests), as type checkers read them. The symbol is the class's field (`Cls.name`), not the
/// method's, made once per name, at its first assignment; the walk keeps the method as the
/// scope of what the assignment contains (its calls are the method's).
pub fn instance_attribute<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>, src: &str) -> bool {
    let (member, object, method, body) = match (lang, kind_of(n)) {
        (Lang::Python, "assignment") => ("attribute", "self", "function_definition", "block"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "assignment_expression") => (
            "member_expression",
            "this",
            "method_definition",
            "class_body",
        ),
        _ => return false,
    };
    let Some(left) = field(n, "left").filter(|l| kind_of(*l) == member) else {
        return false;
    };
    let on_instance =
        field(left, "object").is_some_and(|o| src.get(o.byte_range()) == Some(object));
    if !on_instance || up.parent_kind(n) != "expression_statement" {
        return false;
    }
    // The nearest enclosing function is a method, directly in a class body.
    let mut p = up.parent(n);
    while let Some(x) = p {
        let k = kind_of(x);
        if k == method {
            return match up.parent(x) {
                Some(d) if kind_of(d) == "decorated_definition" => up.parent(d),
                other => other,
            }
            .filter(|b| kind_of(*b) == body)
            .is_some_and(|b| {
                lang != Lang::Python
                    || up
                        .parent(b)
                        .is_some_and(|c| kind_of(c) == "class_definition")
            });
        }
        // Another function or class in between: its own `self`/`this`, or not a method's.
        if matches!(
            k,
            "class_definition"
                | "lambda"
                | "class_declaration"
                | "class"
                | "function_declaration"
                | "function_expression"
                | "function"
                | "generator_function"
                | "generator_function_declaration"
        ) {
            return false;
        }
        p = up.parent(x);
    }
    false
}

/// The symbol kind a node defines, if any.
pub fn def_kind<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<&'static str> {
    match lang {
        Lang::Rust => rust::def_kind(up, n, src),
        Lang::Python => python::def_kind(up, n, src),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => js_ts::def_kind(lang, up, n, src),
        Lang::Go => go::def_kind(up, n, src),
        Lang::Java => java::def_kind(up, n, src),
        Lang::C | Lang::Cpp => c_cpp::def_kind(lang, up, n, src),
        Lang::CSharp => csharp::def_kind(up, n, src),
        Lang::Ruby => ruby::def_kind(up, n, src),
        Lang::Php => php::def_kind(up, n, src),
        Lang::Other(_) => None,
    }
}

/// The nodes naming what `n` defines (several for `int a, b;`-style declarations).
pub fn def_names(lang: Lang, n: Node) -> Vec<Node> {
    match (lang, kind_of(n)) {
        (Lang::TypeScript | Lang::Tsx, "required_parameter" | "optional_parameter") => {
            field(n, "pattern")
                .or_else(|| field(n, "name"))
                .filter(|p| kind_of(p) == "identifier")
                .into_iter()
                .collect()
        }
        (Lang::Java, "field_declaration" | "constant_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "variable_declarator")
            .filter_map(|c| field(c, "name"))
            .collect(),
        (Lang::CSharp, "field_declaration" | "event_field_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "variable_declaration")
            .flat_map(named_children)
            .filter(|c| kind_of(c) == "variable_declarator")
            .filter_map(|c| field(c, "name"))
            .collect(),
        (Lang::Php, "property_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "property_element")
            .filter_map(|c| field(c, "name"))
            .collect(),
        (Lang::Php, "const_declaration") => named_children(n)
            .into_iter()
            .filter(|c| kind_of(c) == "const_element")
            .filter_map(|c| named_children(c).into_iter().find(|x| kind_of(x) == "name"))
            .collect(),
        (Lang::Python, "assignment") => field(n, "left")
            .map(|l| field(l, "attribute").unwrap_or(l))
            .into_iter()
            .collect(),
        (Lang::Ruby, "assignment") => field(n, "left").into_iter().collect(),
        // `const a, b = 1, 2`; a struct's `R, G, B, A uint16`.
        (Lang::Go, "const_spec" | "var_spec" | "field_declaration") => {
            n.children_by_field_name("name", &mut n.walk()).collect()
        }
        (Lang::Ruby, "call") => field(n, "arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|c| kind_of(c) == "simple_symbol")
            .collect(),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "field_definition") => {
            field(n, "property").into_iter().collect()
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "pair") => {
            field(n, "key").into_iter().collect()
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "assignment_expression") => {
            field(n, "left")
                .and_then(|l| field(l, "property"))
                .into_iter()
                .collect()
        }
        _ => {
            if let Some(name) = field(n, "name") {
                return vec![last_name(name)];
            }
            // C-family: follow the declarator chain to the declared identifier.
            let mut d = field(n, "declarator");
            while let Some(x) = d {
                match kind_of(x) {
                    "identifier" | "field_identifier" | "type_identifier" | "destructor_name"
                    | "operator_name" | "primitive_type" => return vec![x],
                    "qualified_identifier" => return vec![last_name(x)],
                    _ => {
                        // A parenthesized declarator (`(*hook_t)` in `typedef void
                        // (*hook_t)(int);`) holds its declarator as a plain child.
                        d = field(x, "declarator").or_else(|| {
                            named_children(x).into_iter().find(|c| {
                                matches!(
                                    kind_of(c),
                                    "identifier"
                                        | "field_identifier"
                                        | "qualified_identifier"
                                        | "type_identifier"
                                        | "pointer_declarator"
                                        | "function_declarator"
                                        | "array_declarator"
                                        | "parenthesized_declarator"
                                )
                            })
                        })
                    }
                }
            }
            Vec::new()
        }
    }
}

/// The last name component of a possibly qualified name node.
pub(super) fn last_name(n: Node) -> Node {
    match kind_of(n) {
        "qualified_identifier"
        | "scoped_identifier"
        | "scope_resolution"
        | "qualified_name"
        | "scoped_type_identifier"
        | "nested_type_identifier" => field(n, "name")
            .or_else(|| php_name_part(n, "name"))
            .map(last_name)
            .unwrap_or(n),
        _ => n,
    }
}

/// A PHP `qualified_name`'s (`\google\net\ProtocolMessage`) child of `kind`: `name` for the
/// last name, `namespace_name` for the namespace before it. PHP's grammar gives neither a
/// field (its `prefix` field is the leading `\` and the namespace together).
pub(super) fn php_name_part<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    if kind_of(n) != "qualified_name" {
        return None;
    }
    named_children(n).into_iter().rfind(|c| kind_of(*c) == kind)
}

/// Clean a name: strip PHP's `$` (in JavaScript it is part of the name: `$constructor`),
/// Ruby's symbol `:`, generic arguments and surrounding whitespace; a name written as a string
/// is its text (JavaScript's `'='() {…}`, `get ['async']() {…}`: `=`, `async`).
pub fn name_text(lang: Lang, raw: &str) -> &str {
    // Most names are a plain identifier, which every step below leaves as it is (the general
    // steps cost ~700 instructions a name, `rsplit("::")`'s searcher most of it).
    if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return raw;
    }
    let t = raw.trim();
    let unbracketed = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .map_or(t, str::trim);
    for quote in ['\'', '"', '`'] {
        if let Some(inner) = unbracketed
            .strip_prefix(quote)
            .and_then(|r| r.strip_suffix(quote))
            .filter(|inner| !inner.trim().is_empty() && !inner.contains(quote))
        {
            return inner;
        }
    }
    let t = match lang {
        Lang::Php => t.strip_prefix('$').unwrap_or(t),
        _ => t,
    };
    let t = t
        .strip_prefix(':')
        .filter(|r| !r.starts_with(':'))
        .unwrap_or(t);
    let t = t.split('<').next().unwrap_or(t);
    let t = t.rsplit("::").next().unwrap_or(t);
    t.trim()
}

/// For nodes that scope members without being symbols themselves (a Rust `impl` block, a C++
/// out-of-line `Type::method` definition is handled by its qualified declarator), the prefix
/// their members get.
pub fn scope_prefix(lang: Lang, n: Node, src: &str) -> Option<String> {
    if lang == Lang::Rust && kind_of(n) == "impl_item" {
        let ty = field(n, "type")?;
        let base = base_type_name(lang, ty, src);
        return (!base.is_empty()).then_some(base);
    }
    None
}

/// A prefix a definition carries by itself: a Go method's receiver type (`func (s *Server)
/// Handle` → `Server`), a C++ out-of-line definition's scope (`void Foo::bar()` → `Foo`).
pub fn own_prefix(lang: Lang, n: Node, src: &str) -> Option<String> {
    match (lang, kind_of(n)) {
        (Lang::Go, "method_declaration") => {
            let recv = field(n, "receiver")?;
            let mut stack = vec![recv];
            while let Some(x) = stack.pop() {
                if kind_of(x) == "type_identifier" {
                    return Some(name_text(lang, src.get(x.byte_range())?).to_string());
                }
                stack.extend(named_children(x).into_iter().rev());
            }
            None
        }
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "assignment_expression") => {
            js_assigned_owner(n, src)
                .filter(|o| !o.is_empty())
                .map(str::to_string)
        }
        (Lang::Cpp, "function_definition") => {
            let mut d = field(n, "declarator");
            while let Some(x) = d {
                if kind_of(x) == "qualified_identifier" {
                    let scope = field(x, "scope")?;
                    return Some(name_text(lang, src.get(scope.byte_range())?).to_string());
                }
                d = field(x, "declarator");
            }
            None
        }
        _ => None,
    }
}

/// What a Ruby `identifier` is where it stands: a local it declares (a parameter, an
/// assignment's target, a block's or `for`'s variable, `rescue => e`), a use that may be a
/// call without parentheses or arguments (`total` in `def price; total * 2; end`), or
/// neither (a method's name, a call's method, a keyword argument's key…). Whether a use is a
/// call depends on whether the method declared that local before ([`Walker`]'s locals).
pub enum RubyName {
    Declares,
    Use,
    Other,
}

pub fn ruby_name<'t>(up: Up<'_, 't>, n: Node<'t>) -> RubyName {
    let Some(parent) = up.parent(n) else {
        return RubyName::Other;
    };
    let is = |name: &'static str| field(parent, name).is_some_and(|f| f.id() == n.id());
    match kind_of(parent) {
        "method_parameters"
        | "block_parameters"
        | "lambda_parameters"
        | "destructured_parameter"
        | "splat_parameter"
        | "hash_splat_parameter"
        | "block_parameter"
        | "left_assignment_list"
        | "rest_assignment"
        | "exception_variable"
        | "destructured_left_assignment" => RubyName::Declares,
        "optional_parameter" | "keyword_parameter" if is("name") => RubyName::Declares,
        "for" if is("pattern") => RubyName::Declares,
        "assignment" | "operator_assignment" if is("left") => RubyName::Declares,
        "assignment" | "operator_assignment" => RubyName::Use,
        "call" if is("receiver") => RubyName::Use,
        "body_statement"
        | "block_body"
        | "then"
        | "else"
        | "begin"
        | "ensure"
        | "program"
        | "argument_list"
        | "binary"
        | "unary"
        | "parenthesized_statements"
        | "return"
        | "array"
        | "pair"
        | "conditional"
        | "interpolation"
        | "element_reference"
        | "if"
        | "unless"
        | "while"
        | "until"
        | "if_modifier"
        | "unless_modifier"
        | "while_modifier"
        | "until_modifier"
        | "rescue_modifier"
        | "elsif"
        | "splat_argument"
        | "hash_splat_argument"
        | "block_argument"
        | "range"
        | "optional_parameter"
        | "keyword_parameter"
        | "in" => RubyName::Use,
        _ => RubyName::Other,
    }
}

/// A TypeScript constructor's parameter with an accessibility or `readonly` modifier
/// (`constructor(private db: Db)`): it declares a field of the class as well.
pub fn parameter_property<'t>(up: Up<'_, 't>, n: Node<'t>, src: &str) -> bool {
    let mut cursor = n.walk();
    let modified = n
        .children(&mut cursor)
        .any(|c| matches!(kind_of(c), "accessibility_modifier" | "readonly"));
    modified
        && up
            .parent(n)
            .and_then(|params| up.parent(params))
            .filter(|m| kind_of(*m) == "method_definition")
            .and_then(|m| field(m, "name"))
            .is_some_and(|name| src.get(name.byte_range()) == Some("constructor"))
}
