//! Rust resolution.

use super::*;

#[test]
fn rust_path_heads_as_split_reads_them() {
    for path in [
        "",
        "::",
        "::::",
        "std",
        "::std::sync::Arc",
        "a::b",
        "a:b::c",
        "a:::b",
        ":::a::b",
        "crate::x",
        "Vec::<u8>::new",
        "a:",
        ":a",
        "é::x",
        "::é",
    ] {
        let split = path
            .trim_start_matches("::")
            .split("::")
            .next()
            .unwrap_or("");
        assert_eq!(rust_path_head(path), split, "{path:?}");
    }
}

/// What [`reached_crates`] finds, head by head and name by name.
fn head_names_crate(head: &str, name: &str) -> bool {
    head == name
        || name.strip_prefix(head).is_some_and(|r| r.starts_with('_'))
        || head.strip_suffix(name).is_some_and(|r| r.ends_with('_'))
}

#[test]
fn crates_reached_as_every_head_compared_with_every_name() {
    let names: Vec<String> = [
        "arrow",
        "arrow_array",
        "arrow_array_x",
        "analysis",
        "quarry_analysis",
        "",
        "a_b",
        "b",
        "tokio",
        "tokio_util",
        "linux_raw_sys",
        "sys",
    ]
    .map(String::from)
    .to_vec();
    let heads: Vec<rustc_hash::FxHashSet<&str>> = [
        &["arrow", "std"][..],
        &["quarry_analysis", "tokio"],
        &["x_", "_b", "a"],
        &["linux_raw_sys", "raw", "arrow_array"],
        &[],
        &["tokio_util_more", "b_tokio", "a_b"],
    ]
    .iter()
    .map(|h| h.iter().copied().collect())
    .collect();
    let reached = reached_crates(&names, &heads);
    for (a, heads) in heads.iter().enumerate() {
        let expected: Vec<u32> = (0..names.len() as u32)
            .filter(|&b| {
                heads
                    .iter()
                    .any(|h| head_names_crate(h, &names[b as usize]))
            })
            .collect();
        assert_eq!(reached[a], expected, "crate {a}'s heads {heads:?}");
    }
    // Spelled out for two: a facade reaches its parts, a renamed dependency its crate.
    assert_eq!(reached[0], vec![0, 1, 2]);
    assert!(reached[1].contains(&3) && reached[1].contains(&4) && reached[1].contains(&8));
}

/// Rust: a guess by name takes another crate's definition only where the caller's crate
/// names that crate in a `use` (crates by `Cargo.toml`, `src/lib.rs` or `src/main.rs`).
#[test]
fn rust_guesses_stay_in_crates_the_caller_names() {
    let packed = vec![
        ("libc-0.2.1/src/lib.rs", pack(vec![], vec![])),
        (
            "libc-0.2.1/src/unix/mod.rs",
            pack(vec![function("f", None)], vec![]),
        ),
        (
            "linux-raw-sys-0.12.1/src/lib.rs",
            pack(vec![of_kind("type_alias", "c_int", Some("ctypes"))], vec![]),
        ),
        (
            "rustix-1.0.0/src/lib.rs",
            pack(
                vec![function("g", None)],
                vec![import("general", Some("linux_raw_sys"))],
            ),
        ),
    ];
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let pick = |from: usize| {
        index
            .pick(from, None, EdgeKind::References, "c_int", None)
            .map(|(c, _)| index.qualified_name(c))
    };
    assert_eq!(pick(1), None);
    assert_eq!(pick(3), Some("ctypes.c_int"));
}

