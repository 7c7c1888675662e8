//! Lance table I/O: write a new version of a repository's table, open a pinned version, scan.

use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use futures::{StreamExt, TryStreamExt};
use lance::Dataset;
use lance::dataset::builder::DatasetBuilder;
use lance::dataset::{WriteMode, WriteParams};

use crate::catalog::source_data_dir;
use crate::error::{Result, StorageError};
use crate::store::Store;

/// The URL of a repository's table.
pub fn table_url(store: &Store, source_id: &str, table: &str) -> String {
    store.dataset_url(&format!("{}/{table}.lance", source_data_dir(source_id)))
}

/// Write `batches` as a new version of the table (creating it when missing) and return the
/// version number. The previous versions stay readable; nothing points at the new version
/// until the catalog publishes it.
pub async fn write_table(
    store: &Store,
    source_id: &str,
    table: &str,
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
) -> Result<u64> {
    let url = table_url(store, source_id, table);
    let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
    let params = write_params(WriteMode::Overwrite);
    let ds = Dataset::write(reader, url.as_str(), Some(params))
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    Ok(ds.version().version)
}

/// Column buffer of the file writer, per column, for the tables written whole at the end of
/// an index run (`symbols`, 21 columns; `edges`, 11), where Lance's default is 8 MiB: 168 and
/// 88 MiB held while each is written, at the run's peak. Smaller pages also compress better,
/// and the search phase's scan of `symbols` (which reads few columns) does not peak higher on
/// them. At 1 MiB the registry's first index peaks ~80 MB lower than at 8 MiB at the same
/// speed, and `bench/query.sh` answers as fast. A first index's `files` table (contents) too:
/// its 8 MiB buffers held a deep copy of each chunk's contents; the table's size and a
/// `read_file`'s time are the same.
const COLUMN_BUFFER_BYTES: u64 = 1 << 20;

/// How every table is written (one place for the options of overwrites and appends; the
/// column buffers of streamed overwrites are set in [`stream_write_params`]).
pub fn write_params(mode: WriteMode) -> WriteParams {
    WriteParams {
        mode,
        // The session's object-store registry is what knows `s3://` (crate::s3).
        session: Some(lance_session()),
        ..Default::default()
    }
}

/// One Lance session for the process: its index cache (n-gram postings, …), metadata cache
/// and object-store clients are shared by every read, so a warm server does not reload an
/// index or reconnect to S3 per request. Its object-store registry reaches S3 through
/// [`crate::s3::LanceS3`]. Budgets: `QUARRY_INDEX_CACHE_MB` (default 1024) and
/// `QUARRY_METADATA_CACHE_MB` (default 256).
fn lance_session() -> Arc<lance::session::Session> {
    static SESSION: std::sync::OnceLock<Arc<lance::session::Session>> = std::sync::OnceLock::new();
    SESSION
        .get_or_init(|| {
            let mb = |var: &str, default: usize| {
                std::env::var(var)
                    .ok()
                    .and_then(|v| v.parse::<usize>().ok())
                    .unwrap_or(default)
                    * 1024
                    * 1024
            };
            new_session(
                mb("QUARRY_INDEX_CACHE_MB", 1024),
                mb("QUARRY_METADATA_CACHE_MB", 256),
            )
        })
        .clone()
}

/// Metadata cache of [`pass_session`]: room for the manifests and file footers a pass opens,
/// not for the pages' initialisation data.
const PASS_METADATA_CACHE_BYTES: usize = 4 << 20;

/// The session of the tables indexing reads once, from end to end, and does not read again
/// ([`open_table_for_pass`]). Scanning a column, Lance initialises each of its pages (a
/// dictionary, a row index of variable-width values) and keeps that in the session's metadata
/// cache for the next read of the same file. A server reads a published table again and
/// again; a re-index reads the previous version once: kept in the process's session, the
/// registry copy's `symbols` and `edges` left ~30 MB cached through the rest of a small
/// change's re-index, at its peak.
fn pass_session() -> Arc<lance::session::Session> {
    static SESSION: std::sync::OnceLock<Arc<lance::session::Session>> = std::sync::OnceLock::new();
    SESSION
        .get_or_init(|| new_session(0, PASS_METADATA_CACHE_BYTES))
        .clone()
}

