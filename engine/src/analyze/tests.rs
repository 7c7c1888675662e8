use super::*;

fn sym<'a>(a: &'a FileAnalysis, qname: &str) -> &'a Symbol {
    a.symbols
        .iter()
        .find(|s| &*s.qualified_name == qname)
        .unwrap_or_else(|| {
            panic!(
                "no symbol {qname} in {:#?}",
                a.symbols
                    .iter()
                    .map(|s| &s.qualified_name)
                    .collect::<Vec<_>>()
            )
        })
}

#[test]
fn rust_symbols_methods_and_impl_edges() {
    let src = "/// A parser.\npub struct Parser { pos: usize }\n\nimpl Iterator for Parser {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { self.bump(); None }\n}\n\nimpl Parser {\n    fn bump(&mut self) { if self.pos > 0 && self.pos < 10 { self.pos += 1 } else if self.pos == 0 { } else { } }\n}\n";
    let a = analyze(Lang::Rust, src);
    let p = sym(&a, "Parser");
    assert_eq!(
        (p.kind, p.start_line, p.end_line, p.is_public),
        ("struct", 2, 2, true)
    );
    assert_eq!(p.summary(), "A parser.");
    assert_eq!(sym(&a, "Parser.pos").kind, "field");
    let next = sym(&a, "Parser.next");
    assert_eq!((next.kind, next.is_public), ("method", true));
    let bump = sym(&a, "Parser.bump");
    assert_eq!((bump.kind, bump.is_public), ("method", false));
    // if (+1), && (+1), else if (+1), else (+1)
    assert_eq!(bump.complexity, Some(4));
    assert!(a.edges.iter().any(|e| e.kind == EdgeKind::Implements
        && e.source.as_deref() == Some("Parser")
        && &*e.target_name == "Iterator"));
    assert!(a.edges.iter().any(|e| e.kind == EdgeKind::Calls
        && e.source.as_deref() == Some("Parser.next")
        && &*e.target_name == "bump"
        && e.qualifier.as_deref() == Some("self")));
}

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
    assert!(a.symbols.is_empty());
}

#[test]
fn rust_use_lists_expand() {
    let src = "use std::collections::{HashMap, hash_map::Entry as E};\nuse crate::lang::Lang;\n";
    let a = analyze(Lang::Rust, src);
    let imports: Vec<_> = a
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Imports)
        .map(|e| (&*e.target_name, e.qualifier.as_deref()))
        .collect();
    assert_eq!(
        imports,
        vec![
            ("HashMap", Some("std::collections")),
            ("Entry", Some("std::collections::hash_map")),
            ("Lang", Some("crate::lang")),
        ]
    );
}
