//! Resolution rules shared by every language: bare calls, self calls, nearness, module paths,
//! the candidate index.

use super::*;

#[test]
fn super_words_are_per_language() {
    assert!(is_super(Lang::Python, "super()") && is_super(Lang::Python, "super(Cls, self)"));
    assert!(is_super(Lang::Java, "super") && is_super(Lang::CSharp, "base"));
    assert!(is_super(Lang::Php, "parent"));
    // Elsewhere `base` and `parent` are ordinary names (modules, variables).
    assert!(!is_super(Lang::Python, "base") && !is_super(Lang::JavaScript, "parent"));
    assert!(!is_super(Lang::Python, "superclass"));
}

/// A bare call (`print(x)`) takes no method outside Java, C#, C++ and Ruby: a function of
/// that name, or nothing. A call on a receiver still takes a method.
#[test]
fn bare_calls_take_no_method_where_methods_need_a_receiver() {
    let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
    let class = |name: &str| of_kind("class", name, None);
    let files = |language: &'static str| {
        let packed = vec![
            (
                "a/traceback.py",
                pack(
                    vec![class("Tb"), method("print", "Tb"), method("helper", "Tb")],
                    vec![],
                ),
            ),
            (
                "b/util.py",
                pack(
                    vec![
                        function("helper", None),
                        function("outer", None),
                        function("inner", Some("outer")),
                        function("Ok", None),
                    ],
                    vec![],
                ),
            ),
            (
                "c/main.py",
                pack(
                    vec![class("Main"), method("run", "Main"), function("go", None)],
                    vec![],
                ),
            ),
        ];
        (packed, language)
    };
    for (language, bare_reaches_methods) in [
        ("python", false),
        ("rust", false),
        ("go", false),
        ("javascript", false),
        ("php", false),
        // Java, C# and C++: `bare_calls_in_java_take_enclosing_types_methods_only`.
        ("ruby", true),
    ] {
        let (packed, language) = files(language);
        let files = inputs(&packed, language);
        let index = Index::new(&files);
        let pick = |name: &str, q: Option<&str>| {
            index
                .pick(2, Some("go"), EdgeKind::Calls, name, q)
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        if bare_reaches_methods {
            // Ruby: a method in the file, or a module's (mixed in), but not another
            // class's (`ruby_bare_calls_take_no_unrelated_class_method`).
            assert_eq!(pick("print", None), None);
            assert_eq!(pick("run", None), Some(("Main.run", "same_file")));
        } else {
            // Not the only method of that name, not the method in the caller's own file.
            assert_eq!(pick("print", None), None, "{language}");
            assert_eq!(pick("run", None), None, "{language}");
            // The function, though a method of that name comes first (in Python and
            // Rust only if imported: `rust_bare_calls_need_an_import`; in Go only in
            // the caller's package: below).
            let elsewhere = !matches!(language, "python" | "go" | "rust");
            let helper = elsewhere.then_some(("helper", "unique_name"));
            assert_eq!(pick("helper", None), helper, "{language}");
            // Rust's `Ok(x)` is the prelude's, not another file's `fn Ok`.
            let ok = (elsewhere && language != "rust").then_some(("Ok", "unique_name"));
            assert_eq!(pick("Ok", None), ok, "{language}");
            // A function nested in another file's function is out of reach; in its own
            // file it is found.
            assert_eq!(pick("inner", None), None, "{language}");
            assert_eq!(
                index
                    .pick(1, Some("outer"), EdgeKind::Calls, "inner", None)
                    .map(|(c, how)| (index.qualified_name(c), how)),
                Some(("outer.inner", "same_file")),
                "{language}"
            );
        }
        // On a receiver, the method.
        assert_eq!(
            pick("print", Some("tb")),
            Some(("Tb.print", "unique_name")),
            "{language}"
        );
    }
    // Python: another file's function through an import of it, or of `*` from its module.
    for (imports, found) in [
        (
            vec![import("helper", Some("util"))],
            Some(("helper", "import")),
        ),
        (vec![import("*", Some("util"))], Some(("helper", "import"))),
        (vec![import("*", Some("elsewhere"))], None),
        (vec![import("other", Some("util"))], None),
    ] {
        let packed = vec![
            ("b/util.py", pack(vec![function("helper", None)], vec![])),
            ("c/main.py", pack(vec![function("go", None)], imports)),
        ];
        let files = inputs(&packed, "python");
        let index = Index::new(&files);
        let picked = index
            .pick(1, Some("go"), EdgeKind::Calls, "helper", None)
            .map(|(c, how)| (index.qualified_name(c), how));
        assert_eq!(picked, found);
    }
}

