//! Go resolution.

use super::*;

#[test]
fn go_receivers_are_read_from_signatures() {
    assert_eq!(
        go_receiver("func (s *Server) Handle(path string) string"),
        Some("s")
    );
    assert_eq!(go_receiver("func (srv Server[T]) Run()"), Some("srv"));
    assert_eq!(go_receiver("func (*Server) Handle()"), None);
    assert_eq!(go_receiver("func (Server) Handle()"), None);
    assert_eq!(go_receiver("func (_ *Server) Handle()"), None);
    assert_eq!(go_receiver("func Handle(s *Server)"), None);
}

/// Go: a bare call names its own package's function (its directory) or a dot-imported
/// package's. JavaScript: a file that imports anything is a module, whose bare names are
/// its own, imported or global; a script without imports still reaches other files'.
#[test]
fn go_packages_and_javascript_modules_bound_bare_calls() {
    let resolve = |language: &str, caller_imports: Vec<RawEdge>, name: &str| {
        let packed = vec![
            ("app/util.go", pack(vec![function("near", None)], vec![])),
            (
                "lib/other/other.go",
                pack(vec![function("far", None), function("near", None)], vec![]),
            ),
            (
                "app/main.go",
                pack(vec![function("main", None)], caller_imports),
            ),
        ];
        let files = inputs(&packed, language);
        let index = Index::new(&files);
        index
            .pick(2, Some("main"), EdgeKind::Calls, name, None)
            .map(|(c, how)| (index.path(c).to_string(), how))
    };
    assert_eq!(
        resolve("go", vec![], "near"),
        Some(("app/util.go".to_string(), "same_package"))
    );
    assert_eq!(resolve("go", vec![], "far"), None);
    assert_eq!(
        resolve(
            "go",
            vec![import("*", Some("example.com/lib/other"))],
            "far"
        ),
        Some(("lib/other/other.go".to_string(), "import"))
    );
    // An alias binds a package name, not its functions.
    assert_eq!(
        resolve(
            "go",
            vec![import("o", Some("example.com/lib/other"))],
            "far"
        ),
        None
    );
    // JavaScript: a script reaches another file's function; a module does not.
    assert_eq!(
        resolve("javascript", vec![], "far"),
        Some(("lib/other/other.go".to_string(), "unique_name"))
    );
    assert_eq!(
        resolve("javascript", vec![import("x", Some("./x"))], "far"),
        None
    );
    assert_eq!(
        resolve(
            "typescript",
            vec![import("far", Some("../lib/other/other"))],
            "far"
        ),
        Some(("lib/other/other.go".to_string(), "import"))
    );
}

/// Go: a call written alone may call a package-level variable of its package (`var
/// DaysIn = daysIn`, `var Usage = func() {…}`), not another package's; what calling one
/// returns is not its declared type.
#[test]
fn go_calls_reach_package_level_function_variables() {
    let var = |name: &str, signature: &str| {
        let mut s = of_kind("variable", name, None);
        s.signature = signature.into();
        s
    };
    let packed = vec![
        (
            "time/export_test.go",
            pack(
                vec![
                    var("DaysIn", "DaysIn = daysIn"),
                    var("Ctxt", "Ctxt *File"),
                    var("Discard", "Discard Writer"),
                ],
                vec![],
            ),
        ),
        (
            "time/file.go",
            pack(
                vec![
                    of_kind("struct", "File", None),
                    of_kind("method", "Close", Some("File")),
                    of_kind("method", "Discard", Some("File")),
                ],
                vec![],
            ),
        ),
        (
            "time/time_test.go",
            pack(vec![function("TestDaysIn", None)], vec![]),
        ),
        ("other/main.go", pack(vec![function("main", None)], vec![])),
    ];
    let files = inputs(&packed, "go");
    let index = Index::new(&files);
    let pick = |from: usize, source: &str, name: &str| {
        index
            .pick(from, Some(source), EdgeKind::Calls, name, None)
            .map(|(c, how)| (index.qualified_name(c).to_string(), how))
    };
    assert_eq!(
        pick(2, "TestDaysIn", "DaysIn"),
        Some(("DaysIn".to_string(), "same_package"))
    );
    assert_eq!(pick(3, "main", "DaysIn"), None);
    // `f.Discard(n)` on a value: the one method of that name, as sure as before variables
    // were called.
    assert_eq!(
        index
            .pick(2, Some("TestDaysIn"), EdgeKind::Calls, "Discard", Some("f"))
            .map(|(c, how)| (index.qualified_name(c).to_string(), how)),
        Some(("File.Discard".to_string(), "unique_name"))
    );
    // `Ctxt(name).Close()`: `Ctxt` holds a `*File`, which calling does not return.
    let chain = crate::analyze::returns::chained("Ctxt(name)").expect("a call");
    let ctxt = pick(2, "TestDaysIn", "Ctxt");
    assert_eq!(ctxt, Some(("Ctxt".to_string(), "same_package")));
    let callee = index.pick(2, Some("TestDaysIn"), EdgeKind::Calls, "Ctxt", None);
    let close = index.call_result_member(2, EdgeKind::Calls, "Close", &chain, callee.map(|t| t.0));
    assert_eq!(close.flatten(), None);
}

