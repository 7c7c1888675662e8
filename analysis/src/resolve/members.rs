//! Members through types: a caller's own type, a declared type, a field's or a call's value,
//! and the bases and subclasses those reach.

use super::*;

/// How many levels of base types a `self.f()` call looks up through, and how many base
/// types at most.
pub(super) const MAX_BASE_DEPTH: usize = 8;
pub(super) const MAX_BASES: usize = 64;
/// How many files with clauses for types of one name a call looks through for its own
/// type's clauses ([`Index::own_clause_files`]).
pub(super) const MAX_CLAUSE_FILES: usize = 32;

impl<'a> Index<'a> {
    /// A member of a base type of `ty` (a qualified name, of a type of file `fi`), the nearest
    /// base first: breadth first up the inheritance and implementation clauses (`ty`'s own
    /// wherever [`Index::own_clause_files`] finds them), each base
    /// resolved from the file of the clause naming it (as that clause's own edge is), and
    /// its members and clauses looked for in the file that defines it. At most
    /// [`MAX_BASE_DEPTH`] levels and [`MAX_BASES`] types.
    pub(super) fn inherited(&self, cands: &Cands<'_, 'a>, fi: u32, ty: &str) -> Option<Cand> {
        self.up_bases(
            fi,
            ty,
            |_| None,
            |b| {
                let b = b?;
                cands
                    .in_file_with_parent(self, b.0, self.qualified_name(b))
                    .or_else(|| self.go_method_elsewhere(cands, b))
            },
        )
    }