fn new_session(index_cache: usize, metadata_cache: usize) -> Arc<lance::session::Session> {
    let registry = lance::io::ObjectStoreRegistry::default();
    for scheme in ["s3", "s3a"] {
        registry.insert(scheme, Arc::new(crate::s3::LanceS3));
    }
    Arc::new(lance::session::Session::new(
        index_cache,
        metadata_cache,
        Arc::new(registry),
    ))
}

/// Opened datasets by (URL, version). A pinned version never changes, so an entry can never
/// be stale; a new version is a new key.
type OpenTables = std::sync::Mutex<std::collections::HashMap<(String, u64), Arc<Dataset>>>;
const MAX_OPEN_TABLES: usize = 512;

fn open_tables() -> &'static OpenTables {
    static OPEN: std::sync::OnceLock<OpenTables> = std::sync::OnceLock::new();
    OPEN.get_or_init(Default::default)
}

/// Open a table at a pinned version (cached for the life of the process).
pub async fn open_table(
    store: &Store,
    source_id: &str,
    table: &str,
    version: u64,
) -> Result<Arc<Dataset>> {
    let url = table_url(store, source_id, table);
    let key = (url, version);
    if let Some(ds) = open_tables()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key)
    {
        return Ok(ds.clone());
    }
    let ds = Arc::new(
        DatasetBuilder::from_uri(key.0.as_str())
            .with_version(version)
            .with_session(lance_session())
            .load()
            .await
            .map_err(|e| StorageError::lance(table, e))?,
    );
    let mut open = open_tables().lock().unwrap_or_else(|p| p.into_inner());
    if open.len() >= MAX_OPEN_TABLES {
        open.clear();
    }
    open.insert(key, ds.clone());
    Ok(ds)
}

/// Open a table at a pinned version for one pass of indexing (its whole-table scans, an
/// in-place update): through [`pass_session`], and not kept among the open tables, so what
/// Lance caches of it is dropped with the pass.
pub async fn open_table_for_pass(
    store: &Store,
    source_id: &str,
    table: &str,
    version: u64,
) -> Result<Dataset> {
    DatasetBuilder::from_uri(table_url(store, source_id, table).as_str())
        .with_version(version)
        .with_session(pass_session())
        .load()
        .await
        .map_err(|e| StorageError::lance(table, e))
}

/// Read the given columns of a table (all rows).
pub async fn scan_columns(
    ds: &Dataset,
    table: &'static str,
    columns: &[&str],
) -> Result<Vec<RecordBatch>> {
    scan_stream(ds, table, columns).await?.try_collect().await
}

/// Read-ahead of a whole-table scan whose consumer is slower than the disk (indexing's scans
/// feed parsers and tokenisers): Lance's default lets up to 2 GiB of pages pile up ahead of
/// the consumer; on the registry the search phase held ~120 MB more with it.
const BULK_SCAN_IO_BUFFER: u64 = 64 << 20;

/// A whole-table scan for indexing (its consumer is slower than the disk): bounded read-ahead,
/// and one fragment at a time — a fragment's first batch needs a page of every projected
/// column decoded (~0.25 GB for the search phase's columns of `symbols` on the registry), and
/// Lance's default schedules four fragments at once. Rebuilding the registry's search index
/// peaked at 0.72–0.76 GB with the default and 0.63–0.69 GB with one fragment, as fast.
pub fn bulk_scan(ds: &Dataset) -> lance::dataset::scanner::Scanner {
    let mut scan = ds.scan();
    scan.io_buffer_size(BULK_SCAN_IO_BUFFER);
    scan.fragment_readahead(1);
    scan
}

/// Scan some columns of a table as a stream of batches (in table order), for callers that
/// process a large table without holding it.
pub async fn scan_stream(
    ds: &Dataset,
    table: &'static str,
    columns: &[&str],
) -> Result<impl futures::Stream<Item = Result<RecordBatch>> + use<>> {
    scan_rows(ds, table, columns, None).await
}

