//! The `.slt` conformance suite: every file in `sqllogictests/*.slt` runs against a store that
//! holds the polyglot fixture, indexed by the real indexer, through the same planner and
//! engine path as `quarry sql`.
//!
//! `harness = false`: sqllogictest's own harness runs on a futures executor without a tokio
//! reactor, so this main builds a tokio runtime per file (as DataFusion's runner does).
//!
//! Run one file: `cargo test --test sqllogictests -- files` (a substring of the file name).
//! Rewrite the expected results from what the engine answers now (the completion mode, as
//! DataFusion's runner has): `cargo test --test sqllogictests -- --complete [files]`, then
//! review the diff.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::DataType;
use quarry_engine::index::{IndexOptions, Quiet, index_repository};
use quarry_storage::{Catalog, Store};
use sqllogictest::{AsyncDB, DBOutput, DefaultColumnType};

/// Which language a file's statements are in: SQL (the console) or ArtifactQuery (files
/// under `sqllogictests/artifactquery/`; `EXPLAIN <statement>` shows its logical plan).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Sql,
    ArtifactQuery,
}

struct QuarryDb {
    catalog: Catalog,
    mode: Mode,
}

#[derive(Debug)]
struct DbError(String);
impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for DbError {}

fn column_type(t: &DataType) -> DefaultColumnType {
    match t {
        DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64
        | DataType::Boolean => DefaultColumnType::Integer,
        DataType::Float16 | DataType::Float32 | DataType::Float64 | DataType::Decimal128(_, _) => {
            DefaultColumnType::FloatingPoint
        }
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => DefaultColumnType::Text,
        _ => DefaultColumnType::Any,
    }
}

fn cells(batches: &[RecordBatch]) -> Result<Vec<Vec<String>>, DbError> {
    use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
    let opts = FormatOptions::default().with_null("NULL");
    let mut rows = Vec::new();
    for b in batches {
        let fmts = b
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &opts))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| DbError(e.to_string()))?;
        for r in 0..b.num_rows() {
            rows.push(
                fmts.iter()
                    .map(|f| {
                        let s = f.value(r).to_string();
                        if s.is_empty() {
                            "(empty)".to_string()
                        } else {
                            s
                        }
                    })
                    .collect(),
            );
        }
    }
    Ok(rows)
}

#[async_trait::async_trait]
impl AsyncDB for QuarryDb {
    type Error = DbError;
    type ColumnType = DefaultColumnType;

    async fn run(&mut self, sql: &str) -> Result<DBOutput<Self::ColumnType>, Self::Error> {
        let err = |e: &dyn std::fmt::Display| DbError(e.to_string());
        let sources = self.catalog.sources().await.map_err(|e| err(&e))?;
        if self.mode == Mode::ArtifactQuery {
            return run_artifact_query(&self.catalog, &sources, sql).await;
        }
        let repos = quarry_engine::exec::expand_repositories(&self.catalog, &sources)
            .await
            .map_err(|e| err(&e))?;
        let ctx = quarry_engine::exec::session_for(&self.catalog, &repos)
            .await
            .map_err(|e| err(&e))?;
        let plan = quarry_planner::sql::plan(&ctx, sql)
            .await
            .map_err(|e| err(&e))?;
        let schema = plan.schema().as_arrow().clone();
        let batches = quarry_engine::exec::execute(&ctx, plan)
            .await
            .map_err(|e| err(&e))?;
        Ok(DBOutput::Rows {
            types: schema
                .fields()
                .iter()
                .map(|f| column_type(f.data_type()))
                .collect(),
            rows: cells(&batches)?,
        })
    }

    async fn shutdown(&mut self) {}

    fn engine_name(&self) -> &str {
        "quarry"
    }

    async fn sleep(dur: std::time::Duration) {
        tokio::time::sleep(dur).await;
    }
}

