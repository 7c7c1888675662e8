//! Running an ArtifactQuery statement for a caller: compile (diagnostics never execute), plan
//! over the caller's data sources, execute, and shape the result docs/artifactquery.md gives.

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
    // Top-N statements bound their sort key first (see `artifactquery::plan::bound_plan`):
    // an optimistic guess from the key's column alone, checked by the answer's size, then a
    // sure bound if the guess kept too few rows. The answer is the single-pass answer.
    let limit = checked.limit as usize;
    let mut batches = None;
    for optimistic in [true, false] {
        let Some(bound) = bound(&ctx, &checked, optimistic).await? else {
            break;
        };
        let plan = artifactquery::plan::plan_bounded(&ctx, &checked, Some(&bound))
            .await
            .map_err(|e| internal(&e))?;
        let found = quarry_engine::exec::execute(&ctx, plan)
            .await
            .map_err(|e| internal(&e))?;
        let rows: usize = found.iter().map(|b| b.num_rows()).sum();
        if rows > limit || !optimistic {
            batches = Some(found);
            break;
        }
    }
    let batches = match batches {
        Some(b) => b,
        None => {
            let plan = artifactquery::plan::plan(&ctx, &checked)
                .await
                .map_err(|e| internal(&e))?;
            quarry_engine::exec::execute(&ctx, plan)
                .await
                .map_err(|e| internal(&e))?
        }
    };
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

/// A bound on the first sort key of a top-N statement, from its first pass; `None` when the
/// statement has no such key, or the pass shows no bound would cut anything.
async fn bound(
    ctx: &datafusion::prelude::SessionContext,
    checked: &artifactquery::plan::Checked,
    optimistic: bool,
) -> Result<Option<artifactquery::plan::Bound>, QueryError> {
    let internal = |e: &dyn std::fmt::Display| QueryError::Internal(e.to_string());
    let Some((first, field, descending)) =
        artifactquery::plan::bound_plan(ctx, checked, optimistic)
            .await
            .map_err(|e| internal(&e))?
    else {
        return Ok(None);
    };
    let batches = quarry_engine::exec::execute(ctx, first)
        .await
        .map_err(|e| internal(&e))?;
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    // A sure bound needs more rows than the answer holds (else everything is the answer);
    // an optimistic one just needs a value.
    if rows == 0 || (!optimistic && rows <= checked.limit as usize) {
        return Ok(None);
    }
    let Some(last) = batches.iter().rev().find(|b| b.num_rows() > 0) else {
        return Ok(None);
    };
    let value = ScalarValue::try_from_array(last.column(0), last.num_rows() - 1)
        .map_err(|e| internal(&e))?;
    Ok((!value.is_null()).then_some(artifactquery::plan::Bound {
        field,
        descending,
        value,
    }))
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
