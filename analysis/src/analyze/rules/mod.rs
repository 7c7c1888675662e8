//! Per-language knowledge: which nodes define symbols, what they are called, which nodes are
//! calls, heritage, imports and references. Everything grammar-specific lives here so the
//! walker (`walker.rs`) stays language-neutral.
//!
//! One file per question (`kinds`, `visibility`, `docs`, `calls`, `imports`, `references`,
//! `types`) holds its dispatch on [`Lang`] and the rules several languages share, asked by
//! node kind. One file per language family (`rust`, `python`, `js_ts`, `go`, `java`, `c_cpp`,
//! `csharp`, `ruby`, `php`) holds that family's own answers to the questions whose rules are
//! wholly per language (`def_kind`, `typed_bindings`, `imports`) and its own helpers.

use tree_sitter::Node;

use super::kind_of;

use super::EdgeKind;
use crate::lang::Lang;

mod c_cpp;
mod calls;
mod csharp;
mod docs;
mod go;
mod imports;
mod java;
mod js_ts;
mod kinds;
mod php;
mod python;
mod references;
mod ruby;
mod rust;
mod types;
mod visibility;

pub use self::{calls::*, docs::*, imports::*, kinds::*, references::*, types::*, visibility::*};
// What one language's rules ask of another question's (a JavaScript function value in a doc
// comment's search, a Ruby mixin in the references).
use self::{
    js_ts::{JS_FUNCTION_VALUES, js_assigned_owner, js_unwrapped},
    php::php_reference,
    ruby::{ruby_mixin, ruby_visibility},
};

/// Symbol kinds whose bodies hold members (functions inside them become methods).
pub const TYPE_KINDS: &[&str] = &["class", "struct", "interface", "trait", "enum", "impl"];

fn field<'t>(n: Node<'t>, name: &'static str) -> Option<Node<'t>> {
    super::field_of(n, name)
}

/// The kind of a node's parent, asked of the tree (for nodes off the walker's path).
fn parent_kind(n: Node) -> &'static str {
    n.parent().map(|p| kind_of(p)).unwrap_or("")
}

/// The ancestors of the node being visited, root first and ending with the node itself, and
/// their siblings. The walker knows them; `Node::parent` searches down from the root on every
/// call (5 % of analysis on the registry), and `Node::prev_sibling` asks for the parent and
/// then goes through its children (quadratic in a file's top-level items for doc comments).
#[derive(Clone, Copy)]
pub struct Up<'a, 't> {
    path: &'a Path<'t>,
}

/// Where a depth-first walk is: the path from the root to the node entered last, and every
/// child (named or not) of each node on it. [`Path::up`] answers the rules from it.
#[derive(Default)]
pub struct Path<'t> {
    nodes: Vec<Node<'t>>,
    /// Where each path node is in `siblings` (the root: 0, it has none).
    at: Vec<usize>,
    /// Where each path node's run of children starts in `siblings`.
    runs: Vec<usize>,
    siblings: Vec<Node<'t>>,
}

impl<'t> Path<'t> {
    /// Enter `node`, at `depth`, found at `place` in [`Self::siblings`] (its parent's run);
    /// nodes must be entered in document order. Lists its children when `list` (none
    /// otherwise); returns where they are.
    pub fn enter(
        &mut self,
        node: Node<'t>,
        depth: usize,
        place: usize,
        list: bool,
    ) -> std::ops::Range<usize> {
        self.nodes.truncate(depth);
        self.nodes.push(node);
        self.at.truncate(depth);
        self.at.push(place);
        // The runs of nodes entered at this depth or deeper before are finished with.
        if let Some(&end) = self.runs.get(depth) {
            self.siblings.truncate(end);
        }
        self.runs.truncate(depth);
        let run = self.siblings.len();
        self.runs.push(run);
        if list {
            // One pass over the children (tree-sitter's `ts_node_children`, patched in): each
            // `child(i)` walks the children from the first, and a cursor's step re-derives its
            // parent's iterator and moves twice (~500 instructions a step).
            node.append_children(&mut self.siblings);
        }
        run..self.siblings.len()
    }

    /// The path, root first, ending with the node entered last.
    pub fn nodes(&self) -> &[Node<'t>] {
        &self.nodes
    }