async fn run_artifact_query(
    catalog: &Catalog,
    sources: &[quarry_storage::DataSource],
    statement: &str,
) -> Result<DBOutput<DefaultColumnType>, DbError> {
    let err = |e: &dyn std::fmt::Display| DbError(e.to_string());
    if let Some(rest) = statement.trim_start().strip_prefix("EXPLAIN ") {
        let checked = quarry_planner::artifactquery::compile(rest).map_err(|e| err(&e))?;
        let repos = quarry_engine::exec::expand_repositories(catalog, sources)
            .await
            .map_err(|e| err(&e))?;
        let ctx = quarry_engine::exec::session_for(catalog, &repos)
            .await
            .map_err(|e| err(&e))?;
        let plan = quarry_planner::artifactquery::plan::plan(&ctx, &checked)
            .await
            .map_err(|e| err(&e))?;
        let rows = plan
            .display_indent()
            .to_string()
            .lines()
            .map(|l| vec![l.trim_end().to_string()])
            .collect();
        return Ok(DBOutput::Rows {
            types: vec![DefaultColumnType::Text],
            rows,
        });
    }
    let result = quarry_server::query::run(catalog, sources, statement)
        .await
        .map_err(|e| err(&e))?;
    let types = match result.batches.first() {
        Some(b) => b
            .schema()
            .fields()
            .iter()
            .map(|f| column_type(f.data_type()))
            .collect(),
        None => result.json["columns"]
            .as_array()
            .map(|c| vec![DefaultColumnType::Any; c.len()])
            .unwrap_or_default(),
    };
    Ok(DBOutput::Rows {
        types,
        rows: cells(&result.batches)?,
    })
}

fn slt_files(filter: Option<&str>) -> Vec<(PathBuf, Mode)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sqllogictests");
    let mut files = Vec::new();
    for (dir, mode) in [
        (root.clone(), Mode::Sql),
        (root.join("artifactquery"), Mode::ArtifactQuery),
    ] {
        for p in std::fs::read_dir(&dir)
            .expect("sqllogictests dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
        {
            if p.extension().is_some_and(|e| e == "slt")
                && filter.is_none_or(|f| p.to_string_lossy().contains(f))
            {
                files.push((p, mode));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

fn main() -> std::process::ExitCode {
    // Accept (and ignore) libtest flags cargo may pass; a bare argument filters files.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let complete = std::env::args().any(|a| a == "--complete");
    let tmp = tempfile::tempdir().expect("tempdir");
    let store_dir = tmp.path().join("store");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/polyglot");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let catalog = rt.block_on(async {
        let store = Store::open(store_dir.to_str().expect("utf-8 path")).expect("store");
        let catalog = Catalog::new(store);
        let opts = IndexOptions {
            name: Some("polyglot".into()),
            ..Default::default()
        };
        index_repository(
            &catalog,
            fixture.to_str().expect("utf-8 path"),
            &opts,
            Arc::new(Quiet),
        )
        .await
        .expect("index the fixture");
        catalog
    });
    drop(rt);

    let mut failed = 0;
    let files = slt_files(filter.as_deref());
    for (file, mode) in &files {
        let mode = *mode;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let catalog = catalog.clone();
        let result = rt.block_on(async move {
            let mut runner = sqllogictest::Runner::new(move || {
                let catalog = catalog.clone();
                async move { Ok(QuarryDb { catalog, mode }) }
            });
            runner.with_column_validator(sqllogictest::strict_column_validator);
            if complete {
                runner
                    .update_test_file(
                        file,
                        " ",
                        sqllogictest::default_validator,
                        sqllogictest::default_normalizer,
                        sqllogictest::strict_column_validator,
                    )
                    .await
                    .map_err(|e| e.to_string())
            } else {
                runner.run_file_async(file).await.map_err(|e| e.to_string())
            }
        });
        let name = file
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("../sqllogictests"))
            .unwrap_or(file)
            .display();
        match result {
            Ok(()) if complete => println!("completed {name}"),
            Ok(()) => println!("ok     {name}"),
            Err(e) => {
                failed += 1;
                println!("FAILED {name}\n{e}");
            }
        }
    }
    println!("{} files, {} failed", files.len(), failed);
    if failed == 0 && !files.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
