//! Rust items written inside macro invocations, parsed as items.
//!
//! Tree-sitter parses the body of a macro invocation as a token tree, so `cfg_net! { pub
//! struct TcpStream { … } }`, `pin_project! { pub struct Sleep { … } }` and crate-local
//! wrappers like them hide every item they hold (tokio declares a fifth of its public structs
//! so). The compiler sees the expansion; the wrappers that matter expand to their items as
//! written, with attributes added. So an item-level invocation whose body is delimited by
//! braces and starts like an item has its wrapper (`name! {` and the closing `}`) replaced by
//! spaces in a copy of the text, which is parsed again: the items inside are then items, at
//! their own offsets. A body that does not parse as items (`bitflags!`'s `struct F: u32`, a
//! DSL) keeps its wrapper. Invocations inside the unwrapped bodies are looked at in turn, up to
//! [`MAX_DEPTH`] levels (`cfg_rt! { cfg_net! { … } }`).
//!
//! The invocation itself is then no call of the wrapper macro: a wrapper's callers are not
//! recorded.

use tree_sitter::Node;

use super::kind_of;

/// Levels of wrappers inside wrappers unwrapped.
pub const MAX_DEPTH: usize = 3;

/// How a body must start to be taken for items: an attribute, a visibility, an item's
/// keyword, a doc comment, or another invocation (`name!`).
const ITEM_STARTS: &[&str] = &[
    "#",
    "pub",
    "fn",
    "struct",
    "enum",
    "union",
    "impl",
    "mod",
    "use",
    "trait",
    "type",
    "const",
    "static",
    "unsafe",
    "async",
    "extern",
    "macro_rules",
    "///",
    "//!",
];

/// The item-level macro invocations under `root` whose brace-delimited body starts like items,
/// and lies in `within` (the bodies unwrapped before; everything on the first pass): for each,
/// the byte ranges to blank — the wrapper's name through its `{`, and its `}` — and the body's
/// range.
pub fn wrappers(root: Node, src: &[u8], within: &[(usize, usize)]) -> Vec<Wrapper> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match kind_of(n) {
            "source_file" | "declaration_list" => {
                let mut cursor = n.walk();
                stack.extend(n.named_children(&mut cursor));
            }
            // Items that hold items: a module's or an impl's, a trait's body.
            "mod_item" | "impl_item" | "trait_item" => {
                if let Some(body) = n.child_by_field_name("body") {
                    stack.push(body);
                }
            }
            "macro_invocation" => {
                if let Some(w) = wrapper(n, src)
                    && (within.is_empty()
                        || within.iter().any(|&(s, e)| s <= w.body.0 && w.body.1 <= e))
                {
                    out.push(w);
                }
            }
            _ => {}
        }
    }
    out.sort_unstable_by_key(|w| w.body);
    out
}

/// One macro invocation to unwrap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wrapper {
    /// `name! {` (with any path before the name).
    pub open: (usize, usize),
    /// The closing `}`.
    pub close: (usize, usize),
    /// What lies between.
    pub body: (usize, usize),
}

fn wrapper(n: Node, src: &[u8]) -> Option<Wrapper> {
    let mut cursor = n.walk();
    let tree = n
        .named_children(&mut cursor)
        .find(|c| kind_of(*c) == "token_tree")?;
    let (start, end) = (tree.start_byte(), tree.end_byte());
    if src.get(start) != Some(&b'{') || end < start + 2 || src.get(end - 1) != Some(&b'}') {
        return None;
    }
    let body = (start + 1, end - 1);
    let text = std::str::from_utf8(src.get(body.0..body.1)?).ok()?;
    let first = text.trim_start();
    let item_like = ITEM_STARTS.iter().any(|k| {
        first.strip_prefix(k).is_some_and(|rest| {
            k.starts_with(['#', '/'])
                || !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
    }) || invocation_start(first);
    item_like.then_some(Wrapper {
        open: (n.start_byte(), start + 1),
        close: (end - 1, end),
        body,
    })
}

/// Whether `text` starts with an invocation (`cfg_net! {`, `tokio::cfg_rt! {`).
fn invocation_start(text: &str) -> bool {
    let name_end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(text.len());
    name_end > 0 && text[name_end..].trim_start().starts_with('!')
}

/// Whether the tree under `root` parsed the bytes `body` without error.
pub fn parses_clean(root: Node, body: (usize, usize)) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= body.0 || n.start_byte() >= body.1 || !n.has_error() {
            continue;
        }
        if n.is_error() || n.is_missing() {
            return false;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    true
}

/// `src` with the wrappers' ranges blanked (spaces; line breaks kept, so lines keep their
/// numbers).
pub fn blank(src: &[u8], wrappers: &[Wrapper]) -> Vec<u8> {
    let mut text = src.to_vec();
    for w in wrappers {
        for (s, e) in [w.open, w.close] {
            for b in &mut text[s..e] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
    }
    text
}
