//! Repairable diagnostics: a stable code, a message, where (line, column, and a caret under the
//! offending text), what was expected, and a `try` an agent can apply.

use serde::Serialize;

use super::ast::Span;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Position {
    /// Byte offset in the statement.
    pub offset: usize,
    /// 1-based line and column (in characters).
    pub line: usize,
    pub column: usize,
}

/// A statement problem; nothing was executed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// `syntax_error`, `unknown_entity`, `unknown_field`, `unknown_function`, `missing_limit`,
    /// `limit_too_large`, `invalid_limit`, `type_mismatch`, `ungrouped_field`,
    /// `invalid_order_by`, `too_deep`, `too_long`, `empty_statement`.
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// The statement's line and a caret line under the offending text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caret: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    /// A concrete repair (often the corrected statement).
    #[serde(rename = "try")]
    pub try_: String,
}

impl Diagnostic {
    pub fn new(code: &'static str, message: impl Into<String>, try_: impl Into<String>) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            position: None,
            caret: None,
            expected: Vec::new(),
            try_: try_.into(),
        }
    }

    /// Point at a span of the statement.
    pub fn at(mut self, statement: &str, span: Span) -> Self {
        let offset = span.start.min(statement.len());
        let before = &statement[..floor_char(statement, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let column = before[line_start..].chars().count() + 1;
        let line_text = statement[line_start..].lines().next().unwrap_or("");
        let width = statement
            .get(offset..span.end.max(offset).min(statement.len()))
            .map(|s| s.chars().count())
            .unwrap_or(1)
            .max(1);
        let width = width.min(line_text.chars().count().saturating_sub(column - 1).max(1));
        self.position = Some(Position {
            offset,
            line,
            column,
        });
        self.caret = Some(format!(
            "{line_text}\n{}{}",
            " ".repeat(column - 1),
            "^".repeat(width)
        ));
        self
    }

    pub fn expecting(mut self, expected: Vec<String>) -> Self {
        self.expected = expected;
        self
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] ", self.code)?;
        if let Some(p) = &self.position {
            write!(f, "line {}, column {}: ", p.line, p.column)?;
        }
        write!(f, "{}", self.message)?;
        if let Some(c) = &self.caret {
            write!(f, "\n{c}")?;
        }
        write!(f, "\ntry: {}", self.try_)
    }
}

impl std::error::Error for Diagnostic {}

/// Levenshtein distance, for "did you mean".
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != *cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest candidate, if close enough to be a plausible typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (distance(&w, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(2))
        .min()
        .map(|(_, c)| c)
}

/// Replace a span of the statement (to build a `try`).
pub fn replace(statement: &str, span: Span, with: &str) -> String {
    let (a, b) = (
        span.start.min(statement.len()),
        span.end.min(statement.len()),
    );
    format!("{}{}{}", &statement[..a], with, &statement[b..])
}
