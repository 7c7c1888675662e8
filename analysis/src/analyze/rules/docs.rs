//! Signatures and doc comments: the declaration head, the comments that document it.

use super::*;

/// The declaration head: the text before the body, whitespace collapsed, bounded.
pub fn signature(lang: Lang, n: Node, src: &str) -> String {
    // The first line, without a comment that ends it (`class C < E #:nodoc:`; not
    // `public /*final*/ byte tag;`).
    let first_line_end = || {
        let text = src.get(n.byte_range()).unwrap_or("");
        let end = n.start_byte() + text.find('\n').unwrap_or(text.len());
        let mut children = Vec::new();
        n.append_children(&mut children);
        children
            .iter()
            .find(|c| {
                COMMENT_KINDS.contains(&kind_of(**c))
                    && c.start_byte() < end
                    && src
                        .get(c.end_byte().min(end)..end)
                        .is_some_and(|rest| rest.trim().is_empty())
            })
            .map_or(end, |c| c.start_byte())
    };
    let end = match (lang, kind_of(n)) {
        (Lang::Go, "type_spec" | "const_spec" | "var_spec") => first_line_end(),
        // `String value() default "x";`: its default value is part of the declaration.
        (Lang::Java, "annotation_type_element_declaration") => first_line_end(),
        // `def m(a); …; end` on one line: the head ends with the parameters or the name.
        (Lang::Ruby, "method" | "singleton_method") => field(n, "parameters")
            .or_else(|| field(n, "name"))
            .map_or_else(first_line_end, |x| x.end_byte()),
        (lang, kind) => {
            let body = match kind {
                // `const f = async (a) => …`: the head runs to the function's body.
                "variable_declarator"
                | "field_definition"
                | "public_field_definition"
                | "pair"
                | "assignment_expression"
                    if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) =>
                {
                    field(n, "value")
                        .or_else(|| field(n, "right"))
                        .map(js_unwrapped)
                        .and_then(|v| match kind_of(v) {
                            k if JS_FUNCTION_VALUES.contains(&k) => {
                                Some(field(v, "body").unwrap_or(v))
                            }
                            // `this.size = size`, whole, as Python's `self.size = size`.
                            _ if kind == "assignment_expression" => None,
                            // A constant's first line, value included: `sep = '/'`.
                            k if kind == "variable_declarator"
                                && !matches!(k, "object" | "class") =>
                            {
                                None
                            }
                            _ => Some(v),
                        })
                }
                _ => field(n, "body").or_else(|| field(n, "value").filter(|_| lang != Lang::Rust)),
            };
            match body {
                Some(b) if b.start_byte() > n.start_byte() => head_end(n, b),
                _ => first_line_end(),
            }
        }
    };
    let head = src.get(n.start_byte()..end).unwrap_or("");
    let flat = head.split_whitespace().collect::<Vec<_>>().join(" ");
    let flat = flat.strip_suffix("=>").unwrap_or(&flat);
    let flat = flat
        .trim_end_matches(['{', ':', '='])
        .trim_end()
        .to_string();
    if flat.chars().count() > 240 {
        flat.chars().take(239).chain(['…']).collect()
    } else {
        flat
    }
}

/// Where a definition's head ends before its body `body`: after the last of its children
/// before the body that is no comment (`def f(x):  # why` ends at the `:`, `void f() // why`
/// at the parameters). A body that is not a child of the definition (a JavaScript
/// declarator's function value's) starts where the head ends.
pub(super) fn head_end(n: Node, body: Node) -> usize {
    let mut end = None;
    let mut children = Vec::new();
    n.append_children(&mut children);
    for child in children {
        if child.id() == body.id() {
            return end.unwrap_or(body.start_byte());
        }
        if !COMMENT_KINDS.contains(&kind_of(child)) {
            end = Some(child.end_byte());
        }
    }
    body.start_byte()
}

pub(super) const COMMENT_KINDS: &[&str] = &["comment", "line_comment", "block_comment"];
pub(super) const SKIPPABLE_BEFORE_DEF: &[&str] = &[
    "attribute_item",
    "decorator",
    "attribute_list",
    "annotation",
    "marker_annotation",
];

