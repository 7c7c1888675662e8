//! Cognitive complexity, after SonarSource's definition (G. Ann Campbell, "Cognitive
//! Complexity", 2017), computed on tree-sitter nodes of any analysed language:
//!
//! - +1 for each `if`, ternary, `switch`/`match`, loop, `catch`, and for each sequence of like
//!   boolean operators (`a && b && c` is +1, `a && b || c` is +2);
//! - those structures (not `else if`/`else`) also add the current nesting level, and increase
//!   nesting for what they contain; lambdas and nested functions increase nesting only;
//! - `else if`, `elif`, `elsif` and `else` add +1 without a nesting increment;
//! - `goto` and `break`/`continue` to a label add +1.
//!
//! Not counted (documented divergence): recursion.

use tree_sitter::Node;

use super::kind_of;

const IFS: &[&str] = &[
    "if_statement",
    "if_expression",
    "if",
    "unless",
    "if_modifier",
    "unless_modifier",
];
const ELSE_IFS: &[&str] = &["elif_clause", "elsif", "else_if_clause"];
const ELSES: &[&str] = &["else_clause", "else"];
const LOOPS: &[&str] = &[
    "for_statement",
    "for_in_statement",
    "for_expression",
    "while_statement",
    "while_expression",
    "loop_expression",
    "do_statement",
    "enhanced_for_statement",
    "foreach_statement",
    "for_range_loop",
    "for",
    "while",
    "until",
    "while_modifier",
    "until_modifier",
];
const SWITCHES: &[&str] = &[
    "switch_statement",
    "match_expression",
    "switch_expression",
    "expression_switch_statement",
    "type_switch_statement",
    "select_statement",
    "case",
    "match_statement",
    "case_match",
];
const CATCHES: &[&str] = &["catch_clause", "except_clause", "rescue", "rescue_modifier"];
const TERNARIES: &[&str] = &[
    "conditional_expression",
    "ternary_expression",
    "conditional",
];
const NESTERS: &[&str] = &[
    "closure_expression",
    "arrow_function",
    "function_expression",
    "lambda",
    "lambda_expression",
    "anonymous_method_expression",
    "anonymous_function",
    "func_literal",
    "function_definition",
    "function_item",
    "local_function_statement",
    "function_declaration",
    "method_declaration",
];
const LOGICAL_OPS: &[&str] = &["&&", "||", "and", "or"];

/// What a node kind means to cognitive complexity. Grammars' kind names are classified once
/// per language (`Class::of_name`, into a table by kind id), so scoring a node is a lookup
/// instead of some sixty string comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Other,
    If,
    ElseIf,
    Else,
    /// A loop, `switch`/`match`, `catch` or ternary: +1 plus nesting, and nests.
    Structure,
    /// A lambda or nested function: nests only.
    Nester,
    Goto,
    /// `break`/`continue`: +1 when they name a label.
    Jump,
    /// Go's `else { … }` is a `block` that is an if's `alternative`.
    Block,
    /// A binary operator node, which may be a logical `&&`/`||`.
    Binary,
}

impl Class {
    pub(crate) fn of_name(k: &str) -> Class {
        if IFS.contains(&k) {
            Class::If
        } else if ELSE_IFS.contains(&k) {
            Class::ElseIf
        } else if ELSES.contains(&k) {
            Class::Else
        } else if k == "block" {
            Class::Block
        } else if LOOPS.contains(&k)
            || SWITCHES.contains(&k)
            || CATCHES.contains(&k)
            || TERNARIES.contains(&k)
        {
            Class::Structure
        } else if NESTERS.contains(&k) {
            Class::Nester
        } else if k == "goto_statement" {
            Class::Goto
        } else if matches!(
            k,
            "break_statement" | "continue_statement" | "break_expression" | "continue_expression"
        ) {
            Class::Jump
        } else if matches!(k, "binary_expression" | "boolean_operator" | "binary") {
            Class::Binary
        } else {
            Class::Other
        }
    }
}

thread_local! {
    /// Classes of the language being analysed on this thread, by kind id (set with
    /// `KIND_NAMES` in `analyze`); empty means "classify by name".
    pub(crate) static KIND_CLASSES: std::cell::Cell<&'static [Class]> =
        const { std::cell::Cell::new(&[]) };
}

/// What a node adds to the functions around it.
enum Increment {
    None,
    /// +1 (`else`, `else if`, a sequence of boolean operators, a labelled jump, `goto`).
    Flat,
    /// +1 plus the node's nesting inside the function (`if`, loops, `switch`, `catch`, …).
    Nested,
}