    /// Walks type `ty` of file `fi` up its bases, level by level, as the clauses of the
    /// files holding its clauses name them ([`Self::own_clause_files`]; at most
    /// [`MAX_BASE_DEPTH`] levels and [`MAX_BASES`] bases). Each clause's base, as written,
    /// goes to `written` first: `Some(Some(answer))` ends the walk, `Some(None)` passes the
    /// base over, `None` looks it up; then its definition, as that file names it, to `found`
    /// (once per definition; `None` when not found), whose `Some` ends the walk.
    pub(super) fn up_bases<R>(
        &self,
        fi: u32,
        ty: &str,
        mut written: impl FnMut(&str) -> Option<Option<R>>,
        mut found: impl FnMut(Option<Cand>) -> Option<R>,
    ) -> Option<R> {
        let mut seen: Vec<(u32, &str)> = vec![(fi, ty)];
        let mut level = self.own_clause_files(fi, ty);
        for _ in 0..MAX_BASE_DEPTH {
            let mut next = Vec::new();
            for (file, ty) in level {
                let ty = last_segment(ty);
                for (t, base, qualifier) in self.files[file as usize].names.heritage() {
                    if last_segment(t) != ty {
                        continue;
                    }
                    match written(base) {
                        Some(Some(answer)) => return Some(answer),
                        Some(None) => continue,
                        None => {}
                    }
                    let Some((b, _)) =
                        self.pick(file as usize, Some(t), EdgeKind::Inherits, base, qualifier)
                    else {
                        if let Some(answer) = found(None) {
                            return Some(answer);
                        }
                        continue;
                    };
                    let key = (b.0, self.qualified_name(b));
                    if seen.contains(&key) {
                        continue;
                    }
                    if seen.len() > MAX_BASES {
                        return None;
                    }
                    if let Some(answer) = found(Some(b)) {
                        return Some(answer);
                    }
                    seen.push(key);
                    next.push(key);
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        None
    }

    /// The definition that type `ty` (by its last segment) names in file `fi`, found as an
    /// `impl` clause's type is.
    pub(super) fn type_definition(&self, fi: u32, ty: &str) -> Option<Cand> {
        // PHP: `Expr\Assign`, `\App\Models\User`, by its namespace.
        if self.files[fi as usize].lang == Lang::Php && ty.contains('\\') {
            return self.php_class_at(fi as usize, ty).map(|(c, _)| c);
        }
        self.pick(
            fi as usize,
            None,
            EdgeKind::Implements,
            last_segment(ty),
            None,
        )
        .map(|(c, _)| c)
    }

    /// The files holding the clauses of type `ty`, as file `fi` names it: `fi` itself, and
    /// the files whose clauses name a type of that name that resolves, from there, to the
    /// same definition as `ty` from `fi` — the file defining it (a Go struct's embedded
    /// fields beside methods in another file), and Rust's `impl Trait for T` anywhere. A
    /// type defined outside the repository has only `fi` (every `impl … for [u8]` is not a
    /// base of one crate's `[u8]`). Beyond [`MAX_CLAUSE_FILES`] such files only the defining
    /// one is looked at.
    pub(super) fn own_clause_files<'q>(&self, fi: u32, ty: &'q str) -> Vec<(u32, &'q str)> {
        let mut out = vec![(fi, ty)];
        let Some(files) = self.clause_files.get(last_segment(ty)) else {
            return out;
        };
        let def_from = |file: u32| self.type_definition(file, ty);
        let Some(def) = def_from(fi) else {
            return out;
        };
        for &g in files {
            let near = g == def.0 || files.len() <= MAX_CLAUSE_FILES;
            if g != fi && near && def_from(g) == Some(def) {
                out.push((g, ty));
            }
        }
        out
    }

    /// For a type with no such member up its own bases (a mixin, a base class calling a hook):
    /// a member of a subclass in the same file, or of one of that subclass's other bases —
    /// what `self` is when the call runs. Subclasses nearest first, at most 4 levels down;
    /// then [`Index::through_subclasses_elsewhere`].
    pub(super) fn through_subclasses<'q>(
        &'q self,
        cands: &Cands<'_, 'a>,
        fi: u32,
        ty: &'q str,
    ) -> Option<Cand> {
        let names = self.files[fi as usize].names;
        let mut seen: Vec<&'q str> = vec![last_segment(ty)];
        let mut level = seen.clone();
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in level {
                for (sub, base, _) in names.heritage() {
                    let sub_last = last_segment(sub);
                    if base != t || seen.contains(&sub_last) || seen.len() > MAX_BASES {
                        continue;
                    }
                    seen.push(sub_last);
                    if let Some(c) = cands
                        .in_file_with_parent(self, fi, sub)
                        .or_else(|| self.inherited(cands, fi, sub))
                    {
                        return Some(c);
                    }
                    next.push(sub_last);
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        self.through_subclasses_elsewhere(cands, fi, ty)
    }

    /// A member of a direct subclass of `ty` (of file `fi`) in another file, or of one of
    /// that subclass's bases: `class StrTest(string_tests.MixinTest, unittest.TestCase)`
    /// makes `self.assertEqual` in `MixinTest` a `TestCase` member. A clause counts when its
    /// base resolves, from its file, to the definition `ty` resolves to from `fi`. Files in
    /// the nearest directories first; at most [`MAX_CLAUSE_FILES`] of them. Only where a
    /// type may call what only its subclasses define (Python, Ruby, PHP's traits,
    /// JavaScript): elsewhere a type calls what it declares or inherits, and a trait named
    /// by thousands of `impl` clauses made every call that missed scan them.
    pub(super) fn through_subclasses_elsewhere(
        &self,
        cands: &Cands<'_, 'a>,
        fi: u32,
        ty: &str,
    ) -> Option<Cand> {
        if !matches!(
            family(self.files[fi as usize].language),
            "python" | "ruby" | "php" | "js"
        ) {
            return None;
        }
        let ty_last = last_segment(ty);
        let files = self.base_files.get(ty_last)?;
        let (def, _) = self.pick(fi as usize, None, EdgeKind::Implements, ty_last, None)?;
        let here = dir_of(self.files[fi as usize].path);
        // The length of the deepest directory holding both files.
        let shared = |g: &u32| {
            ancestors(self.files[*g as usize].path)
                .find(|d| here == *d || is_under(here, d))
                .map_or(0, str::len)
        };
        let mut near: Vec<u32> = files.iter().copied().filter(|&g| g != fi).collect();
        near.sort_by_cached_key(|g| std::cmp::Reverse(shared(g)));
        for g in near.into_iter().take(MAX_CLAUSE_FILES) {
            for (sub, base, qualifier) in self.files[g as usize].names.heritage() {
                if last_segment(base) != ty_last {
                    continue;
                }
                let same = self
                    .pick(g as usize, Some(sub), EdgeKind::Inherits, base, qualifier)
                    .is_some_and(|(b, _)| b == def);
                if !same {
                    continue;
                }
                if let Some(c) = cands
                    .in_file_with_parent(self, g, sub)
                    .or_else(|| self.inherited(cands, g, sub))
                {
                    return Some(c);
                }
            }
        }
        None
    }

    /// A member of the caller's own type `own` (the source's parent) among `cands`: the type's
    /// own (`same_class`; not for `super`), then, when `up` (a call or reference on `self` or
    /// `super` itself, not on `self.field`), its bases' and (not for `super`) its subclasses'
    /// (`inherited`). Calls and references only go up: looking up a base resolves its clause
    /// with [`Index::pick`], which must not come back here.
    pub(super) fn own_type_member(
        &self,
        cands: &Cands<'_, 'a>,
        fi: usize,
        own: &str,
        kind: EdgeKind,
        sup: bool,
        up: bool,
    ) -> Option<(Cand, &'static str)> {
        let path = self.files[fi].path;
        // A member of a type of that name in another file counts when the type resolves
        // from there to the definition `own` resolves to from here: a Rust `impl` or a Go
        // method beside another file's type, not another package's `Stack.size`.
        let own_def = std::cell::OnceCell::new();
        let same_type = |c: Cand| {
            let Some(def) = *own_def.get_or_init(|| self.type_definition(fi as u32, own)) else {
                return false;
            };
            let theirs = self.type_definition(c.0, own);
            theirs == Some(def) || theirs.is_some_and(|t| self.go_variant(t, def))
        };
        // Go: of a method defined for several platforms, the caller's first.
        let go = self.files[fi].lang == Lang::Go;
        let platform = go.then(|| self.go_platform(path));
        let built = |c: Cand| {
            platform
                .as_ref()
                .is_some_and(|p| self.go_built(p, c) > 0 && same_type(c))
        };
        if !sup
            && let Some(c) = cands
                .in_file_with_parent(self, fi as u32, own)
                .or_else(|| match go {
                    true => cands.nearest_with_parent_last(self, path, own, built),
                    false => None,
                })
                .or_else(|| cands.nearest_with_parent_last(self, path, own, same_type))
        {
            return Some((c, "same_class"));
        }
        if !(up && matches!(kind, EdgeKind::Calls | EdgeKind::References)) {
            return None;
        }
        self.inherited(cands, fi as u32, own)
            .or_else(|| {
                if sup {
                    None
                } else {
                    self.through_subclasses(cands, fi as u32, own)
                }
            })
            .map(|c| (c, "inherited"))
    }

    /// The definition of type `ty` as file `fi` names it (a declared type), and whether it is
    /// a type alias: `Some(None)` for a type outside the repository, `None` when not known
    /// (a generic parameter; a Go type its package lacks).
    pub(super) fn declared_type(&self, fi: usize, ty: &str) -> Option<Option<(Cand, bool)>> {
        // The type as the file names it: defined in it, imported, or found by name near it —
        // in its directory or under a directory both share. A type of that name only in
        // unrelated directories (another crate's `Vec`, `Option`) is not this one.
        // An array's members are the language's.
        if ty == crate::analyze::ARRAY {
            return Some(None);
        }
        let dir = dir_of(self.files[fi].path);
        let lang = self.files[fi].lang;
        let (qualifier, ty) = crate::analyze::split_type_path(ty);
        // A generic parameter (`K parent`, `n: T`): its bound is not known here, so the
        // member is looked up by name.
        if qualifier.is_none() && ty.len() == 1 && ty.as_bytes()[0].is_ascii_uppercase() {
            return None;
        }
        let def = self
            .pick(fi, None, EdgeKind::Implements, ty, qualifier)
            .filter(|&(c, how)| {
                // Sharing a directory other than the root, or both at the root.
                let (shared, direct) = nearness(dir, self.path(c));
                !matches!(how, "ambiguous" | "unique_name")
                    || shared > 0
                    || (dir.is_empty() && direct)
            });
        // Else a type alias, found the same way: C's `typedef struct { … } buf_t;` has its
        // fields as its own members; what `typedef struct arena_s arena_t;` names is not
        // known here, so in C and C++ its members are looked up by name. (Elsewhere an alias
        // without members of its own — Rust's `type ParseStream = &ParseBuffer` — leaves the
        // call `unresolved`, as a type outside the repository does.)
        let alias = || {
            self.pick(fi, None, EdgeKind::References, ty, qualifier)
                .filter(|&(c, how)| {
                    let (shared, direct) = nearness(dir, self.path(c));
                    self.kind(c) == "type_alias"
                        && (!matches!(how, "ambiguous" | "unique_name")
                            || shared > 0
                            || (dir.is_empty() && direct))
                })
                .map(|(c, _)| c)
        };
        match def {
            Some((def, _)) => Some(Some((def, false))),
            None => match alias() {
                Some(def) => Some(Some((def, true))),
                // A Go type its package lacks — unqualified, its own package's; or of an
                // imported package the repository has — is a guess gone wrong (`ts :=
                // httptest.NewTLSServer(…)` is no `TLSServer`), or in a file not indexed:
                // not known to be an outside type.
                None if lang == Lang::Go
                    && match qualifier {
                        None => !builtins::is_go_predeclared_type(ty),
                        // (`v.Block`, a local's field read, is no type.)
                        Some(q) => {
                            self.files[fi]
                                .names
                                .import_bound(q)
                                .is_none_or(|(module, _)| {
                                    module.and_then(|m| self.go_package(fi, m)).is_some()
                                })
                        }
                    } =>
                {
                    None
                }
                None => Some(None),
            },
        }
    }

    /// A call on a receiver whose type its file declares (`sb.append()` after
    /// `StringBuilder sb = …`): the type's member, or its bases' (`declared_type`). `Some(None)`
    /// when the repository defines no type of that name (the receiver is a library's: the
    /// call is not to any definition here); `None` when the type has no such member here,
    /// which leaves the call to the usual lookup.
    pub(super) fn declared_type_member(
        &self,
        fi: usize,
        ty: &str,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        let language = self.files[fi].language;
        let lang = self.files[fi].lang;
        let (def, aliased) = match self.declared_type(fi, ty)? {
            Some(found) => found,
            None => return Some(None),
        };
        let Some(cands) = self.candidates(kind, language, name) else {
            return Some(None);
        };
        let owner = self.qualified_name(def);
        match self.own_type_member(&cands, def.0 as usize, owner, kind, false, true) {
            Some((c, _)) => Some(Some((c, "declared_type"))),
            None if aliased && !matches!(lang, Lang::C | Lang::Cpp) => Some(None),
            // An embedded type is a field named after it (`in.Stack` of `struct { Stack; … }`).
            None if lang == Lang::Go && kind == EdgeKind::References => {
                let names = self.files[def.0 as usize].names;
                let embedded = names
                    .heritage()
                    .find(|&(t, base, _)| t == owner && base == name);
                Some(embedded.and_then(|(t, base, q)| {
                    let (c, _) = self.pick(def.0 as usize, Some(t), EdgeKind::Inherits, base, q)?;
                    Some((c, "declared_type"))
                }))
            }
            // A Go type's methods are its own and its embedded types' (its bases here): one
            // it lacks is an embedded outside type's, or none — not another type's.
            None if lang == Lang::Go => Some(None),
            // A class with a base from outside the repository, up its bases: a member it
            // lacks is that base's (`$e->getMessage()` of PHP's `Exception`). (Not Rust's
            // types, whose outside "bases" are traits, nor C's.)
            None if !matches!(lang, Lang::Rust | Lang::C)
                && self.has_external_ancestor(def.0, owner) =>
            {
                Some(None)
            }
            None => None,
        }
    }

    /// The member `name` of what field `field` (a definition) holds, or of an element of
    /// it when `indexed`, by the type its signature gives it (`declared_type`); `None` when
    /// it gives none this can read. As [`Index::declared_type_member`] answers.
    pub(super) fn field_value_member(
        &self,
        field: Cand,
        indexed: bool,
        kind: EdgeKind,
        name: &str,
    ) -> Option<Option<(Cand, &'static str)>> {
        use crate::analyze::returns::{Returned, element, returned};
        let file = &self.files[field.0 as usize];
        // A member of `owner` (a qualified name in the field's file).
        let member_of = |owner: &str| {
            let cands = self.candidates(kind, file.language, name)?;
            match self.own_type_member(&cands, field.0 as usize, owner, kind, false, true) {
                Some((c, _)) => Some(Some((c, "declared_type"))),
                None if file.lang == Lang::Go => Some(None),
                None => None,
            }
        };
        // Go: an embedded type, read as a field (`in.Stack.Text()`).
        if !indexed
            && (TYPE_KINDS.contains(&self.kind(field))
                || go_defined_type(self.kind(field), file.lang))
        {
            return member_of(self.qualified_name(field));
        }
        if !matches!(self.kind(field), "field" | "property" | "variable") {
            return None;
        }
        // (A variable made by a call, `x = Foo()`, is typed only by `python_var_member`.)
        let raw = file
            .names
            .declared_return(field.1 as usize)
            .filter(|t| called(t).is_none())?;
        let ty = if indexed { element(raw)? } else { raw };
        // Go: an anonymous struct's fields are the field's own members (`c.pool.size` of
        // `pool struct { start, size uint32 }`).
        // (Its signature is cut at the brace: `pool struct`.)
        if let Some(rest) = ty.strip_prefix("struct")
            && (rest.is_empty() || rest.trim_start().starts_with('{'))
        {
            return member_of(self.qualified_name(field));
        }
        match returned(ty, false)? {
            Returned::Type(ty) => self.declared_type_member(field.0 as usize, ty, kind, name),
            Returned::Own => None,
        }
    }

    /// A call on another call's result (`Config::load(p)?.validate()`, `b.with(x).build()`,
    /// `new Foo().run()`, `Foo().run()`), or on a local bound to one (`receiver_type` a call):
    /// a member of the type the inner call's target (`callee`) declares it returns
    /// (`return_type`), found as [`Self::declared_type_member`] finds a declared receiver's,
    /// from the file of the function that declares it. `None` when the inner call or what it
    /// returns is not known here, which leaves the call to the usual lookup.
    pub(super) fn call_result_member(
        &self,
        fi: usize,
        kind: EdgeKind,
        name: &str,
        chain: &crate::analyze::returns::Chained<'_>,
        callee: Option<Cand>,
    ) -> Option<Option<(Cand, &'static str)>> {
        use crate::analyze::returns::{Returned, returned};
        // A member of the type `owner` (a qualified name in file `at`) found among the
        // nearest candidates, or the usual lookup.
        let member_of = |at: u32, owner: &str| {
            let cands = self.candidates(kind, self.files[at as usize].language, name)?;
            let found = self.own_type_member(&cands, at as usize, owner, kind, false, true)?;
            Some(Some(found))
        };
        let found = if chain.new {
            self.declared_type_member(fi, chain.name, kind, name)?
        } else {
            let callee = callee?;
            let names = self.files[callee.0 as usize].names;
            let owner = self.parent(callee);
            let go_type = go_defined_type(self.kind(callee), self.files[callee.0 as usize].lang);
            if TYPE_KINDS.contains(&self.kind(callee)) || go_type {
                // `Foo(…)`: a class called makes an instance of it (Go: converts a value to
                // it, `socket.ControlMessage(b)`).
                member_of(callee.0, self.qualified_name(callee))?
            } else if self.kind(callee) == "constructor"
                || owner.is_some_and(|o| last_segment(o) == names.name(callee.1 as usize))
            {
                member_of(callee.0, owner?)?
            } else {
                let raw = names.declared_return(callee.1 as usize)?;
                // A Go field of a function type returns what the function does. A Go
                // variable's type (`var Ctxt *obj.Link`; a function type is not kept) is what
                // it holds, not what calling it returns.
                let raw = match self.kind(callee) {
                    "field" if go_func_type(raw) => std::borrow::Cow::Owned(go_func_result(raw)?),
                    "variable" if self.files[callee.0 as usize].lang == Lang::Go => return None,
                    _ => std::borrow::Cow::Borrowed(raw),
                };
                match returned(&raw, chain.unwrap)? {
                    Returned::Own => member_of(callee.0, owner?)?,
                    Returned::Type(ty) => {
                        self.declared_type_member(callee.0 as usize, ty, kind, name)?
                    }
                }
            }
        };
        Some(found.map(|(c, _)| (c, "return_type")))
    }

    /// Whether a call `q.name()` on a receiver that is not `self`, a type of the repository or
    /// an imported module names something the repository cannot define: a literal's method
    /// (`", ".join(xs)`), a global object's (`JSON.parse`), a member of a type no file defines
    /// (`HashMap::new()`, `Math.max(…)`, `Console.WriteLine`), or a standard method on a value
    /// whose type the file does not declare (`items.append(x)`, `opt.unwrap()`; see
    /// [`builtins`]). Such a call is `unresolved`, not the nearest definition of that name.
    pub(super) fn external_receiver(&self, fi: usize, q: &str, q_last: &str, name: &str) -> bool {
        let language = self.files[fi].language;
        let lang = self.files[fi].lang;
        // C++'s standard library (`std::move`, `std::make_shared`).
        if builtins::is_literal(q) || (lang == Lang::Cpp && (q == "std" || q.starts_with("std::")))
        {
            return true;
        }
        let names = self.files[fi].names;
        let plain = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        };
        if plain(q)
            && builtins::is_global_object(language, q)
            && names.imports_of(q).next().is_none()
        {
            return true;
        }
        // A type's name (`HashMap`, `Console`; not a constant's, `DEFAULT_CONFIG`) in a path
        // of names, where types are written so.
        let type_like = q_last.starts_with(|c: char| c.is_uppercase())
            && (q_last.len() == 1 || q_last.contains(|c: char| c.is_lowercase()))
            && q.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '\\' | '.'));
        if type_like
            && !matches!(lang, Lang::Go | Lang::C)
            && self
                .candidates(EdgeKind::Inherits, language, q_last)
                .is_none()
        {
            return true;
        }
        // A Rust module path (`util::join`) is not a value; a type's path is (`T::default()`
        // with no `default` of `T`'s here is derived or the standard library's).
        builtins::is_builtin_method(language, name)
            && !(lang == Lang::Rust && self.rust_module_path(fi, q, q_last))
    }