/// Go: a name defined in several files of the caller's package, one per platform, is
/// the one built beside the caller (by the platforms file names and `//go:build` lines
/// state; `linux`/`amd64` for a file that states none); a test file's definitions are
/// seen only from test files.
#[test]
fn go_names_defined_per_platform_take_the_callers_platform() {
    let built = |path, name, line: Option<&str>| {
        let a = FileAnalysis {
            symbols: vec![function(name, None)],
            go_build: line.map(str::to_string),
            ..Default::default()
        };
        (path, Packed::new(&a).unwrap())
    };
    let defines = |path, name| built(path, name, None);
    let packed = vec![
        defines("rt/os_darwin.go", "sigblock"),
        defines("rt/os_linux.go", "sigblock"),
        defines("rt/os_windows.go", "sigblock"),
        built(
            "rt/lock_futex.go",
            "lock",
            Some("dragonfly || freebsd || linux"),
        ),
        built("rt/lock_sema.go", "lock", Some("aix || darwin || windows")),
        defines("rt/stubs_arm64.go", "getg"),
        defines("rt/stubs_386.go", "getg"),
        defines("rt/export_test.go", "Exported"),
        defines("rt/proc.go", "main"),
        defines("rt/signal_windows.go", "handle"),
        defines("rt/proc_test.go", "TestX"),
        built("rt/mem.go", "alloc", Some("windows")),
        // Its line does not parse: it constrains nothing.
        built("rt/odd.go", "odd", Some("linux &&")),
        // Generators' inputs, built by no default build: stand-ins for the generated
        // files (skipped), by their names.
        built("rt/types_linux.go", "Stat", Some("ignore")),
        built("rt/types_darwin.go", "Stat", Some("ignore")),
        built("rt/time_fake.go", "nanotime", Some("faketime && !windows")),
        built("rt/time_nofake.go", "nanotime", Some("!faketime")),
    ];
    let files = inputs(&packed, "go");
    let index = Index::new(&files);
    let pick = |from: usize, name: &str| {
        index
            .pick(from, None, EdgeKind::Calls, name, None)
            .map(|(c, how)| (index.path(c), how))
    };
    let (proc, windows, test) = (8, 9, 10);
    assert_eq!(
        pick(proc, "sigblock"),
        Some(("rt/os_linux.go", "same_package"))
    );
    assert_eq!(
        pick(windows, "sigblock"),
        Some(("rt/os_windows.go", "same_package"))
    );
    // Both fit any platform by name; their `//go:build` lines choose.
    assert_eq!(
        pick(proc, "lock"),
        Some(("rt/lock_futex.go", "same_package"))
    );
    // A file built for Windows by its line alone calls Windows's `sigblock` and `lock`.
    let (mem, odd) = (11, 12);
    assert_eq!(
        pick(mem, "sigblock"),
        Some(("rt/os_windows.go", "same_package"))
    );
    assert_eq!(pick(mem, "lock"), Some(("rt/lock_sema.go", "same_package")));
    assert_eq!(
        pick(odd, "lock"),
        Some(("rt/lock_futex.go", "same_package"))
    );
    assert_eq!(
        pick(proc, "Stat"),
        Some(("rt/types_linux.go", "same_package"))
    );
    assert_eq!(
        pick(proc, "nanotime"),
        Some(("rt/time_nofake.go", "same_package"))
    );
    // None fits `amd64`: a guess among them.
    assert_eq!(pick(proc, "getg").map(|(_, how)| how), Some("ambiguous"));
    // The only one, but for another platform: a guess (the caller may be built for
    // several).
    assert_eq!(
        pick(proc, "handle"),
        Some(("rt/signal_windows.go", "unique_name"))
    );
    assert_eq!(pick(proc, "Exported"), None);
    assert_eq!(
        pick(test, "Exported"),
        Some(("rt/export_test.go", "same_package"))
    );
}

/// Go: an import path names a package's directory — the path under a GOPATH `src/`, a
/// `vendor/` or the root, anywhere for a domain's path, else its last names (the
/// repository is the module) — and its file: not a test, `doc.go` first. A path without
/// a domain is the standard library's, and `testdata` is seen only from inside it.
#[test]
fn go_import_paths_name_package_directories() {
    let packed: Vec<(&str, Packed)> = [
        "api/http/server.go",
        "internal/util/util_test.go",
        "internal/util/x.go",
        "src/golang.org/x/net/ipv4/doc.go",
        "src/golang.org/x/net/ipv4/ipv4.go",
        "src/golang.org/x/tools/go/testdata/lib/lib.go",
        "tools/testdata/src/fmt/fmt.go",
        "tools/testdata/src/a/a.go",
        "yaml.v3/decode.go",
        "main.go",
    ]
    .into_iter()
    .map(|p| (p, pack(vec![], vec![])))
    .collect();
    let files = inputs(&packed, "go");
    let index = Index::new(&files);
    let from = |fi: usize, import: &str| {
        index
            .go_package(fi, import)
            .map(|(dir, file)| (dir, index.files[file as usize].path))
    };
    let main = 9;
    assert_eq!(
        from(main, "example.com/m/internal/util"),
        Some(("internal/util", "internal/util/x.go"))
    );
    assert_eq!(from(main, "example.com/m/pkg/util"), None);
    assert_eq!(from(main, "net/http"), None);
    assert_eq!(
        from(main, "golang.org/x/net/ipv4"),
        Some((
            "src/golang.org/x/net/ipv4",
            "src/golang.org/x/net/ipv4/doc.go"
        ))
    );
    assert_eq!(
        from(main, "gopkg.in/yaml.v3"),
        Some(("yaml.v3", "yaml.v3/decode.go"))
    );
    assert_eq!(from(main, "fmt"), None);
    assert_eq!(
        from(7, "fmt"),
        Some(("tools/testdata/src/fmt", "tools/testdata/src/fmt/fmt.go"))
    );
    // A path through `testdata` names that package from outside it.
    assert_eq!(
        from(main, "golang.org/x/tools/go/testdata/lib"),
        Some((
            "src/golang.org/x/tools/go/testdata/lib",
            "src/golang.org/x/tools/go/testdata/lib/lib.go"
        ))
    );
}