/// JavaScript, TypeScript, Python, Ruby: a guess by name takes no other test file's
/// definition (a test is reached only through an import); Go's test files see their
/// package's.
#[test]
fn guesses_by_name_skip_other_test_files() {
    for (language, lib, test, caller) in [
        (
            "typescript",
            "lib/schemas.ts",
            "tests/a.test.ts",
            "tests/b.test.ts",
        ),
        (
            "python",
            "lib/schemas.py",
            "tests/test_a.py",
            "tests/test_b.py",
        ),
        ("ruby", "lib/schemas.rb", "spec/a_spec.rb", "spec/b_spec.rb"),
        ("go", "other/schemas.go", "lib/a_test.go", "lib/b_test.go"),
    ] {
        let packed = vec![
            (
                lib,
                pack(vec![of_kind("method", "parse", Some("Schema"))], vec![]),
            ),
            (
                test,
                pack(vec![of_kind("method", "parse", Some("First"))], vec![]),
            ),
            (caller, pack(vec![function("check", None)], vec![])),
        ];
        let files = inputs(&packed, language);
        let index = Index::new(&files);
        let picked = index
            .pick(2, Some("check"), EdgeKind::Calls, "parse", Some("schema"))
            .map(|(c, _)| index.qualified_name(c));
        let expected = match language {
            "go" => "First.parse",
            _ => "Schema.parse",
        };
        assert_eq!(picked, Some(expected), "{language}");
    }
}

