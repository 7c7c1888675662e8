//! Java, PHP and Ruby resolution.

use super::*;

/// Ruby: a bare call found neither on the instance nor in the file is a module's method
/// (mixed in), a top-level one, or one of a class the file names as a base — never an
/// unrelated class's method of that name (`include`, `private`, `format` are `Module`'s
/// and `Kernel`'s), nor, for such a built-in name, a module's the file does not mix in.
#[test]
fn ruby_bare_calls_take_no_unrelated_class_method() {
    let inherits = |ty: &str, base: &str| RawEdge {
        kind: EdgeKind::Inherits,
        source: Some(ty.into()),
        ..import(base, None)
    };
    let method = |name, parent| of_kind("method", name, Some(parent));
    let packed = vec![
        (
            "lib/file_list.rb",
            pack(
                vec![
                    of_kind("class", "FileList", None),
                    method("include", "FileList"),
                ],
                vec![],
            ),
        ),
        (
            "lib/helpers.rb",
            pack(
                vec![of_kind("module", "Helpers", None), method("say", "Helpers")],
                vec![],
            ),
        ),
        (
            "lib/base.rb",
            pack(
                vec![of_kind("class", "Base", None), method("setup", "Base")],
                vec![],
            ),
        ),
        (
            "lib/atom.rb",
            pack(
                vec![of_kind("class", "Atom", None), method("run", "Atom")],
                vec![inherits("Atom", "Base")],
            ),
        ),
        (
            "lib/other.rb",
            pack(
                vec![of_kind("class", "Other", None), method("go", "Other")],
                vec![],
            ),
        ),
        (
            "lib/fmt.rb",
            pack(
                vec![of_kind("module", "Fmt", None), method("format", "Fmt")],
                vec![],
            ),
        ),
        (
            "lib/printer.rb",
            pack(
                vec![of_kind("class", "Printer", None), method("run", "Printer")],
                vec![inherits("Printer", "Fmt")],
            ),
        ),
        (
            "lib/sync.rb",
            pack(
                vec![
                    of_kind("class", "Sync", None),
                    method("safe!", "Sync"),
                    // `def self.new` inside `def self.safe!`.
                    function("new", Some("Sync.safe!")),
                    method("build", "Sync"),
                ],
                vec![],
            ),
        ),
    ];
    let files = inputs(&packed, "ruby");
    let index = Index::new(&files);
    let pick = |from: usize, source: &str, name: &str| {
        index
            .pick(from, Some(source), EdgeKind::Calls, name, None)
            .map(|(c, _)| index.qualified_name(c))
    };
    let (atom, other, printer) = (3, 4, 6);
    assert_eq!(pick(other, "Other.go", "include"), None);
    assert_eq!(pick(other, "Other.go", "say"), Some("Helpers.say"));
    assert_eq!(pick(other, "Other.go", "setup"), None);
    assert_eq!(pick(atom, "Atom.run", "setup"), Some("Base.setup"));
    // `Kernel#format`, unless the caller mixes in the module that defines it.
    assert_eq!(pick(other, "Other.go", "format"), None);
    assert_eq!(pick(printer, "Printer.run", "format"), Some("Fmt.format"));
    // A `def` nested in another file's method is not a bare call's by its name; in its own
    // file it still is.
    let sync = 7;
    assert_eq!(pick(other, "Other.go", "new"), None);
    assert_eq!(pick(sync, "Sync.build", "new"), Some("Sync.safe!.new"));
}

