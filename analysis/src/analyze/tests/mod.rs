//! Tests of analysis, by what they check; the helpers that read analyses are here.

use super::*;

mod definitions;
mod docs;
mod edges;
mod parsing;

/// The doc of symbol `qname` in `src`, analysed as `lang`.
pub(super) fn doc_of(lang: Lang, src: &str, qname: &str) -> Option<String> {
    sym(&analyze(lang, src), qname)
        .doc
        .clone()
        .map(String::from)
}

pub(super) fn sym<'a>(a: &'a FileAnalysis, qname: &str) -> &'a Symbol {
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

/// The file's edges of `kind`, in order.
pub(super) fn edges_of(a: &FileAnalysis, kind: EdgeKind) -> impl Iterator<Item = &RawEdge> {
    a.edges.iter().filter(move |e| e.kind == kind)
}

/// Whether `a` has an edge of `kind` from `source` to the name `target`.
pub(super) fn has_edge(a: &FileAnalysis, kind: EdgeKind, source: &str, target: &str) -> bool {
    a.edges
        .iter()
        .any(|e| e.kind == kind && e.source.as_deref() == Some(source) && &*e.target_name == target)
}

/// `a`'s symbols as (qualified name, kind), in order.
pub(super) fn kinds(a: &FileAnalysis) -> Vec<(&str, &'static str)> {
    a.symbols
        .iter()
        .map(|s| (&*s.qualified_name, s.kind))
        .collect()
}

/// The qualified names of `a`'s symbols of `kind`, in order.
pub(super) fn qnames<'a>(a: &'a FileAnalysis, kind: &str) -> Vec<&'a str> {
    a.symbols
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| &*s.qualified_name)
        .collect()
}

/// The polyglot fixture's sources, one per grammar.
pub(super) fn fixture_sources() -> Vec<(Lang, &'static str)> {
    macro_rules! fixture {
        ($path:literal) => {
            include_str!(concat!("../../../../tests/fixtures/polyglot/", $path))
        };
    }
    vec![
        (Lang::Rust, fixture!("rust/src/lib.rs")),
        (Lang::Python, fixture!("python/shapes.py")),
        (Lang::Python, fixture!("python/broken.py")),
        (Lang::JavaScript, fixture!("js/app.js")),
        (Lang::TypeScript, fixture!("ts/service.ts")),
        (Lang::Go, fixture!("go/server.go")),
        (Lang::Java, fixture!("java/Animal.java")),
        (Lang::C, fixture!("c/util.c")),
        (Lang::Cpp, fixture!("cpp/shape.cpp")),
        (Lang::CSharp, fixture!("csharp/Repo.cs")),
        (Lang::Ruby, fixture!("ruby/greeter.rb")),
        (Lang::Php, fixture!("php/User.php")),
    ]
}

/// Every node of a tree (named or not) in document order, each with its path of ancestors
/// (root first, ending with the node) and the siblings of those, as the walker keeps them.
pub(super) fn nodes_with_paths(tree: &tree_sitter::Tree, mut f: impl FnMut(&[Node], Up<'_, '_>)) {
    let mut path = rules::Path::default();
    let mut stack = vec![(tree.root_node(), 0usize, 0usize)];
    let mut cursor = tree.walk();
    while let Some((node, depth, place)) = stack.pop() {
        let children = path.enter(node, depth, place, true);
        // The one-pass listing (`Node::append_children`, patched into tree-sitter) gives the
        // children a cursor visits, in its order, with the same positions and kinds.
        let listed: Vec<_> = path.siblings()[children.clone()]
            .iter()
            .map(|c| (c.id(), c.kind_id(), c.byte_range(), c.start_position()))
            .collect();
        let visited: Vec<_> = node
            .children(&mut cursor)
            .map(|c| (c.id(), c.kind_id(), c.byte_range(), c.start_position()))
            .collect();
        assert_eq!(listed, visited, "{}", node.kind());
        // Every listed child's parent (the visited node's, its ancestors' and theirs) is
        // answered from the walk as the tree answers it.
        for &c in path.siblings() {
            let expected = c.parent().map(|p| p.id());
            assert_eq!(
                path.up().parent(c).map(|p| p.id()),
                expected,
                "{}",
                c.kind()
            );
        }
        f(path.nodes(), path.up());
        for i in children.rev() {
            stack.push((path.siblings()[i], depth + 1, i));
        }
    }
}

/// The receiver types of `a`'s calls: (target name, qualifier, receiver type), in order.
pub(super) fn receivers(a: &FileAnalysis) -> Vec<(&str, &str, &str)> {
    a.edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls)
        .filter_map(|e| {
            Some((
                &*e.target_name,
                e.qualifier.as_deref()?,
                e.receiver_type.as_deref()?,
            ))
        })
        .collect()
}

/// A file's calls as (name, receiver type).
pub(super) fn call_receivers(a: &FileAnalysis) -> Vec<(&str, Option<&str>)> {
    a.edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Calls)
        .map(|e| (&*e.target_name, e.receiver_type.as_deref()))
        .collect()
}

/// A file's edges of `kind` as (target name, qualifier), in order.
pub(super) fn named(a: &FileAnalysis, kind: EdgeKind) -> Vec<(&str, Option<&str>)> {
    a.edges
        .iter()
        .filter(|e| e.kind == kind)
        .map(|e| (&*e.target_name, e.qualifier.as_deref()))
        .collect()
}

/// A file's imports as (name, module, alias).
pub(super) fn aliased_imports(a: &FileAnalysis) -> Vec<(&str, Option<&str>, Option<&str>)> {
    a.edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Imports)
        .map(|e| (&*e.target_name, e.qualifier.as_deref(), e.alias.as_deref()))
        .collect()
}