/// `self.f()` that neither the caller's type nor its bases here define is another type's
/// `f` only when every base is the repository's: else it is the outside base's.
#[test]
fn self_calls_stay_with_a_base_from_outside() {
    let inherits = |ty: &str, base: &str| RawEdge {
        kind: EdgeKind::Inherits,
        source: Some(ty.into()),
        ..import(base, None)
    };
    let method = |name, parent| of_kind("method", name, Some(parent));
    let packed = vec![
        (
            "other.py",
            pack(
                vec![of_kind("class", "Other", None), method("emit", "Other")],
                vec![],
            ),
        ),
        (
            "handler.py",
            pack(
                vec![
                    of_kind("class", "Handler", None),
                    method("run", "Handler"),
                    of_kind("class", "Plain", None),
                    method("run", "Plain"),
                ],
                vec![inherits("Handler", "EventEmitter")],
            ),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |source: &str| {
        index
            .pick(1, Some(source), EdgeKind::Calls, "emit", Some("self"))
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    assert_eq!(pick("Handler.run"), None);
    assert_eq!(pick("Plain.run"), Some(("Other.emit", "unique_name")));
}

/// A renamed import's alias is looked up as the name it imports: bare (`g()` after `from
/// m import f as g`) or as a receiver (`np.array()`, `m.f()`).
#[test]
fn aliases_resolve_as_what_they_import() {
    let aliased = |name: &str, module: Option<&str>, alias: &str| RawEdge {
        alias: Some(alias.into()),
        ..import(name, module)
    };
    let call = |name: &str, q: Option<&str>| RawEdge {
        kind: EdgeKind::Calls,
        source: Some("main".into()),
        qualifier: q.map(Into::into),
        ..import(name, None)
    };
    let analyses = [
        ("pkg/mod.py", analysis(vec![function("f", None)], vec![])),
        (
            "lib/arrays.py",
            analysis(vec![function("array", None)], vec![]),
        ),
        (
            "main.py",
            analysis(
                vec![function("main", None)],
                vec![
                    aliased("numpy", None, "np"),
                    aliased("mod", Some("pkg"), "m"),
                    aliased("f", Some("pkg.mod"), "g"),
                    call("array", Some("np")),
                    call("f", Some("m")),
                    call("g", None),
                ],
            ),
        ),
    ];
    let packed: Vec<_> = analyses
        .iter()
        .map(|(p, a)| (*p, Packed::new(a).unwrap()))
        .collect();
    let files = inputs(&packed, "python");
    let resolver = Resolver::new(&files);
    let rows = resolver.edges(2, &analyses[2].1);
    let got: Vec<_> = rows
        .iter()
        .map(|r| (r.target_name, r.alias, r.target, r.resolution))
        .collect();
    let f = Some(Ident::Symbol("pkg/mod.py", "f"));
    assert_eq!(
        got,
        [
            ("numpy", Some("np"), None, "unresolved"),
            ("mod", Some("m"), Some(Ident::File("pkg/mod.py")), "import"),
            ("f", Some("g"), f, "import"),
            ("array", None, None, "unresolved"),
            ("f", None, f, "import"),
            ("g", None, f, "import"),
        ]
    );
    // Two aliases of one module name (`flags as compute_flags`, `flags as routers_flags`)
    // each stay with their own module.
    let analyses = [
        (
            "cli/compute/flags.py",
            analysis(vec![function("AddRegionFlag", None)], vec![]),
        ),
        (
            "cli/routers/flags.py",
            analysis(vec![function("AddRouterFlag", None)], vec![]),
        ),
        (
            "cli/ad/flags.py",
            analysis(vec![function("AddRegionFlag", None)], vec![]),
        ),
        (
            "cli/main.py",
            analysis(
                vec![function("main", None)],
                vec![
                    aliased("flags", Some("cli.compute"), "compute_flags"),
                    aliased("flags", Some("cli.routers"), "routers_flags"),
                    call("AddRegionFlag", Some("compute_flags")),
                    call("AddRegionFlag", Some("routers_flags")),
                    call("AddRouterFlag", Some("routers_flags")),
                ],
            ),
        ),
    ];
    let packed: Vec<_> = analyses
        .iter()
        .map(|(p, a)| (*p, Packed::new(a).unwrap()))
        .collect();
    let files = inputs(&packed, "python");
    let resolver = Resolver::new(&files);
    let targets: Vec<_> = resolver
        .edges(3, &analyses[3].1)
        .iter()
        .filter(|r| r.kind == EdgeKind::Calls)
        .map(|r| r.target)
        .collect();
    assert_eq!(
        targets,
        [
            Some(Ident::Symbol("cli/compute/flags.py", "AddRegionFlag")),
            None,
            Some(Ident::Symbol("cli/routers/flags.py", "AddRouterFlag")),
        ]
    );
}

/// A call on a receiver the repository cannot have defined — a literal, a global object,
/// a type no file defines, a value of an undeclared type called by a standard method's
/// name — names nothing here; other calls on such values still go by name.
#[test]
fn receivers_the_repository_cannot_define_name_nothing_here() {
    let in_lang = |language: &str,
                   packed: &[(&str, Packed)],
                   checks: &[(&str, &str, &str, Option<(&str, &str)>)]| {
        let files = inputs(packed, language);
        let index = Index::new(&files);
        let last = files.len() - 1;
        for &(source, name, q, want) in checks {
            let got = index
                .pick(last, Some(source), EdgeKind::Calls, name, Some(q))
                .map(|(c, how)| (index.qualified_name(c), how));
            assert_eq!(got, want, "{language}: {q}.{name}() in {source}");
        }
    };
    let method = |name, parent| of_kind("method", name, Some(parent));
    let class = |name| of_kind("class", name, None);
    in_lang(
        "python",
        &[
            (
                "buffer.py",
                pack(
                    vec![
                        class("Buffer"),
                        method("append", "Buffer"),
                        method("add", "Buffer"),
                    ],
                    vec![],
                ),
            ),
            (
                "checks.py",
                pack(
                    vec![class("Checker"), method("validate", "Checker")],
                    vec![],
                ),
            ),
            ("main.py", pack(vec![function("main", None)], vec![])),
        ],
        &[
            ("main", "append", "items", None),
            ("main", "join", "\", \"", None),
            ("main", "join", "f\"{x}\"", None),
            ("main", "fromkeys", "dict", None),
            (
                "main",
                "validate",
                "checker",
                Some(("Checker.validate", "unique_name")),
            ),
            (
                "main",
                "append",
                "Buffer",
                Some(("Buffer.append", "qualified")),
            ),
        ],
    );
    // `self.items.append(x)` in `Buffer.add` is the list's, not `Buffer.append`.
    let packed = [(
        "buffer.py",
        pack(
            vec![
                class("Buffer"),
                method("append", "Buffer"),
                method("add", "Buffer"),
            ],
            vec![],
        ),
    )];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |q| index.pick(0, Some("Buffer.add"), EdgeKind::Calls, "append", Some(q));
    assert_eq!(pick("self.items"), None);
    assert!(pick("self").is_some());
    in_lang(
        "rust",
        &[
            (
                "src/wrapper.rs",
                pack(
                    vec![
                        of_kind("struct", "Wrapper", None),
                        method("unwrap", "Wrapper"),
                        of_kind("struct", "Config", None),
                        method("new", "Wrapper"),
                    ],
                    vec![],
                ),
            ),
            ("src/util.rs", pack(vec![function("join", None)], vec![])),
            ("src/other.rs", pack(vec![function("join", None)], vec![])),
            ("src/main.rs", pack(vec![function("main", None)], vec![])),
        ],
        &[
            ("main", "unwrap", "opt", None),
            ("main", "unwrap", "File::open(p)", None),
            ("main", "new", "HashMap", None),
            ("main", "new", "T", None),
            ("main", "default", "Config", None),
            ("main", "new", "Wrapper", Some(("Wrapper.new", "qualified"))),
            ("main", "join", "crate::util", Some(("join", "import"))),
        ],
    );
    in_lang(
        "javascript",
        &[
            (
                "lib/parse.js",
                pack(
                    vec![
                        function("parse", None),
                        function("map", None),
                        function("resolve", None),
                    ],
                    vec![],
                ),
            ),
            (
                "semver/functions/valid.js",
                pack(vec![function("valid", None)], vec![]),
            ),
            (
                "main.js",
                pack(
                    vec![function("main", None)],
                    vec![
                        import("path", Some("path")),
                        import("semver", Some("semver")),
                    ],
                ),
            ),
        ],
        &[
            ("main", "parse", "JSON", None),
            ("main", "map", "rows", None),
            ("main", "parse", "parser", Some(("parse", "unique_name"))),
            // Node's `path`, which the repository does not have; a package it has.
            ("main", "resolve", "path", None),
            ("main", "valid", "semver", Some(("valid", "import"))),
        ],
    );
    in_lang(
        "go",
        &[
            ("text/split.go", pack(vec![function("Split", None)], vec![])),
            (
                "textutil/x.go",
                pack(vec![function("Fields", None)], vec![]),
            ),
            (
                "cmd/main.go",
                pack(
                    vec![function("main", None)],
                    vec![
                        import("strings", Some("strings")),
                        import("tu", Some("example.com/m/textutil")),
                    ],
                ),
            ),
        ],
        &[
            ("main", "Split", "strings", None),
            ("main", "Fields", "tu", Some(("Fields", "import"))),
        ],
    );
    in_lang(
        "cpp",
        &[
            ("util.cpp", pack(vec![function("move", None)], vec![])),
            ("main.cpp", pack(vec![function("main", None)], vec![])),
        ],
        &[("main", "move", "std", None)],
    );
}

/// `self.f()` goes up the bases breadth first, nearest first, through cycles; members
/// only, never a free function of that name nearer by directory.
#[test]
fn self_calls_take_the_nearest_base_member() {
    let heritage = |ty: &str, base: &str| RawEdge {
        kind: EdgeKind::Inherits,
        source: Some(ty.into()),
        line: 1,
        character: 0,
        target_name: base.into(),
        qualifier: None,
        receiver_type: None,
        alias: None,
    };
    // A file from its definitions ("class T", "T.method", "function") and clauses.
    let file = |defs: &[&str], bases: &[(&str, &str)]| {
        let symbols = defs
            .iter()
            .map(|d| match d.strip_prefix("class ") {
                Some(name) => {
                    let mut class = function(name, None);
                    class.kind = "class";
                    class
                }
                None => match d.split_once('.') {
                    Some((ty, name)) => function(name, Some(ty)),
                    None => function(d, None),
                },
            })
            .collect();
        let edges = bases.iter().map(|(ty, base)| heritage(ty, base)).collect();
        pack(symbols, edges)
    };
    let packed = [
        // Top and Mid name each other: a cycle must end.
        (
            "a/top.py",
            file(&["class Top", "Top.run"], &[("Top", "Mid")]),
        ),
        (
            "a/mid.py",
            file(&["class Mid", "Mid.run", "Mid.stop"], &[("Mid", "Top")]),
        ),
        (
            "b/leaf.py",
            file(
                &["class Leaf", "Leaf.go", "class Low", "done"],
                &[("Leaf", "Low"), ("Low", "Mid")],
            ),
        ),
        ("b/other.py", file(&["halt"], &[])),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |name: &str, q: &str| {
        index
            .pick(2, Some("Leaf.go"), EdgeKind::Calls, name, Some(q))
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    // Leaf → Low → Mid: Mid's `run`, not Top's.
    assert_eq!(pick("run", "self"), Some(("Mid.run", "inherited")));
    assert_eq!(pick("stop", "super()"), Some(("Mid.stop", "inherited")));
    assert_eq!(pick("go", "self"), Some(("Leaf.go", "same_class")));
    // `super()` skips the caller's own type.
    assert_eq!(pick("go", "super()"), None);
    // A free function of that name is no target of `self.f()`, wherever it is ...
    assert_eq!(pick("done", "self"), None);
    assert_eq!(pick("halt", "self"), None);
    // ... but stays one of an unqualified call (in its own file; from another, in
    // Python, once imported: `bare_calls_take_no_method_where_methods_need_a_receiver`).
    assert_eq!(
        index
            .pick(2, Some("Leaf.go"), EdgeKind::Calls, "done", None)
            .map(|(c, how)| (index.qualified_name(c), how)),
        Some(("done", "same_file"))
    );
}

/// `from pkg import base` then `base.Model`: the nearest file of that module, and in it a
/// top-level definition before a nested one under a directory of that name.
#[test]
fn module_members_are_the_nearest_top_level_definitions() {
    let file = |defs: &[(&str, Option<&str>)], imports: &[(&str, &str)]| {
        let symbols = defs
            .iter()
            .map(|(name, parent)| {
                let mut class = function(name, *parent);
                class.kind = "class";
                class
            })
            .collect();
        let edges = imports.iter().map(|(n, m)| import(n, Some(m))).collect();
        pack(symbols, edges)
    };
    let packed = [
        // First in path order, but in another package than the importer.
        ("app/legacy/models/base.py", file(&[("Model", None)], &[])),
        ("app/models/base.py", file(&[("Model", None)], &[])),
        (
            "app/models/user.py",
            file(&[("User", None)], &[("base", "models")]),
        ),
        ("lib/base.py", file(&[("Model", None)], &[])),
        // A test's local class, nearer, in a directory named like the module.
        (
            "lib/base/fakes.py",
            file(&[("test_x", None), ("Model", Some("test_x"))], &[]),
        ),
        (
            "lib/base/check.py",
            file(&[("Check", None)], &[("base", "lib")]),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let base_of = |fi: usize| {
        index
            .pick(fi, None, EdgeKind::Inherits, "Model", Some("base"))
            .map(|(c, how)| (index.path(c), index.qualified_name(c), how))
    };
    assert_eq!(base_of(2), Some(("app/models/base.py", "Model", "import")));
    assert_eq!(base_of(5), Some(("lib/base.py", "Model", "import")));
}

/// A member called on a value of undeclared type: among the nearest candidates, one of
/// a type the file names before another; a nearer one, or a free function (a path call
/// written like a value), stays.
#[test]
fn members_of_types_the_file_names_come_first_among_the_nearest() {
    let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
    let class = |name: &str| of_kind("struct", name, None);
    let reference = |name: &str| RawEdge {
        kind: EdgeKind::References,
        source: Some("run".into()),
        line: 2,
        character: 0,
        target_name: name.into(),
        qualifier: None,
        receiver_type: None,
        alias: None,
    };
    let packed = [
        (
            "app/src/part.rs",
            pack(vec![method("headers", "Part")], vec![]),
        ),
        (
            "app/src/request.rs",
            pack(vec![class("Request"), method("headers", "Request")], vec![]),
        ),
        (
            "app/src/client.rs",
            pack(vec![function("run", None)], vec![reference("Request")]),
        ),
        ("app/src/plain.rs", pack(vec![function("go", None)], vec![])),
        (
            "app/src/deep/local.rs",
            pack(vec![class("Local"), method("headers", "Local")], vec![]),
        ),
        (
            "app/src/deep/near.rs",
            pack(vec![function("near", None)], vec![reference("Request")]),
        ),
    ];
    let files = inputs(&packed, "rust");
    let resolver = Resolver::new(&files);
    // The call `req.headers()` from `source` in file `fi`, which also references
    // `Request` when `names` says so: its target's qualified name and resolution.
    let target = |fi: usize, source: &str, names: bool| {
        let call = RawEdge {
            kind: EdgeKind::Calls,
            source: Some(source.into()),
            line: 3,
            character: 4,
            target_name: "headers".into(),
            qualifier: Some("req".into()),
            receiver_type: None,
            alias: None,
        };
        let mut edges = vec![call];
        if names {
            edges.push(reference("Request"));
        }
        let caller = analysis(vec![function(source, None)], edges);
        let rows = resolver.edges(fi, &caller);
        let row = &rows[0];
        let qname = match row.target {
            Some(Ident::Symbol(_, q)) => Some(q.to_string()),
            _ => None,
        };
        (qname, row.resolution)
    };
    assert_eq!(
        target(2, "run", true),
        (Some("Request.headers".into()), "ambiguous")
    );
    // A file that names neither: the first of the nearest, as before.
    assert_eq!(target(3, "go", false).0.as_deref(), Some("Part.headers"));
    // A nearer type's member stays, named or not.
    assert_eq!(
        target(5, "near", true),
        (Some("Local.headers".into()), "ambiguous")
    );
}

/// `self.inner.fetch()` in `fetch` delegates to a field's object: the caller itself is
/// not the target; another type's `fetch` is, or nothing.
#[test]
fn delegation_through_a_field_is_not_recursion() {
    let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
    let class = |name: &str| of_kind("class", name, None);
    let packed = [
        (
            "io/buffer.py",
            pack(
                vec![
                    class("Buffer"),
                    method("fetch", "Buffer"),
                    method("flush", "Buffer"),
                ],
                vec![],
            ),
        ),
        (
            "io/raw.py",
            pack(vec![class("Raw"), method("fetch", "Raw")], vec![]),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |source: &str, name: &str, q: &str| {
        index
            .pick(0, Some(source), EdgeKind::Calls, name, Some(q))
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    assert_eq!(
        pick("Buffer.fetch", "fetch", "self.inner"),
        Some(("Raw.fetch", "unique_name"))
    );
    // From another method the own type's member is still the guess.
    assert_eq!(
        pick("Buffer.flush", "fetch", "self.inner"),
        Some(("Buffer.fetch", "same_class"))
    );
    // `self.fetch()` itself is recursion.
    assert_eq!(
        pick("Buffer.fetch", "fetch", "self"),
        Some(("Buffer.fetch", "same_class"))
    );
    assert_eq!(pick("Buffer.flush", "flush", "self.inner"), None);
}

#[test]
fn module_paths_name_files() {
    let names =
        |m: &str, p: &str| module_last_segment(m).is_some_and(|l| ModuleSegment::new(l).names(p));
    assert!(names("crate::parser::lexer", "src/parser/lexer.rs"));
    assert!(names("crate::parser", "src/parser/mod.rs"));
    assert!(names("pkg.util", "pkg/util/__init__.py"));
    assert!(names("./components/button", "web/components/button.tsx"));
    assert!(names("github.com/o/r/store", "store/bolt.go"));
    assert!(!names("crate::parser", "src/lexer.rs"));
    assert!(!names("crate::self::super", "src/lib.rs"));
    assert_eq!(module_last_segment("std::io::"), Some("io"));
    // A path with slashes: its file, without the extension.
    assert_eq!(module_last_segment("./utils/log-shim.js"), Some("log-shim"));
    assert_eq!(module_last_segment("gopkg.in/yaml.v3"), Some("yaml"));
    assert_eq!(module_last_segment("../lib"), None);
    assert!(names("./utils/log-shim.js", "lib/utils/log-shim.js"));
    assert_eq!(module_last_segment("crate"), None);
}

/// The hashes of a file's path segments rule out no module that names it, and most that
/// do not.
#[test]
fn segment_hashes_keep_every_module_that_names_a_path() {
    let paths = [
        "src/parser/lexer.rs",
        "src/parser/mod.rs",
        "pkg/util/__init__.py",
        "web/components/button.tsx",
        "store/bolt.go",
        "lib/utils/log-shim.js",
        "README",
        "a.b.c/d.e",
    ];
    let packed: Vec<(&str, Packed)> = paths
        .iter()
        .map(|&p| (p, Packed::new(&FileAnalysis::default()).unwrap()))
        .collect();
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let segments = [
        "src",
        "parser",
        "lexer",
        "mod",
        "util",
        "pkg",
        "button",
        "components",
        "store",
        "bolt",
        "log-shim",
        "utils",
        "README",
        "a",
        "d",
        "a.b.c",
        "d.e",
        "lexer.rs",
        "x",
        "par",
        "ser",
    ];
    let mut ruled_out = 0;
    for (fi, path) in paths.iter().enumerate() {
        for last in segments {
            let segment = ModuleSegment::new(last);
            let may = index.may_name(&segment, fi as u32);
            assert!(may || !segment.names(path), "{last} names {path}");
            ruled_out += usize::from(!may);
        }
    }
    assert!(ruled_out > paths.len() * segments.len() / 2);
}

/// Lookups answer the same whether a name's candidates are scanned or searched, with the
/// files in an order that keeps each directory's together (a listing's) or not.
#[test]
fn scanned_and_searched_candidates_agree() {
    for sorted in [false, true] {
        scanned_and_searched_agree(sorted);
    }
}

fn scanned_and_searched_agree(sorted: bool) {
    let parents = [Some("A"), Some("m.B"), None, Some("A")];
    let mut packed: Vec<(String, Packed)> = (0..40)
        .map(|i| {
            let path = format!("d{}/s{}/f{i}.rs", i % 3, i % 2);
            let mut symbols = vec![function("new", parents[i % 4])];
            if i % 5 == 0 {
                symbols.push(function("new", Some("C")));
            }
            let a = FileAnalysis {
                symbols,
                ..Default::default()
            };
            (path, Packed::new(&a).unwrap())
        })
        .collect();
    if sorted {
        packed.sort_by(|a, b| a.0.cmp(&b.0));
    }
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    assert_eq!(index.dir_ranges.contains_key("d1/s1"), sorted);
    assert!(index.dir_ranges.contains_key(""));
    let hashed = index.candidates(EdgeKind::Calls, "rust", "new").unwrap();
    assert!(hashed.maps.is_some() && hashed.all.len() > SCAN_MAX);
    let scanned = Cands {
        all: hashed.all,
        members: hashed.members,
        maps: None,
    };
    let mut dirs: Vec<&str> = files.iter().flat_map(|f| ancestors(f.path)).collect();
    dirs.extend(["d9", "d1/s", "d1/s1/f"]);
    for fi in 0..files.len() as u32 + 2 {
        assert_eq!(hashed.in_file(fi), scanned.in_file(fi));
        for p in ["A", "m.B", "C", "B", "X"] {
            assert_eq!(
                hashed.in_file_with_parent(&index, fi, p),
                scanned.in_file_with_parent(&index, fi, p)
            );
        }
    }
    for last in ["A", "B", "C", "m", "X"] {
        assert_eq!(
            hashed.with_parent_last(&index, last),
            scanned.with_parent_last(&index, last),
            "{last}"
        );
    }
    // And among some candidates only (a bare call's non-methods).
    let odd = |c: Cand| c.1 % 2 == 1;
    for fi in 0..files.len() as u32 + 2 {
        assert_eq!(
            hashed.in_file_where(fi, odd),
            scanned.in_file_where(fi, odd)
        );
    }
    for d in dirs {
        assert_eq!(
            hashed.under_dir(&index, d, |_| true),
            scanned.under_dir(&index, d, |_| true),
            "{d}"
        );
        assert_eq!(
            hashed.under_dir(&index, d, odd),
            scanned.under_dir(&index, d, odd),
            "{d}"
        );
    }
}

/// The one-pass nearest candidate is what asking each ancestor in turn finds: one directly
/// in it, else the first under it; only candidates `keep` accepts count.
#[test]
fn nearest_is_the_deepest_shared_directory_in_one_pass() {
    let paths = [
        "a.rs",
        "a/b.rs",
        "a/b/c.rs",
        "a/b/d.rs",
        "a/bc/e.rs",
        "a/bc.rs",
        "a/b/c/f.rs",
        "ab/g.rs",
        "x/y/z.rs",
        "x/y.rs",
        "x/w/v/u.rs",
        "b",
        "a/b",
    ];
    let mut paths = paths.to_vec();
    paths.sort();
    let packed: Vec<(String, Packed)> = paths
        .iter()
        .map(|p| (p.to_string(), pack(vec![function("go", None)], vec![])))
        .collect();
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let cands = index.candidates(EdgeKind::Calls, "rust", "go").unwrap();
    assert_eq!(cands.all.len(), paths.len());
    let by_ancestor = |path: &str, keep: &dyn Fn(Cand) -> bool| {
        ancestors(path).find_map(|d| {
            cands
                .first(|c| keep(c) && dir_of(index.path(c)) == d)
                .or_else(|| cands.first(|c| keep(c) && is_under(index.path(c), d)))
        })
    };
    let keeps: [&dyn Fn(Cand) -> bool; 3] = [&|_| true, &|c| c.0 % 2 == 0, &|c| {
        !index.path(c).starts_with("a/b")
    }];
    for from in paths
        .iter()
        .chain(&["q.rs", "a/b/c/d/e.rs", "x/q.rs", "a/bcd/q.rs"])
    {
        for (k, keep) in keeps.iter().enumerate() {
            let got = cands.nearest_where(&index, from, keep);
            assert_eq!(got, by_ancestor(from, keep), "from {from}, keep {k}");
        }
    }
    assert_eq!(nearness("a/b", "a/b/c.rs"), (3, true));
    assert_eq!(nearness("a/b", "a/bc/e.rs"), (1, false));
    assert_eq!(nearness("a/b", "x.rs"), (0, true));
    assert_eq!(nearness("", "x/y.rs"), (0, false));
}

/// JavaScript and TypeScript: a name imported from a package by its name (`zod/v4`) is a
/// definition of the package's modules, never of a test file under a directory named like it.
#[test]
fn package_imports_take_no_test_file_definition() {
    let packed = vec![
        (
            "packages/zod/src/v4/classic/tests/deep-partial.test.ts",
            pack(vec![function("string", None)], vec![]),
        ),
        (
            "packages/zod/src/v4/classic/schemas.ts",
            pack(vec![function("string", None)], vec![]),
        ),
        // Nearest to the test file beside it, which is no module of the package's.
        (
            "packages/zod/src/v4/classic/tests/string.test.ts",
            pack(vec![function("check", None)], vec![]),
        ),
    ];
    let files = inputs(&packed, "typescript");
    let index = Index::new(&files);
    let picked = index
        .pick(
            2,
            Some("check"),
            EdgeKind::Imports,
            "string",
            Some("zod/v4"),
        )
        .map(|(c, how)| (index.path(c), how));
    assert_eq!(
        picked,
        Some(("packages/zod/src/v4/classic/schemas.ts", "import"))
    );
}