/// A [`bulk_scan`] of `columns`, of the rows `(limit, offset)` when given.
async fn scan_rows(
    ds: &Dataset,
    table: &'static str,
    columns: &[&str],
    rows: Option<(u64, u64)>,
) -> Result<impl futures::Stream<Item = Result<RecordBatch>> + use<>> {
    let lance = move |e| StorageError::lance(table, e);
    let mut scan = bulk_scan(ds);
    scan.project(columns).map_err(lance)?;
    if let Some((limit, offset)) = rows {
        let (limit, offset) = (i64::try_from(limit), i64::try_from(offset));
        scan.limit(limit.ok(), offset.ok()).map_err(lance)?;
    }
    let stream = scan.try_into_stream().await.map_err(lance)?;
    Ok(stream.map_err(lance))
}

/// Like [`scan_stream`], but as successive scans of `rows` rows each (Lance's limit and
/// offset, which it pushes down to the file reader as a range of rows). A scan initialises
/// every page of its columns that its rows touch before its first batch, and holds that to
/// its end: for the whole of `symbols` and `edges` that was ~60 MB of the registry copy's
/// small-change re-index (dictionaries, the row indexes of variable-width values); a range
/// of rows holds only its own pages'.
pub async fn scan_stream_ranged(
    ds: &Dataset,
    table: &'static str,
    columns: &[&str],
    rows: u64,
) -> Result<futures::stream::BoxStream<'static, Result<RecordBatch>>> {
    let lance = move |e| StorageError::lance(table, e);
    let total = ds.count_rows(None).await.map_err(lance)? as u64;
    let rows = rows.max(1);
    let ds = ds.clone();
    let columns: Vec<String> = columns.iter().map(|c| c.to_string()).collect();
    let starts = (0..total).step_by(usize::try_from(rows).unwrap_or(usize::MAX));
    Ok(futures::stream::iter(starts)
        .then(move |start| {
            let ds = ds.clone();
            let columns = columns.clone();
            async move {
                let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
                scan_rows(&ds, table, &columns, Some((rows, start))).await
            }
        })
        .try_flatten()
        .boxed())
}

/// Like [`write_table`], but consumes a (possibly lazy) reader, so a large table streams to
/// storage without being held in memory.
pub async fn write_table_reader(
    store: &Store,
    source_id: &str,
    table: &str,
    reader: Box<dyn arrow_array::RecordBatchReader + Send>,
) -> Result<u64> {
    let url = table_url(store, source_id, table);
    let params = stream_write_params(table, reader.schema().fields().len());
    let ds = Dataset::write(reader, url.as_str(), Some(params))
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    Ok(ds.version().version)
}

/// [`write_params`] for overwriting a table from a stream; `files`, `symbols` and `edges` with
/// small column buffers ([`COLUMN_BUFFER_BYTES`]).
fn stream_write_params(table: &str, columns: usize) -> WriteParams {
    let mut params = write_params(WriteMode::Overwrite);
    if matches!(table, "files" | "symbols" | "edges") {
        params.file_writer_options = Some(lance_file::writer::FileWriterOptions {
            data_cache_bytes: Some(COLUMN_BUFFER_BYTES * columns as u64),
            ..Default::default()
        });
    }
    params
}

