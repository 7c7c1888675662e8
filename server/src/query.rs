//! Running an ArtifactQuery statement for a caller: compile (diagnostics never execute), plan
//! over the caller's data sources, execute, and shape the SPEC 2.6 result.

use datafusion::common::ScalarValue;
use quarry_planner::artifactquery::{self, Diagnostic};
use quarry_storage::{Catalog, DataSource};
use serde_json::{Value, json};

/// Why a statement produced no result.
#[derive(Debug)]
pub enum QueryError {
    /// The statement is invalid; repair it (nothing was executed).
    Diagnostic(Diagnostic),
    /// Something failed while executing.
    Internal(String),
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryError::Diagnostic(d) => write!(f, "{d}"),
            QueryError::Internal(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for QueryError {}

/// The result and, for the CLI, the Arrow batches behind it (truncated to the limit).
pub struct QueryResult {
    pub json: Value,
    pub batches: Vec<arrow_array::RecordBatch>,
}

/// Compile, plan and run a statement over the given (already scoped) sources.
pub async fn run(
    catalog: &Catalog,
    sources: &[DataSource],
    statement: &str,
) -> Result<QueryResult, QueryError> {
    let checked = artifactquery::compile(statement).map_err(QueryError::Diagnostic)?;
    let internal = |e: &dyn std::fmt::Display| QueryError::Internal(e.to_string());
    let repos = quarry_engine::exec::expand_repositories(catalog, sources)
        .await
        .map_err(|e| internal(&e))?;
    let ctx = quarry_engine::exec::session_for(catalog, &repos)
        .await
        .map_err(|e| internal(&e))?;
    // Top-N statements run in two passes: the sort key alone first, to bound it (see
    // `artifactquery::plan::bound_plan`); the answer is the same, the scan much cheaper.
    let bound = match artifactquery::plan::bound_plan(&ctx, &checked)
        .await
        .map_err(|e| internal(&e))?
    {
        Some((first, field, descending, nulls_first)) => {
            let batches = quarry_engine::exec::execute(&ctx, first)
                .await
                .map_err(|e| internal(&e))?;
            let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
            let first = batches.iter().find(|b| b.num_rows() > 0);
            let last = batches.iter().rev().find(|b| b.num_rows() > 0);
            match (first, last) {
                (Some(f), Some(b)) if rows > checked.limit as usize => {
                    let value = ScalarValue::try_from_array(b.column(0), b.num_rows() - 1)
                        .map_err(|e| internal(&e))?;
                    (!value.is_null()).then_some(artifactquery::plan::Bound {
                        field,
                        descending,
                        keep_nulls: nulls_first && f.column(0).is_null(0),
                        value,
                    })
                }
                _ => None,
            }
        }
        None => None,
    };
    let plan = artifactquery::plan::plan_bounded(&ctx, &checked, bound.as_ref())
        .await
        .map_err(|e| internal(&e))?;
    let batches = quarry_engine::exec::execute(&ctx, plan)
        .await
        .map_err(|e| internal(&e))?;
    let limit = checked.limit as usize;
    let total: usize = batches.iter().map(|b| b.num_rows()).sum();
    let truncated = total > limit;
    let batches = truncate(batches, limit);
    let rows = quarry_engine::render::json_rows(&batches).map_err(|e| internal(&e))?;
    let json = json!({
        "rawStatement": statement,
        "version": "V1",
        "resultShape": checked.shape.as_str(),
        "columns": checked.columns,
        "rows": rows,
        "returnedRows": rows.len(),
        "truncated": truncated,
        "limit": checked.limit,
        "dataSourceIds": repos.iter().map(|r| r.id.clone()).collect::<Vec<_>>(),
    });
    Ok(QueryResult { json, batches })
}

fn truncate(batches: Vec<arrow_array::RecordBatch>, limit: usize) -> Vec<arrow_array::RecordBatch> {
    let mut left = limit;
    let mut out = Vec::new();
    for b in batches {
        if left == 0 {
            break;
        }
        let n = b.num_rows().min(left);
        out.push(b.slice(0, n));
        left -= n;
    }
    out
}
