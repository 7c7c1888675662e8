//! The per-edge decision: [`Index::pick`] takes one raw edge's name and qualifier and chooses
//! its target, in the order docs/resolution.md gives; language rules are in the sibling modules.

use super::*;

pub(super) const SELF_WORDS: &[&str] = &["self", "this", "Self", "cls", "@", "$this"];

/// Whether qualified name `inner` is nested in `outer` (`Outer.Inner.run` in `Outer`).
pub(super) fn nested_in(inner: &str, outer: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'.'
}

/// Does qualifier `q` of a call name the caller's base type in `lang` (`super().f()` and
/// Python 2's `super(Cls, self).f()`, `super.f()`, C#'s `base.F()`, PHP's `parent::f()`)?
/// By language: elsewhere `base` and `parent` are ordinary names (a module, a variable).
pub(super) fn is_super(lang: Lang, q: &str) -> bool {
    match lang {
        Lang::Python => q == "super()" || q.starts_with("super("),
        Lang::CSharp => q == "base",
        Lang::Php => q == "parent",
        _ => q == "super",
    }
}

/// Languages where an unqualified call in a method may call a member of the instance
/// (`size()` for `this.size()`). Not Python, JavaScript, PHP (they need `self`/`this`), Rust
/// (`self.`), Go (the receiver's name) or C (no methods).
pub(super) fn implicit_this(lang: Lang) -> bool {
    matches!(lang, Lang::Java | Lang::CSharp | Lang::Cpp | Lang::Ruby)
}

/// Whether a bare call (no qualifier) in `lang` takes a method only of a type enclosing
/// the caller, or through an import: in Java, C# and C++ the instance's own methods and its
/// bases' are tried before [`Index::pick`] ([`Index::implicit_receiver`]); what is left is a
/// free function (C++), a static import's member, or an outer class's member — not an
/// unrelated class's method of that name. Not Ruby, whose bare calls reach mixed-in and
/// top-level methods.
pub(super) fn enclosing_only(kind: EdgeKind, lang: Lang, qualifier: Option<&str>) -> bool {
    kind == EdgeKind::Calls
        && qualifier.is_none()
        && matches!(lang, Lang::Java | Lang::CSharp | Lang::Cpp)
}

/// Whether receiver type `t` is a field read a local was bound to (`v.Args[0]`,
/// `self.title`), not a type ([`crate::analyze::returns::plainly_a_field`]).
pub(super) fn reads_a_field(t: &str) -> bool {
    use crate::analyze::returns::{field_read, plainly_a_field};
    field_read(t).is_some_and(|r| plainly_a_field(&r))
}

/// What an edge's receiver is made from, which resolution needs first: another call
/// (`a.b().c()`: [`crate::analyze::returns::Chained`]) or a field read (`v.Args[0].Reg()`:
/// [`crate::analyze::returns::FieldRead`], `indexed` when an element of the field is).
pub(super) enum Link<'q> {
    Call(crate::analyze::returns::Chained<'q>),
    Field { indexed: bool },
}

/// What [`Index::pick_qualified`] learnt of a call on the instance (`self.f()`,
/// `super().f()`, `self.x.f()`) for the rules after it.
#[derive(Default)]
pub(super) struct Receiver<'q> {
    /// Only a member of some type is the target: never a free function, whatever is nearer.
    pub(super) members_only: bool,
    /// For `super().f()`: the caller's own type, whose members are not targets.
    pub(super) not_of: Option<&'q str>,
    /// For `self.f()`: whether the caller's type has a base the repository does not define.
    pub(super) external_base: bool,
    /// For `self.x.f()`: the caller itself is not a target.
    pub(super) not_caller: bool,
}