/// Rust's prelude types and generic parameters (`T`) are another file's only where the
/// file imports them (by name or a whole module); its own come first.
#[test]
fn prelude_types_and_generic_parameters_stay_in_their_file() {
    let packed = vec![
        (
            "a/lib.rs",
            pack(
                vec![
                    of_kind("type_alias", "Result", None),
                    of_kind("struct", "T", None),
                ],
                vec![],
            ),
        ),
        ("b/main.rs", pack(vec![function("main", None)], vec![])),
        (
            "c/uses.rs",
            pack(
                vec![function("main", None)],
                vec![import("Result", Some("a"))],
            ),
        ),
        (
            "d/star.rs",
            pack(vec![function("main", None)], vec![import("*", Some("a"))]),
        ),
        (
            "e/own.rs",
            pack(
                vec![of_kind("struct", "T", None), function("main", None)],
                vec![],
            ),
        ),
    ];
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let pick = |fi: usize, name: &str| {
        index
            .pick(fi, Some("main"), EdgeKind::References, name, None)
            .map(|(c, how)| (index.path(c), how))
    };
    assert_eq!(pick(1, "Result"), None);
    assert_eq!(pick(1, "T"), None);
    assert_eq!(pick(2, "Result"), Some(("a/lib.rs", "import")));
    assert_eq!(pick(3, "T"), Some(("a/lib.rs", "import")));
    assert_eq!(pick(3, "Result"), Some(("a/lib.rs", "import")));
    assert_eq!(pick(4, "T"), Some(("e/own.rs", "same_file")));
}

/// A Rust bare call reaches another file's function only through an import: by name
/// (found by name when its path names no file here, as a re-export's does), or of its
/// module whole. A macro is never a call's target (`f!` is no call edge).
#[test]
fn rust_bare_calls_need_an_import() {
    let packed = vec![
        (
            "src/util.rs",
            pack(
                vec![function("helper", None), of_kind("macro", "f", None)],
                vec![],
            ),
        ),
        ("src/plain.rs", pack(vec![function("main", None)], vec![])),
        (
            "src/glob.rs",
            pack(
                vec![function("main", None)],
                vec![import("*", Some("crate::util"))],
            ),
        ),
        (
            "src/reexport.rs",
            pack(
                vec![function("main", None)],
                vec![import("helper", Some("crate::prelude"))],
            ),
        ),
    ];
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let pick = |fi: usize, name: &str| {
        index
            .pick(fi, Some("main"), EdgeKind::Calls, name, None)
            .map(|(c, how)| (index.path(c), how))
    };
    assert_eq!(pick(1, "helper"), None);
    assert_eq!(pick(1, "f"), None);
    assert_eq!(pick(2, "helper"), Some(("src/util.rs", "import")));
    assert_eq!(pick(3, "helper"), Some(("src/util.rs", "unique_name")));
    assert_eq!(pick(0, "f"), None);
    // A crate's directory by the name its paths use: `my-lib` is `my_lib`, a registry's
    // `rand-0.8.8` is `rand`.
    assert_eq!(rust_crate_name("rand-0.8.8").as_deref(), Some("rand"));
    assert_eq!(
        rust_crate_name("lance-index-14.0.2").as_deref(),
        Some("lance_index")
    );
    assert_eq!(rust_crate_name("my-lib").as_deref(), Some("my_lib"));
    assert_eq!(rust_crate_name("src"), None);
    let packed = vec![
        (
            "vendor/rand-0.8.8/src/rng.rs",
            pack(vec![of_kind("trait", "Rng", None)], vec![]),
        ),
        (
            "crates/my-lib/src/util.rs",
            pack(vec![function("helper", None)], vec![]),
        ),
        (
            "other/util.rs",
            pack(vec![function("helper", None)], vec![]),
        ),
        (
            "crates/app/src/main.rs",
            pack(
                vec![function("main", None)],
                vec![
                    import("Rng", Some("rand")),
                    import("helper", Some("my_lib::util")),
                ],
            ),
        ),
    ];
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let pick = |kind: EdgeKind, name: &str| {
        index
            .pick(3, Some("main"), kind, name, None)
            .map(|(c, how)| (index.path(c), how))
    };
    assert_eq!(
        pick(EdgeKind::References, "Rng"),
        Some(("vendor/rand-0.8.8/src/rng.rs", "import"))
    );
    assert_eq!(
        pick(EdgeKind::Calls, "helper"),
        Some(("crates/my-lib/src/util.rs", "import"))
    );
}

