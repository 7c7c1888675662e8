//! Types: declared and inferred types of bindings, type names and their decorations.

use super::*;

/// Names that are language built-ins, not worth a reference edge.
pub fn is_builtin_type(lang: Lang, name: &str) -> bool {
    match lang {
        Lang::Go => matches!(
            name,
            "string"
                | "int"
                | "int8"
                | "int16"
                | "int32"
                | "int64"
                | "uint"
                | "uint8"
                | "uint16"
                | "uint32"
                | "uint64"
                | "uintptr"
                | "byte"
                | "rune"
                | "bool"
                | "error"
                | "float32"
                | "float64"
                | "complex64"
                | "complex128"
                | "any"
        ),
        Lang::Rust => matches!(name, "Self" | "_"),
        Lang::Php => matches!(name, "self" | "static" | "parent"),
        Lang::C | Lang::Cpp => matches!(
            name,
            "size_t"
                | "ssize_t"
                | "uint8_t"
                | "uint16_t"
                | "uint32_t"
                | "uint64_t"
                | "int8_t"
                | "int16_t"
                | "int32_t"
                | "int64_t"
        ),
        _ => false,
    }
}

/// The name of a type expression without generics, references or paths: `&mut Vec<T>` → `Vec`.
pub(super) fn base_type_name(lang: Lang, ty: Node, src: &str) -> String {
    let mut n = ty;
    loop {
        match kind_of(n) {
            "generic_type" | "reference_type" | "pointer_type" => {
                match field(n, "type").or_else(|| n.named_child(0)) {
                    Some(t) => n = t,
                    None => break,
                }
            }
            "scoped_type_identifier" | "scoped_identifier" => match field(n, "name") {
                Some(t) => n = t,
                None => break,
            },
            _ => break,
        }
    }
    name_text(lang, src.get(n.byte_range()).unwrap_or("")).to_string()
}

/// A name a declaration binds to a type: a parameter, a local variable, a field.
pub struct Binding<'t> {
    pub name: Node<'t>,
    /// The declared type, or an initializer to read one from ([`value_type`]).
    pub ty: Node<'t>,
    /// `ty` is an initializer expression (`new Foo()`, `Foo{…}`, `Foo::new()`, `Foo()`).
    pub from_value: bool,
    /// A member of the enclosing type (a field or property), not a local.
    pub field: bool,
    /// `ty` is what a loop takes its elements from (`for x in self.items`, Go's `for _, x :=
    /// range v.Args`): the name is one element.
    pub element: bool,
}

/// What the languages' `typed_bindings` collect.
pub(super) struct Bindings<'s, 't> {
    out: Vec<Binding<'t>>,
    src: &'s str,
}

impl<'t> Bindings<'_, 't> {
    pub(super) fn bind(
        &mut self,
        name: Option<Node<'t>>,
        ty: Option<Node<'t>>,
        from_value: bool,
        field: bool,
    ) {
        if let (Some(name), Some(ty)) = (name, ty) {
            self.out.push(Binding {
                name,
                ty,
                from_value,
                field,
                element: false,
            });
        }
    }

    /// `Type a = new Type(), b;`: each declarator, with `var`/`auto` typed by its value.
    pub(super) fn declarators(&mut self, ty: Node<'t>, decls: Vec<Node<'t>>, is_field: bool) {
        for d in decls {
            if is_var_type(ty, self.src) {
                let value = field(d, "value").or_else(|| {
                    named_children(d)
                        .into_iter()
                        .find(|c| kind_of(c) != "identifier")
                });
                self.bind(field(d, "name"), value, true, is_field);
            } else {
                self.bind(field(d, "name"), Some(ty), false, is_field);
            }
        }
    }
}

