//! The size bounds of every tool's arguments (docs/tools.md, "Input bounds"), checked before
//! an argument is parsed: past a bound is a repairable `invalid_argument` naming the argument,
//! so no request costs more than its bounded inputs allow.

use serde_json::{Map, Value};

use super::ToolError;

/// Characters of a natural-language question (`semantic_search`, `chat`).
pub const MAX_QUESTION_CHARS: usize = 4_096;
/// Characters of a grep pattern.
pub const MAX_PATTERN_CHARS: usize = 4_096;
/// Characters of an ArtifactQuery statement.
pub const MAX_STATEMENT_CHARS: usize = 16_384;
/// Characters of one identifier, path, data-source name or other short string.
pub const MAX_NAME_CHARS: usize = 1_024;
/// Items of a list argument (identifiers, paths, extensions, data sources); a tool's own
/// narrower limit (`fetch_artifacts`' 50 identifiers) is checked after this one.
pub const MAX_LIST_ITEMS: usize = 1_000;

/// The bound of a string argument, by its name.
fn max_chars(tool: &str, arg: &str) -> usize {
    match (tool, arg) {
        (_, "question") => MAX_QUESTION_CHARS,
        ("grep_search", "query") => MAX_PATTERN_CHARS,
        ("get_data_sources", "query") => MAX_QUESTION_CHARS,
        (_, "statement") => MAX_STATEMENT_CHARS,
        _ => MAX_NAME_CHARS,
    }
}

/// A repairable error when `s` has more than `max` characters. Counting stops past the
/// bound: a megabyte is not walked to say so, only to name its length.
fn check_length(arg: &str, s: &str, max: usize) -> Result<(), ToolError> {
    if s.chars().take(max + 1).count() <= max {
        return Ok(());
    }
    let n = s.chars().count();
    Err(ToolError::new(
        "invalid_argument",
        format!("'{arg}' has {n} characters; at most {max} are accepted"),
        format!("Shorten '{arg}' to at most {max} characters"),
    ))
}

/// Check every argument of a call of `tool` against its bound.
pub fn check(tool: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    for (arg, value) in args {
        let max = max_chars(tool, arg);
        match value {
            Value::String(s) => check_length(arg, s, max)?,
            Value::Array(items) => {
                if items.len() > MAX_LIST_ITEMS {
                    return Err(ToolError::new(
                        "invalid_argument",
                        format!(
                            "'{arg}' has {} items; at most {MAX_LIST_ITEMS} are accepted",
                            items.len()
                        ),
                        format!(
                            "Pass at most {MAX_LIST_ITEMS} items in '{arg}', in several calls if needed"
                        ),
                    ));
                }
                for item in items {
                    if let Value::String(s) = item {
                        check_length(&format!("{arg}[]"), s, MAX_NAME_CHARS)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn bounds_by_argument() {
        assert!(
            check(
                "semantic_search",
                &args(json!({"question": "x".repeat(4096)}))
            )
            .is_ok()
        );
        let e = check(
            "semantic_search",
            &args(json!({"question": "x".repeat(968_000)})),
        )
        .unwrap_err();
        assert!(e.to_obj().to_string().contains("4096"), "{:?}", e.to_obj());
        assert!(
            check(
                "fetch_artifacts",
                &args(json!({"identifiers": vec!["a"; 1001]}))
            )
            .is_err()
        );
        assert!(
            check(
                "fetch_artifacts",
                &args(json!({"identifiers": ["a".repeat(2000)]}))
            )
            .is_err()
        );
        assert!(
            check(
                "query_artifact_metadata",
                &args(json!({"statement": "s".repeat(10_000)}))
            )
            .is_ok()
        );
        assert!(check("read_file", &args(json!({"path": "p".repeat(1025)}))).is_err());
    }
}