/// Rust: `Type::f()` of a type of the repository that was not found to have `f` is a
/// trait's `f` (a derive, another crate's impl, a provided method) — never another type's.
#[test]
fn rust_type_functions_it_lacks_are_traits() {
    let packed = vec![
        (
            "rand_core-0.6.4/src/lib.rs",
            pack(
                vec![
                    of_kind("trait", "SeedableRng", None),
                    of_kind("method", "seed_from_u64", Some("SeedableRng")),
                    of_kind("method", "from_entropy", Some("SeedableRng")),
                ],
                vec![],
            ),
        ),
        (
            "hashbrown-0.15.0/src/raw.rs",
            pack(
                vec![
                    of_kind("struct", "TableLayout", None),
                    of_kind("method", "new", Some("TableLayout")),
                    of_kind("method", "seed_from_u64", Some("TableLayout")),
                ],
                vec![],
            ),
        ),
        (
            "app/src/rng.rs",
            pack(vec![of_kind("struct", "StdRng", None)], vec![]),
        ),
        (
            "app/src/main.rs",
            pack(
                vec![function("main", None)],
                vec![
                    import("SeedableRng", Some("rand_core")),
                    import("HashMap", Some("hashbrown")),
                    import("StdRng", Some("crate::rng")),
                ],
            ),
        ),
        (
            "app/src/other.rs",
            pack(
                vec![function("main", None)],
                vec![import("StdRng", Some("crate::rng"))],
            ),
        ),
    ];
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let pick = |fi: usize, name: &str, q: &str| {
        index
            .pick(fi, Some("main"), EdgeKind::Calls, name, Some(q))
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    // The imported trait's, not hashbrown's type's namesake.
    assert_eq!(
        pick(3, "seed_from_u64", "StdRng"),
        Some(("SeedableRng.seed_from_u64", "import"))
    );
    // No trait has `new`: nothing, not `TableLayout.new`.
    assert_eq!(pick(3, "new", "StdRng"), None);
    // Without the import: the one definition of the name, a trait's.
    assert_eq!(
        pick(4, "from_entropy", "StdRng"),
        Some(("SeedableRng.from_entropy", "unique_name"))
    );
    // A standard trait's function (a derived `Default`) is the standard library's.
    assert_eq!(pick(3, "default", "StdRng"), None);
}

/// Rust: what a file takes from the standard library (`use std::sync::Arc`, `std::…`
/// paths) is never a definition of the repository, whatever its files are named.
#[test]
fn rust_standard_library_paths_name_nothing_here() {
    let arc = of_kind("struct", "Arc", None);
    let new = of_kind("method", "new", Some("Arc"));
    let packed = vec![
        ("a/sync.rs", pack(vec![arc, new], vec![])),
        (
            "b/main.rs",
            pack(
                vec![function("main", None)],
                vec![import("Arc", Some("std::sync")), import("fmt", Some("std"))],
            ),
        ),
        ("c/other.rs", pack(vec![function("other", None)], vec![])),
    ];
    let files = inputs(&packed, "rust");
    let index = Index::new(&files);
    let pick = |fi: usize, kind: EdgeKind, name: &str, q: Option<&str>| {
        index
            .pick(fi, Some("main"), kind, name, q)
            .map(|(c, how)| (index.qualified_name(c), how))
    };
    assert_eq!(pick(1, EdgeKind::References, "Arc", None), None);
    assert_eq!(pick(1, EdgeKind::Imports, "Arc", Some("std::sync")), None);
    assert_eq!(pick(1, EdgeKind::Calls, "new", Some("Arc")), None);
    assert_eq!(
        pick(1, EdgeKind::Calls, "new", Some("::std::sync::Arc")),
        None
    );
    assert_eq!(
        pick(1, EdgeKind::Calls, "new", Some("fmt::Arguments")),
        None
    );
    // A file that does not import it finds the repository's.
    assert_eq!(
        pick(2, EdgeKind::References, "Arc", None),
        Some(("Arc", "unique_name"))
    );
    assert_eq!(
        pick(2, EdgeKind::Calls, "new", Some("Arc")),
        Some(("Arc.new", "qualified"))
    );
}