/// Scores one named node: what it adds to the functions enclosing it, and whether it
/// increases the nesting of what it contains. `parent` is its parent in the tree.
fn score(n: Node, parent: Node, classes: &[Class], src: &str) -> (Increment, bool) {
    let class = |n: Node| {
        classes
            .get(usize::from(n.kind_id()))
            .copied()
            .unwrap_or_else(|| Class::of_name(kind_of(n)))
    };
    let k = class(n);
    if k == Class::Other {
        return (Increment::None, false);
    }
    let parent_class = class(parent);
    let is_alternative =
        || super::field_of(parent, "alternative").is_some_and(|a| a.id() == n.id());
    match k {
        Class::If => {
            if parent_class == Class::Else || (parent_class == Class::If && is_alternative()) {
                (Increment::Flat, false)
            } else {
                (Increment::Nested, true)
            }
        }
        Class::ElseIf | Class::Goto => (Increment::Flat, false),
        Class::Else => {
            let wraps_if = n.named_child(0).is_some_and(|c| class(c) == Class::If);
            if !wraps_if && matches!(parent_class, Class::If | Class::ElseIf) {
                (Increment::Flat, false)
            } else {
                (Increment::None, false)
            }
        }
        Class::Block if parent_class == Class::If && is_alternative() => (Increment::Flat, false),
        Class::Structure => (Increment::Nested, true),
        Class::Nester => (Increment::None, true),
        Class::Jump => {
            let labelled = (0..n.named_child_count() as u32).any(|i| {
                n.named_child(i).is_some_and(|c| {
                    matches!(
                        kind_of(c),
                        "label" | "label_name" | "statement_identifier" | "identifier"
                    )
                })
            });
            (
                if labelled {
                    Increment::Flat
                } else {
                    Increment::None
                },
                false,
            )
        }
        Class::Binary => match logical_op(n, src) {
            Some(op) if !(parent_class == Class::Binary && logical_op(parent, src) == Some(op)) => {
                (Increment::Flat, false)
            }
            _ => (Increment::None, false),
        },
        Class::Block | Class::Other => (Increment::None, false),
    }
}

/// Cognitive complexity of every function of a file, scored during the analysis walk itself
/// (one pass over the tree instead of a second walk of every function body).
///
/// Each node's nesting is counted from the root of the walk; a function's score is what its
/// nodes added between its opening and its closing, with its own nesting subtracted:
/// `Σ (1 + nesting − base)` over nested increments plus the flat ones. So nested functions
/// count towards every enclosing function at the nesting they have there.
#[derive(Default)]
pub(crate) struct Tracker {
    flat: u64,
    nested: u64,
    nesting_sum: u64,
    open: Vec<Open>,
}

struct Open {
    depth: usize,
    symbol: usize,
    /// The nesting that the function's own children have, counted from the root.
    base: u32,
    flat: u64,
    nested: u64,
    nesting_sum: u64,
}

impl Tracker {
    /// Score `n` (the walk's node at `depth`, whose parent is `parent`, at `nesting` from
    /// the root) for the functions it is in; returns the nesting its children have. Functions
    /// whose subtree the walk has left (at `depth` or deeper) are closed first, into `scores`.
    pub(crate) fn visit(
        &mut self,
        n: Node,
        parent: Option<Node>,
        depth: usize,
        nesting: u32,
        src: &str,
        mut scores: impl FnMut(usize, u32),
    ) -> u32 {
        self.close_from(depth, &mut scores);
        let Some(parent) = parent.filter(|_| !self.open.is_empty()) else {
            // Outside every function nothing is scored; nesting is counted from a function.
            return nesting;
        };
        let classes = KIND_CLASSES.with(|t| t.get());
        let (increment, nests) = score(n, parent, classes, src);
        match increment {
            Increment::None => {}
            Increment::Flat => self.flat += 1,
            Increment::Nested => {
                self.nested += 1;
                self.nesting_sum += u64::from(nesting);
            }
        }
        nesting + u32::from(nests)
    }

    /// Start scoring the function `symbol`, whose node was just visited at `depth`; its
    /// children have nesting `base` from the root.
    pub(crate) fn open(&mut self, symbol: usize, depth: usize, base: u32) {
        self.open.push(Open {
            depth,
            symbol,
            base,
            flat: self.flat,
            nested: self.nested,
            nesting_sum: self.nesting_sum,
        });
    }

    /// Close the functions opened at `depth` or deeper, passing each one's score to `scores`.
    pub(crate) fn close_from(&mut self, depth: usize, scores: &mut impl FnMut(usize, u32)) {
        while let Some(o) = self.open.last() {
            if o.depth < depth {
                break;
            }
            let nested = self.nested - o.nested;
            let total = (self.flat - o.flat) + nested + (self.nesting_sum - o.nesting_sum)
                - u64::from(o.base) * nested;
            scores(o.symbol, u32::try_from(total).unwrap_or(u32::MAX));
            self.open.pop();
        }
    }
}

/// The operator of a binary node (`Class::Binary`) when it is a logical one.
fn logical_op<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    let op = super::field_of(n, "operator")?;
    let t = src.get(op.byte_range())?;
    LOGICAL_OPS.contains(&t).then_some(t)
}