/// The doc comment of a definition of symbol kind `kind`: a Python docstring, else the comments
/// directly above it, else for a one-line member the comment that ends its line.
pub fn doc_comment<'t>(
    lang: Lang,
    up: Up<'_, 't>,
    n: Node<'t>,
    kind: &str,
    src: &str,
) -> Option<String> {
    if lang == Lang::Python
        && let Some(body) = field(n, "body")
        && let Some(first) = body.named_child(0)
        && kind_of(first) == "expression_statement"
        && let Some(s) = first.named_child(0)
        && kind_of(s) == "string"
    {
        let raw = src.get(s.byte_range()).unwrap_or("");
        let t = raw.trim_start_matches(['r', 'u', 'b', 'R', 'U', 'B']);
        let t = t.trim_matches('"').trim_matches('\'');
        return clean_doc(t);
    }
    // Definitions wrapped by export/decorator/template nodes carry their comments outside,
    // and so does a JavaScript function assigned in a statement (`/** … */ res.send = …`).
    let mut anchor = n;
    while let Some(p) = up.parent(anchor) {
        if matches!(
            kind_of(p),
            "export_statement" | "decorated_definition" | "template_declaration"
        ) || (kind_of(p) == "expression_statement"
            && kind_of(anchor) == "assignment_expression"
            && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx))
        {
            anchor = p;
        } else {
            break;
        }
    }
    // Go: a spec declared alone (`type T struct`, `var X = 1`) has its comment above its
    // declaration's keyword; a spec of a group (`const ( … )`) without a comment of its own
    // (above it or after it on its line) takes the group's, as godoc shows it.
    let mut group = None;
    if lang == Lang::Go
        && matches!(
            kind_of(n),
            "type_spec" | "type_alias" | "const_spec" | "var_spec"
        )
        && let Some(p) = up.parent(n)
    {
        if kind_of(p) == "var_spec_list" {
            group = up.parent(p);
        } else if up.prev_siblings(n).any(|s| kind_of(s) == "(") {
            group = Some(p);
        } else {
            anchor = p;
        }
    }
    // Ruby and Python: comments before a body's first statement are the enclosing
    // definition's children, before the body (`class A` / `# Doc of f.` / `def f`).
    if matches!(lang, Lang::Ruby | Lang::Python)
        && up.prev_siblings(anchor).next().is_none()
        && let Some(body) = up.parent(anchor)
        && matches!(kind_of(body), "body_statement" | "block")
    {
        anchor = body;
    }
    // The comments above it; else a one-line member's (or a grouped Go spec's) comment on
    // its line; else its Go group's.
    if let Some(doc) = joined_doc(comments_above(up, anchor, src)) {
        return Some(doc);
    }
    if (group.is_some() || matches!(kind, "field" | "constant" | "variant" | "variable"))
        && let Some(own) = trailing_doc(up, n, src)
    {
        return Some(own);
    }
    joined_doc(comments_above(up, group?, src))
}

/// [`comments_above`]'s comments as one doc.
pub(super) fn joined_doc(mut parts: Vec<&str>) -> Option<String> {
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    clean_doc(&parts.join("\n"))
}

/// The comment after a one-line member (a field, constant, variable or variant) on its line,
/// which documents it when nothing above does: Go's `Name string // the name`, C's `int n; /* count
/// */`, `Red, // the colour`. Only a comment that ends the line (not one code follows).
pub(super) fn trailing_doc<'t>(up: Up<'_, 't>, n: Node<'t>, src: &str) -> Option<String> {
    let row = n.end_position().row;
    if n.start_position().row != row {
        return None;
    }
    let c = up
        .next_siblings(n)
        .iter()
        .copied()
        .find(|s| !matches!(kind_of(*s), "," | ";"))?;
    if !COMMENT_KINDS.contains(&kind_of(c)) || c.start_position().row != row {
        return None;
    }
    let rest = src.get(c.end_byte()..).unwrap_or("");
    let line_rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
    if !line_rest.trim().is_empty() {
        return None;
    }
    clean_doc(src.get(c.byte_range()).unwrap_or("").trim_end())
}

/// The comments directly above `anchor` (attributes and decorators between them passed
/// over), nearest first. A comment after code on its line (`a = 1 // why`) is that code's,
/// not the next definition's: it ends them.
pub(super) fn comments_above<'s, 't>(
    up: Up<'_, 't>,
    anchor: Node<'t>,
    src: &'s str,
) -> Vec<&'s str> {
    let mut parts = Vec::new();
    let mut next_start = anchor.start_position().row;
    for p in up.prev_siblings(anchor) {
        if COMMENT_KINDS.contains(&kind_of(p)) {
            if p.end_position().row + 1 < next_start {
                break;
            }
            let line_start = src
                .get(..p.start_byte())
                .and_then(|before| before.rfind('\n'))
                .map_or(0, |i| i + 1);
            if !src
                .get(line_start..p.start_byte())
                .is_some_and(|before| before.trim().is_empty())
            {
                break;
            }
            // A line comment's node may hold its line's end (Rust's does): trimmed, so that
            // joining the parts puts no blank line between every two lines.
            parts.push(
                src.get(p.byte_range())
                    .unwrap_or("")
                    .trim_end_matches(['\n', '\r']),
            );
            next_start = p.start_position().row;
        } else if !SKIPPABLE_BEFORE_DEF.contains(&kind_of(p)) {
            break;
        }
    }
    parts
}

