//! Python resolution.

use super::*;

/// Python: a call on an imported module (`os.remove(p)` after `import os`) is that
/// module's member, or, when the repository lacks the module, nothing here.
#[test]
fn python_calls_on_imported_modules_stay_in_them() {
    let remove = of_kind("method", "remove", Some("MutableSet"));
    let packed = vec![
        (
            "abc.py",
            pack(
                vec![
                    remove,
                    function("exists", None),
                    of_kind("method", "audit", Some("Checker")),
                ],
                vec![],
            ),
        ),
        ("pkg/sub.py", pack(vec![function("helper", None)], vec![])),
        (
            "main.py",
            pack(
                vec![function("main", None)],
                vec![
                    import("os", None),
                    import("os.path", None),
                    import("pkg", None),
                ],
            ),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |name: &str, q: &str| {
        index
            .pick(2, Some("main"), EdgeKind::Calls, name, Some(q))
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    assert_eq!(pick("remove", "os"), None);
    assert_eq!(pick("exists", "os.path"), None);
    assert_eq!(pick("helper", "pkg.sub"), Some(("helper", "import")));
    // A receiver the file did not import is a value: its method goes by name, but no
    // top-level function is one.
    assert_eq!(
        pick("audit", "checker"),
        Some(("Checker.audit", "unique_name"))
    );
    assert_eq!(pick("exists", "checker"), None);
}

/// A module imported from a package that itself imports it (`from tests.unit import
/// unittest`, `import unittest` in `tests/unit/__init__.py`) is followed there.
#[test]
fn python_imports_are_followed_through_a_package() {
    let packed = vec![
        (
            "py/unittest/case.py",
            pack(vec![of_kind("class", "TestCase", None)], vec![]),
        ),
        (
            "boto/tests/unit/__init__.py",
            pack(vec![], vec![import("unittest", None)]),
        ),
        (
            "boto/tests/unit/test_x.py",
            pack(vec![], vec![import("unittest", Some("tests.unit"))]),
        ),
        (
            "other/case.py",
            pack(vec![of_kind("class", "TestCase", None)], vec![]),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let got = index
        .pick(2, None, EdgeKind::Inherits, "TestCase", Some("unittest"))
        .map(|(c, how)| (index.path(c), how));
    assert_eq!(got, Some(("py/unittest/case.py", "import")));
    // A module's own object, renamed (`from crypto.backend import backend as ossl`):
    // `ossl.load()` is a member defined beside it.
    let ossl = RawEdge {
        alias: Some("ossl".into()),
        ..import("backend", Some("crypto.backend"))
    };
    let packed = vec![
        (
            "crypto/backend.py",
            pack(
                vec![
                    of_kind("class", "Backend", None),
                    of_kind("method", "load", Some("Backend")),
                ],
                vec![],
            ),
        ),
        (
            "other/loader.py",
            pack(vec![function("load", None)], vec![]),
        ),
        (
            "crypto/x509.py",
            pack(vec![function("main", None)], vec![ossl]),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let got = index
        .pick(2, Some("main"), EdgeKind::Calls, "load", Some("ossl"))
        .map(|(c, how)| (index.qualified_name(c), how));
    assert_eq!(got, Some(("Backend.load", "import")));
}

/// A Python reference without a receiver is a bare name (the file's, imported, or built
/// in) or an attribute (a member): never another file's top-level definition by name.
#[test]
fn python_references_take_members_or_imports() {
    let packed = vec![
        (
            "vendor/typing_extensions.py",
            pack(
                vec![
                    of_kind("class", "Any", None),
                    of_kind("class", "Prefix", None),
                    of_kind("field", "path", Some("Prefix")),
                    of_kind("field", "__name__", Some("Prefix")),
                ],
                vec![],
            ),
        ),
        ("app/main.py", pack(vec![function("main", None)], vec![])),
        (
            "app/typed.py",
            pack(
                vec![function("main", None)],
                vec![import("Any", Some("vendor.typing_extensions"))],
            ),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |fi: usize, name: &str| {
        index
            .pick(fi, Some("main"), EdgeKind::References, name, None)
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    assert_eq!(pick(1, "Any"), None);
    assert_eq!(pick(1, "path"), Some(("Prefix.path", "unique_name")));
    assert_eq!(pick(1, "__name__"), None);
    assert_eq!(pick(2, "Any"), Some(("Any", "import")));
    // On the instance, whose type lacks it: the language's too (`self.__name__` is no
    // other class's field).
    let on_self = index
        .pick(
            1,
            Some("main"),
            EdgeKind::References,
            "__name__",
            Some("self"),
        )
        .map(|(c, how)| (index.qualified_name(c), how));
    assert_eq!(on_self, None);
}

/// Python: `x.f()` on a value names a class's member, never a top-level function or
/// variable — in its own file or another — unless `x` is an imported module or the
/// file's own module by its name.
#[test]
fn python_members_on_values_are_no_top_level_definitions() {
    let packed = vec![
        (
            "app/tasks.py",
            pack(
                vec![
                    function("create_task", None),
                    of_kind("variable", "sample", None),
                    of_kind("class", "Loop", None),
                    of_kind("method", "create_task", Some("Loop")),
                ],
                vec![],
            ),
        ),
        (
            "app/util.py",
            pack(vec![function("to_bytes", None)], vec![]),
        ),
        (
            "app/main.py",
            pack(
                vec![function("main", None)],
                vec![import("util", Some("app")), import("app.tasks", None)],
            ),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let pick = |fi: usize, kind: EdgeKind, name: &str, qualifier: Option<&str>| {
        index
            .pick(fi, Some("main"), kind, name, qualifier)
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    let call = EdgeKind::Calls;
    assert_eq!(
        pick(0, call, "create_task", Some("loop")),
        Some(("Loop.create_task", "same_file"))
    );
    assert_eq!(
        pick(0, call, "create_task", None),
        Some(("create_task", "same_file"))
    );
    assert_eq!(
        pick(0, call, "create_task", Some("tasks")),
        Some(("create_task", "same_file"))
    );
    assert_eq!(pick(0, EdgeKind::References, "sample", Some("_inst")), None);
    assert_eq!(pick(2, call, "to_bytes", Some("rkey")), None);
    assert_eq!(
        pick(2, call, "to_bytes", Some("util")),
        Some(("to_bytes", "import"))
    );
    assert_eq!(
        pick(2, call, "create_task", Some("app.tasks")),
        Some(("create_task", "import"))
    );
}

/// Python imports name what the module's file defines, the module's own file, or a
/// definition under the package — never another module's namesake.
#[test]
fn python_imports_name_the_modules_files() {
    let imports = vec![
        import("formatdate", Some("email.utils")),
        import("join", Some("os.path")),
        import("io", None),
        import("utils", Some("email")),
        import("message_from_string", Some("email")),
        import("f", Some("pkg")),
        import("email.utils", None),
    ];
    let packed = vec![
        (
            "src/email/__init__.py",
            pack(vec![function("message_from_string", None)], vec![]),
        ),
        (
            "src/email/utils.py",
            pack(vec![function("formatdate", None)], vec![]),
        ),
        (
            "src/email/_parseaddr.py",
            pack(vec![function("parsedate", None)], vec![]),
        ),
        (
            "src/util/path.py",
            pack(vec![function("join", None)], vec![]),
        ),
        (
            "src/typing.py",
            pack(vec![of_kind("class", "io", None)], vec![]),
        ),
        ("src/pkg/__init__.py", pack(vec![], vec![])),
        (
            "src/pkg/sub/mod.py",
            pack(vec![function("f", None)], vec![]),
        ),
        (
            "src/pkg/utils.py",
            pack(vec![function("formatdate", None)], vec![]),
        ),
        (
            "src/email/mime/text.py",
            pack(vec![], vec![import("parsedate", Some(".._parseaddr"))]),
        ),
        (
            "src/app/main.py",
            pack(vec![function("main", None)], imports.clone()),
        ),
    ];
    let files = inputs(&packed, "python");
    let index = Index::new(&files);
    let resolve = |fi: usize, e: &RawEdge| {
        let name = &*e.target_name;
        match index.pick(fi, None, EdgeKind::Imports, name, e.qualifier.as_deref()) {
            Some((c, how)) => Some((index.path(c), index.qualified_name(c), how)),
            None => index.imported_file(fi, e).map(|(p, how)| (p, "", how)),
        }
    };
    let main = files.len() - 1;
    let got: Vec<_> = imports.iter().map(|e| resolve(main, e)).collect();
    assert_eq!(
        got,
        [
            Some(("src/email/utils.py", "formatdate", "import")),
            None,
            None,
            Some(("src/email/utils.py", "", "import")),
            Some(("src/email/__init__.py", "message_from_string", "import")),
            Some(("src/pkg/sub/mod.py", "f", "import")),
            Some(("src/email/utils.py", "", "import")),
        ]
    );
    assert_eq!(
        resolve(main - 1, &import("parsedate", Some(".._parseaddr"))),
        Some(("src/email/_parseaddr.py", "parsedate", "import"))
    );
    assert!(python_module_names("os.path", "lib/os/path.py"));
    assert!(python_module_names("pkg", "src/pkg/sub/mod.py"));
    assert!(!python_module_names("os.path", "src/util/path.py"));
    // The repository's root inside the package: `requests.api` is `api.py`.
    assert!(python_module_names("requests.api", "api.py"));
}
