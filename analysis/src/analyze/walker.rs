//! The walk over one syntax tree: definitions with their scopes and qualified names, and the
//! raw edges (calls, references, imports, inheritance) each scope writes, with the types it
//! can tell.

use super::*;

#[derive(Clone)]
pub(super) struct Scope {
    /// Index into `out.symbols` of the enclosing symbol.
    pub(super) symbol: Option<usize>,
    /// Qualified-name prefix for children (a symbol's qname, or an `impl` target type).
    /// Shared: every node's children get a copy of their scope.
    pub(super) prefix: Option<Rc<str>>,
    /// True inside a type body (functions become methods).
    pub(super) in_type: bool,
    /// Publicity inherited by members (trait items, enum variants, interface members).
    pub(super) public_members: Option<bool>,
    /// The symbol whose locals' types a name here sees: the enclosing one, but a variable's
    /// or constant's value runs where it is declared (a Python module's `_inst = Random()`
    /// then `seed = _inst.seed`: `_inst` is the module's, not the variable `seed`'s).
    pub(super) types: Option<usize>,
}

impl Scope {
    /// Inside a method (the scope's prefix is the method's qualified name): its type's name,
    /// last segment only (`Inner` for `Outer.Inner.run`).
    pub(super) fn method_type(&self) -> Option<&str> {
        let (ty, _) = self.prefix.as_deref()?.rsplit_once('.')?;
        Some(last_name(ty))
    }
}

/// The last segment of a qualified name.
pub(super) fn last_name(qname: &str) -> &str {
    qname.rsplit('.').next().unwrap_or(qname)
}

pub(super) struct Walker<'s> {
    pub(super) lang: Lang,
    pub(super) src: &'s str,
    pub(super) line_starts: Vec<usize>,
    pub(super) out: FileAnalysis,
    pub(super) seen_qnames: rustc_hash::FxHashMap<String, usize>,
    /// Reference targets already recorded, by source: a name, and the qualifiers it was read
    /// with (a reference is kept once per source, name and qualifier: `a.count` and
    /// `b.count` may be two types' fields).
    pub(super) seen_refs: rustc_hash::FxHashMap<
        Option<Arc<str>>,
        rustc_hash::FxHashMap<Box<str>, Vec<Option<Box<str>>>>,
    >,
    pub(super) complexity: complexity::Tracker,
    /// The visited node's depth and the complexity nesting its children have.
    pub(super) at: (usize, u32),
    /// Declared types of receivers ([`RawEdge::receiver_type`]); see [`Types`].
    pub(super) types: Types,
    /// Names written alone as values (`register(handler)`): their bytes and the enclosing
    /// symbol, kept as references once the file's functions and imports are known
    /// ([`Walker::settle_values`]).
    pub(super) values: Vec<(std::ops::Range<usize>, Option<usize>)>,
    /// Python: the names the module's top-level `def`s and `class`es define, listed when its
    /// first variable is met ([`Walker::python_defines`]).
    pub(super) python_defs: Option<rustc_hash::FxHashSet<&'s str>>,
    /// C and C++: the annotation macros blanked out of the parsed text ([`macros`]).
    pub(super) blanked: Option<macros::Blanked>,
}

/// What the walk learns of declared types: parameters' and locals' by the function declaring
/// them, fields' by their type's name, and the calls whose receiver is a field, settled once
/// the whole file is read (a Java field may be declared after the methods using it).
#[derive(Default)]
pub(super) struct Types {
    /// Enclosing symbol → name → type name.
    pub(super) locals:
        rustc_hash::FxHashMap<Option<usize>, rustc_hash::FxHashMap<Box<str>, Box<str>>>,
    /// Locals declared but not yet in scope: (the byte their type or value ends at, the
    /// enclosing symbol, name, type name). A name is bound after what gives its type, so
    /// the value does not see it: `assert` in Go's `assert := assert.New(t)` is the package,
    /// `s` in Python's `s = s.strip()` the one before. (Not in JavaScript or Ruby: see
    /// [`Walker::bind_types`].)
    /// `None` unbinds: a Go name declared again from a value of unknown type
    /// (`v := x.(type)` in a case of several types) no longer has its earlier type.
    pub(super) pending: Vec<(usize, Option<usize>, Box<str>, Option<Box<str>>)>,
    /// Enclosing symbol → name → the type a parameter or local is declared with, as written
    /// (`[]*Value`, `&[Item]`, `list[Item]`): what a loop over it takes elements of.
    pub(super) declared:
        rustc_hash::FxHashMap<Option<usize>, rustc_hash::FxHashMap<Box<str>, Box<str>>>,
    /// (type's last name segment, field name) → the field's type name.
    pub(super) fields: rustc_hash::FxHashMap<(Box<str>, Box<str>), Box<str>>,
    /// (edge index, type's last name segment, field name) of calls on a field.
    pub(super) on_fields: Vec<(usize, Box<str>, Box<str>)>,
    /// Ruby: the locals each method (or the file's top level) has declared so far; a bare
    /// name that is none of them is a call (`total` for `self.total`).
    pub(super) ruby_locals: rustc_hash::FxHashMap<Option<usize>, rustc_hash::FxHashSet<Box<str>>>,
}