/// What tools read in comments, not people: lint and formatter switches, coverage marks,
/// RDoc's `:nodoc:`. Such a line is no part of a doc (`x = 1  # noqa: E501` says nothing of
/// `x`). `t` is the line without its comment marker.
pub(super) fn is_directive(t: &str) -> bool {
    const DIRECTIVES: &[&str] = &[
        "eslint-",
        "eslint ",
        "jshint ",
        "jscs:",
        "tslint:",
        "prettier-ignore",
        "biome-ignore",
        "deno-lint-ignore",
        "istanbul ignore",
        "c8 ignore",
        "@ts-ignore",
        "@ts-expect-error",
        "@ts-nocheck",
        "@ts-check",
        "noqa",
        "type: ignore",
        "pragma: no cover",
        "pylint:",
        "fmt: off",
        "fmt: on",
        "fmt: skip",
        "mypy:",
        "pyright:",
        ":nodoc:",
        ":stopdoc:",
        ":startdoc:",
        "rubocop:",
        "frozen_string_literal:",
        "NOLINT",
        "clang-format ",
        "IWYU pragma",
        "LCOV_EXCL",
        "cppcheck-suppress",
        "nolint",
        "phpcs:",
        "@phpstan-ignore",
        "$NON-NLS-",
        "ReSharper ",
        "CHECKSTYLE",
        "NOPMD",
        // Bundlers' annotations (`/* @__NO_SIDE_EFFECTS__ */ export function f`).
        "@__NO_SIDE_EFFECTS__",
        "@__PURE__",
        "#__PURE__",
        "#__NO_SIDE_EFFECTS__",
    ];
    DIRECTIVES.iter().any(|d| t.starts_with(d))
}

/// Go's directive comments (`//go:noinline`, `//lint:ignore`, `//export:x`): `//` then, with
/// no space, a lowercase word, a colon and a letter or digit. Godoc leaves them out of docs.
pub(super) fn is_go_style_directive(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("//") else {
        return false;
    };
    let word = rest
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        .count();
    word > 0
        && rest.as_bytes().get(word) == Some(&b':')
        && rest
            .as_bytes()
            .get(word + 1)
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

pub(super) fn clean_doc(raw: &str) -> Option<String> {
    let mut lines = Vec::new();
    for line in raw.lines() {
        if is_go_style_directive(line.trim()) {
            continue;
        }
        let mut t = line.trim();
        for p in ["///", "//!", "/**", "/*!", "/*", "//", "#", "*/"] {
            if let Some(rest) = t.strip_prefix(p) {
                // RDoc's and Sphinx's `##` that opens a doc is a marker, no text.
                t = match p {
                    "#" => rest.trim_start_matches('#'),
                    _ => rest,
                };
                break;
            }
        }
        let t = t.strip_suffix("*/").unwrap_or(t);
        let t = t.trim_start_matches('*').trim();
        if is_directive(t) {
            continue;
        }
        lines.push(t);
    }
    // A banner's frame (`/*-*****`, `// --------`) and an editor's folding marker (`//#region
    // Parsing`, `// <editor-fold desc="…">`) are no text: dropped with the blank lines around
    // the doc (a rule within it stays: it may be Markdown's).
    let frame = |l: &&str| {
        (l.len() >= 3 && l.bytes().all(|b| b"*-=#/+~_".contains(&b)))
            || ["#region", "#endregion", "<editor-fold", "</editor-fold"]
                .iter()
                .any(|m| l.starts_with(m))
    };
    while lines.first().is_some_and(|l| l.is_empty() || frame(l)) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.is_empty() || frame(l)) {
        lines.pop();
    }
    let mut doc = lines.join("\n");
    // At most 4000 characters (cut at the 4000th's end, not copied a character at a time).
    if doc.len() > 4000
        && let Some((end, _)) = doc.char_indices().nth(4000)
    {
        doc.truncate(end);
    }
    (!doc.is_empty()).then_some(doc)
}
