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
const MAX_NESTING_DEPTH: usize = 200;

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

/// Cognitive complexity of a function-like node.
pub fn cognitive(func: Node, src: &str) -> u32 {
    let classes = KIND_CLASSES.with(|t| t.get());
    let class = |n: Node| {
        classes
            .get(usize::from(n.kind_id()))
            .copied()
            .unwrap_or_else(|| Class::of_name(kind_of(n)))
    };
    let mut total = 0u32;
    // One cursor over the function's named descendants, in document order. `path` holds the
    // cursor node's ancestors with the nesting their children get: parents are carried
    // rather than asked for (`Node::parent` walks down from the root).
    let mut cursor = func.walk();
    let mut path: Vec<(Node, Class, u32)> = vec![(func, class(func), 0)];
    if !cursor.goto_first_child() {
        return 0;
    }
    'walk: loop {
        let n = cursor.node();
        if n.is_named() && path.len() <= MAX_NESTING_DEPTH {
            let &(parent, parent_class, nesting) = path.last().expect("the function stays");
            let k = class(n);
            let mut inner = nesting;
            let is_alternative =
                || super::field_of(parent, "alternative").is_some_and(|a| a.id() == n.id());
            match k {
                Class::If => {
                    if parent_class == Class::Else
                        || (parent_class == Class::If && is_alternative())
                    {
                        total += 1;
                    } else {
                        total += 1 + nesting;
                        inner = nesting + 1;
                    }
                }
                Class::ElseIf => total += 1,
                Class::Else => {
                    let wraps_if = n.named_child(0).is_some_and(|c| class(c) == Class::If);
                    if !wraps_if && matches!(parent_class, Class::If | Class::ElseIf) {
                        total += 1;
                    }
                }
                Class::Block => {
                    if parent_class == Class::If && is_alternative() {
                        total += 1;
                    }
                }
                Class::Structure => {
                    total += 1 + nesting;
                    inner = nesting + 1;
                }
                Class::Nester => inner = nesting + 1,
                Class::Goto => total += 1,
                Class::Jump => {
                    let labelled = (0..n.named_child_count()).any(|i| {
                        n.named_child(i).is_some_and(|c| {
                            matches!(
                                kind_of(c),
                                "label" | "label_name" | "statement_identifier" | "identifier"
                            )
                        })
                    });
                    if labelled {
                        total += 1;
                    }
                }
                Class::Binary => {
                    if let Some(op) = logical_op(n, src) {
                        let same_as_parent =
                            parent_class == Class::Binary && logical_op(parent, src) == Some(op);
                        if !same_as_parent {
                            total += 1;
                        }
                    }
                }
                Class::Other => {}
            }
            if cursor.goto_first_child() {
                path.push((n, k, inner));
                continue;
            }
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
            path.pop();
            if path.is_empty() {
                // Back at the function itself: its siblings are not ours.
                break 'walk;
            }
        }
    }
    total
}

/// The operator of a binary node (`Class::Binary`) when it is a logical one.
fn logical_op<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    let op = super::field_of(n, "operator")?;
    let t = src.get(op.byte_range())?;
    LOGICAL_OPS.contains(&t).then_some(t)
}
