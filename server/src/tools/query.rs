//! `get_artifact_query_schema` and `query_artifact_metadata`.

use serde_json::{Map, Value};

use super::render::abridged;
use super::{Call, ToolError, ToolOutput, ToolResult, args};
use crate::query::QueryError;

pub fn schema(a: args::GetArtifactQuerySchema) -> ToolResult {
    let entity = a.entity.as_deref().map(str::trim).filter(|e| !e.is_empty());
    let v = quarry_planner::artifactquery::schema::schema_json(
        entity,
        a.include_examples.unwrap_or(true),
    )
    .map_err(|m| {
        ToolError::new(
            "unknown_entity",
            m,
            "Omit 'entity' for the full schema, or pass one of: files, symbols, functions",
        )
    })?;
    Ok(ToolOutput::json(v))
}

/// Rows shown in the abridged rendering.
const RENDERED_ROWS: usize = 50;

pub async fn metadata(call: &Call<'_>, a: args::QueryArtifactMetadata) -> ToolResult {
    let sources = call.resolve_many(a.data_sources.as_deref())?;
    match crate::query::run(&call.state.catalog, &sources, &a.statement).await {
        Ok(r) => {
            let rendered = abridged(&r.json, RENDERED_ROWS);
            Ok(ToolOutput {
                obj: r.json,
                rendered,
            })
        }
        Err(QueryError::Diagnostic(d)) => {
            let mut extra = Map::new();
            if let Some(p) = &d.position {
                extra.insert(
                    "position".into(),
                    serde_json::to_value(p).unwrap_or(Value::Null),
                );
            }
            if let Some(c) = &d.caret {
                extra.insert("caret".into(), Value::String(c.clone()));
            }
            if !d.expected.is_empty() {
                extra.insert(
                    "expected".into(),
                    serde_json::to_value(&d.expected).unwrap_or(Value::Null),
                );
            }
            let mut e = ToolError::new(d.code, d.message, d.try_);
            e.retry = "Repair the statement (see 'try'); it was not executed.".into();
            e.extra = extra;
            Err(e)
        }
        Err(QueryError::Internal(m)) => Err(ToolError::internal(m)),
    }
}
