//! Execution: a DataFusion session whose `files`, `symbols` and `edges` tables are the union
//! of the pinned snapshots of the data sources a caller may see, read through Lance.

use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use datafusion::catalog::default_table_source::provider_as_source;
use datafusion::catalog::{Session, TableProvider};
use datafusion::datasource::{MemTable, ViewTable};
use datafusion::execution::context::{SessionConfig, SessionContext};
use datafusion::logical_expr::{Expr, LogicalPlanBuilder, TableProviderFilterPushDown, TableType};
use datafusion::physical_plan::ExecutionPlan;
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

/// Whether every `symbols` table in a session carries the relationship-count columns
/// (analyzer version 2 and later). A session extension: planners read it to choose between
/// the columns and counting edges themselves.
#[derive(Debug, Clone, Copy)]
pub struct RelationshipCounts {
    pub precomputed: bool,
}

/// Whether a session's `symbols` tables all carry relationship counts.
pub fn counts_precomputed(ctx: &SessionContext) -> bool {
    ctx.state()
        .config()
        .get_extension::<RelationshipCounts>()
        .is_some_and(|c| c.precomputed)
}

/// Rows per batch when scanning `symbols` and `edges`.
const SCAN_BATCH_ROWS: usize = 64 * 1024;

/// A DataFusion session over the given repositories' published tables.
///
/// Tables written by an older analyzer may lack columns added since (see
/// [`quarry_storage::schema::SYMBOL_COUNT_COLUMNS`]); those are read as typed NULLs so every repository's table has the
/// current schema and unions of old and new repositories work.
pub async fn session_for(catalog: &Catalog, repositories: &[DataSource]) -> Result<SessionContext> {
    let mut tables_out: Vec<(&str, Arc<dyn TableProvider>)> = Vec::new();
    let mut precomputed = true;
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
            let mut lance = LanceTableProvider::new(ds, false, false);
            if table != "files" {
                // Fewer, larger batches: per-batch overhead is a fifth of a 1.5 M-row symbols
                // scan at Lance's default 8192. (Not for `files`, whose rows carry contents.)
                lance = lance.with_batch_size(SCAN_BATCH_ROWS);
            }
            let provider: Arc<dyn TableProvider> = Arc::new(ScanPolicy::new(lance));
            let complete = schema
                .fields()
                .iter()
                .all(|f| provider.schema().field_with_name(f.name()).is_ok());
            if complete {
                providers.push(provider);
            } else {
                if table == "symbols" {
                    precomputed = false;
                }
                providers.push(conform(table, &schema, provider)?);
            }
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
        tables_out.push((table, provider));
    }
    let config = SessionConfig::new().with_extension(Arc::new(RelationshipCounts { precomputed }));
    let ctx = SessionContext::new_with_config(config);
    for (table, provider) in tables_out {
        ctx.register_table(table, provider)?;
    }
    Ok(ctx)
}

/// A view of an older table in the current schema: its columns in order, missing ones NULL.
fn conform(
    table: &str,
    schema: &SchemaRef,
    provider: Arc<dyn TableProvider>,
) -> Result<Arc<dyn TableProvider>> {
    let have = provider.schema();
    let columns: Vec<Expr> = schema
        .fields()
        .iter()
        .map(|f| {
            if have.field_with_name(f.name()).is_ok() {
                datafusion::prelude::col(f.name())
            } else {
                datafusion::prelude::cast(
                    datafusion::prelude::lit(datafusion::common::ScalarValue::Null),
                    f.data_type().clone(),
                )
                .alias(f.name())
            }
        })
        .collect();
    let plan = LogicalPlanBuilder::scan(table, provider_as_source(provider), None)?
        .project(columns)?
        .build()?;
    Ok(Arc::new(ViewTable::new(plan, None)))
}

/// Columns whose filters are worth handing to Lance: `content` (its n-gram index answers
/// `contains`, and late materialisation spares decoding contents the filter rejects) and the
/// high-cardinality keys that equality, `IN` and prefix filters select few rows by.
const PUSHDOWN_COLUMNS: &[&str] = &[
    "content",
    "identifier",
    "path",
    "name",
    "qualified_name",
    "parent",
    "hash",
    "source",
    "source_qname",
    "source_path",
    "target_name",
    "target",
];