impl<'a> Index<'a> {
    /// The rules [`Index::pick`] applies before it looks at any candidate: names that are never
    /// a definition here (a standard-library path, a call through a C function pointer, an
    /// `#include`, a Go import), and the languages' own lookups that decide alone (a Rust
    /// variant, PHP's names, Ruby's `new` and constants). `Some(answer)` decides the edge;
    /// `None` leaves it to the candidates.
    fn pick_before_candidates(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<Option<(Cand, &'static str)>> {
        let lang = self.files[fi].lang;
        // Rust: a path into the standard library (`std::sync::Arc::new`; `use std::sync::Arc`
        // then `Arc`; `use std::fmt` then `fmt::Display`) names no definition here, however a
        // file of the repository is named (`sync.rs` with an `Arc` of its own).
        if lang == Lang::Rust {
            let from_std = |n: &str| {
                let mut modules = self.files[fi].names.imports_of(n).peekable();
                !matches!(n, "self" | "Self" | "super" | "crate")
                    && modules.peek().is_some()
                    && modules.all(|m| m.is_some_and(is_rust_std_path))
            };
            let external = match qualifier {
                Some(q) => is_rust_std_path(q) || from_std(rust_path_head(q)),
                None => from_std(name),
            };
            if external {
                return Some(None);
            }
        }
        // C: a call on a field (`hooks->purge(…)`, `ops.read(…)`) goes through a function
        // pointer, set at run time: no definition is its target by that name (a test's
        // `static void purge(void)` is not).
        if lang == Lang::C && kind == EdgeKind::Calls && qualifier.is_some() {
            return Some(None);
        }
        // An `#include` names a file ([`Index::include_file`]), never a definition: `<ctime>`
        // is not `time.h`'s function `ctime`.
        if matches!(lang, Lang::C | Lang::Cpp) && kind == EdgeKind::Imports {
            return Some(None);
        }
        // A Rust tuple variant constructs its enum (`GetRange::Suffix(2)`, `Self::Int64(v)`):
        // a variant of the type the qualifier names, found as `Type::f()`'s member is. Only
        // so: a bare `Ok(…)` is the prelude's, and another enum's variant of the name is not.
        if lang == Lang::Rust
            && kind == EdgeKind::Calls
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && let Some(q) = qualifier
            && let Some(found) = self.variant_of(fi, source_qname, q.trim(), name)
        {
            return Some(Some(found));
        }
        // Nor is another definition of the name, when the qualifier is a type's (`Poll::Ready`
        // of the standard library, `DataType::List` of a type whose variants are not found):
        // an imported or nearby struct `Ready` or `List` is no variant of it.
        if lang == Lang::Rust
            && kind == EdgeKind::Calls
            && name.starts_with(|c: char| c.is_ascii_uppercase())
            && qualifier.is_some_and(|q| {
                let last = qualifier_last(q.trim());
                last != "Self"
                    && last.len() > 1
                    && last.starts_with(|c: char| c.is_ascii_uppercase())
                    && last.contains(|c: char| c.is_ascii_lowercase())
            })
        {
            return Some(None);
        }
        if lang == Lang::Php
            && let Some(found) = self.php_pick(fi, kind, name, qualifier)
        {
            return Some(found);
        }
        if lang == Lang::Ruby
            && kind == EdgeKind::Calls
            && name == "new"
            && let Some(q) = qualifier.map(|q| q.trim().trim_start_matches("::"))
            && is_constant_path(q)
        {
            return Some(self.ruby_new(fi, source_qname, q));
        }
        // Ruby: a constant written alone (`rescue FooError`, `is_a?(Payload)`) is looked up
        // lexically, as Ruby does.
        if lang == Lang::Ruby
            && kind == EdgeKind::References
            && qualifier.is_none()
            && name.starts_with(|c: char| c.is_ascii_uppercase())
        {
            return Some(self.ruby_constant(fi, source_qname, name));
        }
        // A Go import names a package, which is no definition (a namesake `types` or `url`
        // elsewhere had been its target): its directory's file, in `Resolver::edges`.
        if kind == EdgeKind::Imports && lang == Lang::Go {
            return Some(None);
        }
        None
    }

    /// The rules for a name written with a qualifier (`self.f()`, `super().f()`, `Type::f()`,
    /// `module.f()`, `x.f()`), in order: the caller's own type and its bases, a type the
    /// qualifier names, a trait's function, a namespace, an imported module or package, a
    /// standard value's member, a Rust module path. `Some(answer)` decides the edge; `None`
    /// leaves it to [`Index::pick`]'s later rules, with what a call on the instance found in
    /// `receiver`.
    fn pick_qualified<'q>(
        &self,
        (fi, source_qname, kind, name, q): (usize, Option<&'q str>, EdgeKind, &str, &str),
        cands: &Cands<'_, 'a>,
        near: &dyn Fn(Cand) -> bool,
        matches_module: &dyn Fn(&str) -> Option<Cand>,
        receiver: &mut Receiver<'q>,
    ) -> Option<Option<(Cand, &'static str)>> {
        let (path, lang, language) = (
            self.files[fi].path,
            self.files[fi].lang,
            self.files[fi].language,
        );
        let q = q.trim();
        let own = source_qname
            .and_then(|s| s.rsplit_once('.'))
            .map(|(own, _)| own);
        let sup = kind == EdgeKind::Calls && is_super(self.files[fi].lang, q);
        // `self.f()` itself, or `self.field.f()` (a member of some type).
        let on_self = SELF_WORDS.contains(&q);
        // (A field read on a field, `self.db.conn`, is not looked up on the caller's
        // type as a delegating call is.)
        let on_field =
            kind == EdgeKind::Calls && (q.starts_with("self.") || q.starts_with("this."));
        if on_self || sup || on_field {
            // `self.items.append(x)`: a field of a type the file does not declare, called
            // by a standard method's name, is a built-in's (not this type's `append`).
            if !(on_self || sup)
                && kind == EdgeKind::Calls
                && builtins::is_builtin_method(language, name)
            {
                return Some(None);
            }
            receiver.members_only = kind == EdgeKind::Calls;
            receiver.not_of = own.filter(|_| sup);
            // `self.inner.try_read(buf)` in `try_read` delegates to a field's object:
            // the caller itself is not its target (of the registry's 7 286 such calls
            // taken as the caller's own type's, 6 105 were the caller calling itself,
            // nearly all delegation).
            receiver.not_caller = kind == EdgeKind::Calls && !(on_self || sup);
            if let Some(own) = own
                && let Some(found) =
                    self.own_type_member(&cands, fi, own, kind, sup, on_self || sup)
                && !(receiver.not_caller
                    && found.0.0 == fi as u32
                    && Some(self.qualified_name(found.0)) == source_qname)
            {
                return Some(Some(found));
            }
            receiver.external_base = (on_self || sup)
                && kind == EdgeKind::Calls
                && own.is_some_and(|own| self.has_external_base(fi, own));
        } else {
            let q_last = qualifier_last(q);
            // `Config::new()`, `Builder.create()`: a member of the type `Config` names
            // from this file (its own, an import's, the nearest), when there is one: not
            // the first type of that name in the repository (another crate's, another
            // version's).
            // (Among a name's few candidates, one member of a type of that name is the
            // answer either way; none may still be an alias's, `ListArray::new()`.)
            if matches!(kind, EdgeKind::Calls | EdgeKind::References)
                && q_last.starts_with(|c: char| c.is_uppercase())
                && (cands.maps.is_some()
                    || cands
                        .all
                        .iter()
                        .filter(|&&c| self.parent(c).map(last_segment) == Some(q_last))
                        .take(2)
                        .count()
                        != 1)
                && let Some(ty) = crate::analyze::type_name(q)
                && let Some(Some((c, _))) = self.declared_type_member(fi, ty, kind, name)
            {
                return Some(Some((c, "qualified")));
            }
            // Of several types of that name, the file's own, else the nearest
            // (`_State.CREATED` is the file's own `_State`'s). A member of an imported
            // module (`time.tzname` after `import time`) is the module's, not a member
            // of a class named like it; a field read from a value (`ctx.common.issues`)
            // is no member of a type named like the value.
            let of_type = |c: Cand| self.parent(c).map(last_segment) == Some(q_last);
            // (A Rust qualifier is always a path: `f16::PI`, `half::f16::from_f32`.)
            let lower = !q_last.starts_with(char::is_uppercase) && lang != Lang::Rust;
            let module = lower && self.files[fi].names.import_bound(q).is_some();
            // (Go's values were always read so: `go_member` below.)
            let value = kind == EdgeKind::References && lower && lang != Lang::Go;
            if !module
                && !value
                && let Some(c) = cands
                    .in_file_where(fi as u32, of_type)
                    .or_else(|| cands.nearest_with_parent_last(self, path, q_last, |_| true))
            {
                return Some(Some((c, "qualified")));
            }
            // Rust: `Layout::new()`, `StdRng::seed_from_u64(…)` — a function the type (the
            // repository's, as the file names it; not an alias, a generic parameter or an
            // outside type, left to the lookups below) was not found to have — is one of
            // a trait's that the type implements where this cannot see (a derive, another
            // crate's impl, a provided method): an imported trait's, else a trait's
            // nearby. Never another type's own function of that name (hashbrown's
            // `TableLayout.new`).
            if lang == Lang::Rust
                && kind == EdgeKind::Calls
                // (A path: not a value, `Self::Int(v).cmp(o)`, `T::builder().build()`.)
                && !q.contains(['(', '.', '[', '{'])
                && q_last != "Self"
                && q_last.starts_with(|c: char| c.is_ascii_uppercase())
                && q_last.contains(|c: char| c.is_ascii_lowercase())
                && let Some(ty) = crate::analyze::type_name(q)
                && let Some(Some((_, false))) = self.declared_type(fi, ty)
            {
                return Some(self.rust_trait_function(&cands, fi, name, &near));
            }
            // PHP: a name in a namespace that is no class (`use google\appengine\Bar;`, a
            // namespaced function; classes and bases are [`Index::php_pick`]'s) is a
            // definition in a file that declares that namespace, or a library's — not a
            // `Bar` of another.
            if lang == Lang::Php && q.contains('\\') {
                let ns = q.trim_start_matches('\\');
                if !ns.is_empty() && !ns.starts_with('$') {
                    let declares = |file: u32| self.php_declares_namespace(file, ns);
                    let how = match kind {
                        EdgeKind::Imports => "import",
                        _ => "qualified",
                    };
                    return Some(
                        cands
                            .nearest_where(self, path, |c| near(c) && declares(c.0))
                            .map(|c| (c, how)),
                    );
                }
            }
            // `module.f()` where the file imported `module`: from the file a relative
            // import names, else by the module's name (Python's and Go's, below, by its
            // whole path).
            if !matches!(lang, Lang::Python | Lang::Go)
                && let Some(module) = self.files[fi].names.imports_of(q_last).next()
                && let Some(c) = self
                    .in_relative_module(&cands, fi, module)
                    .or_else(|| matches_module(q))
            {
                return Some(Some((c, "import")));
            }
            // Java: a type written with its package (`java.nio.file.FileSystem`) is that
            // package's, imported or not.
            if lang == Lang::Java
                && kind != EdgeKind::Imports
                && q.contains('.')
                && q.starts_with(|c: char| c.is_ascii_lowercase())
                && let Some(c) = matches_module(q)
            {
                return Some(Some((c, "qualified")));
            }
            // Python: `os.remove(p)` after `import os`, or `models.Model` after `from
            // django.db import models`, names a member of what the file imported: found
            // here when the repository has that module, else nothing here — not whatever
            // `remove` or `Model` the repository defines (`MutableSet.remove`).
            // Go: `strings.Split(s)` after `import "strings"` (or `str "strings"`) is the
            // same: the imported package's function, or nothing here.
            let head = q.split('.').next().unwrap_or(q);
            let names = self.files[fi].names;
            // The import binding the receiver's first name (or the whole receiver: `import
            // os.path`): its module, and the name it imports (`numpy` for `np`).
            let imported = || {
                names
                    .import_bound(head)
                    .map(|i| (head, i))
                    .or_else(|| names.import_bound(q).map(|i| (q, i)))
            };
            if matches!(
                lang,
                Lang::Python | Lang::Go | Lang::JavaScript | Lang::TypeScript | Lang::Tsx
            ) && kind != EdgeKind::Imports
                && let Some((bound, (module, _))) = imported()
            {
                // Go and JavaScript/TypeScript: the package or module the import names
                // (`path.resolve()` after `require('path')` is Node's, not a `resolve`
                // of the repository).
                if lang != Lang::Python {
                    let found = match module {
                        Some(m) if m.starts_with('.') => {
                            self.in_relative_module(&cands, fi, Some(m))
                        }
                        m => matches_module(m.unwrap_or(q)),
                    };
                    return Some(found.map(|c| (c, "import")));
                }
                // The module's whole path: `django.db.models` for `models.Model` after
                // `from django.db import models`; its own file first, then the files
                // under its package.
                let rest = &q[bound.len()..];
                let mut paths = Vec::new();
                let found = names
                    .import_bindings(bound)
                    .find_map(|b| self.python_member(&cands, path, b, rest, &mut paths));
                return Some(
                    found
                        .or_else(|| paths.iter().find_map(|p| matches_module(p)))
                        .map(|c| (c, "import")),
                );
            }
            if kind == EdgeKind::Calls && self.external_receiver(fi, q, q_last, name) {
                return Some(None);
            }
            // `xs.length`, `frame.f_code`: the language's own values' property.
            if kind == EdgeKind::References && builtins::is_builtin_property(language, name) {
                return Some(None);
            }
            // Rust: `config::load()`, `crate::util::join()` name a module's function: the
            // files the path names, before any other `load` or `join`.
            if lang == Lang::Rust
                && self.rust_module_path(fi, q, q_last)
                && let Some(c) = matches_module(q)
            {
                return Some(Some((c, "import")));
            }
        }
        None
    }

    /// A candidate in a file module path `m` names, as written in file `fi` and admitted by
    /// `keep`: a top-level definition before a nested one (`unittest.TestCase` is
    /// `unittest/case.py`'s, not a test's local `TestCase` class); of several, the nearest (two
    /// versions of a crate, a monorepo's packages with a `utils` module each).
    fn in_named_module(
        &self,
        fi: usize,
        cands: &Cands<'_, 'a>,
        keep: &dyn Fn(Cand) -> bool,
        m: &str,
    ) -> Option<Cand> {
        let (path, lang) = (self.files[fi].path, self.files[fi].lang);
        // Go: the package's own directory, when the repository has it.
        let go_dir = match lang {
            Lang::Go => Some(self.go_package(fi, m)?.0),
            _ => None,
        };
        let last = module_last_segment(m)?;
        let segment = ModuleSegment::new(last);
        let named = |c: Cand| {
            self.may_name(&segment, c.0)
                && (segment.names(self.path(c))
                    || (lang == Lang::Rust
                        && dir_of(self.path(c))
                            .split('/')
                            .any(|d| rust_crate_dir_is(d, last))))
                && match lang {
                    Lang::Python => python_module_names(m, self.path(c)),
                    Lang::Java => package_dir_names(m, '.', self.path(c)),
                    // (A package's test files build only with its own tests, which
                    // an external test package in its directory is: `runtime_test`
                    // sees `export_test.go`'s `Escape`.)
                    Lang::Go => {
                        Some(dir_of(self.path(c))) == go_dir
                            && (!gobuild::is_test_file(self.path(c))
                                || (gobuild::is_test_file(path) && Some(dir_of(path)) == go_dir))
                    }
                    // A package named by its name (`zod/v4`, `lodash`) exports no test
                    // file's definitions (a test file is a leaf).
                    Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
                        !is_script_test_file(self.path(c))
                    }
                    _ => true,
                }
        };
        // One pass: per tier (top-level, nested), the first match and whether another
        // file has one too.
        let mut first: [Option<Cand>; 2] = [None, None];
        let mut several = [false, false];
        for c in cands.all.iter().take(SCAN_LIMIT).copied() {
            if !named(c) || !keep(c) {
                continue;
            }
            let tier = usize::from(self.parent(c).is_some());
            match first[tier] {
                None => first[tier] = Some(c),
                Some(f) => several[tier] |= f.0 != c.0,
            }
            if several[0] {
                break;
            }
        }
        let tier = first.iter().position(Option::is_some)?;
        if !several[tier] {
            return first[tier];
        }
        // Go: of a package's definitions for several platforms, the caller's.
        if lang == Lang::Go && tier == 0 {
            let platform = self.go_platform(path);
            for rank in [2, 1] {
                let built = cands.all.iter().take(SCAN_LIMIT).copied().find(|&c| {
                    named(c)
                        && keep(c)
                        && self.parent(c).is_none()
                        && self.go_built(&platform, c) == rank
                });
                if built.is_some() {
                    return built;
                }
            }
        }
        let top = tier == 0;
        let in_tier = |c: Cand| named(c) && keep(c) && self.parent(c).is_none() == top;
        let best = cands.nearest_where(self, path, in_tier)?;
        // As near as the nearest, the module's own file before a file below it:
        // `scheduler::Handle` is `scheduler/mod.rs`'s, not `scheduler/current_thread/
        // mod.rs`'s, which sorts first. (Go's package is its directory.)
        // (Only below a directory the caller shares: across crates or packages, every
        // candidate is as near, and another crate's `sync.rs` is no `tokio::sync`.)
        let dir = dir_of(path);
        let as_near = nearness(dir, self.path(best));
        if lang != Lang::Go && as_near.0 > 0 && !segment.is_module_file(self.path(best)) {
            let own = cands.all.iter().take(SCAN_LIMIT).copied().find(|&c| {
                in_tier(c)
                    && segment.is_module_file(self.path(c))
                    && nearness(dir, self.path(c)) == as_near
            });
            if own.is_some() {
                return own;
            }
        }
        Some(best)
    }

