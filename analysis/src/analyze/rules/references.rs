//! References: names used as values or types, and the namespaces they are read from.

use super::*;

/// A non-call use of a type or field: the node naming it.
pub fn reference_target<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    src: &str,
) -> Option<Node<'t>> {
    if lang == Lang::Php {
        return php_reference(n, src);
    }
    // Only a few node kinds can be references; check the kind before asking for the parent
    // (`Node::parent` is not O(1)).
    if !matches!(
        kind_of(n),
        "type_identifier"
            | "field_expression"
            | "member_expression"
            | "selector_expression"
            | "attribute"
            | "field_access"
            | "member_access_expression"
            | "identifier"
            | "constant"
            | "scope_resolution"
            | "scoped_identifier"
            | "method_reference"
    ) || (kind_of(n) == "identifier" && lang != Lang::Python)
        || (matches!(kind_of(n), "constant" | "scope_resolution") && lang != Lang::Ruby)
    {
        return None;
    }
    let p = up.parent(n)?;
    match kind_of(n) {
        "type_identifier" => {
            // Not the name of a definition, not inside heritage (those are edges already).
            // C's and C++'s `struct buf *b` (a specifier without a body) uses `buf`.
            let used_specifier = matches!(lang, Lang::C | Lang::Cpp)
                && matches!(
                    kind_of(p),
                    "struct_specifier" | "union_specifier" | "enum_specifier"
                )
                && field(p, "body").is_none();
            // (Go's `obj.Link` names its type in a `name` field too.)
            if field(p, "name").is_some_and(|x| x.id() == n.id())
                && !used_specifier
                && kind_of(p) != "qualified_type"
            {
                return None;
            }
            // C and C++: the name a `typedef` defines (`pac_t` in `typedef struct pac_s
            // pac_t;`, `fn_t` in `typedef void (*fn_t)(int);`), under its declarators.
            if matches!(lang, Lang::C | Lang::Cpp) {
                let (mut child, mut at) = (n, Some(p));
                for _ in 0..8 {
                    let Some(x) = at else { break };
                    if kind_of(x) != "parenthesized_declarator"
                        && field(x, "declarator").is_none_or(|d| d.id() != child.id())
                    {
                        break;
                    }
                    if kind_of(x) == "type_definition" {
                        return None;
                    }
                    (child, at) = (x, up.parent(x));
                }
            }
            // Java: a package's segments in a type's full name (`java`, `util` of
            // `java.util.List`) are no types.
            if lang == Lang::Java
                && kind_of(p) == "scoped_type_identifier"
                && src
                    .get(n.byte_range())
                    .is_some_and(|t| t.starts_with(|c: char| c.is_lowercase()))
            {
                return None;
            }
            if matches!(
                kind_of(p),
                "scoped_type_identifier" | "generic_type" | "nested_type_identifier"
            ) && up
                .parent(p)
                .is_some_and(|g| field(g, "name").is_some_and(|x| x.id() == p.id()))
            {
                return None;
            }
            let mut a = Some(p);
            for _ in 0..4 {
                match a {
                    Some(x)
                        if matches!(
                            kind_of(x),
                            "impl_item"
                                | "superclass"
                                | "super_interfaces"
                                | "extends_clause"
                                | "implements_clause"
                                | "extends_type_clause"
                                | "base_class_clause"
                                | "class_heritage"
                                | "trait_bounds"
                                | "extends_interfaces"
                        ) =>
                    {
                        if kind_of(x) != "impl_item"
                            || field(x, "trait").is_some_and(|t| {
                                t.byte_range().contains(&n.start_byte()) || t.id() == n.id()
                            })
                            || field(x, "type").is_some_and(|t| t.id() == n.id())
                        {
                            return None;
                        }
                        a = up.parent(x);
                    }
                    Some(x) => a = up.parent(x),
                    None => break,
                }
            }
            Some(n)
        }
        "field_expression" if lang == Lang::Rust || lang == Lang::C || lang == Lang::Cpp => {
            (!is_call_function(up, n))
                .then(|| field(n, "field"))
                .flatten()
        }
        "member_expression" if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) => {
            (!is_call_function(up, n) && kind_of(p) != "member_expression")
                .then(|| field(n, "property"))
                .flatten()
        }
        "selector_expression" if lang == Lang::Go => (!is_call_function(up, n))
            .then(|| field(n, "field"))
            .flatten(),
        "attribute" if lang == Lang::Python => (!is_call_function(up, n))
            .then(|| field(n, "attribute"))
            .flatten(),
        "field_access" if lang == Lang::Java => field(n, "field"),
        "member_access_expression" if lang == Lang::CSharp => (!is_call_function(up, n))
            .then(|| field(n, "name"))
            .flatten(),
        "identifier" if lang == Lang::Python && kind_of(p) == "type" => Some(n),
        // Rust: a path used as a value — a function or method not called (`.map(Self::parse)`,
        // `.map_err(Error::Io)`), a constant (`u8::MAX`, `Level::DEFAULT`), a unit variant
        // (`Ordering::Less`, also in a pattern) — its last name, qualified by the path before
        // it. Not a call's function, a longer path's prefix, an import, a macro's or an
        // attribute's path, a visibility's scope.
        "scoped_identifier" if lang == Lang::Rust => {
            let prefix = field(p, "path").is_some_and(|x| x.id() == n.id());
            let used = !is_call_function(up, n)
                && !prefix
                && !matches!(
                    kind_of(p),
                    "use_declaration"
                        | "use_as_clause"
                        | "use_list"
                        | "scoped_use_list"
                        | "use_wildcard"
                        | "macro_invocation"
                        | "attribute"
                        | "visibility_modifier"
                        | "generic_function"
                );
            used.then(|| field(n, "name"))
                .flatten()
                .filter(|x| kind_of(*x) == "identifier")
        }
        // Java: a method reference (`this::visit`, `Foo::parse`; not `Foo::new`, which names
        // the class): the method, qualified by what it is looked up on.
        "method_reference" if lang == Lang::Java => {
            let count = n.named_child_count();
            let last = n.named_child(u32::try_from(count.checked_sub(1)?).ok()?)?;
            (count >= 2 && kind_of(last) == "identifier").then_some(last)
        }
        // Ruby: a constant used as a value — `rescue FooError`, `is_a?(Foo)`, `when Foo`,
        // `Foo::BAR` (the last name, qualified by the path before it) — not one a class,
        // module or constant defines, a base, a call's receiver (`Foo.new` is a call) or
        // the scope of a longer path.
        "constant" | "scope_resolution" => {
            let is = |f: &'static str| field(p, f).is_some_and(|x| x.id() == n.id());
            let defined = match kind_of(p) {
                "class" | "module" => is("name"),
                "assignment" | "operator_assignment" => is("left"),
                "call" => is("receiver"),
                "scope_resolution" | "superclass" => true,
                // A module mixed in is an inherits edge already (`heritage`).
                "argument_list" => up
                    .parent(p)
                    .is_some_and(|call| ruby_mixin(call, src).is_some()),
                _ => false,
            };
            if defined {
                return None;
            }
            match kind_of(n) {
                "constant" => Some(n),
                _ => field(n, "name").filter(|x| kind_of(*x) == "constant"),
            }
        }
        _ => None,
    }
}

