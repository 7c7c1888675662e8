//! ArtifactQuery v1 (`artifactquery/v1`): a small, read-only, SQL-like language for code
//! analytics, parsed with `nom` ([`parser`]) into an AST ([`ast`]), checked against the schema
//! ([`schema`]) with repairable [`diagnostics`], and built into a DataFusion `LogicalPlan` with
//! `LogicalPlanBuilder` ([`plan`]). See `docs/artifactquery.md`.
//!
//! ```no_run
//! # async fn demo(ctx: &datafusion::prelude::SessionContext) {
//! use quarry_planner::artifactquery;
//! let q = artifactquery::compile("SELECT language, COUNT(*) AS files FROM files GROUP BY language ORDER BY files DESC LIMIT 10").unwrap();
//! let plan = artifactquery::plan::plan(ctx, &q).await.unwrap();
//! # }
//! ```

pub mod ast;
pub mod diagnostics;
pub mod parser;
pub mod plan;
pub mod schema;

pub use diagnostics::Diagnostic;

/// Largest LIMIT a statement may ask for.
pub const MAX_LIMIT: u64 = 1000;

/// Parse and check a statement (no execution).
pub fn compile(text: &str) -> Result<plan::Checked, Diagnostic> {
    if text.trim().is_empty() {
        return Err(Diagnostic::new(
            "empty_statement",
            "the statement is empty",
            "SELECT path, lines FROM files ORDER BY lines DESC LIMIT 10",
        ));
    }
    let st = parser::parse(text).map_err(|(offset, e)| syntax_diagnostic(text, offset, e))?;
    plan::check(text, st)
}

fn syntax_diagnostic(text: &str, offset: usize, e: parser::PErr) -> Diagnostic {
    let at_end = text[offset.min(text.len())..].trim().is_empty();
    let found = if at_end {
        "the end of the statement".to_string()
    } else {
        let word: String = text[offset..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(20)
            .collect();
        format!("'{word}'")
    };
    let end = offset
        + text[offset..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .map(char::len_utf8)
            .sum::<usize>();
    let span = ast::Span {
        start: offset,
        end: end.max(offset + 1),
    };
    if let Some((code, message)) = e.special {
        // A double-quoted string: the statement with its quotes made single.
        if let Some(body) = text[offset..].strip_prefix('"')
            && let Some(len) = body.find('"')
        {
            let quoted = format!("'{}'", body[..len].replace('\'', "''"));
            let span = ast::Span {
                start: offset,
                end: offset + len + 2,
            };
            let try_ = diagnostics::replace(text, span, &quoted);
            return Diagnostic::new(code, message, try_).at(text, span);
        }
        let try_ = match code {
            "unknown_function" => "use COUNT, SUM, AVG, MIN or MAX".to_string(),
            "too_deep" => "remove redundant parentheses or NOT, or split the condition".to_string(),
            "too_long" => "shorten the statement".to_string(),
            _ => "fix the statement at the caret".to_string(),
        };
        return Diagnostic::new(code, message, try_).at(text, span);
    }
    let expected: Vec<String> = e.expected.iter().map(|s| s.to_string()).collect();
    let mut message = match at_end {
        true => "the statement ends too soon".to_string(),
        false => format!("unexpected {found}"),
    };
    if !expected.is_empty() {
        message.push_str(&format!("; expected {}", join_or(&expected)));
    }
    // A likely keyword typo: suggest the keyword.
    let word: String = text[offset.min(text.len())..]
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let keyword = diagnostics::did_you_mean(
        &word,
        expected
            .iter()
            .map(|s| s.as_str())
            .filter(|s| s.chars().all(|c| c.is_ascii_uppercase() || c == ' ')),
    );
    let try_ = match keyword {
        Some(k) if !word.is_empty() => diagnostics::replace(
            text,
            ast::Span {
                start: offset,
                end: offset + word.len(),
            },
            k,
        ),
        _ => format!(
            "fix the statement at line {}, e.g. SELECT path, lines FROM files WHERE language = 'rust' ORDER BY lines DESC LIMIT 10",
            text[..offset.min(text.len())].matches('\n').count() + 1
        ),
    };
    Diagnostic::new("syntax_error", message, try_)
        .at(text, span)
        .expecting(expected)
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests;