    /// The children of the path's nodes; [`Self::enter`] says where each node's are.
    pub fn siblings(&self) -> &[Node<'t>] {
        &self.siblings
    }

    /// What the rules ask of the walk: parents and earlier siblings of the path's nodes.
    pub fn up(&self) -> Up<'_, 't> {
        Up { path: self }
    }
}

impl<'a, 't> Up<'a, 't> {
    /// The siblings before `n`, nearest first (named or not), as `Node::prev_sibling`
    /// repeated would give them: from the walker's runs when `n` is on the path.
    pub fn prev_siblings(self, n: Node<'t>) -> impl Iterator<Item = Node<'t>> + 'a {
        let p = self.path;
        let known = match p.nodes.iter().rposition(|a| a.id() == n.id()) {
            Some(0) => Some(&[][..]),
            Some(i) => Some(&p.siblings[p.runs[i - 1]..p.at[i]]),
            None => None,
        };
        let asked = known.is_none().then_some(n);
        known
            .into_iter()
            .flat_map(|run| run.iter().rev().copied())
            .chain(std::iter::successors(
                asked.and_then(|n| n.prev_sibling()),
                |p| p.prev_sibling(),
            ))
    }

    /// The siblings after `n` (named or not), nearest first, when `n` is on the path (the
    /// walker lists each path node's children); none otherwise.
    pub fn next_siblings(self, n: Node<'t>) -> &'a [Node<'t>] {
        let p = self.path;
        match p.nodes.iter().rposition(|a| a.id() == n.id()) {
            Some(i) if i > 0 => p.siblings.get(p.at[i] + 1..p.runs[i]).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The parent of `n`: answered from the path when `n` is on it or a child of a node on
    /// it (the visited node's children mostly: the rules look at what they are about to
    /// resolve), else asked of the tree (`Node::parent` searches down from the root: ~10 000
    /// instructions a call on the registry's files).
    pub fn parent(self, n: Node<'t>) -> Option<Node<'t>> {
        let p = self.path;
        match p.nodes.iter().rposition(|a| a.id() == n.id()) {
            Some(0) => None,
            Some(i) => Some(p.nodes[i - 1]),
            None => match p.siblings.iter().rposition(|s| s.id() == n.id()) {
                // The run it is in is that of the last path node whose run starts at or
                // before it (a node without children has an empty run).
                Some(j) => Some(p.nodes[p.runs.partition_point(|&r| r <= j) - 1]),
                None => n.parent(),
            },
        }
    }

    fn parent_kind(self, n: Node<'t>) -> &'static str {
        self.parent(n).map(|p| kind_of(p)).unwrap_or("")
    }
}

fn named_children(n: Node) -> Vec<Node> {
    // One pass over the children (a cursor allocates, and its steps cost ~500 instructions).
    let mut all = Vec::new();
    n.append_children(&mut all);
    all.retain(|c| c.is_named());
    all
}

/// The children of `n` in field `name`, in order.
fn children_by_field<'t>(n: Node<'t>, name: &'static str) -> Vec<Node<'t>> {
    let mut cursor = n.walk();
    n.children_by_field_name(name, &mut cursor).collect()
}

/// Go's constructor convention: `NewServer(…)` makes a `Server`, `http.NewRequest(…)` an
/// `http.Request` (the function's return type is in another file's signature, which
/// analysis does not see). `New(…)` alone names no type.
pub fn go_constructor_type(lang: Lang, v: Node, src: &str) -> Option<String> {
    if lang != Lang::Go {
        return None;
    }
    let v = match kind_of(v) {
        "unary_expression" => field(v, "operand")?,
        _ => v,
    };
    if kind_of(v) != "call_expression" {
        return None;
    }
    let f = src.get(field(v, "function")?.byte_range())?;
    let (pkg, name) = match f.rsplit_once('.') {
        Some((p, n)) => (Some(p), n),
        None => (None, f),
    };
    let ty = name.strip_prefix("New")?;
    if !ty.starts_with(|c: char| c.is_ascii_uppercase())
        || !ty.chars().all(|c| c.is_alphanumeric() || c == '_')
        || pkg.is_some_and(|p| !p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        return None;
    }
    Some(match pkg {
        Some(p) => format!("{p}.{ty}"),
        None => ty.to_string(),
    })
}