/// Like [`write_table_reader`], with the rows of several readers written at once, each by a
/// Lance writer of its own (into fragments of its own), and committed as one new version: the
/// rows of the first reader, then the second's, and so on. One Lance writer encodes a table's
/// pages one after another on one thread; writing `symbols` (21 columns) it kept the index
/// run waiting with a core idle. Nothing is published until
/// every writer is done: a failing one fails the whole write, and the files the others wrote
/// belong to no version.
pub async fn write_table_readers(
    store: &Store,
    source_id: &str,
    table: &str,
    readers: Vec<Box<dyn arrow_array::RecordBatchReader + Send>>,
) -> Result<u64> {
    use lance::dataset::transaction::{Operation, TransactionBuilder};
    use lance::dataset::{CommitBuilder, InsertBuilder, WriteDestination};
    let lance_err = |e| StorageError::lance(table, e);
    let Some(first) = readers.first() else {
        return Err(lance_err(lance::Error::invalid_input(
            "no readers to write",
        )));
    };
    let url = table_url(store, source_id, table);
    let mut params = stream_write_params(table, first.schema().fields().len());
    // The writers and the commit must agree on the file format: the table's own when it
    // exists (an overwrite keeps it, as `Dataset::write` does), else the default.
    let existing = match DatasetBuilder::from_uri(&url)
        .with_session(lance_session())
        .load()
        .await
    {
        Ok(ds) => Some(Arc::new(ds)),
        Err(lance::Error::DatasetNotFound { .. } | lance::Error::NotFound { .. }) => None,
        Err(e) => return Err(lance_err(e)),
    };
    let format = match &existing {
        Some(ds) => ds.manifest.data_storage_format.lance_file_format(),
        None => params.storage_version_or_default(),
    };
    params.data_storage_version = Some(format.to_selector());
    let params = Arc::new(params);
    // Each writer on a task of its own, so that their encoding runs in parallel.
    // Each writes into the table loaded above (not loaded again per writer).
    let writes: Vec<_> = readers
        .into_iter()
        .map(|reader| {
            let (url, params, existing) = (url.clone(), params.clone(), existing.clone());
            tokio::spawn(async move {
                let insert = match existing {
                    Some(ds) => InsertBuilder::new(ds),
                    None => InsertBuilder::new(url.as_str()),
                };
                insert
                    .with_params(&params)
                    .execute_uncommitted_stream(reader)
                    .await
            })
        })
        .collect();
    let mut fragments = Vec::new();
    let mut schema = None;
    let mut read_version = 0;
    let mut failed = None;
    // Every writer is awaited (none is left running) before an error is returned.
    for write in writes {
        let written = write
            .await
            .map_err(|e| lance_err(lance::Error::internal(format!("a writer task failed: {e}"))));
        match written {
            Ok(Ok(tx)) => match tx.operation {
                Operation::Overwrite {
                    fragments: f,
                    schema: s,
                    ..
                } => {
                    fragments.extend(f);
                    schema.get_or_insert(s);
                    read_version = tx.read_version;
                }
                other => {
                    failed.get_or_insert(lance_err(lance::Error::internal(format!(
                        "a writer made a {} operation, not an overwrite",
                        other.name()
                    ))));
                }
            },
            Ok(Err(e)) => {
                failed.get_or_insert(lance_err(e));
            }
            Err(e) => {
                failed.get_or_insert(e);
            }
        }
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let schema =
        schema.ok_or_else(|| lance_err(lance::Error::internal("no writer made a schema")))?;
    let operation = Operation::Overwrite {
        schema,
        fragments,
        config_upsert_values: None,
        initial_bases: None,
    };
    let transaction = TransactionBuilder::new(read_version, operation).build();
    let dest = match existing {
        Some(ds) => WriteDestination::Dataset(ds),
        None => WriteDestination::Uri(url.as_str()),
    };
    let ds = CommitBuilder::new(dest)
        .with_session(lance_session())
        .with_storage_format(format.to_selector())
        .enable_v2_manifest_paths(params.enable_v2_manifest_paths)
        .use_stable_row_ids(params.enable_stable_row_ids)
        .execute(transaction)
        .await
        .map_err(lance_err)?;
    Ok(ds.version().version)
}

/// Start a new version of a table from a pinned one: when later versions exist (written by a
/// run that never published), restore the pinned version as the latest, so their rows never
/// leak into what we write next.
pub async fn checkout_for_update(
    store: &Store,
    source_id: &str,
    table: &str,
    version: u64,
) -> Result<Dataset> {
    let mut ds = open_table_for_pass(store, source_id, table, version).await?;
    let latest = ds
        .latest_version_id()
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    if latest != version {
        ds.restore()
            .await
            .map_err(|e| StorageError::lance(table, e))?;
    }
    Ok(ds)
}

/// Append a (possibly lazy) reader to a dataset as a new version; returns it.
pub async fn append_reader(
    ds: &mut Dataset,
    table: &str,
    reader: Box<dyn arrow_array::RecordBatchReader + Send>,
) -> Result<u64> {
    // In the dataset's own session (a pass's, from `checkout_for_update`), which the new
    // version keeps.
    let params = WriteParams {
        session: Some(ds.session()),
        ..write_params(WriteMode::Append)
    };
    ds.append(reader, Some(params))
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    Ok(ds.version().version)
}

/// Remove a table's versions before `keep_from`: their manifests, and the data and deletion
/// files no kept version references. `current` is the published version (it and any later
/// one are never removed, whatever `keep_from` says). A re-index after a large change writes
/// whole new versions of `symbols` and `edges` (the registry's: ~250 MB), and a small one
/// leaves deleted rows behind, so without this a store grows with every run. Returns the
/// bytes removed.
pub async fn remove_versions_before(
    store: &Store,
    source_id: &str,
    table: &str,
    current: u64,
    keep_from: u64,
) -> Result<u64> {
    let ds = open_table(store, source_id, table, current).await?;
    let policy = lance::dataset::cleanup::CleanupPolicy {
        before_version: Some(keep_from.min(current)),
        // Quarry never tags versions; should someone have, keep theirs and go on.
        error_if_tagged_old_versions: false,
        ..Default::default()
    };
    let stats = ds
        .cleanup_with_policy(policy)
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    Ok(stats.bytes_removed)
}

/// Fragments a table updated in place (`files`; `symbols` and `edges` after a small change)
/// may have before an update compacts it.
const MAX_FRAGMENTS: usize = 32;

/// Merge the small fragments in-place updates leave behind (each update appends one, holding
/// the changed files, and deletes their old rows; a fragment goes only when all its rows are
/// deleted), once there are more than [`MAX_FRAGMENTS`]: every scan opens every fragment, a
/// request per fragment on S3. Fragments under an eighth of the table's rows are candidates,
/// so the large fragments of the first index are not rewritten (unless more than a tenth of
/// their rows are deleted, which Lance then materialises). Neighbouring candidates are merged
/// in place: the table's row order does not change.
pub async fn compact_if_fragmented(ds: &mut Dataset, table: &str) -> Result<()> {
    if ds.count_fragments() <= MAX_FRAGMENTS {
        return Ok(());
    }
    let rows = ds
        .count_rows(None)
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    let options = lance::dataset::optimize::CompactionOptions {
        target_rows_per_fragment: (rows / 8).max(1024),
        ..Default::default()
    };
    lance::dataset::optimize::compact_files(ds, options, None)
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    Ok(())
}

/// Quote a string as a SQL literal for a Lance predicate.
pub fn sql_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Delete the rows matching any of `conditions` (SQL predicates), in bounded batches; returns
/// the resulting version.
pub async fn delete_where_any(ds: &mut Dataset, table: &str, conditions: &[String]) -> Result<u64> {
    for chunk in conditions.chunks(256) {
        let predicate = chunk
            .iter()
            .map(|c| format!("({c})"))
            .collect::<Vec<_>>()
            .join(" OR ");
        ds.delete(&predicate)
            .await
            .map_err(|e| StorageError::lance(table, e))?;
    }
    Ok(ds.version().version)
}

/// Delete the rows whose `column` is one of `values` (through [`delete_where_any`], an
/// `IN` list of up to 512 values per condition); returns the resulting version.
pub async fn delete_where_in(
    ds: &mut Dataset,
    table: &str,
    column: &str,
    values: &[&str],
) -> Result<u64> {
    let conditions: Vec<String> = values
        .chunks(512)
        .map(|chunk| {
            let list: Vec<String> = chunk.iter().map(|v| sql_literal(v)).collect();
            format!("{column} IN ({})", list.join(", "))
        })
        .collect();
    delete_where_any(ds, table, &conditions).await
}

/// Record `key = value` in a table's configuration: a new version even when nothing else
/// changed (an in-place update that deleted and appended nothing still gets a version of its
/// own, which what is derived from it is keyed by). Returns the version.
pub async fn set_config(ds: &mut Dataset, table: &str, key: &str, value: &str) -> Result<u64> {
    ds.update_config([(key, value)])
        .await
        .map_err(|e| StorageError::lance(table, e))?;
    Ok(ds.version().version)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int64Array, StringArray};
    use arrow_schema::{DataType, Field, Schema};

    /// The tests' table: an id and a path (`f` and the id modulo 97).
    fn id_path_schema() -> SchemaRef {
        Arc::new(Schema::new(vec![
            Field::new("id", DataType::Int64, false),
            Field::new("path", DataType::Utf8, false),
        ]))
    }

    fn rows(schema: &SchemaRef, from: i64, n: i64) -> RecordBatch {
        let ids: Vec<i64> = (from..from + n).collect();
        let paths: Vec<String> = ids.iter().map(|i| format!("f{}", i % 97)).collect();
        RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(Int64Array::from(ids)),
                Arc::new(StringArray::from(paths)),
            ],
        )
        .unwrap()
    }

    async fn ids(stream: impl futures::Stream<Item = Result<RecordBatch>>) -> Vec<i64> {
        let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
        batches
            .iter()
            .flat_map(|b| {
                let col = b.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
                col.values().to_vec()
            })
            .collect()
    }

    /// A table read as successive ranges of rows gives every row once, in table order, as a
    /// whole scan does — across fragments and around deleted rows, as an in-place update
    /// leaves `symbols` and `edges`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ranged_scans_read_every_row_once_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        let schema = id_path_schema();
        let v = write_table(
            &store,
            "src",
            "t",
            schema.clone(),
            vec![rows(&schema, 0, 1000)],
        );
        let v = v.await.unwrap();
        // Two appended fragments, then rows deleted from the first and the second.
        let mut ds = checkout_for_update(&store, "src", "t", v).await.unwrap();
        for from in [1000, 1300] {
            let batch = rows(&schema, from, 300);
            let reader = RecordBatchIterator::new([Ok(batch)], schema.clone());
            append_reader(&mut ds, "t", Box::new(reader)).await.unwrap();
        }
        delete_where_in(&mut ds, "t", "path", &["f3", "f50", "f96"])
            .await
            .unwrap();
        let version = ds.version().version;
        assert_eq!(ds.count_fragments(), 3);

        let ds = open_table_for_pass(&store, "src", "t", version)
            .await
            .unwrap();
        let whole = ids(scan_stream(&ds, "t", &["id"]).await.unwrap()).await;
        let expected: Vec<i64> = (0..1600)
            .filter(|i| ![3, 50, 96].contains(&(i % 97)))
            .collect();
        assert_eq!(whole, expected);
        for per_scan in [1, 7, 97, 256, 999, 1000, 1600, 1 << 18] {
            let ranged = scan_stream_ranged(&ds, "t", &["id"], per_scan)
                .await
                .unwrap();
            assert_eq!(ids(ranged).await, expected, "{per_scan} rows per scan");
        }
    }

    /// Several readers written at once make one version holding their rows in the readers'
    /// order, over a table that does not exist yet and over one that does (whose earlier
    /// version stays readable); a reader without rows adds nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn readers_written_at_once_make_one_version_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        let schema = id_path_schema();
        let reader = |parts: Vec<(i64, i64)>| -> Box<dyn arrow_array::RecordBatchReader + Send> {
            let batches: Vec<_> = parts
                .into_iter()
                .map(|(from, n)| Ok(rows(&schema, from, n)))
                .collect();
            Box::new(RecordBatchIterator::new(batches, schema.clone()))
        };
        let v1 = write_table_readers(
            &store,
            "src",
            "t",
            vec![reader(vec![(0, 300), (300, 200)]), reader(vec![(500, 700)])],
        )
        .await
        .unwrap();
        let v2 = write_table_readers(
            &store,
            "src",
            "t",
            vec![
                reader(vec![(2000, 10)]),
                reader(vec![]),
                reader(vec![(2010, 5)]),
            ],
        )
        .await
        .unwrap();
        assert_eq!(v2, v1 + 1, "one commit per write");
        let read = |v| {
            let store = store.clone();
            async move {
                let ds = open_table_for_pass(&store, "src", "t", v).await.unwrap();
                ids(scan_stream(&ds, "t", &["id"]).await.unwrap()).await
            }
        };
        assert_eq!(read(v1).await, (0..1200).collect::<Vec<i64>>());
        assert_eq!(read(v2).await, (2000..2015).collect::<Vec<i64>>());
        assert!(
            write_table_readers(&store, "src", "t", Vec::new())
                .await
                .is_err()
        );
    }
}