/// Java: a single-type import names its package's class (its directory exactly), or a
/// nested class; a class of that name elsewhere is not it.
#[test]
fn java_imports_name_their_package() {
    let packed = vec![
        (
            "src/main/java/com/acme/util/Key.java",
            pack(vec![of_kind("class", "Key", None)], vec![]),
        ),
        (
            "src/main/java/com/acme/model/Thing.java",
            pack(
                vec![
                    of_kind("class", "Thing", None),
                    of_kind("class", "Inner", Some("Thing")),
                ],
                vec![],
            ),
        ),
        (
            "src/main/java/com/acme/App.java",
            pack(
                vec![function("main", None)],
                vec![
                    import("Key", Some("java.security")),
                    import("Thing", Some("com.acme.model")),
                    import("Inner", Some("com.acme.model.Thing")),
                ],
            ),
        ),
        (
            "src/main/java/com/acme/Other.java",
            pack(vec![function("main", None)], vec![]),
        ),
    ];
    let files = inputs(&packed, "java");
    let index = Index::new(&files);
    let pick = |fi: usize, kind: EdgeKind, name: &str, q: Option<&str>| {
        index
            .pick(fi, Some("main"), kind, name, q)
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    assert_eq!(pick(2, EdgeKind::References, "Key", None), None);
    assert_eq!(
        pick(2, EdgeKind::Imports, "Key", Some("java.security")),
        None
    );
    assert_eq!(
        pick(2, EdgeKind::References, "Thing", None),
        Some(("Thing", "import"))
    );
    assert_eq!(
        pick(2, EdgeKind::References, "Inner", None),
        Some(("Thing.Inner", "import"))
    );
    // Without an import, by name as before (the same package, or `java.lang`'s).
    assert_eq!(
        pick(3, EdgeKind::References, "Key", None),
        Some(("Key", "unique_name"))
    );
    let java = |p, path| package_dir_names(p, '.', path);
    assert!(java(
        "com.acme.util",
        "src/main/java/com/acme/util/Key.java"
    ));
    assert!(!java("java.security", "sun/security/util/Key.java"));
    assert!(!java("com.acme", "src/main/java/com/acme/util/Key.java"));
}

/// In Java, C# and C++ a bare call that is not the instance's takes an enclosing type's
/// method, a statically imported one, or a free function — not an unrelated class's.
#[test]
fn bare_calls_in_java_take_enclosing_types_methods_only() {
    let method = |name: &str, ty: &str| of_kind("method", name, Some(ty));
    for language in ["java", "csharp", "cpp"] {
        let packed = vec![
            (
                "a/Outer.java",
                pack(
                    vec![
                        function("Outer", None),
                        method("helper", "Outer"),
                        function("Inner", Some("Outer")),
                        method("run", "Outer.Inner"),
                        function("Sibling", None),
                        method("only", "Sibling"),
                    ],
                    vec![import("imported", Some("b.Other"))],
                ),
            ),
            (
                "b/Other.java",
                pack(
                    vec![
                        function("Other", None),
                        method("helper2", "Other"),
                        method("imported", "Other"),
                        function("loose", None),
                    ],
                    vec![],
                ),
            ),
        ];
        let files = inputs(&packed, language);
        let index = Index::new(&files);
        let pick = |name: &str| {
            index
                .pick(0, Some("Outer.Inner.run"), EdgeKind::Calls, name, None)
                .map(|(c, how)| (index.qualified_name(c), how))
        };
        assert_eq!(
            pick("helper"),
            Some(("Outer.helper", "same_file")),
            "{language}"
        );
        assert_eq!(pick("only"), None, "{language}");
        assert_eq!(pick("helper2"), None, "{language}");
        assert_eq!(
            pick("imported"),
            Some(("Other.imported", "import")),
            "{language}"
        );
        assert_eq!(pick("loose"), Some(("loose", "unique_name")), "{language}");
        // A receiver's method is still found by name.
        assert_eq!(
            index
                .pick(
                    0,
                    Some("Outer.Inner.run"),
                    EdgeKind::Calls,
                    "helper2",
                    Some("o")
                )
                .map(|(c, how)| (index.qualified_name(c), how)),
            Some(("Other.helper2", "unique_name"))
        );
    }
}

/// PHP: a name in a namespace is a definition in a file declaring that namespace, or
/// nothing here.
#[test]
fn php_namespaced_names_are_their_namespaces() {
    let module = |name: &str| of_kind("module", name, None);
    let class = |name: &str| of_kind("class", name, None);
    let packed = [
        (
            "api/mail/Message.php",
            pack(
                vec![module("google\\appengine\\api\\mail"), class("Message")],
                vec![],
            ),
        ),
        (
            "runtime/ProtocolMessage.php",
            pack(
                vec![module("google\\net"), class("ProtocolMessage")],
                vec![],
            ),
        ),
        ("app/Mail.php", pack(vec![class("Mail")], vec![])),
    ];
    let files = inputs(&packed, "php");
    let index = Index::new(&files);
    let base = |name: &str, ns: &str| {
        index
            .pick(2, Some("Mail"), EdgeKind::Inherits, name, Some(ns))
            .map(|(c, how)| (index.path(c), how))
    };
    assert_eq!(
        base("ProtocolMessage", "\\Google\\Net"),
        Some(("runtime/ProtocolMessage.php", "qualified"))
    );
    assert_eq!(base("Message", "DrSlump\\Protobuf"), None);
    assert_eq!(
        base("Message", "google\\appengine\\api\\mail"),
        Some(("api/mail/Message.php", "qualified"))
    );
}

/// Java: a call to one of several overloads, which the name alone does not tell apart, is a
/// guess, however the type was found; a call to a method without overloads is not.
#[test]
fn calls_to_overloads_are_guesses() {
    let src = "class Gson {\n  String toJson(Object o) { return toJson(o, o.getClass()); }\n  String toJson(Object o, Class<?> c) { return name(); }\n  String name() { return \"\"; }\n}\n";
    let analyses = [("Gson.java", crate::analyze::analyze(Lang::Java, src))];
    let packed: Vec<_> = analyses
        .iter()
        .map(|(p, a)| (*p, Packed::new(a).unwrap()))
        .collect();
    let files = inputs(&packed, "java");
    let resolver = Resolver::new(&files);
    let rows = resolver.edges(0, &analyses[0].1);
    let got: Vec<_> = rows
        .iter()
        .filter(|r| r.kind == EdgeKind::Calls && r.target.is_some())
        .map(|r| {
            (
                r.target_name,
                r.resolution,
                r.confidence().map(Confidence::as_str),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("toJson", "same_class", Some("guess")),
            ("name", "same_class", Some("exact")),
        ]
    );
}