/// The typed names node `n` declares ([`Binding`]): a parameter with a written type, a local
/// variable with a written type or a constructor as its value, a field. Used to resolve
/// calls on a receiver (`sb.append()` after `StringBuilder sb = …`) to the receiver's type.
pub fn typed_bindings<'t>(lang: Lang, n: Node<'t>, src: &str, in_type: bool) -> Vec<Binding<'t>> {
    let mut out = Vec::new();
    let k = kind_of(n);
    // A loop's variable, an element of what it goes through: Go's `for _, x := range v.Args`
    // (the second name; the first is an index or key), Python's `for x in self.items`,
    // Rust's `for x in &self.items`, JavaScript's `for (const x of this.items)`, C#'s and
    // Java's with `var`.
    let each = match (lang, k) {
        (Lang::Go, "range_clause") => field(n, "left")
            .map(named_children)
            .filter(|names| names.len() == 2)
            .map(|names| names[1])
            .zip(field(n, "right")),
        (Lang::Python, "for_statement") => field(n, "left").zip(field(n, "right")),
        (Lang::Rust, "for_expression") => field(n, "pattern").zip(field(n, "value")),
        // `foreach (var x in this.items)`, `for (var x : this.items)`: a written type binds
        // as a declaration does, below.
        (Lang::CSharp, "foreach_statement") => field(n, "type")
            .filter(|t| is_var_type(*t, src))
            .and_then(|_| field(n, "left"))
            .zip(field(n, "right")),
        (Lang::Java, "enhanced_for_statement") => field(n, "type")
            .filter(|t| is_var_type(*t, src))
            .and_then(|_| field(n, "name"))
            .zip(field(n, "value")),
        (Lang::JavaScript | Lang::TypeScript | Lang::Tsx, "for_in_statement") => {
            field(n, "operator")
                .filter(|o| src.get(o.byte_range()) == Some("of"))
                .and_then(|_| field(n, "left"))
                .zip(field(n, "right"))
        }
        _ => None,
    };
    if let Some((name, items)) = each
        && kind_of(name) == "identifier"
    {
        out.push(Binding {
            name,
            ty: items,
            from_value: true,
            field: false,
            element: true,
        });
        return out;
    }
    let mut b = Bindings { out, src };
    match lang {
        Lang::Rust => rust::typed_bindings(&mut b, n, src, in_type),
        Lang::Python => python::typed_bindings(&mut b, n, src, in_type),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            js_ts::typed_bindings(&mut b, n, src, in_type)
        }
        Lang::Go => go::typed_bindings(&mut b, n, src, in_type),
        Lang::Java => java::typed_bindings(&mut b, n, src, in_type),
        Lang::C | Lang::Cpp => c_cpp::typed_bindings(&mut b, n, src, in_type),
        Lang::CSharp => csharp::typed_bindings(&mut b, n, src, in_type),
        Lang::Ruby => ruby::typed_bindings(&mut b, n, src, in_type),
        Lang::Php => php::typed_bindings(&mut b, n, src, in_type),
        Lang::Other(_) => {}
    }
    b.out
}

/// `var` (Java, C#) and `auto` (C++): the type is the value's.
pub(super) fn is_var_type(ty: Node, src: &str) -> bool {
    matches!(
        kind_of(ty),
        "implicit_type" | "placeholder_type_specifier" | "auto"
    ) || src.get(ty.byte_range()) == Some("var")
}

/// The name a C/C++ declarator declares: `x` of `x`, `*x`, `&x`, `x = 1`, `x[3]`.
pub(super) fn declarator_name(mut d: Node) -> Option<Node> {
    // Declarators nest (`**x[3]`), possibly deeply: a bounded number of levels.
    for _ in 0..16 {
        d = match kind_of(d) {
            "identifier" | "field_identifier" => return Some(d),
            "pointer_declarator" | "init_declarator" | "array_declarator" => {
                field(d, "declarator")?
            }
            "reference_declarator" => d.named_child(0)?,
            _ => return None,
        };
    }
    None
}

