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

/// Cognitive complexity of a function-like node.
pub fn cognitive(func: Node, src: &str) -> u32 {
    let mut total = 0u32;
    // (node, its parent, nesting, depth). Parents are carried rather than asked for:
    // `Node::parent` walks down from the root, which made it the hot spot of indexing.
    let mut stack: Vec<(Node, Node, u32, usize)> = Vec::new();
    let mut c = func.walk();
    for child in func.named_children(&mut c) {
        stack.push((child, func, 0, 1));
    }
    while let Some((n, parent_node, nesting, depth)) = stack.pop() {
        if depth > MAX_NESTING_DEPTH {
            continue;
        }
        let k = kind_of(n);
        let parent = Some(parent_node);
        let parent_kind = parent.map(kind_of).unwrap_or("");
        let mut inner = nesting;
        if IFS.contains(&k) {
            let is_else_if = ELSES.contains(&parent_kind)
                || parent
                    .and_then(|p| p.child_by_field_name("alternative"))
                    .is_some_and(|a| a.id() == n.id() && IFS.contains(&parent_kind));
            if is_else_if {
                total += 1;
            } else {
                total += 1 + nesting;
                inner = nesting + 1;
            }
        } else if ELSE_IFS.contains(&k) {
            total += 1;
        } else if ELSES.contains(&k) {
            let wraps_if = n.named_child(0).is_some_and(|c| IFS.contains(&kind_of(c)));
            if !wraps_if && (IFS.contains(&parent_kind) || ELSE_IFS.contains(&parent_kind)) {
                total += 1;
            }
        } else if k == "block"
            && IFS.contains(&parent_kind)
            && parent
                .and_then(|p| p.child_by_field_name("alternative"))
                .is_some_and(|a| a.id() == n.id())
        {
            // Go: `else { … }` is the if's `alternative` block.
            total += 1;
        } else if LOOPS.contains(&k)
            || SWITCHES.contains(&k)
            || CATCHES.contains(&k)
            || TERNARIES.contains(&k)
        {
            total += 1 + nesting;
            inner = nesting + 1;
        } else if NESTERS.contains(&k) {
            inner = nesting + 1;
        } else if k == "goto_statement" {
            total += 1;
        } else if matches!(
            k,
            "break_statement" | "continue_statement" | "break_expression" | "continue_expression"
        ) {
            let mut cc = n.walk();
            let labelled = n.named_children(&mut cc).any(|c| {
                matches!(
                    kind_of(c),
                    "label" | "label_name" | "statement_identifier" | "identifier"
                )
            });
            if labelled {
                total += 1;
            }
        } else if let Some(op) = logical_op(n, src) {
            let same_as_parent = logical_op(parent_node, src) == Some(op);
            if !same_as_parent {
                total += 1;
            }
        }
        let mut cc = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cc).collect();
        for kid in kids.into_iter().rev() {
            stack.push((kid, n, inner, depth + 1));
        }
    }
    total
}

fn logical_op<'s>(n: Node, src: &'s str) -> Option<&'s str> {
    if !matches!(
        kind_of(n),
        "binary_expression" | "boolean_operator" | "binary"
    ) {
        return None;
    }
    let op = n.child_by_field_name("operator")?;
    let t = src.get(op.byte_range())?;
    LOGICAL_OPS.contains(&t).then_some(t)
}