    /// Whether a call `m.f()` that found no target calls through a module the file imports
    /// and the repository lacks (`os.Create(p)`, `time.Now()`, `sys._getframe()`): what it
    /// returns is a value from outside the repository too, whose methods are none of the
    /// repository's (`t.Sub(u)` after `t := time.Now()`); also a bare call of a name so
    /// imported (`expect(x)` from `vitest`, then `.toBe(1)`). Go's packages and Python's
    /// modules are found by path here; a JavaScript or TypeScript package counts only where
    /// no directory is named like it — one the repository has may re-export what the lookup
    /// missed, so there a call on its result still goes by name.
    pub(super) fn outside_module_call(
        &self,
        fi: usize,
        kind: EdgeKind,
        name: &str,
        qualifier: Option<&str>,
    ) -> bool {
        let f = &self.files[fi];
        let script = matches!(f.lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx);
        if kind != EdgeKind::Calls || !(script || matches!(f.lang, Lang::Go | Lang::Python)) {
            return false;
        }
        // (A bare call of an imported function — `expect(x)` from `vitest` — too, but in Go,
        // whose imports bind packages.)
        let head = match qualifier {
            Some(q) if !q.contains(['(', '[', ' ']) => q.split('.').next().unwrap_or(q),
            None if f.lang != Lang::Go => name,
            _ => return false,
        };
        match f.names.import_bound(head) {
            None => false,
            Some((module, _)) if f.lang == Lang::Go => {
                module.is_none_or(|m| self.go_package(fi, m).is_none())
            }
            // A package imported by name (not a relative path) that no directory here is
            // named like: `vitest`, `@scope/name` (by `name`).
            Some((module, _)) if script => module.is_some_and(|m| {
                let mut parts = m.split('/');
                let package = match parts.next() {
                    Some(scope) if scope.starts_with('@') => parts.next(),
                    first => first,
                };
                !m.starts_with(['.', '/'])
                    && package.is_some_and(|p| !self.dir_names.contains(&segment_hash(p)))
            }),
            Some((module, name)) => self
                .python_module_file(f.path, &python_path(module, name, ""))
                .or_else(|| module.and_then(|m| self.python_module_file(f.path, m)))
                .is_none(),
        }
    }