/// The node naming the type an initializer makes: `Foo` of `new Foo(…)`, `Foo{…}`, `&Foo{…}`,
/// `Foo::new(…)`, `Foo(…)` (Python, a capitalised name), `Foo.new` (Ruby), Go's `new(Foo)` and
/// `x.(*Foo)`.
pub fn value_type<'t>(lang: Lang, mut v: Node<'t>, src: &str) -> Option<Node<'t>> {
    // `&T{}`, `&&x`: through the references (a bounded number: `&&&…` may nest deeply).
    for _ in 0..8 {
        match (lang, kind_of(v)) {
            (Lang::Go, "unary_expression") => v = field(v, "operand")?,
            (Lang::Rust, "reference_expression") => v = field(v, "value")?,
            _ => break,
        }
    }
    match (lang, kind_of(v)) {
        (_, "object_creation_expression") if lang != Lang::Php => field(v, "type"),
        (Lang::Php, "object_creation_expression") => named_children(v)
            .into_iter()
            .find(|c| matches!(kind_of(c), "name" | "qualified_name")),
        (_, "new_expression") => field(v, "constructor").or_else(|| field(v, "type")),
        (Lang::Go, "composite_literal") => field(v, "type"),
        // `x.(*T)`, `h, ok := t.(tHelper)`.
        (Lang::Go, "type_assertion_expression") => field(v, "type"),
        // `new(T)`.
        (Lang::Go, "call_expression") => field(v, "function")
            .filter(|f| src.get(f.byte_range()) == Some("new"))
            .and_then(|_| field(v, "arguments"))
            .and_then(|a| a.named_child(0))
            .filter(|t| {
                matches!(
                    kind_of(t),
                    "type_identifier" | "qualified_type" | "generic_type"
                )
            }),
        (Lang::Rust, "struct_expression") => field(v, "name"),
        (Lang::Rust, "call_expression") => {
            // `Foo::new(…)`, `Foo::with_capacity(…)`: a path whose last-but-one is a type.
            let f = field(v, "function")?;
            (kind_of(f) == "scoped_identifier")
                .then(|| field(f, "path"))
                .flatten()
                .filter(|p| starts_upper(p, src))
        }
        (Lang::Python, "call") => field(v, "function")
            .filter(|f| matches!(kind_of(f), "identifier" | "attribute"))
            .filter(|f| {
                let t = src.get(f.byte_range()).unwrap_or("");
                t.rsplit('.')
                    .next()
                    .is_some_and(|l| l.starts_with(|c: char| c.is_uppercase()))
            }),
        (Lang::Ruby, "call") => {
            let new = field(v, "method").is_some_and(|m| src.get(m.byte_range()) == Some("new"));
            field(v, "receiver")
                .filter(|r| new && matches!(kind_of(r), "constant" | "scope_resolution"))
        }
        _ => None,
    }
}

pub(super) fn starts_upper(n: &Node, src: &str) -> bool {
    src.get(n.byte_range())
        .and_then(|t| t.rsplit("::").next())
        .is_some_and(|l| l.starts_with(|c: char| c.is_uppercase()))
}

/// A declared type's name as resolution looks it up: its path as written, without
/// references, pointers, generic arguments, array brackets or a leading `:` (`&mut Vec<T>` →
/// `Vec`, `*sql.DB` → `sql.DB`, `java.util.List<String>` → `java.util.List`, `: Repo | null`
/// → `Repo`, Python's `Optional[tasks.Task]` → `tasks.Task`). `None` for anything else (a
/// function type, a tuple, `var`).
pub fn type_name(text: &str) -> Option<&str> {
    let mut t = text.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    if let Some(inner) = t
        .strip_prefix("Optional[")
        .or_else(|| t.strip_prefix("typing.Optional["))
    {
        t = inner;
    }
    loop {
        let before = t;
        for prefix in [
            "&",
            "*",
            "mut ",
            "const ",
            "readonly ",
            "?",
            "dyn ",
            "impl ",
            "struct ",
            "class ",
        ] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        if let Some(rest) = t.strip_prefix('\'') {
            // A Rust lifetime: `&'a T`.
            t = rest
                .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                .trim_start();
        }
        if t == before {
            break;
        }
    }
    let end = path_end(t);
    // An array of the type (`String[]`, `List<T>[]`, C#'s `int[,]`) is no value of it:
    // `patterns.length` is the array's. (Python's `list[int]` is a list.)
    if is_array_suffix(&t[end..]) {
        return None;
    }
    let path = t[..end]
        .trim_end_matches([':', '.'])
        .trim_start_matches(['\\', ':']);
    let last = path.rsplit(['.', ':', '\\']).next()?;
    let ok = last.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && !matches!(
            last,
            "var" | "auto" | "let" | "const" | "dynamic" | "object" | "Self"
        );
    ok.then_some(path)
}