impl<'s> Walker<'s> {
    pub(super) fn text(&self, n: Node) -> &'s str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    /// (line 1-based, character 0-based in Unicode scalar values) of a byte offset.
    pub(super) fn position(&self, byte: usize) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= byte).max(1) - 1;
        let start = self.line_starts[line];
        let chars = self
            .src
            .get(start..byte)
            .map(|s| s.chars().count())
            .unwrap_or(byte - start);
        (line as u32 + 1, chars as u32)
    }

    pub(super) fn walk(&mut self, root: Node<'_>) {
        // Explicit stack: (node, scope, depth). Children are pushed in reverse so they are
        // visited in document order (which keeps duplicate-name suffixes stable).
        let top = Scope {
            symbol: None,
            prefix: None,
            in_type: false,
            public_members: None,
            types: None,
        };
        // Stack entries: the node, its scope, depth, complexity nesting and place among its
        // parent's children in `path`.
        let mut stack = vec![(root, top, 0usize, 0u32, 0usize)];
        // The visited node's ancestors and itself, with their children (doc comments and C++
        // access labels look back through siblings): popped in document order, so the path
        // is the previous path cut to this node's depth.
        let mut path = rules::Path::default();
        // C#'s file-scoped `namespace N;` encloses the declarations after it, its siblings.
        let mut file_scope: Option<Scope> = None;
        while let Some((node, mut scope, depth, nesting, place)) = stack.pop() {
            if depth > MAX_DEPTH {
                continue;
            }
            if depth == 1
                && let Some(s) = &file_scope
            {
                scope = s.clone();
            }
            // Nothing under an opaque node (a comment, a macro's tokens) is analysed: its
            // children are neither listed nor visited.
            let opaque = rules::opaque(self.lang, kind_of(node));
            let children = path.enter(node, depth, place, !opaque);
            let parent = depth.checked_sub(1).map(|i| path.nodes()[i]);
            let symbols = &mut self.out.symbols;
            let inner = self
                .complexity
                .visit(node, parent, depth, nesting, self.src, |i, c| {
                    symbols[i].complexity = Some(c)
                });
            self.at = (depth, inner);
            let child_scope = self.visit(path.up(), node, &scope);
            if depth == 1 && kind_of(node) == "file_scoped_namespace_declaration" {
                file_scope = Some(child_scope.clone());
            }
            for i in children.rev() {
                let child = path.siblings()[i];
                if child.is_named() {
                    stack.push((child, child_scope.clone(), depth + 1, inner, i));
                }
            }
        }
        let symbols = &mut self.out.symbols;
        self.complexity
            .close_from(0, &mut |i, c| symbols[i].complexity = Some(c));
    }

    /// Handle one node; return the scope its children see.
    pub(super) fn visit<'t>(&mut self, up: Up<'_, 't>, node: Node<'t>, scope: &Scope) -> Scope {
        if !self.types.pending.is_empty() {
            self.bring_into_scope(node.start_byte());
        }
        self.bind_types(node, scope);
        self.edges_at(up, node, scope);
        if let Some(prefix) = rules::scope_prefix(self.lang, node, self.src) {
            // e.g. a Rust `impl Type` block: members are qualified by the type.
            let prefix: Rc<str> = match &scope.prefix {
                Some(p) => format!("{p}.{prefix}").into(),
                None => prefix.into(),
            };
            return Scope {
                symbol: scope.symbol,
                prefix: Some(prefix),
                in_type: true,
                public_members: rules::impl_members_public(self.lang, node),
                types: scope.types,
            };
        }
        let Some(kind) = rules::def_kind(self.lang, up, node, self.src) else {
            return scope.clone();
        };
        // `self.name = …`, `this.name = …` in a method.
        if kind == "field"
            && (matches!(
                field_of(node, "left").map(kind_of),
                Some("attribute" | "member_expression")
            ) || matches!(kind_of(node), "required_parameter" | "optional_parameter"))
        {
            self.instance_attribute(up, node, scope);
            return scope.clone();
        }
        let names = rules::def_names(self.lang, node);
        let mut last = None;
        for name_node in names {
            let name = rules::name_text(self.lang, self.text(name_node));
            // Go's and Rust's blank name declares nothing that can be named: a padding
            // field, `var _ io.Reader = (*T)(nil)`, stringer's `func _()`, `const _: () =
            // assert!(…)` (their uses are the enclosing scope's).
            if name.is_empty() || (name == "_" && matches!(self.lang, Lang::Go | Lang::Rust)) {
                continue;
            }
            // Python: a module's placeholder for what it defines below (`Enum = None`, then
            // `class Enum`) is no symbol: the definition keeps its name (not `Enum#2`).
            if kind == "variable"
                && self.lang == Lang::Python
                && self.python_defines(up, node, name)
            {
                continue;
            }
            last = Some(self.add_symbol(up, node, kind, name.to_string(), scope));
        }
        match last {
            Some(idx) => {
                let sym = &self.out.symbols[idx];
                let kind = sym.kind;
                Scope {
                    symbol: Some(idx),
                    prefix: Some(sym.qualified_name.as_ref().into()),
                    in_type: TYPE_KINDS.contains(&kind),
                    public_members: rules::members_public(self.lang, kind, sym.is_public),
                    types: match kind {
                        "variable" | "constant" => scope.types,
                        _ => Some(idx),
                    },
                }
            }
            None => scope.clone(),
        }
    }

    /// Python: whether the module holding the top-level assignment `node` defines `name`
    /// with a `def` or `class` of its own (decorated or not).
    pub(super) fn python_defines<'t>(
        &mut self,
        up: Up<'_, 't>,
        node: Node<'t>,
        name: &str,
    ) -> bool {
        if self.python_defs.is_none() {
            let mut defs = rustc_hash::FxHashSet::default();
            if let Some(module) = up.parent(node).and_then(|s| up.parent(s)) {
                let mut cursor = module.walk();
                for child in module.named_children(&mut cursor) {
                    let def = match kind_of(child) {
                        "decorated_definition" => field_of(child, "definition"),
                        _ => Some(child),
                    };
                    if let Some(def) = def
                        .filter(|d| {
                            matches!(kind_of(*d), "function_definition" | "class_definition")
                        })
                        .and_then(|d| field_of(d, "name"))
                    {
                        defs.insert(self.text(def));
                    }
                }
            }
            self.python_defs = Some(defs);
        }
        self.python_defs.as_ref().is_some_and(|d| d.contains(name))
    }

    /// `self.name = …` in a method of `Cls`, `this.name = …` in a JS/TS class's method
    /// ([`rules::instance_attribute`]), a TypeScript constructor's `private name: T`
    /// ([`rules::parameter_property`]): field `Cls.name`,
    /// unless the class already has a symbol of that name (declared in its body, or
    /// assigned earlier).
    pub(super) fn instance_attribute<'t>(&mut self, up: Up<'_, 't>, node: Node<'t>, scope: &Scope) {
        let Some(class) = scope
            .prefix
            .as_deref()
            .and_then(|p| p.rsplit_once('.'))
            .map(|(class, _)| Rc::<str>::from(class))
        else {
            return;
        };
        let Some(name_node) = rules::def_names(self.lang, node).into_iter().next() else {
            return;
        };
        let name = rules::name_text(self.lang, self.text(name_node)).to_string();
        if name.is_empty() || self.seen_qnames.contains_key(&format!("{class}.{name}")) {
            return;
        }
        let in_class = Scope {
            symbol: None,
            prefix: Some(class),
            in_type: true,
            public_members: None,
            types: None,
        };
        self.add_symbol(up, node, "field", name, &in_class);
    }

    pub(super) fn add_symbol<'t>(
        &mut self,
        up: Up<'_, 't>,
        node: Node<'t>,
        kind: &'static str,
        name: String,
        scope: &Scope,
    ) -> usize {
        let kind = match kind {
            "function"
                if scope.in_type || rules::own_prefix(self.lang, node, self.src).is_some() =>
            {
                "method"
            }
            k => k,
        };
        let own = rules::own_prefix(self.lang, node, self.src);
        let parent = match (&scope.prefix, own) {
            (Some(p), Some(o)) => Some(format!("{p}.{o}")),
            (Some(p), None) => Some(p.to_string()),
            (None, o) => o,
        };
        let mut qualified_name = match &parent {
            Some(p) => format!("{p}.{name}"),
            None => name.clone(),
        };
        let seen = self.seen_qnames.entry(qualified_name.clone()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            qualified_name = format!("{qualified_name}#{seen}");
        }
        // A declaration starts with the annotation macros before it on its line.
        let start = match &self.blanked {
            Some(b) => b.annotated_start(self.src, node.start_byte()),
            None => node.start_byte(),
        };
        let (start_line, start_character) = self.position(start);
        // Ranges end at the last non-whitespace byte (preprocessor nodes include the newline).
        let text = self.text(node);
        let end = node.start_byte() + text.trim_end().len();
        let (end_line, end_character) = self.position(end.max(node.start_byte()));
        let mut signature = rules::signature(self.lang, node, self.src);
        if start < node.start_byte() {
            let macros = self.src[start..node.start_byte()].split_whitespace();
            signature = macros.chain([&*signature]).collect::<Vec<_>>().join(" ");
        }
        let doc = rules::doc_comment(self.lang, up, node, kind, self.src);
        let is_public = scope
            .public_members
            .unwrap_or_else(|| rules::is_public(self.lang, up, node, &name, self.src));
        // Scored by `self.complexity` as the walk goes through the body.
        let is_function = matches!(kind, "function" | "method" | "constructor");
        let complexity = is_function.then_some(0);
        self.out.symbols.push(Symbol::new(SymbolParts {
            kind,
            name: &name,
            qualified_name: &qualified_name,
            parent: parent.as_deref(),
            start: (start_line, start_character),
            end: (end_line, end_character),
            signature: &signature,
            doc: doc.as_deref(),
            is_public,
            complexity,
        }));
        let idx = self.out.symbols.len() - 1;
        if is_function {
            let (depth, base) = self.at;
            self.complexity.open(idx, depth, base);
        }
        idx
    }

    /// Record the types node `node` declares names with ([`rules::typed_bindings`]).
    pub(super) fn bind_types(&mut self, node: Node<'_>, scope: &Scope) {
        for b in rules::typed_bindings(self.lang, node, self.src, scope.in_type) {
            let ty = match (b.element, b.from_value) {
                (true, _) => None,
                (false, true) => rules::value_type(self.lang, b.ty, self.src),
                (false, false) => Some(b.ty),
            };
            let value = b.from_value && !b.element;
            // No type node: a Go value may still be a `NewT(…)` constructor's.
            let made_by = match ty {
                None if value => rules::go_constructor_type(self.lang, b.ty, self.src),
                _ => None,
            };
            // Else the value may be a call's result (`let cfg = Config::load(p)?;`): the
            // receiver type is that call as written, its type known once it is resolved; or
            // a loop's element, of a field (`v.Args[]`).
            let call = match (ty, &made_by) {
                (None, None) if value => returned_by(self.lang, self.text(b.ty)),
                (None, None) if b.element => element_of(self.text(b.ty))
                    .or_else(|| self.element_of_declared(self.text(b.ty), scope)),
                _ => None,
            };
            // A parameter's or local's written type, kept as written for loops over it: only
            // one that may be a collection's (`[]T`, `Vec<T>`, `T[]`: [`returns::element`]
            // reads only those), so most bindings allocate nothing here; another type
            // declared for the name forgets it.
            if !b.from_value && !b.field {
                let name = bare_name(self.text(b.name));
                if self.text(b.ty).contains(['[', '<']) {
                    // (TypeScript's annotation starts with its `:`.)
                    let written = collapse_whitespace(self.text(b.ty));
                    let written = written.trim_start_matches([':', ' ']);
                    if !name.is_empty() && written.len() <= 120 {
                        self.types
                            .declared
                            .entry(scope.types)
                            .or_default()
                            .insert(name.into(), written.into());
                    }
                } else if let Some(declared) = self.types.declared.get_mut(&scope.types) {
                    declared.remove(name);
                }
            }
            // Or another name of a known type (`self.repo = repo` with `repo: Repo`).
            let named = match (ty, &made_by, &call) {
                (None, None, None) if value => {
                    let name = bare_name(self.text(b.ty));
                    let simple =
                        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
                    self.types
                        .locals
                        .get(&scope.types)
                        .and_then(|l| l.get(name))
                        .filter(|_| simple)
                        .cloned()
                }
                _ => None,
            };
            let ty = match ty {
                Some(t) => rules::type_name(self.text(t))
                    .or_else(|| rules::is_array_type(self.text(t)).then_some(rules::ARRAY)),
                None => made_by.as_deref().or(call.as_deref()).or(named.as_deref()),
            };
            let Some(ty) = ty else {
                if self.lang == Lang::Go && !b.field {
                    let name = bare_name(self.text(b.name));
                    let end = b.ty.end_byte();
                    self.types
                        .pending
                        .push((end, scope.types, name.into(), None));
                }
                continue;
            };
            if rules::is_wrapper_type(self.lang, ty) {
                continue;
            }
            let name = bare_name(self.text(b.name));
            if name.is_empty() {
                continue;
            }
            if b.field {
                // A type's body declares its fields; a method (`self.x = …`, a TypeScript
                // constructor's `private db: Db`) declares its type's.
                let owner = match scope.in_type {
                    true => scope.prefix.as_deref().map(last_name),
                    false => scope.method_type(),
                };
                if let Some(owner) = owner {
                    self.types
                        .fields
                        .entry((owner.into(), name.into()))
                        .or_insert_with(|| ty.into());
                }
            } else {
                // JavaScript's `const x = f(() => x.g())`, Ruby's `opts = OptionParser.new
                // do … opts.version … end`: a name used in its own value is there in a
                // function or block called later (`const x = x.g()` does not run).
                let types = &mut self.types;
                match self.lang {
                    Lang::JavaScript | Lang::TypeScript | Lang::Tsx | Lang::Ruby => {
                        let locals = types.locals.entry(scope.types).or_default();
                        locals.insert(name.into(), ty.into());
                    }
                    _ => {
                        let end = b.ty.end_byte();
                        types
                            .pending
                            .push((end, scope.types, name.into(), Some(ty.into())));
                    }
                }
            }
        }
    }

    /// What a loop's variable is when the loop goes through a parameter or local declared
    /// with a collection's type (`for _, v := range vals` with `vals []*Value`, `for it in
    /// items` with `items: &[Item]`): the element's type name.
    pub(super) fn element_of_declared(&self, items: &str, scope: &Scope) -> Option<String> {
        let t = iterated(items.trim());
        let written = self.types.declared.get(&scope.types)?.get(bare_name(t))?;
        let element = returns::element(written)?;
        match returns::returned(element, false)? {
            returns::Returned::Type(ty) => Some(ty.to_string()),
            returns::Returned::Own => None,
        }
    }

    /// Bind the pending locals whose type or value ends by byte `at` (the walk, in document
    /// order, has passed it), in the order they were declared.
    pub(super) fn bring_into_scope(&mut self, at: usize) {
        let types = &mut self.types;
        let mut i = 0;
        while i < types.pending.len() {
            if types.pending[i].0 <= at {
                let (_, symbol, name, ty) = types.pending.remove(i);
                let locals = types.locals.entry(symbol).or_default();
                match ty {
                    Some(ty) => locals.insert(name, ty),
                    None => locals.remove(&name),
                };
            } else {
                i += 1;
            }
        }
    }

    /// The receiver type of the call just pushed (edge `edge`) on `qualifier` from `scope`: a
    /// local's or parameter's declared type now; a field's (`engine.run()` where `engine`
    /// is a field, `this.engine.run()`, `s.db.Query()` on a receiver `s *Server`) once the
    /// file is read ([`Walker::settle_field_receivers`]).
    pub(super) fn receiver_type(&mut self, edge: usize, qualifier: &str, scope: &Scope) {
        let own_type = || scope.method_type();
        let simple = |s: &str| {
            !s.is_empty()
                && s.chars()
                    // `#` of a JavaScript private field (`this.#progress`).
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '#')
        };
        let locals = self.types.locals.get(&scope.types);
        let local = |name: &str| locals.and_then(|l| l.get(name)).cloned();
        if let Some(ivar) = qualifier.strip_prefix('@').filter(|q| simple(q)) {
            // Ruby's `@engine.run`.
            if let Some(t) = own_type() {
                self.types.on_fields.push((edge, t.into(), ivar.into()));
            }
            return;
        }
        if simple(qualifier) {
            let name = bare_name(qualifier);
            if let Some(t) = local(name) {
                self.out.edges[edge].receiver_type = Some(t);
            } else if rules::bare_receiver_may_be_field(self.lang)
                && let Some(t) = own_type()
            {
                self.types.on_fields.push((edge, t.into(), name.into()));
            }
            return;
        }
        let Some((head, member)) = qualifier
            .rsplit_once("->")
            .or_else(|| qualifier.rsplit_once('.'))
            .filter(|(h, m)| simple(h) && simple(m))
        else {
            return;
        };
        let owner: Option<Box<str>> = match bare_name(head) {
            "this" | "self" => own_type().map(Into::into),
            h => local(h).map(|t| rules::split_type_path(&t).1.into()),
        };
        if let Some(owner) = owner {
            self.types
                .on_fields
                .push((edge, owner, bare_name(member).into()));
        }
    }

    /// A Ruby `identifier`: a local it declares is remembered; a use of a name that is no
    /// local of the enclosing method is a call on `self` without parentheses.
    pub(super) fn ruby_identifier<'t>(&mut self, up: Up<'_, 't>, node: Node<'t>, scope: &Scope) {
        let name = self.text(node);
        match rules::ruby_name(up, node) {
            rules::RubyName::Declares => {
                self.types
                    .ruby_locals
                    .entry(scope.types)
                    .or_default()
                    .insert(name.into());
            }
            rules::RubyName::Use => {
                let local = self
                    .types
                    .ruby_locals
                    .get(&scope.types)
                    .is_some_and(|l| l.contains(name));
                // Visibility switches and the file's own name are not worth an edge.
                let keyword = matches!(
                    name,
                    "private"
                        | "protected"
                        | "public"
                        | "module_function"
                        | "__dir__"
                        | "__method__"
                        | "__FILE__"
                        | "__LINE__"
                        | "__ENCODING__"
                );
                if !local && !keyword {
                    let source = self.source_of(scope);
                    self.push_edge(EdgeKind::Calls, source, node, name, None);
                }
            }
            rules::RubyName::Other => {}
        }
    }

    /// Give calls on a field their receiver type, from the fields the file declares.
    pub(super) fn settle_field_receivers(&mut self) {
        let types = std::mem::take(&mut self.types);
        for (edge, owner, field) in types.on_fields {
            if let Some(t) = types.fields.get(&(owner, field))
                && let Some(e) = self.out.edges.get_mut(edge)
            {
                e.receiver_type = Some(t.clone());
            }
        }
    }

    /// A name written alone as a value (`register(handler)`, `{ onClick: handle }`, C's
    /// `.read = my_read`) is a reference when it names a function of the file — top-level, or
    /// nested in the source — or what an import binds: not a parameter's or local's name,
    /// which is what most names so written are. (A local that shadows a function of the
    /// file's is taken for it.)
    pub(super) fn settle_values(&mut self) {
        let values = std::mem::take(&mut self.values);
        if values.is_empty() {
            return;
        }
        // (name, parent) of the file's functions.
        let functions: rustc_hash::FxHashSet<(&str, Option<&str>)> = self
            .out
            .symbols
            .iter()
            .filter(|s| s.kind == "function")
            .map(|s| (&*s.name, s.parent()))
            .collect();
        // Rust's, Go's and C++'s imports name modules, packages, types and files far more
        // often than functions, and locals share their names (`let span = …; f(span)` after
        // `use tracing::span`): there only the file's functions count.
        let imports_are_values = !matches!(self.lang, Lang::Rust | Lang::Go | Lang::Cpp);
        let imported: rustc_hash::FxHashSet<&str> = self
            .out
            .edges
            .iter()
            .filter(|e| imports_are_values && e.kind == EdgeKind::Imports)
            .map(|e| e.alias.as_deref().unwrap_or(&e.target_name))
            .filter(|n| *n != "*")
            .collect();
        let (src, symbols) = (self.src, &self.out.symbols);
        let kept: Vec<(usize, &str, Option<Arc<str>>)> = values
            .into_iter()
            .filter_map(|(bytes, symbol)| {
                // (Go's blank identifier, `_ = x`, is no value.)
                let name = src.get(bytes.clone()).filter(|n| *n != "_")?;
                let source = symbol.map(|i| &symbols[i].qualified_name);
                let named = imported.contains(name)
                    || functions.contains(&(name, None))
                    || source.is_some_and(|s| functions.contains(&(name, Some(&**s))));
                named.then(|| (bytes.start, name, source.cloned()))
            })
            .collect();
        for (at, name, source) in kept {
            self.push_edge_at(EdgeKind::References, source, at, name, None);
        }
    }

    pub(super) fn source_of(&self, scope: &Scope) -> Option<Arc<str>> {
        scope
            .symbol
            .map(|i| self.out.symbols[i].qualified_name.clone())
    }

    pub(super) fn push_edge(
        &mut self,
        kind: EdgeKind,
        source: Option<Arc<str>>,
        at: Node<'_>,
        name: &str,
        qualifier: Option<&str>,
    ) {
        self.push_edge_at(kind, source, at.start_byte(), name, qualifier);
    }

    /// [`Walker::push_edge`] at byte `at`.
    pub(super) fn push_edge_at(
        &mut self,
        kind: EdgeKind,
        source: Option<Arc<str>>,
        at: usize,
        name: &str,
        qualifier: Option<&str>,
    ) {
        let name = rules::name_text(self.lang, name);
        if name.is_empty() || name.len() > 200 {
            return;
        }
        if kind == EdgeKind::References {
            let seen = self.seen_refs.entry(source.clone()).or_default();
            let qualifiers = match seen.get_mut(name) {
                Some(q) => q,
                None => seen.entry(name.into()).or_default(),
            };
            if qualifiers.iter().any(|q| q.as_deref() == qualifier) {
                return;
            }
            qualifiers.push(qualifier.map(Into::into));
        }
        let (line, character) = self.position(at);
        // A receiver written over many lines (`Builder::new(…)\n.with(…)\n.build()`) is kept
        // by its first [`MAX_QUALIFIER`] bytes and a `…`: dropped, its call read as a bare
        // `build()`, which resolution may not take for a method call.
        let qualifier = qualifier
            .map(|q| collapse_whitespace_within(q, MAX_QUALIFIER))
            .filter(|q| !q.is_empty())
            .map(|q| {
                if q.len() <= MAX_QUALIFIER {
                    q
                } else {
                    format!("{}…", &q[..q.floor_char_boundary(MAX_QUALIFIER)]).into()
                }
            });
        self.out.edges.push(RawEdge {
            kind,
            source,
            line,
            character,
            target_name: name.into(),
            qualifier: qualifier.map(|q| q.into()),
            receiver_type: None,
            alias: None,
        });
    }

    pub(super) fn edges_at<'t>(&mut self, up: Up<'_, 't>, node: Node<'t>, scope: &Scope) {
        let lang = self.lang;
        if lang == Lang::Ruby && kind_of(node) == "identifier" {
            self.ruby_identifier(up, node, scope);
            return;
        }
        let imports = rules::imports(lang, node, self.src);
        if !imports.is_empty() {
            for (name, qual, alias) in imports {
                let n = self.out.edges.len();
                self.push_edge(EdgeKind::Imports, None, node, &name, qual.as_deref());
                if let Some(e) = self.out.edges.get_mut(n) {
                    e.alias = alias.filter(|a| *a != name).map(Into::into);
                }
            }
            return;
        }
        if let Some(edges) = rules::heritage(lang, up, node, self.src) {
            // Heritage clauses are children of the type they belong to, so the enclosing
            // symbol is the source; a Rust `impl Trait for T` names its source `T` itself.
            for (kind, target, qualifier, source_override) in edges {
                let source = source_override
                    .map(Arc::from)
                    .or_else(|| self.source_of(scope));
                let text = self.text(target);
                let qualifier = qualifier.map(|q| self.text(q));
                self.push_edge(kind, source, target, text, qualifier);
            }
            return;
        }
        if let Some((name, qual)) = rules::call_target(lang, node) {
            let source = self.source_of(scope);
            let name = self.text(name);
            let qual = qual.map(|q| self.text(q));
            let n = self.out.edges.len();
            self.push_edge(EdgeKind::Calls, source, node, name, qual);
            if let Some(q) = qual
                && self.out.edges.len() > n
            {
                self.receiver_type(n, q.trim(), scope);
            }
            return;
        }
        if rules::is_value_name(lang, up, node) {
            self.values.push((node.byte_range(), scope.symbol));
            return;
        }
        if let Some(name) = rules::reference_target(lang, up, node, self.src) {
            let source = self.source_of(scope);
            let text = self.text(name);
            if !rules::is_builtin_type(lang, text) {
                let object = rules::member_object(lang, node).map(|o| self.text(o).trim());
                let named = object.and_then(rules::instance_word).or_else(|| {
                    rules::reference_namespace(lang, up, name).map(|q| self.text(q).trim())
                });
                // A member read keeps what it reads from, as a call keeps its receiver: a
                // module or package (`os.sep`, Go's `ir.CurFunc`, looked up in what the
                // file imports), a type (`Color.RED`) or a value (`s.db`, `req.headers`: a
                // field, never another module's top-level name). (Go keeps only a path of
                // names; Rust's field reads and PHP's property reads keep none: a Rust
                // qualifier is a path, `Self::X`, and PHP's reads go by their own rules.)
                let kept = object.filter(|o| match lang {
                    Lang::Go => o
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '.'),
                    Lang::Rust | Lang::Php => false,
                    _ => true,
                });
                let qualifier = named.or(kept);
                let n = self.out.edges.len();
                self.push_edge(EdgeKind::References, source, name, text, qualifier);
                // A field read from a value of a declared type (`params.width` with `params:
                // &CrcParams`, `self.db.conn`): that type's field.
                if named.is_none()
                    && self.out.edges.len() > n
                    && let Some(object) = object
                {
                    self.receiver_type(n, object, scope);
                }
            }
        }
    }
}