/// String columns of few distinct, short values: cheap to decode, so never a reason to push.
const LIGHT_STRINGS: &[&str] = &[
    "data_source",
    "kind",
    "language",
    "resolution",
    "confidence",
];

/// A Lance table whose filters go to Lance only where that pays.
///
/// Lance evaluates a pushed-down filter by building row-address masks (roaring bitmaps per
/// fragment) and then taking the projected columns for the rows that pass ("late
/// materialisation"). When the filter keeps most rows and nothing expensive is projected —
/// `is_public`, `kind IN (…)`, `lines > 10` over 1.5 M symbols, counting by `kind` — that
/// bookkeeping costs more than the scan (measured: 260 ms vs 110 ms for a grouped count).
/// When a long string column (`identifier`, `signature`, `content`…) is projected but not
/// filtered on, late materialisation saves decoding it for rejected rows and wins.
///
/// So: every filter is declared `Inexact`, and DataFusion always applies it above the scan.
/// Lance additionally receives the filters that touch [`PUSHDOWN_COLUMNS`] (its n-gram index,
/// or a selective key), and all filters when the projection holds a heavy column.
#[derive(Debug)]
struct ScanPolicy {
    inner: LanceTableProvider,
}

impl ScanPolicy {
    fn new(inner: LanceTableProvider) -> Self {
        Self { inner }
    }

    fn worth_pushing(filter: &Expr) -> bool {
        filter
            .column_refs()
            .iter()
            .any(|c| PUSHDOWN_COLUMNS.contains(&c.name.as_str()))
    }
}

#[async_trait::async_trait]
impl TableProvider for ScanPolicy {
    fn schema(&self) -> SchemaRef {
        self.inner.schema()
    }

    fn table_type(&self) -> TableType {
        self.inner.table_type()
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> datafusion::common::Result<Arc<dyn ExecutionPlan>> {
        let schema = self.inner.schema();
        let filtered: Vec<String> = filters
            .iter()
            .flat_map(|f| f.column_refs().into_iter().map(|c| c.name.clone()))
            .collect();
        let all: Vec<usize> = (0..schema.fields().len()).collect();
        let heavy = projection.unwrap_or(&all).iter().any(|&i| {
            let f = schema.field(i);
            matches!(f.data_type(), arrow_schema::DataType::Utf8)
                && !LIGHT_STRINGS.contains(&f.name().as_str())
                && !filtered.contains(f.name())
        });
        // Under a heavy projection, a filter on low-cardinality columns only (`kind IN (…)`,
        // `is_public`) is worth pushing when nothing else narrows the rows; beside a filter
        // on another column (a bound `complexity >= 40`) it would only make Lance read and
        // compare those strings for every row, and DataFusion applies it to the few rows
        // anyway.
        let coarse = |f: &Expr| {
            f.column_refs().iter().all(|c| {
                LIGHT_STRINGS.contains(&c.name.as_str())
                    || schema.field_with_name(&c.name).is_ok_and(|field| {
                        matches!(field.data_type(), arrow_schema::DataType::Boolean)
                    })
            })
        };
        let fine_filter = filters.iter().any(|f| !coarse(f));
        let pushed: Vec<Expr> = filters
            .iter()
            .filter(|f| Self::worth_pushing(f) || (heavy && !(fine_filter && coarse(f))))
            .cloned()
            .collect();
        // DataFusion only passes a limit when no filter remains above the scan.
        self.inner.scan(state, projection, &pushed, limit).await
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> datafusion::common::Result<Vec<TableProviderFilterPushDown>> {
        Ok(vec![TableProviderFilterPushDown::Inexact; filters.len()])
    }
}

/// Execute a planned query and collect its batches.
pub async fn execute(
    ctx: &SessionContext,
    plan: datafusion::logical_expr::LogicalPlan,
) -> Result<Vec<RecordBatch>> {
    Ok(ctx.execute_logical_plan(plan).await?.collect().await?)
}