    /// The definition an edge of file `fi` names, and how it was found. A function of its
    /// arguments, and of `source_qname` only through the caller's type (the part before its
    /// last `.`) when there is a `qualifier`, or whole for a bare call [`enclosing_only`]
    /// applies to: `Resolver::edges` keeps its answers per file by exactly that
    /// ([`PickMemo`]); keep the two in step.
    ///
    /// Its first rules are [`Index::pick_before_candidates`] and [`Index::pick_qualified`]; the
    /// rest stay in this one function because they share its candidate filters (`keep`,
    /// `near`) and what the receiver rules found, and their order is the behaviour
    /// (docs/resolution.md, "The order of the rules").
    pub(super) fn pick(
        &self,
        fi: usize,
        source_qname: Option<&str>,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> Option<(Cand, &'static str)> {
        let language = self.files[fi].language;
        let lang = self.files[fi].lang;
        if let Some(decided) = self.pick_before_candidates(fi, source_qname, kind, name, qualifier)
        {
            return decided;
        }
        let cands = self.candidates(kind, language, name)?;
        let path = self.files[fi].path;
        // A bare call (`print(x)`, `drop(v)`, `helper()`) names no method outside Java, C#,
        // C++ and Ruby: Python, JavaScript, PHP and Rust reach one only through `self`/`this`
        // or a type, Go through a receiver. So there it takes a function, a class, a macro —
        // or nothing: Python's `print` is not `TracebackException.print`, nor Rust's
        // `drop(guard)` some type's `Drop::drop`.
        // Nor, from another file, a function nested in a function (a test's local `drop`,
        // `f`): it is visible only inside the function that defines it.
        let bare = kind == EdgeKind::Calls && qualifier.is_none() && !implicit_this(lang);
        // Rust's macros are invoked with `!`, which is no call edge: `f(x)` is not `f!`.
        // Go: `x.f()` and `x.f` on a value (not an imported package) name a method or a
        // field — never a function or a type (a conversion is `pkg.T(x)` or `T(x)`).
        let go_member = lang == Lang::Go
            && matches!(kind, EdgeKind::Calls | EdgeKind::References)
            && qualifier.is_some_and(|q| {
                let head = q.split('.').next().unwrap_or(q);
                self.files[fi].names.import_bound(head).is_none()
            });
        // Python: `x.f()` and `x.f` on a value — not an imported module, nor the file's own
        // module by its name — name an attribute of an object: a class's member, never a
        // top-level function, class or variable (`loop.create_task()` in a file defining
        // `create_task`, `sample = _inst.sample`).
        let py_member = lang == Lang::Python
            && matches!(kind, EdgeKind::Calls | EdgeKind::References)
            && qualifier.is_some_and(|q| {
                let q = q.trim();
                let head = q.split('.').next().unwrap_or(q);
                // (`import xml.sax.saxutils` binds `xml`: `xml.sax.ErrorHandler`.)
                let names = self.files[fi].names;
                let bound = names.imports().any(|(n, _)| {
                    n.strip_prefix(head)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                }) || names.import_bound(head).is_some();
                !bound && !python_module_named(self.files[fi].path, head)
            });
        let keep = |c: Cand| {
            !(lang == Lang::Rust && kind == EdgeKind::Calls && self.kind(c) == "macro")
                && (!go_member || self.parent(c).is_some())
                && (!py_member || self.parent(c).is_some())
                && (!bare
                    || !(matches!(self.kind(c), "method" | "constructor" | "field")
                        || (c.0 != fi as u32 && self.nested_in_function(c))))
        };
        // Beyond imports, see [`enclosing_only`]: `Outer.Inner.run` may call `Outer.helper`.
        let enclosing = enclosing_only(kind, lang, qualifier);
        let near = |c: Cand| {
            keep(c)
                && (!enclosing
                    || !matches!(self.kind(c), "method" | "constructor")
                    || self
                        .parent(c)
                        .zip(source_qname)
                        .is_some_and(|(p, s)| nested_in(s, p)))
        };
        // A candidate in a file the module path names ([`Index::in_named_module`]).
        let matches_module = |m: &str| self.in_named_module(fi, &cands, &keep, m);
        // A candidate in the module an import names: the file a relative path names, else a
        // file the module path names.
        let in_module = |module: Option<&str>| {
            self.in_relative_module(&cands, fi, module)
                .filter(|&c| keep(c))
                .or_else(|| module.and_then(matches_module))
        };
        // Python: `from M import N` is N as M's file defines it; else, when `M.N` is a module
        // of its own, that file (`Resolver::edges`); else a definition of a file under M's
        // package (which re-exports it) — never another module's N, nor a definition named
        // like `import io`'s `io`.
        if kind == EdgeKind::Imports && lang == Lang::Python {
            let m = qualifier?;
            if let Some(file) = self.python_module_file(path, m)
                && let Some(&fi2) = self.by_path.get(file)
                && let Some(c) = cands.in_file(fi2 as u32)
            {
                return Some((c, "import"));
            }
            if self
                .python_module_file(path, &python_submodule(m, name))
                .is_some()
            {
                return None;
            }
            return matches_module(m).map(|c| (c, "import"));
        }
        // An import of a relative path names its file exactly.
        if kind == EdgeKind::Imports
            && let Some(file) = qualifier.and_then(|m| self.relative_file(fi, m))
            && let Some(&fi2) = self.by_path.get(file)
            && let Some(c) = cands.in_file(fi2 as u32)
        {
            return Some((c, "import"));
        }
        // `self.f()` and `super().f()` call a member of the caller's type or of one of its
        // bases: never a free function, whatever else is nearer ([`Receiver`]).
        let mut receiver = Receiver::default();
        if let Some(q) = qualifier
            && let Some(decided) = self.pick_qualified(
                (fi, source_qname, kind, name, q),
                &cands,
                &near,
                &matches_module,
                &mut receiver,
            )
        {
            return decided;
        }
        let Receiver {
            members_only,
            not_of,
            external_base,
            not_caller,
        } = receiver;
        if members_only {
            // A type with a base the repository does not define (`EventEmitter`,
            // `unittest.TestCase` outside the standard library) has its `self.emit()` there.
            // A Go type's methods are its own and its embedded types': one it lacks is an
            // embedded outside type's (`l.Lock()` of an embedded `sync.Mutex`).
            if external_base || lang == Lang::Go {
                return None;
            }
            // Another type's member of that name: in this file, the only one, or the nearest
            // by directory.
            let ix = self;
            let other = |c: Cand| {
                (not_of.is_none() || ix.parent(c) != not_of)
                    && !(not_caller
                        && c.0 == fi as u32
                        && Some(ix.qualified_name(c)) == source_qname)
            };
            if let Some(c) = cands.member_where(|c| c.0 == fi as u32 && other(c)) {
                return Some((c, "same_file"));
            }
            let first = cands.member_where(other)?;
            if cands.member_where(|c| c != first && other(c)).is_none() {
                return Some((first, "unique_name"));
            }
            let best = cands.nearest_where(ix, path, |c| ix.parent(c).is_some() && other(c))?;
            return Some((best, "ambiguous"));
        }
        if kind != EdgeKind::Imports
            && let Some(c) = cands.in_file_where(fi as u32, near)
        {
            return Some((c, "same_file"));
        }
        // JavaScript and TypeScript: a name imported from a package (not a relative path) is
        // that package's, found by its name, or a library's (`resolve` from `'path'`).
        if kind == EdgeKind::Imports
            && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
            && qualifier.is_some_and(|m| !m.starts_with('.'))
        {
            return in_module(qualifier).map(|c| (c, "import"));
        }
        let mut imported_by_name = false;
        for module in self.files[fi].names.imports_of(name) {
            imported_by_name = true;
            if let Some(c) = in_module(module) {
                return Some((c, "import"));
            }
            if kind == EdgeKind::Imports && cands.all.len() == 1 && lang != Lang::Java {
                return Some((cands.all[0], "unique_name"));
            }
        }
        // Java: `import a.b.C;` names one class, in package `a.b`'s directory (above), or a
        // nested one (`import java.lang.Thread.Builder;`: a member of `Thread`'s `Builder`);
        // else a library's — not another package's `C`.
        if lang == Lang::Java {
            let mut modules = self.files[fi].names.imports_of(name).flatten().peekable();
            if modules.peek().is_some() {
                let nested = modules
                    .filter_map(module_last_segment)
                    .filter(|outer| outer.starts_with(|c: char| c.is_uppercase()))
                    .find_map(|outer| cands.with_parent_last(self, outer));
                return nested.map(|c| (c, "import"));
            }
            // A simple type name the file neither declares nor imports by name is its
            // package's (its directory's: `same_package`), else a package's it imports on
            // demand (`import a.b.*;`) or `java.lang`'s (`import`), as JLS 6.4.1 scopes it —
            // before any other type of that name (`com.other.String`).
            if qualifier.is_none() && kind != EdgeKind::Imports {
                let top_type = |c: Cand| {
                    near(c) && self.parent(c).is_none() && TYPE_KINDS.contains(&self.kind(c))
                };
                if let Some(c) = cands.directly_in(self, dir_of(path), top_type) {
                    return Some((c, "same_package"));
                }
                let on_demand = self.files[fi].names.imports_of("*").flatten();
                let imported = on_demand
                    .chain(["java.lang"])
                    .find_map(|m| matches_module(m).filter(|&c| top_type(c)));
                if let Some(c) = imported {
                    return Some((c, "import"));
                }
            }
        }
        // A Python name is defined in its file, imported or built in: a bare call reaches
        // another file's definition only through an import of it (above) or a `*` import of
        // the module that defines it.
        if bare && lang == Lang::Python {
            let star = self.files[fi].names.imports_of("*").find_map(in_module);
            return star.map(|c| (c, "import"));
        }
        // A JavaScript or TypeScript file that imports anything is a module: a bare name is
        // its own, imported (above) or a global (`setTimeout`), not another file's function.
        if bare
            && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
            && self.files[fi].names.has_imports()
        {
            return None;
        }
        // A Go name written alone — a call, a type, a constant — is the caller's package's
        // (its directory's), or a package's imported with `.` (`*`), or built in: never
        // another package's namesake.
        if lang == Lang::Go && qualifier.is_none() && kind != EdgeKind::Imports {
            if let Some(found) = self.go_in_package(&cands, path, &near) {
                return Some(found);
            }
            let dot = self.files[fi].names.imports_of("*").find_map(in_module);
            return dot.map(|c| (c, "import"));
        }
        // Names a file uses without defining or importing them (above), which are not another
        // file's: Rust's prelude (`Ok(…)`, `Option`, `Vec`, `Result` — not anyhow's `fn Ok` or
        // `type Result` where the file does not import them), and a generic parameter (`T`,
        // `K`: one capital letter) — found in a module the file imports whole (`use a::*`)
        // or nowhere.
        let prelude = lang == Lang::Rust
            && match kind {
                EdgeKind::Calls => bare && RUST_PRELUDE_CALLS.contains(&name),
                _ => RUST_PRELUDE_TYPES.contains(&name),
            };
        let generic =
            qualifier.is_none() && name.len() == 1 && name.as_bytes()[0].is_ascii_uppercase();
        if prelude || generic {
            let star = self.files[fi].names.imports_of("*").find_map(in_module);
            return star.map(|c| (c, "import"));
        }
        // Rust: another module's function is called bare only where the file imports it — by
        // name (a `use` whose path did not name a file here: a re-export, a crate renamed,
        // so by name below) or with its module (`use a::*`). A name the file does not
        // import, with no glob import, is no other file's (a closure `f(x)`, a parameter).
        if bare && lang == Lang::Rust {
            let mut globs = self.files[fi].names.imports_of("*").peekable();
            let globbed = globs.peek().is_some();
            if let Some(c) = globs.find_map(in_module) {
                return Some((c, "import"));
            }
            if !globbed && !imported_by_name {
                return None;
            }
        }
        // C and C++: a name is declared in the file or in a header it includes, directly or
        // through other headers: a definition there first (the nearest include; `assert` is
        // `jemalloc/internal/assert.h`'s where a file includes it). Else a definition another
        // file links in: never a `static` function or a macro of another source file, which
        // only that file sees.
        // (A field read, `cfg->size`, too: its struct is in the file or a header.)
        if matches!(lang, Lang::C | Lang::Cpp)
            && kind != EdgeKind::Imports
            && (qualifier.is_none() || kind == EdgeKind::References)
        {
            let (included, complete) = self.in_includes(&cands, fi, near);
            if included.is_some() {
                return included;
            }
            // The C library's `free`, `memcpy`, `printf`… where no included header defines
            // them.
            if kind == EdgeKind::Calls && builtins::is_c_library_function(name) {
                return None;
            }
            // Definitions in one file are one definition under `#if` branches (`thd_create`
            // for Windows and for POSIX). When all a source file includes is known, a header
            // it does not include defines nothing it sees. (A header, or a file another one
            // includes, also sees what its includer included before it: `TOBN` in ring's
            // `p256-nistz-table.h`.)
            let sees_all = complete && !self.is_header(fi as u32) && !self.included[fi];
            let visible =
                |c: Cand| near(c) && !self.file_local(c) && (!sees_all || !self.is_header(c.0));
            let first = cands.first(visible)?;
            if !cands.all.iter().any(|&c| c.0 != first.0 && visible(c)) {
                return Some((first, "unique_name"));
            }
            let best = match cands.maps {
                None => cands.nearest_where(self, path, visible),
                Some(_) => ancestors(path).find_map(|d| cands.under_dir(self, d, visible)),
            }?;
            return Some((best, "ambiguous"));
        }
        // C++: a member called on a value (`ptr->getType()`, `os.str()`) is of a class
        // complete where it is called, so one a header the file includes defines comes first.
        if lang == Lang::Cpp
            && kind != EdgeKind::Imports
            && qualifier.is_some()
            && let (Some(found), _) =
                self.in_includes(&cands, fi, |c| near(c) && self.parent(c).is_some())
        {
            return Some(found);
        }
        // Python: a reference not on the instance is a name used bare — the file's, imported
        // (above) or built in — or an attribute of a value (`x.path`; a module's or a
        // class's was looked up above), which is some type's member. So it takes no other
        // file's top-level definition (`Any` is
        // `typing`'s, not a vendored `typing_extensions.Any`), and a dunder attribute
        // (`__name__`, `__dict__`) is the language's — also on the instance, whose own type
        // and bases were asked above (`self.__class__` is `object`'s, not the one class that
        // assigns its own).
        let attribute = lang == Lang::Python
            && kind == EdgeKind::References
            && !qualifier.is_some_and(|q| SELF_WORDS.contains(&q.trim()));
        if lang == Lang::Python
            && kind == EdgeKind::References
            && name.starts_with("__")
            && name.ends_with("__")
        {
            return None;
        }
        // What is left is a guess by name, which in JavaScript, TypeScript, Python and Ruby
        // takes no other test file's definition: a test file is a leaf, which other files
        // reach only through an import (above) — a class in `instance-footprint.test.ts` is
        // no other test's `schema.parse()`.
        let scripts = matches!(
            lang,
            Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::Python | Lang::Ruby
        );
        // Ruby: a bare call that is no method of the caller's class or its bases (looked up
        // on the instance first) is a module's — mixed in — a top-level method's, or
        // `Kernel`'s and `Module`'s (`puts`, `format`, `include`, `private`): not another
        // class's method by its name, unless the file names that class as a base (`class
        // Atom < Base`, where `Base` was not found as the instance's).
        let ruby_bare = lang == Lang::Ruby && kind == EdgeKind::Calls && qualifier.is_none();
        // Nor, for a name of `Kernel`'s or `Module`'s own (`format`, `autoload`, `new`), a
        // module's method the file does not mix in: such a call is the built-in's unless a
        // base defines the name. Nor another file's `def` inside a method (concurrent-ruby's
        // `def self.new` in `safe_initialization!`, defined on whichever class calls that):
        // it is no method of any class a guess by name could tell.
        let ruby_kernel = ruby_bare && builtins::is_ruby_kernel_method(name);
        let named_base = |c: Cand| {
            self.parent(c).is_some_and(|p| {
                let p = last_segment(p);
                self.files[fi]
                    .names
                    .heritage()
                    .any(|(_, base, _)| last_segment(base) == p)
            })
        };
        // Rust: nor another crate's definition, unless the caller's crate names that crate
        // (libc's `c_int`, from `core::ffi` through a macro-made prelude, is no
        // `linux-raw-sys` `ctypes::c_int`).
        let rust = lang == Lang::Rust;
        let near = |c: Cand| {
            near(c)
                && (!attribute || self.parent(c).is_some())
                && (!scripts || c.0 == fi as u32 || !is_script_test_file(self.path(c)))
                && !(ruby_bare
                    && match self.parent_kind(c) {
                        Some("class") => true,
                        Some("module") => ruby_kernel,
                        Some("function" | "method" | "constructor") => c.0 != fi as u32,
                        _ => false,
                    }
                    && !named_base(c))
                && (!rust || self.rust_crates.reaches(fi as u32, c.0))
        };
        if bare || enclosing || attribute {
            let first = cands.first(near)?;
            if !cands.all.iter().any(|&c| c != first && near(c)) {
                return Some((first, "unique_name"));
            }
        } else if let &[only] = &cands.all[..] {
            return near(only).then_some((only, "unique_name"));
        } else if go_member
            && let Some(only) = {
                // Go: a call on a value is a method's or a field's, never a package-level
                // variable's (which calls written alone or through an import may name): those
                // do not make the one method of a name less than the only one.
                let mut members = cands
                    .all
                    .iter()
                    .copied()
                    .filter(|&c| !(self.kind(c) == "variable" && self.parent(c).is_none()));
                let first = members.next();
                first.filter(|_| members.next().is_none())
            }
        {
            return near(only).then_some((only, "unique_name"));
        }
        // A member called on a value whose type the file does not declare (`req.headers()`),
        // or a field read from one (`entry.key`): the nearest by directory, and among the
        // nearest one of a type the file names — imports, references, calls through
        // (`Request`) — before another type's (`Part`). (Names with more candidates than a
        // scan reads are looked up by directory, below.)
        if ((kind == EdgeKind::Calls && qualifier.is_some()) || kind == EdgeKind::References)
            && cands.all.len() <= SCAN_LIMIT
            && !IN_NAMED_CHECK.with(|f| f.get())
        {
            let dir = dir_of(path);
            let named = |c: Cand| self.names_parent_of(fi, c);
            // (nearness, named) of the best so far: among the nearest, the first, unless it is
            // a member of a type the file does not name and a later one's type is named. (A
            // free function stays: `zstd_safe::compress()` is a path, written like a value.)
            let mut best: Option<(((usize, bool), bool), Cand)> = None;
            for c in cands.all.iter().take(SCAN_LIMIT).copied() {
                let rank = nearness(dir, self.path(c));
                let better = match best {
                    None => true,
                    Some(((b, b_named), b_c)) => {
                        rank > b
                            || (rank == b && !b_named && self.parent(b_c).is_some() && named(c))
                    }
                };
                if better && near(c) {
                    best = Some(((rank, named(c)), c));
                }
            }
            if let Some((_, c)) = best {
                return Some((c, "ambiguous"));
            }
        }
        // The nearest by directory (deepest shared ancestor; ties by path order): a few
        // candidates are ranked in one pass, many looked up per ancestor by file range.
        let best = match cands.maps {
            None => cands.nearest_where(self, path, near),
            Some(_) => ancestors(path).find_map(|d| cands.under_dir(self, d, near)),
        }?;
        Some((best, "ambiguous"))
    }
}