/// Whether `n` is a name written alone as a value — an argument, a keyword argument's or an
/// object or initializer field's value, an assignment's or declaration's value, an element
/// of a list, what `return` returns, a Python decorator, a shorthand property — in Python,
/// JavaScript, TypeScript, C, C++, Rust and Go: a function passed or stored
/// (`register(handler)`, `sorted(xs, key=by_name)`, `{ onClick: handle }`, `{ tick }`,
/// `.read = my_read`, `.map(parse_line)`), or a local ([`Walker::settle_values`] keeps only
/// the file's functions, and in the first four its imports). (Not PHP, whose functions are
/// named by strings, nor Java and C#, where a name alone may be the instance's member.)
pub fn is_value_name<'t>(lang: Lang, up: Up<'_, 't>, n: Node<'t>) -> bool {
    // JavaScript's and TypeScript's shorthand property (`{ tick }`) is its value too.
    let shorthand = kind_of(n) == "shorthand_property_identifier"
        && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx);
    if shorthand {
        return up.parent(n).is_some_and(|p| kind_of(p) == "object");
    }
    if kind_of(n) != "identifier"
        || !matches!(
            lang,
            Lang::Python
                | Lang::JavaScript
                | Lang::TypeScript
                | Lang::Tsx
                | Lang::C
                | Lang::Cpp
                | Lang::Rust
                | Lang::Go
        )
    {
        return false;
    }
    let Some(p) = up.parent(n) else {
        return false;
    };
    let is = |f: &'static str| field(p, f).is_some_and(|x| x.id() == n.id());
    match (lang, kind_of(p)) {
        // Rust: `.map(parse_line)`, `let f = parse_line;`, `Opts { f: parse_line }`,
        // `Opts { parse_line }`.
        (
            Lang::Rust,
            "arguments"
            | "array_expression"
            | "tuple_expression"
            | "return_expression"
            | "shorthand_field_initializer",
        ) => true,
        (Lang::Rust, "let_declaration" | "field_initializer") => is("value"),
        (Lang::Rust, "assignment_expression") => is("right"),
        (Lang::Rust, _) => false,
        // Go: `http.HandleFunc("/", handle)`, `h := handle`, `return handle`, a composite
        // literal's element or value (`[]func(){a, b}`, `Handler: handle`; not its key).
        (Lang::Go, "argument_list" | "expression_list") => true,
        (Lang::Go, "literal_element") => match up.parent(p) {
            Some(k) if kind_of(k) == "keyed_element" => {
                k.named_child(0).is_some_and(|key| key.id() != p.id())
            }
            _ => true,
        },
        (Lang::Go, _) => false,
        (Lang::Python, "argument_list" | "list" | "tuple" | "return_statement" | "decorator") => {
            true
        }
        (Lang::Python, "keyword_argument" | "pair") => is("value"),
        (Lang::Python, "assignment") => is("right"),
        (Lang::C | Lang::Cpp, "argument_list" | "initializer_list" | "return_statement") => true,
        (Lang::C | Lang::Cpp, "init_declarator" | "initializer_pair") => is("value"),
        (Lang::C | Lang::Cpp, "assignment_expression") => is("right"),
        (Lang::Cpp, _) => false,
        (_, "arguments" | "array" | "return_statement") => true,
        (_, "variable_declarator" | "pair") => is("value"),
        (_, "assignment_expression") => is("right"),
        _ => false,
    }
}

