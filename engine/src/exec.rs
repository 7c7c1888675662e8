//! Execution: a DataFusion session whose `files`, `symbols` and `edges` tables are the union
//! of the pinned snapshots of the data sources a caller may see, read through Lance.

use std::sync::Arc;

use arrow_array::RecordBatch;
use datafusion::catalog::TableProvider;
use datafusion::catalog::default_table_source::provider_as_source;
use datafusion::datasource::{MemTable, ViewTable};
use datafusion::execution::context::SessionContext;
use datafusion::logical_expr::LogicalPlanBuilder;
use lance::datafusion::LanceTableProvider;
use quarry_storage::schema::{TABLES, schema_of};
use quarry_storage::{Catalog, DataSource, SourceType, tables};

use crate::error::{EngineError, Result};

/// The repositories behind a list of data sources (workspaces expand to their members),
/// deduplicated, in order.
pub async fn expand_repositories(
    catalog: &Catalog,
    sources: &[DataSource],
) -> Result<Vec<DataSource>> {
    let mut out: Vec<DataSource> = Vec::new();
    for s in sources {
        match s.kind {
            SourceType::Repository => {
                if !out.iter().any(|o| o.id == s.id) {
                    out.push(s.clone());
                }
            }
            SourceType::Workspace => {
                for id in s.repository_ids.iter().flatten() {
                    if let Some(r) = catalog.source(id).await?
                        && r.org == s.org
                        && !out.iter().any(|o| o.id == r.id)
                    {
                        out.push(r);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// A DataFusion session over the given repositories' published tables.
pub async fn session_for(catalog: &Catalog, repositories: &[DataSource]) -> Result<SessionContext> {
    let ctx = SessionContext::new();
    for table in TABLES {
        let schema = schema_of(table)
            .ok_or_else(|| EngineError::Internal(format!("no schema for {table}")))?;
        let mut providers: Vec<Arc<dyn TableProvider>> = Vec::new();
        for repo in repositories {
            let Some(snap) = &repo.snapshot else { continue };
            let version = match table {
                "files" => Some(snap.files),
                "symbols" => snap.symbols,
                _ => snap.edges,
            };
            let Some(version) = version else { continue };
            let ds = tables::open_table(catalog.store(), &repo.id, table, version).await?;
            providers.push(Arc::new(LanceTableProvider::new(ds, false, false)));
        }
        let provider: Arc<dyn TableProvider> = match providers.len() {
            0 => Arc::new(MemTable::try_new(schema, vec![vec![]])?),
            1 => providers.remove(0),
            _ => {
                let mut builder: Option<LogicalPlanBuilder> = None;
                for p in providers {
                    let scan = LogicalPlanBuilder::scan(table, provider_as_source(p), None)?;
                    builder = Some(match builder {
                        None => scan,
                        Some(b) => b.union(scan.build()?)?,
                    });
                }
                let plan = builder
                    .ok_or_else(|| EngineError::Internal("empty union".into()))?
                    .build()?;
                Arc::new(ViewTable::new(plan, None))
            }
        };
        ctx.register_table(table, provider)?;
    }
    Ok(ctx)
}

/// Execute a planned query and collect its batches.
pub async fn execute(
    ctx: &SessionContext,
    plan: datafusion::logical_expr::LogicalPlan,
) -> Result<Vec<RecordBatch>> {
    Ok(ctx.execute_logical_plan(plan).await?.collect().await?)
}