/// A variable's name without PHP's `$` or Ruby's `@`.
pub(super) fn bare_name(s: &str) -> &str {
    s.trim_start_matches(['$', '@'])
}

/// How much of a call's qualifier an edge keeps (bytes, whitespace collapsed).
pub(super) const MAX_QUALIFIER: usize = 200;

/// A value that is a call's result or a field read, as a receiver type
/// ([`RawEdge::receiver_type`]): the call as written, whitespace collapsed as in a qualifier,
/// when [`returns::chained`] reads it (not `new T(…)`, whose type the value names), or the
/// field read, when it cannot be read as a type ([`returns::plainly_a_field`]: `v.Args[0]`,
/// `self.title`; `&self.shapes[0]` without its `&`), at most 120 bytes. (Ruby's `a.b` is a
/// call.)
pub(super) fn returned_by(lang: Lang, value: &str) -> Option<String> {
    let text = collapse_whitespace_within(value, 120);
    if text.len() > 120 {
        return None;
    }
    if let Some(chain) = returns::chained(&text) {
        return (!chain.new).then(|| text.into_owned());
    }
    let read = unborrowed(&text);
    // (In Go any `a.b` may be kept: a type is written with its package, `pkg.T`, which
    // resolution tells apart by its import.)
    let read_field = lang != Lang::Ruby
        && returns::field_read(read)
            .is_some_and(|r| lang == Lang::Go || returns::plainly_a_field(&r));
    read_field.then(|| read.to_string())
}

/// What a loop's variable is, as a receiver type, when the loop goes through a field (`for x
/// in &self.items`, `self.items.iter()`, Go's `range v.Args`): an element of the field,
/// written `self.items[]` (read as [`returns::field_read`] reads `self.items[i]`).
pub(super) fn element_of(items: &str) -> Option<String> {
    let text = collapse_whitespace(items);
    let t = iterated(&text);
    let read = returns::field_read(t)?;
    (!read.indexed && t.len() <= 118).then(|| format!("{t}[]"))
}

/// A value without the borrow or dereference written before it (`&self.items[0]`, `&mut
/// v`, `*p`).
pub(super) fn unborrowed(value: &str) -> &str {
    let t = value.trim_start_matches(['&', '*']);
    t.strip_prefix("mut ").unwrap_or(t).trim_start()
}

/// What a loop goes through, without a borrow or the iterator made of it
/// (`self.items` of `&self.items` or `self.items.iter()`).
pub(super) fn iterated(items: &str) -> &str {
    let mut t = unborrowed(items);
    for iter in [".iter()", ".iter_mut()", ".into_iter()", ".values()"] {
        t = t.strip_suffix(iter).unwrap_or(t);
    }
    t
}
