//! What a call returns: the return type a function's signature declares, and calls made on
//! another call's result (`Config::load(p)?.validate()`, `builder().with(x).build()`).
//!
//! Both are read from text that is stored (a symbol's `signature`, an edge's
//! `target_qualifier`), so an analysis rebuilt from the tables for a re-index gives the same
//! answers as a fresh parse. Resolution ([`crate::resolve`]) joins them: the inner call's
//! target's return type is the outer call's receiver type.

use super::rules::{split_type_path, type_name};

/// Longest return type kept (a longer one is some closure or tuple type, of no use here).
const MAX_RETURN: usize = 120;

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The bracket pair (opening, closing) byte `b` is one of: `()`, `<>` or `[]`.
fn pair(b: u8) -> Option<(u8, u8)> {
    match b {
        b'(' | b')' => Some((b'(', b')')),
        b'<' | b'>' => Some((b'<', b'>')),
        b'[' | b']' => Some((b'[', b']')),
        _ => None,
    }
}

/// Whether byte `i` of `bytes` is the closing bracket `c` (an arrow's `>` is none).
fn closes(bytes: &[u8], i: usize, c: u8) -> bool {
    bytes[i] == c && !(c == b'>' && i > 0 && bytes[i - 1] == b'-')
}

/// The byte index of the bracket closing the one at `open` (`(`, `<` or `[`), counting only
/// brackets of that kind; `None` when the text ends first (a signature cut short).
fn closing(s: &str, open: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let (o, c) = pair(*bytes.get(open)?).filter(|&(o, _)| o == bytes[open])?;
    let mut depth = 0usize;
    for i in open..bytes.len() {
        if bytes[i] == o {
            depth += 1;
        } else if closes(bytes, i, c) {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The byte index of the bracket opening the one that closes at `close`.
fn opening(s: &str, close: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let (o, c) = pair(*bytes.get(close)?).filter(|&(_, c)| c == bytes[close])?;
    let mut depth = 0usize;
    for i in (0..=close).rev() {
        if closes(bytes, i, c) {
            depth += 1;
        } else if bytes[i] == o {
            // (A closer that did not count, an arrow's `>`, leaves nothing to open.)
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Words that stand before a function's name without being its return type.
const NOT_TYPES: &[&str] = &[
    "fn",
    "def",
    "function",
    "func",
    "async",
    "static",
    "public",
    "private",
    "protected",
    "internal",
    "virtual",
    "inline",
    "explicit",
    "override",
    "abstract",
    "final",
    "extern",
    "sealed",
    "unsafe",
    "const",
    "constexpr",
    "new",
    "get",
    "set",
    "export",
    "default",
    "declare",
    "readonly",
    "synchronized",
    "native",
    "strictfp",
    "partial",
    "friend",
    "typename",
    "operator",
    "pub",
    "crate",
    "void",
];

/// Return types that are plain values, not kept: a call on one names nothing in a repository
/// either way. (Not `Int` or `Bool`, plain in none of the languages analysed: Go's
/// `func (z *Int) Mul(x, y *Int) *Int` returns `math/big`'s `Int`.)
const PLAIN: &[&str] = &[
    "void",
    "bool",
    "boolean",
    "int",
    "long",
    "short",
    "char",
    "byte",
    "float",
    "double",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "f32",
    "f64",
    "str",
    "string",
    "number",
    "any",
    "unknown",
    "never",
    "None",
    "int32",
    "int64",
    "uint",
    "uint32",
    "uint64",
    "error",
    "size_t",
    "unsigned",
    "()",
    "!",
    "object",
    "int8",
    "int16",
    "uint8",
    "uint16",
    "uintptr",
    "float32",
    "float64",
    "rune",
    "complex64",
    "complex128",
];

/// The return type a function's `signature` declares, as written (`Result<Config, Error>`,
/// `&mut Self`, `*Server`, `Promise<User>`), for the function named `name`: after `->` (Rust,
/// Python, C++'s trailing return type), after `:` (TypeScript, PHP), after the parameters
/// (Go), or before the name (Java, C#, C, C++). `None` when it declares none, a plain value
/// ([`PLAIN`]), or the signature cannot be read (one cut short at 240 characters).
pub fn declared_return<'s>(signature: &'s str, name: &str) -> Option<&'s str> {
    if name.is_empty() || !name.chars().all(is_ident) {
        return None;
    }
    // The parameters: the first `(` after the name, past generic parameters.
    let (name_at, open) = signature.match_indices(name).find_map(|(at, _)| {
        if signature[..at].chars().next_back().is_some_and(is_ident) {
            return None;
        }
        let mut i = at + name.len();
        let rest = &signature[i..];
        let trimmed = rest.trim_start();
        i += rest.len() - trimmed.len();
        if matches!(trimmed.as_bytes().first(), Some(b'<' | b'[')) {
            i = closing(signature, i)? + 1;
            let rest = &signature[i..];
            i += rest.len() - rest.trim_start().len();
        }
        (signature.as_bytes().get(i) == Some(&b'(')).then_some((at, i))
    })?;
    let close = closing(signature, open)?;
    let rest = signature[close + 1..].trim_start();
    let prefix = signature[..name_at].trim_end();
    let ty = if let Some(t) = rest.strip_prefix("->") {
        // Rust's `where` clause, C++'s `-> T const`.
        let t = t.trim_start();
        t.find(" where ").map_or(t, |w| &t[..w])
    } else if let Some(t) = rest.strip_prefix(':') {
        // A C++ constructor's initialisers (`: side_(side)`) are no type.
        let t = t.trim_start();
        if t.contains('(') || t.starts_with(':') {
            return None;
        }
        t
    } else if prefix.is_empty() || prefix == "func" || prefix.starts_with("func ") {
        // Go: the results after the parameters (an interface's method has no `func`).
        // Elsewhere an empty prefix is a constructor or an untyped function.
        let first = rest.split_whitespace().next().unwrap_or("");
        if rest.is_empty()
            || rest.starts_with(['{', '='])
            || matches!(
                first,
                "const" | "noexcept" | "throws" | "override" | "final"
            )
        {
            return None;
        }
        rest
    } else {
        // The type before the name: `public List<T> of(`, `struct foo *make(`, `std::string
        // Shape::name(`.
        let mut p = prefix;
        // A C++ definition's class qualifier (`Shape::`), and a destructor's `~`.
        while let Some(q) = p.strip_suffix("::") {
            p = q.trim_end_matches(is_ident).trim_end();
            if p.ends_with('>') {
                let open = opening(p, p.len() - 1)?;
                p = p[..open].trim_end_matches(is_ident).trim_end();
            }
        }
        if p.ends_with('~') || p.ends_with(']') {
            return None;
        }
        let p = p.trim_end_matches(['*', '&', ' ']);
        let end = p.len();
        let mut start = end;
        if p.ends_with('>') {
            start = opening(p, end - 1)?;
        }
        let head = p[..start].trim_end_matches(|c: char| is_ident(c) || c == '.' || c == ':');
        let t = &p[head.len()..end];
        let word = t.split(['<', '.', ':']).next().unwrap_or("");
        if word.is_empty() || NOT_TYPES.contains(&word) || t.starts_with(':') {
            return None;
        }
        t
    };
    let ty = ty.trim().trim_end_matches(['{', ';']).trim_end();
    let bare = ty.trim_start_matches(['&', '*', '?', ' ']);
    if ty.is_empty() || ty.len() > MAX_RETURN || PLAIN.contains(&bare) {
        return None;
    }
    Some(ty)
}

/// A call whose receiver is another call's result, as its qualifier shows it: the inner
/// call's qualifier and name (`a.b()` of `a.b().c()`: `a` and `b`; a qualifier may end with
/// an optional chain's `?`, which the inner call's own may not have), whether the result is
/// unwrapped on the way (`?`, `.await`, `.unwrap()`, `.expect(…)`), and whether the inner
/// call is a constructor's `new T(…)`.
#[derive(Debug, PartialEq, Eq)]
pub struct Chained<'q> {
    pub qualifier: Option<&'q str>,
    pub name: &'q str,
    pub unwrap: bool,
    pub new: bool,
}

/// The inner call of a receiver `q` that is itself a call ([`Chained`]); `None` for any other
/// receiver (a name, a path, a literal, a macro's expansion `m!(…)`, a parenthesised
/// expression).
pub fn chained(q: &str) -> Option<Chained<'_>> {
    let mut t = q.trim();
    let mut unwrap = false;
    // `await load()` (JavaScript, TypeScript, C#, Python).
    if let Some(r) = t.strip_prefix("await ") {
        t = r.trim_start();
        unwrap = true;
    }
    // Each round reads one call; an unwrapping call (`.unwrap()`) passes on to the call
    // before it.
    for _ in 0..8 {
        loop {
            if let Some(r) = t.strip_suffix('?') {
                unwrap = true;
                t = r.trim_end();
            } else if let Some(r) = t.strip_suffix(".await") {
                unwrap = true;
                t = r.trim_end();
            } else if let Some(r) = t.strip_suffix('!') {
                // TypeScript's non-null assertion.
                t = r.trim_end();
            } else {
                break;
            }
        }
        if !t.ends_with(')') {
            return None;
        }
        let open = opening(t, t.len() - 1)?;
        let mut callee = t[..open].trim_end();
        // A turbofish or generic arguments: `collect::<Vec<_>>()`, `get<User>()`.
        if callee.ends_with('>') && !callee.ends_with("->") {
            let lt = opening(callee, callee.len() - 1)?;
            callee = callee[..lt].trim_end_matches("::").trim_end();
        }
        let head = callee.trim_end_matches(is_ident);
        let name = &callee[head.len()..];
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let inner = head.trim_end();
        if inner == "new" && head.ends_with(' ') {
            return Some(Chained {
                qualifier: None,
                name,
                unwrap,
                new: true,
            });
        }
        let qualifier = if inner.is_empty() {
            None
        } else {
            // Rust's `load()?.check()` and TypeScript's `repo?.find()` alike keep the `?`
            // (the inner call's own qualifier may be written without it).
            let q = ["::", ".", "->"]
                .iter()
                .find_map(|sep| inner.strip_suffix(sep))?
                .trim_end();
            (!q.is_empty()).then_some(q)
        };
        match qualifier {
            Some(q)
                if matches!(
                    name,
                    "unwrap" | "expect" | "unwrap_or_default" | "unwrap_unchecked"
                ) && q.ends_with([')', '?']) =>
            {
                unwrap = true;
                t = q;
            }
            _ => {
                return Some(Chained {
                    qualifier,
                    name,
                    unwrap,
                    new: false,
                });
            }
        }
    }
    None
}

/// A module variable made by a call (`_inst = Random()`, `app = web.Application(…)`, `db =
/// make_db()`): the callee's path with `()` after it, `Random()` — a call whose result only
/// resolution can type, from what the callee is (a class, or a function's declared return
/// type). Python's signature reads as Go's `x = Foo()` would, so
/// `resolve::Index::go_var_member` passes the marker over.
pub fn call_type(signature: &str, name: &str) -> Option<String> {
    let value = signature
        .strip_prefix(name)?
        .trim_start()
        .strip_prefix('=')?
        .trim();
    let (callee, _) = value.split_once('(')?;
    let path = callee.trim();
    is_dotted_path(path).then(|| format!("{path}()"))
}

/// The callee a [`call_type`] names (`Random` of `Random()`); `None` for a declared type.
pub fn called(ty: &str) -> Option<&str> {
    ty.strip_suffix("()")
}

/// Whether `t` is a path of plain names (`sync.Mutex`, `Random`).
fn is_dotted_path(t: &str) -> bool {
    !t.is_empty()
        && t.split('.').all(|p| {
            p.starts_with(|c: char| c.is_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// The type a Go package-level variable's signature gives it (`name` the variable's):
/// `Ctxt *obj.Link` → `obj.Link`, `mu = sync.Mutex{}` → `sync.Mutex`, `CommandLine =
/// NewFlagSet(…)` → `FlagSet` (a constructor's type by Go's naming), `x = new(T)` → `T`;
/// `None` for any other value.
pub fn go_var_type(signature: &str, name: &str) -> Option<String> {
    let rest = signature.strip_prefix(name)?.trim_start();
    let path = is_dotted_path;
    let Some(value) = rest.strip_prefix('=') else {
        let ty = rest.split(" =").next()?.trim();
        // An anonymous struct's fields are the variable's own members (`var Syms struct
        // {…}`: `Syms.Newobject`), found without a type.
        let anonymous = ["struct", "interface", "func", "map[", "chan", "["];
        if anonymous
            .iter()
            .any(|a| ty.trim_start_matches('*').starts_with(a))
        {
            return None;
        }
        return type_name(ty).filter(|t| path(t)).map(str::to_string);
    };
    let value = value.trim().trim_start_matches('&');
    if let Some(made) = go_new(value) {
        return Some(made.name.to_string());
    }
    // `T{…}`
    if let Some((ty, _)) = value.split_once('{')
        && path(ty.trim())
    {
        return Some(ty.trim().to_string());
    }
    // `NewT(…)`, `pkg.NewT(…)`
    let (callee, _) = value.split_once('(')?;
    let (pkg, f) = match callee.rsplit_once('.') {
        Some((p, f)) => (Some(p), f),
        None => (None, callee),
    };
    let ty = f
        .strip_prefix("New")
        .filter(|t| t.starts_with(|c: char| c.is_ascii_uppercase()))?;
    if !path(ty) || pkg.is_some_and(|p| !path(p) || p.contains('.')) {
        return None;
    }
    Some(match pkg {
        Some(p) => format!("{p}.{ty}"),
        None => ty.to_string(),
    })
}

/// Go's `new(T)` (`new(big.Int).Exp(…)`): a value of type `T`, read as `new T()` is.
pub fn go_new(q: &str) -> Option<Chained<'_>> {
    let ty = q.trim().strip_prefix("new(")?.strip_suffix(')')?.trim();
    let is_type = !ty.is_empty()
        && ty.split('.').all(|part| {
            part.starts_with(|c: char| c.is_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
    is_type.then_some(Chained {
        qualifier: None,
        name: ty,
        unwrap: false,
        new: true,
    })
}

/// The type a field's or property's `signature` gives it (`name` the field's), as written:
/// after `name:` (Rust, TypeScript, Python's annotations), after the name (Go: `Args
/// []*Value`, `R, G, B uint8`; an embedded `*Block` is its own type), or before it (Java, C#,
/// C, C++, PHP: `private final List<Item> items;`, `Node *next;`, `int xs[4];` as `int[]`);
/// else the class its value constructs (`self.state = State()`, `this.repo = new Repo()`).
/// `None` when it gives none (`self.size = size`, PHP's untyped `private $x;`).
pub fn field_type(signature: &str, name: &str) -> Option<String> {
    if name.is_empty() || !name.chars().all(is_ident) {
        return None;
    }
    let sig = signature.trim();
    // The name where it is declared: first in the text (Go), before what follows a name
    // (`:`, `=`, `;`, `{`…), or after a Go field's other names — not a type of the same
    // name before it (C#'s `public Repo Repo { get; }`).
    let at = sig.match_indices(name).map(|(at, _)| at).find(|&at| {
        let (before, after) = (&sig[..at], &sig[at + name.len()..]);
        let sigil = before.strip_suffix('$').unwrap_or(before);
        let whole = !sigil.ends_with(is_ident) && !after.starts_with(is_ident);
        let after = after.trim_start_matches(['?', '!']).trim_start();
        whole
            && (at == 0
                || before.trim_end().ends_with(',')
                || after.is_empty()
                || after.starts_with([':', '=', ';', '{', '[', ',', '`']))
    })?;
    // (PHP's `$` stands before every property's name.)
    let prefix = sig[..at].trim_end();
    let prefix = prefix.strip_suffix('$').map_or(prefix, str::trim_end);
    let mut rest = sig[at + name.len()..].trim_start();
    // TypeScript's optional and definite fields (`name?: T`, `name!: T`).
    if let Some(r) = rest.strip_prefix(['?', '!']) {
        rest = r.trim_start();
    }
    // Until a value, a statement's end or a Go field's tag.
    let until_value = |t: &str| {
        let end = t.find([';', '`']).unwrap_or(t.len());
        let t = &t[..end];
        let t = t.find(" =").map_or(t, |i| &t[..i]);
        t.trim().to_string()
    };
    let ty = if let Some(t) = rest.strip_prefix(':').filter(|t| !t.starts_with(':')) {
        until_value(t)
    } else if !prefix.trim_start_matches(['*', '&']).is_empty()
        && !prefix.ends_with([',', '.', ':', '$', '@'])
    {
        // The type before the name, past modifiers and annotations.
        let mut p = prefix;
        loop {
            let before = p;
            if p.starts_with('[') || p.starts_with('@') {
                // C#'s `[JsonIgnore]`, Java's `@Nullable`, `@Column(name = "x")`.
                let end = if p.starts_with('[') {
                    closing(p, 0)? + 1
                } else {
                    let word = 1 + p[1..]
                        .find(|c: char| !(is_ident(c) || c == '.'))
                        .unwrap_or(p.len() - 1);
                    if p[word..].starts_with('(') {
                        closing(p, word)? + 1
                    } else {
                        word
                    }
                };
                p = p[end..].trim_start();
            }
            let word = p.split_whitespace().next().unwrap_or("");
            if FIELD_MODIFIERS.contains(&word) {
                p = p[word.len()..].trim_start();
            }
            if p == before {
                break;
            }
        }
        if p.is_empty() {
            return None;
        }
        // C's `int xs[4];`: an array of the type before the name.
        if rest.starts_with('[') {
            format!("{p}[]")
        } else {
            p.to_string()
        }
    } else if let Some(value) = rest.strip_prefix('=') {
        // The class a value constructs: `State()`, `new Repo(…)`, `Config{…}`.
        let value = value.trim_start();
        let value = value.strip_prefix("new ").unwrap_or(value).trim_start();
        let end = value.find(['(', '{'])?;
        let path = value[..end].trim();
        let last = path.rsplit(['.', ':', '\\']).next()?;
        let is_path = !path.is_empty()
            && path
                .split(['.', ':', '\\'])
                .all(|p| p.chars().all(is_ident))
            && last.starts_with(|c: char| c.is_uppercase());
        if !is_path {
            return None;
        }
        path.to_string()
    } else if rest.is_empty() {
        // Go's embedded type (`*Block`, `sync.Mutex`): the field is named after it.
        let embedded = sig.trim_start_matches('*');
        let is_path = embedded
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(is_ident));
        let attribute = ["self.", "this."].iter().any(|a| sig.starts_with(a));
        if !is_path || attribute || embedded.rsplit('.').next() != Some(name) {
            return None;
        }
        sig.to_string()
    } else if prefix.is_empty() || prefix.ends_with(',') {
        // Go: after the field's names (`R, G, B uint8`).
        let mut r = rest;
        while let Some(more) = r.strip_prefix(',') {
            r = more.trim_start().trim_start_matches(is_ident).trim_start();
        }
        until_value(r)
    } else {
        // PHP's `private $x;`, a Ruby or Python attribute: no type written.
        return None;
    };
    let bare = ty.trim_start_matches(['&', '*', '?', ' ']);
    if ty.is_empty() || ty.len() > MAX_RETURN || PLAIN.contains(&bare) {
        return None;
    }
    Some(ty)
}

/// The type a PHP docblock gives a property (`@var Parser`, `@var Node[]`, `@var
/// ?Lexer`, `@var Foo|null`): the first type of its `@var` that is not `null`, as written.
/// `None` without one, or for a plain value's (`@var bool`, `@var array`, `@var mixed`).
pub fn doc_var_type(doc: &str) -> Option<String> {
    let (_, rest) = doc.split_once("@var")?;
    // The type: up to a space outside `<…>` (`array<string, Node> $nodes`).
    let rest = rest.trim_start();
    let mut depth = 0i32;
    let end = rest
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            c.is_whitespace() && depth <= 0
        })
        .map_or(rest.len(), |(i, _)| i);
    let ty = &rest[..end];
    let ty = ty
        .split('|')
        .map(|t| t.trim_start_matches('?'))
        .find(|t| !t.is_empty() && *t != "null")?;
    // A collection's generic form (`array<string, Node>`, `list<Node>`): its elements' type,
    // written `Node[]`.
    let (ty, element) = match ty.split_once('<') {
        Some((head, args)) if matches!(head, "array" | "list" | "iterable" | "non-empty-array") => {
            let args = args.strip_suffix('>')?;
            (*top_level_args(args).last()?, true)
        }
        _ => (ty, false),
    };
    let bare = ty.trim_start_matches('\\').trim_end_matches("[]");
    let plain = PLAIN.contains(&bare)
        || matches!(
            bare,
            "array" | "mixed" | "callable" | "resource" | "iterable" | "float" | "true" | "false"
        );
    let named = bare.starts_with(|c: char| c.is_alphabetic() || c == '_') && !bare.contains('<');
    (named && !plain && ty.len() <= MAX_RETURN).then(|| match element {
        true => format!("{ty}[]"),
        false => ty.to_string(),
    })
}

/// Words before a field's type that are none of it.
const FIELD_MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "final",
    "readonly",
    "const",
    "volatile",
    "transient",
    "mutable",
    "var",
    "required",
    "new",
    "override",
    "virtual",
    "abstract",
    "unsafe",
    "extern",
    "inline",
    "constexpr",
    "declare",
    "late",
];

/// The type of an element of a value of declared type `raw`, as indexing (`xs[i]`) reads it:
/// Go's `[]*Value`, `[4]T` and `map[K]V`'s `V`; Rust's `[T; N]`, `&[T]`, `Vec<T>`; Java's,
/// C#'s and TypeScript's `T[]`; `List<T>`, `list[T]`, `std::vector<T>`; a map's value type
/// (`HashMap<K, V>`, `dict[str, V]`, `Record<K, V>`, `Dictionary<K, V>`). `None` for any
/// other type (whose indexing the repository may define).
pub fn element(raw: &str) -> Option<&str> {
    let mut t = raw.trim();
    for _ in 0..4 {
        loop {
            let before = t;
            t = t.trim_start_matches(['&', '*', ' ']);
            t = t.strip_prefix("mut ").unwrap_or(t).trim_start();
            t = t.strip_prefix("const ").unwrap_or(t).trim_start();
            if let Some(r) = t.strip_prefix('\'') {
                // A Rust lifetime: `&'a [T]`.
                t = r.trim_start_matches(is_ident).trim_start();
            }
            if t == before {
                break;
            }
        }
        if t.starts_with("map[") {
            let close = closing(t, 3)?;
            return Some(t[close + 1..].trim()).filter(|e| !e.is_empty());
        }
        if t.starts_with('[') {
            let close = closing(t, 0)?;
            let after = t[close + 1..].trim();
            if !after.is_empty() {
                // Go's `[]T`, `[N]T`.
                return Some(after);
            }
            // Rust's `[T]`, `[T; N]`.
            return Some(t[1..close].split(';').next()?.trim()).filter(|e| !e.is_empty());
        }
        if let Some(e) = t.strip_suffix("[]") {
            return Some(e.trim()).filter(|e| !e.is_empty());
        }
        let open = t.find(['<', '['])?;
        let close = closing(t, open)?;
        let head = t[..open].trim();
        let last = head.rsplit(['.', ':']).next().unwrap_or(head);
        let args = top_level_args(&t[open + 1..close]);
        t = if SEQUENCES.contains(&last) {
            args.first()?
        } else if MAPS.contains(&last) {
            args.get(1)?
        } else if DEREF.contains(&last) {
            // `Box<[T]>`, `Arc<Vec<T>>`: indexing goes through to what they hold.
            args.first()?
        } else {
            return None;
        };
        if SEQUENCES.contains(&last) || MAPS.contains(&last) {
            // `SmallVec<[T; 4]>`'s element is the array's.
            if t.starts_with('[') && t.contains(';') {
                continue;
            }
            return Some(t);
        }
    }
    None
}

/// Types indexed by position whose element is their first type argument.
const SEQUENCES: &[&str] = &[
    "Vec",
    "VecDeque",
    "SmallVec",
    "ArrayVec",
    "TinyVec",
    "ThinVec",
    "List",
    "IList",
    "IReadOnlyList",
    "ArrayList",
    "ImmutableList",
    "Array",
    "ReadonlyArray",
    "list",
    "Sequence",
    "MutableSequence",
    "vector",
    "deque",
    "array",
    "span",
    "Span",
];

/// Types indexed by key whose element is their second type argument.
const MAPS: &[&str] = &[
    "HashMap",
    "BTreeMap",
    "IndexMap",
    "FxHashMap",
    "AHashMap",
    "Dictionary",
    "IDictionary",
    "IReadOnlyDictionary",
    "SortedDictionary",
    "ConcurrentDictionary",
    "dict",
    "Dict",
    "Mapping",
    "MutableMapping",
    "OrderedDict",
    "defaultdict",
    "Record",
    "map",
    "unordered_map",
];

/// A generic argument list's type arguments (`K, Vec<V>` of `HashMap<K, Vec<V>>`), split at
/// its top-level commas; Rust's lifetimes are left out (`T` of `MutexGuard<'_, T>`).
fn top_level_args(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in args.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            // (An arrow's `>` closes nothing: `Box<dyn Fn(A) -> B>`.)
            '>' if args[..i].ends_with('-') => {}
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(args[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(args[start..].trim());
    out.retain(|a| !a.is_empty() && !a.starts_with('\''));
    out
}

/// A receiver that reads a field of a name or a path of fields: `v.Args`, `self.items[0]`,
/// `$this->repo`, `v.Block.Stack` — what it is read from (`v`), the field (`Args`) and
/// whether the field's value is indexed (`[0]`: an element of it). `None` for any other
/// receiver.
#[derive(Debug, PartialEq, Eq)]
pub struct FieldRead<'q> {
    pub of: &'q str,
    pub field: &'q str,
    pub indexed: bool,
}

pub fn field_read(q: &str) -> Option<FieldRead<'_>> {
    let mut t = q.trim();
    let mut indexed = false;
    if t.ends_with(']') {
        t = t[..opening(t, t.len() - 1)?].trim_end();
        indexed = true;
    }
    let (of, field) = t.rsplit_once("->").or_else(|| t.rsplit_once('.'))?;
    let (of, field) = (of.trim_end(), field.trim_start());
    let name = |s: &str| {
        !s.is_empty() && !s.starts_with(|c: char| c.is_ascii_digit()) && s.chars().all(is_ident)
    };
    // What it is read from: a name or a path of fields (`v.Block.Stack`).
    let of_path = of.strip_prefix('$').unwrap_or(of);
    let path = of_path.split("->").flat_map(|p| p.split('.')).all(name);
    (name(field) && path).then_some(FieldRead { of, field, indexed })
}

/// Whether a field read is plainly one, as a receiver type: one that is indexed
/// (`v.Args[0]`) or of a lower-case field read from the instance (`self.title`, `this.repo`,
/// `$this->repo`) — not `a.b` or `self.ctx.Queue`, as which a declared type may be written
/// too (`ssa.Value`, `ctx.RLock`; Python's `self._ctx.SimpleQueue()` makes a `SimpleQueue`).
pub fn plainly_a_field(read: &FieldRead<'_>) -> bool {
    let head = read.of.split(['.', '-']).next().unwrap_or(read.of);
    read.indexed
        || (matches!(head, "self" | "this" | "$this")
            && !read.field.starts_with(char::is_uppercase))
}

/// Whether a method called `name` on a value of a type from outside the repository may hand
/// out a value it holds, of the repository's type (`items.first()`, `state.lock()`,
/// `map.get(k)`, `iter.next()`), rather than another outside value (`f.debug_struct("X")`,
/// `cmd.arg(a)`): a call on its result is then looked up as usual.
pub fn hands_out(name: &str) -> bool {
    matches!(
        name,
        "get"
            | "get_mut"
            | "get_unchecked"
            | "get_unchecked_mut"
            | "first"
            | "first_mut"
            | "last"
            | "last_mut"
            | "iter"
            | "iter_mut"
            | "into_iter"
            | "next"
            | "next_back"
            | "nth"
            | "peek"
            | "peek_mut"
            | "pop"
            | "pop_front"
            | "pop_back"
            | "front"
            | "front_mut"
            | "back"
            | "back_mut"
            | "remove"
            | "swap_remove"
            | "take"
            | "replace"
            | "lock"
            | "read"
            | "write"
            | "try_lock"
            | "try_read"
            | "try_write"
            | "borrow"
            | "borrow_mut"
            | "as_ref"
            | "as_mut"
            | "as_deref"
            | "as_deref_mut"
            | "deref"
            | "deref_mut"
            | "as_ptr"
            | "as_mut_ptr"
            | "cloned"
            | "copied"
            | "clone"
            | "values"
            | "values_mut"
            | "keys"
            | "entry"
            | "or_insert"
            | "or_insert_with"
            | "or_default"
            | "load"
            | "upgrade"
            | "get_or_init"
            | "get_or_insert_with"
            | "into_inner"
            | "get_ref"
            | "get_pin_mut"
            | "find"
            | "find_map"
            | "max"
            | "min"
            | "max_by"
            | "min_by"
            | "max_by_key"
            | "min_by_key"
            | "last_key_value"
            | "first_key_value"
            | "index"
            | "index_mut"
            | "unwrap_or"
            | "unwrap_or_else"
            | "unwrap_err"
            | "expect_err"
            | "ok"
            | "err"
            | "map"
            | "and_then"
            | "filter"
            | "flatten"
            | "collect"
            | "fold"
            | "reduce"
            | "sum"
            | "product"
            | "call"
            | "join"
            | "recv"
            | "try_recv"
            | "poll"
            | "wait"
            | "block_on"
            | "spawn"
            | "downcast"
            | "downcast_ref"
            | "downcast_mut"
            | "value"
            | "inner"
            | "data"
            | "item"
            | "element"
            | "pin"
            | "as_pin_mut"
    )
}

/// Types a value of which is used as the value it holds (a call on a `Box<T>` is `T`'s).
const DEREF: &[&str] = &[
    "Box",
    "Rc",
    "Arc",
    "unique_ptr",
    "shared_ptr",
    "MutexGuard",
    "RwLockReadGuard",
    "RwLockWriteGuard",
    "RefMut",
    "ReentrantMutexGuard",
];
/// Types whose value an unwrapping (`?`, `.await`, `.unwrap()`) takes out.
const UNWRAPPED: &[&str] = &[
    "Result",
    "Option",
    "Promise",
    "Task",
    "ValueTask",
    "Optional",
    "CompletableFuture",
    "Future",
    "Poll",
];

/// What a declared return type (from [`declared_return`]) makes a call's result: a type
/// by its path as written (`Type`), or the callee's own type (`Self`, `this`, `static`).
#[derive(Debug, PartialEq, Eq)]
pub enum Returned<'a> {
    Type(&'a str),
    Own,
}

/// The type of a call's result whose callee declares `raw`, once unwrapped when `unwrap`
/// (`Result<Config, E>` with `?` is `Config`; without it, `Result`, which the repository does
/// not define). `None` when it is not a type the receiver can be looked up by (a generic
/// parameter's bound is not known; a tuple; `Self::Item`).
pub fn returned(raw: &str, unwrap: bool) -> Option<Returned<'_>> {
    let mut t = raw.trim().trim_matches(['"', '\'']);
    for _ in 0..4 {
        // Go's results: the first of `(T, error)` or `(v *T, err error)`.
        if t.starts_with('(') {
            let close = closing(t, 0)?;
            let first = t[1..close].split(',').next()?.trim();
            t = first.rsplit(' ').next()?;
            continue;
        }
        let stripped = t.trim_start_matches(['&', '*', '?', ' ']);
        let stripped = stripped
            .strip_prefix("mut ")
            .unwrap_or(stripped)
            .trim_start();
        if matches!(stripped, "Self" | "self" | "static" | "this" | "$this") {
            return Some(Returned::Own);
        }
        let path = type_name(t)?;
        let (qualifier, last) = split_type_path(path);
        if qualifier.is_some_and(|q| q == "Self" || q.ends_with("::Self")) {
            return None;
        }
        let wrapper = DEREF.contains(&last) || (unwrap && UNWRAPPED.contains(&last));
        if !wrapper {
            return Some(Returned::Type(path));
        }
        // The first generic argument.
        let at = t.find(path)? + path.len();
        let rest = &t[at..];
        let lt = at + rest.find('<')?;
        let gt = closing(t, lt)?;
        t = top_level_args(&t[lt + 1..gt]).first()?;
    }
    None
}

/// Whether a declared return type can tell a call's result's type, unwrapped or not (not
/// `Self::Output`, a generic parameter, a closure): only those are kept for resolution. A
/// type from outside the repository counts: a call on its value is then known to be none of
/// the repository's (`a.to_vec().len()`, `b.save().map_err(…)`).
pub fn kept(raw: &str) -> bool {
    let told = |r: Option<Returned>| match r {
        Some(Returned::Own) => true,
        Some(Returned::Type(path)) => !(path.len() == 1 && path.as_bytes()[0].is_ascii_uppercase()),
        None => false,
    };
    told(returned(raw, false)) || told(returned(raw, true))
}

#[cfg(test)]
mod tests;
