//! Parsing: syntax errors, depth and memory bounds, the kind table.

use super::*;

#[test]
fn nested_structures_add_nesting() {
    // Sonar's example shape: for (+1) > if (+2) > while (+3) = 6
    let src = "def f(xs):\n    for x in xs:\n        if x:\n            while x:\n                x -= 1\n";
    let a = analyze(Lang::Python, src);
    assert_eq!(sym(&a, "f").complexity, Some(6));
}

#[test]
fn syntax_errors_still_index_what_parses() {
    let src = "def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass Fine:\n    pass\n";
    let a = analyze(Lang::Python, src);
    assert!(a.had_errors);
    assert!(a.symbols.iter().any(|s| &*s.name == "ok"));
    assert!(a.symbols.iter().any(|s| &*s.name == "Fine"));
}

#[test]
fn deep_nesting_is_bounded() {
    let src = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let a = analyze(Lang::Python, &src);
    assert_eq!(kinds(&a), [("x", "variable")]);
}

#[test]
fn kind_table_and_walker_parents_and_siblings_agree_with_tree_sitter() {
    for (lang, src) in fixture_sources() {
        let grammar = lang.grammar().unwrap();
        let mut parser = Parser::new();
        parser.set_language(&grammar).unwrap();
        let tree = parser.parse(src, None).unwrap();
        // `kind_of` reads the table analysis installs for its language.
        analyze(lang, src);
        let mut nodes = 0;
        nodes_with_paths(&tree, |path, up| {
            for (i, &n) in path.iter().enumerate() {
                let before: Vec<usize> = up.prev_siblings(n).map(|s| s.id()).collect();
                let expected: Vec<usize> =
                    std::iter::successors(n.prev_sibling(), |s| s.prev_sibling())
                        .map(|s| s.id())
                        .collect();
                assert_eq!(before, expected, "{lang:?} {}", n.kind());
                assert_eq!(kind_of(n), n.kind(), "{lang:?}");
                let expected = n.parent().map(|p| p.id());
                assert_eq!(
                    up.parent(n).map(|p| p.id()),
                    expected,
                    "{lang:?} {}",
                    n.kind()
                );
                if i > 0 {
                    assert_eq!(expected, Some(path[i - 1].id()));
                }
            }
            nodes += 1;
        });
        assert!(nodes > 20, "{lang:?}: {nodes} nodes");
    }
}
#[test]
fn a_parse_past_its_memory_budget_is_given_up_and_the_next_file_parses() {
    let src = "fn f() { g(1); }\n".repeat(2_000);
    // Within the default budget: analysed.
    let a = analyze_within_budget(Lang::Rust, &src).unwrap();
    assert_eq!(a.symbols.len(), 2_000);
    // Below what the tree needs: given up, named with the budget.
    let small = 256 << 10;
    assert_eq!(
        analyze_with_budget(Lang::Rust, &src, small).unwrap_err(),
        ParseGivenUp::Memory(small)
    );
    // Tree-sitter's unbounded error recovery (it held 23 GB on 900 KB of this as Java).
    let ambiguous = format!("{}\n", "a<".repeat(50)).repeat(9_000);
    let why = analyze_within_budget(Lang::Java, &ambiguous).unwrap_err();
    assert_eq!(why, ParseGivenUp::Memory(PARSE_MEMORY_BUDGET));
    assert!(why.to_string().contains("more than 256 MiB"), "{why}");
    assert!(analyze(Lang::Java, &ambiguous).symbols.is_empty());
    // The thread's arena is whole again: the next file parses as before.
    assert_eq!(analyze(Lang::Rust, &src), a);
    assert_eq!(
        analyze(Lang::Java, "class A { void m() {} }").symbols.len(),
        2
    );
}

#[test]
fn whitespace_collapses_as_split_and_joined() {
    // What `collapse_whitespace` returned before it was one pass: the words, one space apart.
    let reference = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        "",
        " ",
        "a",
        "a b",
        " a",
        "a ",
        "a  b",
        "a\tb",
        "a\n  .b()\n  .c()",
        "x\u{a0}y",
        "\u{3000}a",
        "é  ü",
    ] {
        assert_eq!(collapse_whitespace(s), reference(s), "{s:?}");
        // Already collapsed: borrowed.
        let r = reference(s);
        assert!(
            matches!(collapse_whitespace(&r), std::borrow::Cow::Borrowed(_)),
            "{r:?}"
        );
    }
    // Bounded: whole when it fits, else a prefix of the whole longer than the bound.
    let long = "a\n    .bb(x)\n    .ccc(y, z)\n    .dddd()".repeat(20);
    let whole = reference(&long);
    for max in [0, 1, 5, 40, 200, whole.len() - 1, whole.len(), usize::MAX] {
        let cut = collapse_whitespace_within(&long, max);
        if whole.len() <= max {
            assert_eq!(cut, whole);
        } else {
            assert!(
                cut.len() > max && whole.starts_with(&*cut),
                "{max}: {cut:?}"
            );
        }
    }
}