/// The namespace a PHP class reference ([`reference_target`]) is written with: `Stmt` in
/// `instanceof Stmt\Class_`, `\PhpParser\Node` in `\PhpParser\Node\Name $n`; looked up
/// as a call's qualifier is, through the file's `use` imports.
pub fn reference_namespace<'t>(lang: Lang, up: Up<'_, 't>, name: Node<'t>) -> Option<Node<'t>> {
    // Go's `obj.Link` in a type: the package.
    if lang == Lang::Go {
        let p = up
            .parent(name)
            .filter(|p| kind_of(*p) == "qualified_type")?;
        return field(p, "package");
    }
    // Rust's `Self::parse`, `Ordering::Less`: the path before the name.
    if lang == Lang::Rust {
        let p = up
            .parent(name)
            .filter(|p| kind_of(*p) == "scoped_identifier")?;
        return field(p, "path").filter(|_| field(p, "name").is_some_and(|x| x.id() == name.id()));
    }
    // Java's `this::visit`, `Foo::parse`: what the method is looked up on; a type's package
    // or outer type, `java.nio.file` in `java.nio.file.Path`, `Map` in `Map.Entry`.
    if lang == Lang::Java {
        let p = up.parent(name)?;
        return match kind_of(p) {
            "method_reference" => p.named_child(0).filter(|x| x.id() != name.id()),
            "scoped_type_identifier" => {
                let last =
                    p.named_child(u32::try_from(p.named_child_count().checked_sub(1)?).ok()?)?;
                (last.id() == name.id())
                    .then(|| p.named_child(0))
                    .flatten()
                    .filter(|x| x.id() != name.id())
            }
            _ => None,
        };
    }
    // Ruby's `Foo::BAR`: the path before the name.
    if lang == Lang::Ruby {
        let p = up
            .parent(name)
            .filter(|p| kind_of(*p) == "scope_resolution")?;
        return field(p, "scope").filter(|_| field(p, "name").is_some_and(|x| x.id() == name.id()));
    }
    if lang != Lang::Php || kind_of(name) != "name" {
        return None;
    }
    let p = up.parent(name)?;
    php_name_part(p, "namespace_name").or_else(|| field(p, "prefix"))
}

/// `self` or `this` when a member access's object ([`member_object`]) is the current
/// instance — `self.url`, `this.state`, `this->size`, PHP's `$this->size` and
/// `self::$count`/`static::$count` — else nothing: its reference then resolves as the
/// caller's own type's member first, as `self.f()` does.
pub fn instance_word(object: &str) -> Option<&'static str> {
    match object {
        "self" | "static" => Some("self"),
        "this" | "$this" => Some("this"),
        _ => None,
    }
}

/// The object a member access `n` (whose member [`reference_target`] named) reads from:
/// `params` in `params.width`, `self.db` in `self.db.conn`.
pub fn member_object<'t>(lang: Lang, n: Node<'t>) -> Option<Node<'t>> {
    match (lang, kind_of(n)) {
        (Lang::Python, "attribute") | (Lang::Java, "field_access") => field(n, "object"),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "member_expression") => {
            field(n, "object")
        }
        (Lang::Rust, "field_expression") => field(n, "value"),
        (Lang::C | Lang::Cpp, "field_expression") => field(n, "argument"),
        (Lang::Go, "selector_expression") => field(n, "operand"),
        (Lang::CSharp, "member_access_expression") => field(n, "expression"),
        (Lang::Php, "member_access_expression" | "nullsafe_member_access_expression") => {
            field(n, "object")
        }
        // `self::$count`, `static::MAX`: the class's own member; `Foo::MAX` names the class
        // itself, read from nothing.
        (Lang::Php, "scoped_property_access_expression") => {
            field(n, "scope").filter(|s| kind_of(*s) == "relative_scope")
        }
        (Lang::Php, "class_constant_access_expression") => {
            n.named_child(0).filter(|s| kind_of(*s) == "relative_scope")
        }
        _ => None,
    }
}

pub(super) fn is_call_function<'t>(up: Up<'_, 't>, n: Node<'t>) -> bool {
    up.parent(n)
        .and_then(|p| field(p, "function"))
        .is_some_and(|f| f.id() == n.id())
}
