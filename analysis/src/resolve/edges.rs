//! Rows of one file's edges: each raw edge resolved, in order, by [`Index::pick`] and the rules
//! before and after it.

use super::*;

impl<'a> Resolver<'a> {
    /// The resolved edge rows of file `fi`, whose analysis is `analysis`: each raw edge's
    /// answer from [`Index::pick`] (memoised per file), then the rules that need the whole
    /// file (imports' files, Go packages, guesses that a later edge of the file settles). One
    /// function, long, because those rules read and write the same per-file state (the memo,
    /// the guessed flags, the rows) in one pass over the edges.
    pub fn edges<'b>(&'b self, fi: usize, analysis: &'b FileAnalysis) -> Vec<EdgeRow<'b>> {
        let index = &self.index;
        let f: &'a FileInput<'a> = &index.files[fi];
        let file_ident = Ident::File(f.path);
        let own: HashMap<&str, u32> = analysis
            .symbols
            .iter()
            .enumerate()
            .map(|(si, s)| (&*s.qualified_name, si as u32))
            .collect();
        let symbol = |c: Cand| {
            (
                Ident::Symbol(index.path(c), index.qualified_name(c)),
                self.number(c),
            )
        };
        // `Index::pick`'s answers in this file, by what it reads of an edge: the kind, the
        // name, the qualifier and (with a qualifier) the caller's type. A file calls the same
        // names again and again (`new`, `clone`, `unwrap`, its own helpers), and a name with
        // many definitions is the most expensive to pick.
        let mut picked_before: PickMemo<'b> = HashMap::default();
        // A call on another call's result (`a.b().c()`), or on a local the result of a call
        // was bound to (`let c = a.b(); c.d()`, `receiver_type` `a.b()`), needs that call's
        // target: the edge of the same name and qualifier just after it at the same position
        // (a chain's calls all start where it starts), or the last before it. A call or
        // reference on a field read (`v.Args[0].Reg()`, `self.repo.find()`) needs the field's:
        // the reference to it from the same source (a source references a name once).
        let edges_in = &analysis.edges;
        // The file's calls by name, built for the first local bound to a call's result.
        let calls_named = std::cell::OnceCell::new();
        // The file's references by source and name, built for the first field read.
        let refs_named = std::cell::OnceCell::new();
        let inner: Vec<Option<(Link<'b>, Option<usize>)>> = edges_in
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (text, after) =
                    match (e.kind, e.receiver_type.as_deref(), e.qualifier.as_deref()) {
                        (EdgeKind::Calls | EdgeKind::References, None, Some(q)) => (q, true),
                        (EdgeKind::Calls | EdgeKind::References, Some(t), _) => (t, false),
                        _ => return None,
                    };
                let go_new = || {
                    (f.lang == Lang::Go)
                        .then(|| crate::analyze::returns::go_new(text))
                        .flatten()
                };
                let chain = match go_new().or_else(|| crate::analyze::returns::chained(text)) {
                    Some(chain) if e.kind == EdgeKind::Calls || !after => chain,
                    Some(_) => return None,
                    None => {
                        let read = crate::analyze::returns::field_read(text)?;
                        let refs = refs_named.get_or_init(|| {
                            let mut m: HashMap<(Option<&str>, &str), Vec<usize>> =
                                HashMap::default();
                            for (j, x) in edges_in.iter().enumerate() {
                                if x.kind == EdgeKind::References {
                                    m.entry((x.source.as_deref(), &*x.target_name))
                                        .or_default()
                                        .push(j);
                                }
                            }
                            m
                        });
                        let j = refs
                            .get(&(e.source.as_deref(), read.field))?
                            .iter()
                            .copied()
                            .find(|&j| {
                                // (PHP's `$this->repo` reads a field PHP's analysis
                                // records on `this`.)
                                let of = edges_in[j].qualifier.as_deref().map(str::trim);
                                j != i
                                    && of.map(|q| q.trim_start_matches('$'))
                                        == Some(read.of.trim_start_matches('$'))
                            })?;
                        let link = Link::Field {
                            indexed: read.indexed,
                        };
                        return Some((link, Some(j)));
                    }
                };
                if chain.new {
                    return Some((Link::Call(chain), None));
                }
                let is_inner = |x: &RawEdge| {
                    let q = x.qualifier.as_deref().map(str::trim);
                    x.kind == EdgeKind::Calls
                        && *x.target_name == *chain.name
                        && (q == chain.qualifier
                            || (q.is_some()
                                && q == chain.qualifier.and_then(|q| q.strip_suffix('?'))))
                };
                let j = if after {
                    (i + 1..edges_in.len().min(i + 16)).find(|&j| {
                        let x = &edges_in[j];
                        x.line == e.line && x.character == e.character && is_inner(x)
                    })
                } else {
                    let calls = calls_named.get_or_init(|| {
                        let mut m: HashMap<&str, Vec<usize>> = HashMap::default();
                        for (j, x) in edges_in.iter().enumerate() {
                            if x.kind == EdgeKind::Calls {
                                m.entry(&*x.target_name).or_default().push(j);
                            }
                        }
                        m
                    });
                    let named = calls.get(chain.name).map_or(&[][..], |v| &v[..]);
                    named[..named.partition_point(|&j| j < i)]
                        .iter()
                        .rev()
                        .copied()
                        .find(|&j| is_inner(&edges_in[j]))
                };
                Some((Link::Call(chain), j))
            })
            .collect();
        NAMED_TYPES.with(|cell| {
            let mut named = cell.borrow_mut();
            named.0 = index.id;
            named.1 = fi as u32;
            let set = &mut named.2;
            set.clear();
            NAMED_TYPE_PICKS.with(|m| m.borrow_mut().clear());
            let mut add = |n: &str| {
                set.insert(segment_hash(n));
            };
            for (e, inner) in analysis.edges.iter().zip(&inner) {
                match e.kind {
                    EdgeKind::Calls => {
                        if let Some(q) = e.qualifier.as_deref() {
                            add(q.rsplit([':', '.']).next().unwrap_or(q));
                        }
                    }
                    _ => {
                        add(&e.target_name);
                        if let Some(alias) = e.alias.as_deref() {
                            add(alias);
                        }
                    }
                }
                // (A receiver type that is a call, `Config::load(p)?`, names no type.)
                if let Some(t) = e.receiver_type.as_deref()
                    && inner.is_none()
                {
                    add(t);
                }
            }
            for s in analysis
                .symbols
                .iter()
                .filter(|s| TYPE_KINDS.contains(&s.kind))
            {
                add(&s.name);
            }
        });
        let traits = std::cell::OnceCell::new();
        type Found = Option<Option<(Cand, &'static str)>>;
        let mut returned_before: HashMap<(EdgeKind, &str, &str, bool, Option<Cand>, bool), Found> =
            HashMap::default();
        let mut typed_before: HashMap<(EdgeKind, &str, &str), Found> = HashMap::default();
        let mut vars_before: HashMap<(EdgeKind, &str, &str), Found> = HashMap::default();
        let mut fields_before: HashMap<(EdgeKind, &str, Cand, bool), Found> = HashMap::default();
        let mut targets: Vec<Option<Cand>> = vec![None; edges_in.len()];
        let mut rows: Vec<Option<EdgeRow<'b>>> = (0..edges_in.len()).map(|_| None).collect();
        // Whether each edge resolved is a call on a value of a type from outside the
        // repository (`unresolved` for that reason): a call on its result is too.
        let mut outside: Vec<bool> = vec![false; edges_in.len()];
        // Whether each edge resolved is a call on a receiver whose target was guessed by name
        // (`ambiguous`, `unique_name`).
        let mut guessed: Vec<bool> = vec![false; edges_in.len()];
        let mut resolve_at = |i: usize,
                              targets: &[Option<Cand>],
                              outside: &[bool],
                              guessed: &[bool]| {
            let e = &edges_in[i];
            // The source: a symbol of this file, or (for `impl Trait for T` with `T` defined
            // elsewhere) the type it names, or the file.
            let (source, source_number) = match e.source.as_deref() {
                None => (file_ident, None),
                Some(q) => match own.get(q) {
                    Some(&si) => {
                        let (id, n) = symbol((fi as u32, si));
                        (id, Some(n))
                    }
                    None => match index.pick(fi, None, EdgeKind::Implements, last_segment(q), None)
                    {
                        Some((c, _)) => {
                            let (id, n) = symbol(c);
                            (id, Some(n))
                        }
                        None => (file_ident, None),
                    },
                },
            };
            // What the edge names, looked up as an edge of `kind`: the target and whether the
            // receiver's type was found outside the repository.
            let mut lookup = |kind: EdgeKind| {
                // A Go method's calls on its receiver (`s.notFound()` in `func (s *Server) …`)
                // are calls on `self`; the stored qualifier stays as written.
                let qualifier = match (kind, e.source.as_deref(), e.qualifier.as_deref()) {
                    (EdgeKind::Calls, Some(q), Some(written))
                        if f.lang == Lang::Go
                            && own.get(q).and_then(|&si| {
                                go_receiver(&analysis.symbols[si as usize].signature)
                            }) == Some(written) =>
                    {
                        Some("self")
                    }
                    (_, _, written) => written,
                };
                // A call on a receiver of a declared type is that type's member; on a call's
                // result, the member of the type that call returns.
                // The member on the receiver's declared type (remembered per file).
                let mut declared = |ty: &'b str| {
                    *typed_before
                        .entry((kind, &*e.target_name, ty))
                        .or_insert_with(|| index.declared_type_member(fi, ty, kind, &e.target_name))
                };
                let typed = match (&inner[i], kind, e.receiver_type.as_deref(), qualifier) {
                    // Both remembered per file: a builder chain or a declared type's calls repeat.
                    // The result of an outside type's method (`f.debug_struct("X")`, then
                    // `.field(…)`, `.finish()`) is an outside value, unless the method hands out
                    // what the value holds (`v.first()`, `m.lock()`: the element's own type).
                    (Some((Link::Call(chain), Some(j))), ..)
                        if outside[*j] && !crate::analyze::returns::hands_out(chain.name) =>
                    {
                        Some(None)
                    }
                    // A field of an outside type's value holds another outside value. (A
                    // field a type of the repository lacks, as Go's lookup found it, may be
                    // a build variant's or an embedded type's: looked up by name.)
                    (Some((Link::Field { .. }, Some(j))), ..) if outside[*j] => {
                        // (A receiver type that is a call or field read found outside is.)
                        let foreign = match edges_in[*j].receiver_type.as_deref() {
                            Some(t) if inner[*j].is_none() => {
                                matches!(index.declared_type(fi, t), Some(None))
                            }
                            _ => true,
                        };
                        foreign.then_some(None)
                    }
                    (Some((Link::Field { indexed }, j)), ..) => {
                        let field = j.and_then(|j| targets[j]).filter(|&c| {
                            e.receiver_type.is_none()
                                || matches!(index.kind(c), "field" | "property" | "variable")
                        });
                        match field {
                            // A receiver type that reads as a field (`pkg.Type`) but is none.
                            None => match e.receiver_type.as_deref() {
                                Some(ty) if !reads_a_field(ty) => declared(ty),
                                _ => None,
                            },
                            Some(field) => {
                                let key = (kind, &*e.target_name, field, *indexed);
                                let found = *fields_before.entry(key).or_insert_with(|| {
                                    index.field_value_member(field, *indexed, kind, &e.target_name)
                                });
                                // (A field found by name may not be the value's.)
                                match found {
                                    Some(None) if j.is_some_and(|j| guessed[j]) => None,
                                    found => found,
                                }
                            }
                        }
                    }
                    (Some((Link::Call(chain), j)), ..) => {
                        let callee = j.and_then(|j| targets[j]);
                        let key = (
                            kind,
                            &*e.target_name,
                            chain.name,
                            chain.unwrap,
                            callee,
                            chain.new,
                        );
                        let found = *returned_before.entry(key).or_insert_with(|| {
                            index.call_result_member(fi, kind, &e.target_name, chain, callee)
                        });
                        // A Go type lacking the member says the call is none of the repository's
                        // (`declared_type_member`) — unless the inner call's target was a guess,
                        // whose type may not be the value's.
                        match found {
                            Some(None) if f.lang == Lang::Go && j.is_some_and(|j| guessed[j]) => {
                                None
                            }
                            found => found,
                        }
                    }
                    // A local bound to a field read not found above: by name.
                    (None, EdgeKind::Calls | EdgeKind::References, Some(ty), _)
                        if reads_a_field(ty) =>
                    {
                        None
                    }
                    (None, EdgeKind::Calls | EdgeKind::References, Some(ty), q)
                        if !q.is_some_and(|q| SELF_WORDS.contains(&q)) =>
                    {
                        declared(ty)
                    }
                    // Go: on a package-level variable of this package or an imported one.
                    (None, EdgeKind::Calls | EdgeKind::References, None, Some(q))
                        if f.lang == Lang::Go && q != "self" =>
                    {
                        *vars_before
                            .entry((kind, &*e.target_name, q))
                            .or_insert_with(|| index.go_var_member(fi, q, kind, &e.target_name))
                    }
                    // Python: on a module variable made by a call (the file's or imported).
                    (None, EdgeKind::Calls | EdgeKind::References, None, Some(q))
                        if f.lang == Lang::Python =>
                    {
                        *vars_before
                            .entry((kind, &*e.target_name, q))
                            .or_insert_with(|| {
                                index.python_var_member(fi, q.trim(), kind, &e.target_name)
                            })
                    }
                    _ => None,
                };
                // An unqualified call in a method of a language that calls its own members
                // without `this` is first looked for on the instance.
                let on_instance = match (kind, e.source.as_deref(), qualifier) {
                    (EdgeKind::Calls, Some(q), None) if implicit_this(f.lang) => own
                        .get(q)
                        .filter(|&&si| {
                            matches!(analysis.symbols[si as usize].kind, "method" | "constructor")
                        })
                        .and_then(|_| q.rsplit_once('.'))
                        .and_then(|(ty, _)| index.implicit_receiver(fi, ty, &e.target_name)),
                    _ => None,
                };
                // A renamed import's name is looked up as what it imports: `b()` after `from m
                // import a as b` as `a()`, `np.array()` after `import numpy as np` as
                // `numpy.array()`, `E::new()` after `use a::Entry as E` as `Entry::new()`.
                let renamed = |n: &str| {
                    f.names
                        .renames()
                        .then(|| f.names.renamed(n))
                        .flatten()
                        .filter(|o| *o != "*")
                };
                let (renamed_name, renamed_qualifier) = match (kind, qualifier) {
                    (EdgeKind::Imports, _) => (None, None),
                    // PHP's names go through their `use` in `pick` (`Index::php_class`): `new
                    // FilterDirectory()` after `use …\Filter\Directory as FilterDirectory` is
                    // that `Directory`, not the file's own namespace's.
                    _ if f.lang == Lang::Php => (None, None),
                    (_, None) => (renamed(&e.target_name), None),
                    // Python's and Go's receivers are looked up through their import in `pick`,
                    // which tells two aliases of one name apart (`flags as compute_flags`) and
                    // finds a Go package by its path (`jsonrpc2 "…/jsonrpc2_v2"`).
                    (_, Some(_)) if matches!(f.lang, Lang::Python | Lang::Go) => (None, None),
                    (_, Some(q)) => {
                        let head_end = q.find(['.', ':']).unwrap_or(q.len());
                        let q = renamed(&q[..head_end]).map(|o| format!("{o}{}", &q[head_end..]));
                        (None, q)
                    }
                };
                let picked = match typed {
                    // A Rust method on a value of a type from outside the repository may be an
                    // extension trait's that the file imports (`stream.try_collect()` with
                    // `use futures::TryStreamExt`).
                    Some(None) => index.imported_trait_member(
                        traits.get_or_init(|| index.imported_traits(fi)),
                        kind,
                        &e.target_name,
                    ),
                    Some(found) => found,
                    None if renamed_name.is_some() || renamed_qualifier.is_some() => on_instance
                        .or_else(|| {
                            index.pick(
                                fi,
                                e.source.as_deref(),
                                kind,
                                renamed_name.unwrap_or(&e.target_name),
                                renamed_qualifier.as_deref().or(qualifier),
                            )
                        }),
                    None => on_instance.or_else(|| {
                        let source = e.source.as_deref();
                        // `self.x.f()` is never its caller `f` itself (`Index::pick`'s
                        // `not_caller`), so its answer depends on the caller.
                        let delegates = kind == EdgeKind::Calls
                            && qualifier.is_some_and(|q| {
                                let q = q.trim();
                                q.starts_with("self.") || q.starts_with("this.")
                            });
                        let owner = if delegates || enclosing_only(kind, f.lang, qualifier) {
                            source
                        } else {
                            qualifier
                                .and(source.and_then(|s| s.rsplit_once('.')))
                                .map(|(o, _)| o)
                        };
                        let key = (kind, &*e.target_name, qualifier, owner);
                        *picked_before.entry(key).or_insert_with(|| {
                            index.pick(fi, source, kind, &e.target_name, qualifier)
                        })
                    }),
                };
                (qualifier, picked, matches!(typed, Some(None)))
            };
            let (qualifier, mut picked, typed_outside) = lookup(e.kind);
            // Rust: a path used as a value (`u64::MAX`, `Ordering::Less`, `T::ZERO`,
            // `Into::into`, `Self::DEFAULT`) is the member of the type, module or crate its
            // path names — else of a primitive, the standard library, a generic parameter, a
            // trait or a crate not indexed: no other definition of that name.
            if f.lang == Lang::Rust
                && e.kind == EdgeKind::References
                && qualifier.is_some_and(|q| !matches!(q.trim(), "self" | "this"))
                && picked.is_some_and(|(_, how)| {
                    matches!(how, "same_file" | "unique_name" | "ambiguous")
                })
            {
                picked = None;
            }
            // A method or function named as a value, not called: on a receiver
            // (`self.on_click`, `this.handleClick`, Rust's `Self::parse`, Java's `this::visit`,
            // Go's `s.serve`) or written alone (`register(handler)`, C's `.read = my_read`;
            // the analysis keeps only the file's functions and imported names). Where
            // references find no field or type of the name but by a guess — or, for a name
            // alone, only a field or variable — it is looked up as a call on the same
            // receiver, or a bare call, would be, and taken only when that finds a method or
            // function on the receiver's type, an import or a path's module (a name alone: in
            // the file or an import), not by a guess. Not Rust's `self.x`, always a field; nor,
            // on a receiver, the source itself: a getter reads the field of its own name (`fn
            // size(&self) { self.size }`). (A reference without a qualifier is one written
            // alone but in Rust, PHP and Go, whose field reads may have none.)
            let alone = e.qualifier.is_none() && e.receiver_type.is_none() && inner[i].is_none();
            let applies = match alone {
                true => match f.lang {
                    Lang::Python | Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::C => {
                        true
                    }
                    // (A name alone may be a value's member in Go and C++: taken when no
                    // field or type of the name answered but by a guess — or, in Go, by
                    // another file of the package, which may be for another platform or
                    // another `testdata` program: the file's own function comes first. Rust's
                    // field reads keep no qualifier at all: only when none answered, or
                    // `x.data` would become a function `data` of the file.)
                    Lang::Go | Lang::Cpp => picked.is_none_or(|(_, how)| {
                        matches!(how, "ambiguous" | "unique_name" | "same_package")
                    }),
                    Lang::Rust => picked.is_none(),
                    _ => false,
                },
                false => !(f.lang == Lang::Rust && qualifier.is_some_and(|q| q.trim() == "self")),
            };
            let taken = |c: Cand, how: &str| match alone {
                true => matches!(how, "same_file" | "import") && index.kind(c) == "function",
                false => {
                    let found = match how {
                        "same_class" | "inherited" | "declared_type" | "return_type" | "import" => {
                            true
                        }
                        // (Go: a method expression, `T.m`; `d.Name.Name` reads a value, whose
                        // type is not the one named `Name`.)
                        "qualified" => {
                            f.lang != Lang::Go
                                || qualifier.is_some_and(|q| {
                                    !q.contains('.') && q.starts_with(char::is_uppercase)
                                })
                        }
                        _ => false,
                    };
                    found
                        && matches!(index.kind(c), "method" | "function")
                        && Some(symbol(c).1) != source_number
                }
            };
            if e.kind == EdgeKind::References
                && applies
                && picked.is_none_or(|(c, how)| {
                    matches!(how, "ambiguous" | "unique_name" | "same_package")
                        || (alone && matches!(index.kind(c), "field" | "property" | "variable"))
                })
                && let (_, Some((c, how)), _) = lookup(EdgeKind::Calls)
                && taken(c, how)
            {
                picked = Some((c, how));
            }
            // JavaScript, TypeScript: `exports.x`, `module.exports.x` is the file's own
            // export — a definition in the file, else its top-level `x`, or nothing (compiled
            // CommonJS names every export first, `exports.a = exports.b = void 0;`) — never
            // another file's namesake.
            if matches!(f.lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
                && matches!(qualifier.map(str::trim), Some("exports" | "module.exports"))
            {
                picked = picked.filter(|&(c, _)| c.0 as usize == fi).or_else(|| {
                    // (`exports.run = run;`: the file's top-level `run`, a function too.)
                    let &si = own.get(&*e.target_name)?;
                    Some(((fi as u32, si), "same_file"))
                });
            }
            let target_cand = picked.map(|(c, _)| c);
            let (target, target_number, resolution) = match picked {
                Some((c, how)) => {
                    let (id, n) = symbol(c);
                    (Some(id), Some(n), how)
                }
                None => match index.imported_file(fi, e) {
                    Some((p, how)) => (Some(Ident::File(p)), None, how),
                    None => (None, None, "unresolved"),
                },
            };
            let row = EdgeRow {
                kind: e.kind,
                source,
                source_number,
                source_qname: e.source.as_deref(),
                source_path: f.path,
                line: e.line,
                character: e.character,
                target_name: &e.target_name,
                target_qualifier: e.qualifier.as_deref(),
                receiver_type: e.receiver_type.as_deref(),
                alias: e.alias.as_deref(),
                target,
                target_number,
                resolution,
                overload_guess: e.kind == EdgeKind::Calls
                    && target_cand.is_some_and(|c| index.overloads.contains(&c)),
            };
            (
                row,
                target_cand,
                picked.is_none()
                    && (typed_outside
                        || index.outside_module_call(fi, e.kind, &e.target_name, qualifier)),
            )
        };
        // Each edge after the one it needs ([`inner`]): a chain's links are resolved from
        // its first call on, a local's call before the uses of the local. A cycle (a local
        // bound to a call on itself, `let x = x.next()`) or a long chain is cut short.
        let mut stack = Vec::new();
        for start in (0..edges_in.len()).rev() {
            stack.clear();
            stack.push(start);
            while let Some(&i) = stack.last() {
                if rows[i].is_some() {
                    stack.pop();
                    continue;
                }
                if let Some((_, Some(j))) = inner[i]
                    && rows[j].is_none()
                    && !stack.contains(&j)
                    && stack.len() < 64
                {
                    stack.push(j);
                    continue;
                }
                let (row, target, from_outside) = resolve_at(i, &targets, &outside, &guessed);
                guessed[i] = edges_in[i].qualifier.is_some()
                    && matches!(row.resolution, "ambiguous" | "unique_name" | "same_file");
                rows[i] = Some(row);
                targets[i] = target;
                outside[i] = from_outside;
                stack.pop();
            }
        }
        rows.into_iter().flatten().collect()
    }
}