/// The receiver type ([`crate::analyze::RawEdge::receiver_type`]) of a value declared an
/// array (`String[] names`, `int[,] grid`): its members (`names.length`, `names.clone()`) are
/// the language's, never the element type's.
pub const ARRAY: &str = "[]";

/// Whether a declared type is an array of some type: `String[]`, `List<T>[]`.
pub fn is_array_type(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c == ':' || c.is_whitespace());
    let end = path_end(t);
    end > 0 && is_array_suffix(&t[end..])
}

/// Where the type path `t` begins with ends (`java.util.List` of `java.util.List<T>`).
pub(super) fn path_end(t: &str) -> usize {
    // (`$` of JavaScript's names: `core.$constructor<T>` is no `core`; a name starting
    // with `$`, a PHP variable's too, is no type `type_name` gives.)
    t.find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.' | ':' | '\\')))
        .unwrap_or(t.len())
}

/// Whether what follows a type's name makes an array of it: `[]`, `[,]` or `[3]`, after any
/// generic arguments (`<T>[]`).
pub(super) fn is_array_suffix(rest: &str) -> bool {
    let mut rest = rest.trim_start();
    if rest.starts_with('<') {
        let mut depth = 0usize;
        let close = rest.char_indices().find(|&(_, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0
        });
        match close {
            Some((i, _)) => rest = rest[i + 1..].trim_start(),
            None => return false,
        }
    }
    rest.strip_prefix('[')
        .and_then(|r| r.split_once(']'))
        .is_some_and(|(inside, _)| {
            inside
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c.is_whitespace())
        })
}

/// The last segment of a [`type_name`] path (`Font` of `tkfont.Font`, `string` of
/// `std::string`) and what qualifies it, if anything.
pub fn split_type_path(path: &str) -> (Option<&str>, &str) {
    match path.rfind(['.', ':', '\\']) {
        Some(i) => {
            let q = path[..i].trim_end_matches([':', '.', '\\']);
            (Some(q).filter(|q| !q.is_empty()), &path[i + 1..])
        }
        None => (None, path),
    }
}

/// Types whose methods are mostly the wrapped value's (Rust's smart pointers and cells, C++'s
/// smart pointers): a receiver of such a type is left untyped.
pub fn is_wrapper_type(lang: Lang, ty: &str) -> bool {
    match lang {
        Lang::Rust => matches!(
            split_type_path(ty).1,
            "Box"
                | "Rc"
                | "Arc"
                | "RefCell"
                | "Cell"
                | "Mutex"
                | "RwLock"
                | "Pin"
                | "Cow"
                | "Ref"
                | "RefMut"
                | "MutexGuard"
                | "ManuallyDrop"
                | "Weak"
        ),
        Lang::Cpp => matches!(
            split_type_path(ty).1,
            "unique_ptr" | "shared_ptr" | "weak_ptr" | "optional"
        ),
        _ => false,
    }
}

/// Languages where a bare receiver in a method may name a field of the instance
/// (`engine.run()` for `this.engine.run()`). Ruby's bare names are methods, not fields.
pub fn bare_receiver_may_be_field(lang: Lang) -> bool {
    matches!(lang, Lang::Java | Lang::CSharp | Lang::Cpp)
}