    /// Whether type `own`, as file `fi` declares it, names a base the repository does not
    /// define: no type of the repository has that name. (A base the resolver fails to
    /// resolve, but that the repository may define — a PHP `\google\net\ProtocolMessage` —
    /// does not count.)
    pub(super) fn has_external_base(&self, fi: usize, own: &str) -> bool {
        let language = self.files[fi].language;
        self.files[fi]
            .names
            .heritage()
            .filter(|(ty, _, _)| *ty == own)
            .any(|(_, base, _)| {
                let base = base.rsplit(['.', ':', '\\']).next().unwrap_or(base);
                self.candidates(EdgeKind::Inherits, language, base)
                    .is_none()
            })
    }

    /// Whether type `ty` of file `fi` has, up its bases (as [`Self::inherited`] walks them),
    /// one the repository does not define — no type of its name at all, as for
    /// [`Self::has_external_base`]: `ExceptionWrapper` of PHPUnit extends its own
    /// `Exception`, which extends PHP's `RuntimeException`. (A base of a name the repository
    /// has that the lookup did not find ends that branch: it may be the repository's.)
    pub(super) fn has_external_ancestor(&self, fi: u32, ty: &str) -> bool {
        let language = self.files[fi as usize].language;
        let lang = self.files[fi as usize].lang;
        let outside = |base: &str| {
            // (Python's `object`, every class's root, adds no member of note.)
            if lang == Lang::Python && base == "object" {
                return Some(None);
            }
            let last = base.rsplit(['.', ':', '\\']).next().unwrap_or(base);
            let unknown = self
                .candidates(EdgeKind::Inherits, language, last)
                .is_none();
            unknown.then_some(Some(()))
        };
        // (PHP's classes are found by namespace, exactly: one not found, `\Exception` beside
        // an `App\Exception`, is outside.)
        let unfound = |b: Option<Cand>| (b.is_none() && lang == Lang::Php).then_some(());
        self.up_bases(fi, ty, outside, unfound).is_some()
    }

    /// An unqualified call in a method, in a language where it is a call on the instance
    /// (`size()` in a Java, C#, C++ or Ruby method means `this.size()`): a member of the
    /// method's own type or of its bases, as for `this.size()`. `None` leaves the call to
    /// the usual lookup by name (a static import, a free function, an outer class's method).
    pub(super) fn implicit_receiver(
        &self,
        fi: usize,
        own: &str,
        name: &str,
    ) -> Option<(Cand, &'static str)> {
        let cands = self.candidates(EdgeKind::Calls, self.files[fi].language, name)?;
        self.own_type_member(&cands, fi, own, EdgeKind::Calls, false, true)
    }
}
