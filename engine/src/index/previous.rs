//! The previous snapshot: its files, analyses and Go build constraints, read to re-index
//! only what changed.

use super::*;

/// The previous snapshot's per-file hashes, and whether its analyses are reusable.
#[derive(Default)]
pub(super) struct Previous {
    /// Path → content hash of the published files.
    pub(super) files: HashMap<String, String>,
    /// Whether the published symbols/edges can stand in for unchanged files (same analyser).
    pub(super) reusable: bool,
    /// A git source's published blob ids and stored lengths, by path (empty otherwise): a
    /// blob whose id is unchanged is not read again.
    pub(super) blobs: blobs::Blobs,
    /// Whether the published files table holds a path twice (see `index_leased`).
    pub(super) duplicated: bool,
}

/// Load the previous snapshot's file hashes, and whether its analyses can be reused.
pub(super) async fn load_previous(catalog: &Catalog, source: &DataSource) -> Result<Previous> {
    let Some(snap) = &source.snapshot else {
        return Ok(Previous::default());
    };
    let store = catalog.store();
    let files = tables::open_table_for_pass(store, &source.id, "files", snap.files).await?;
    let mut prev = Previous {
        files: HashMap::new(),
        reusable: snap.symbols.is_some()
            && snap.edges.is_some()
            && snap.analyzer == ANALYZER_VERSION,
        blobs: blobs::load(store, &source.id, snap.files).await,
        duplicated: false,
    };
    for batch in tables::scan_columns(&files, "files", &["path", "hash"]).await? {
        let c = Columns::new(&batch);
        let (paths, hashes) = (c.str("path")?, c.str("hash")?);
        for i in 0..batch.num_rows() {
            if prev
                .files
                .insert(paths.value(i).to_string(), hashes.value(i).to_string())
                .is_some()
            {
                prev.duplicated = true;
            }
        }
    }
    Ok(prev)
}

/// Rows of `symbols` and `edges` read per scan when loading the unchanged analyses
/// ([`tables::scan_stream_ranged`]): on the registry copy's small change, the loading phase's
/// live heap peaked at 117 MB with whole-table scans, 82 MB with 2^18 rows (0.2–0.7 CPU s
/// more), 69 MB with 2^17 (~0.8 s more).
pub(super) const LOAD_SCAN_ROWS: u64 = 1 << 18;

/// The published analyses (symbols and raw edges) of the given files.
pub(super) async fn load_previous_analyses(
    catalog: &Catalog,
    source: &DataSource,
    wanted: &FxHashSet<&str>,
    frames: Option<&Arc<FrameFile>>,
) -> Result<FxHashMap<String, Arc<Packed>>> {
    use futures::TryStreamExt;
    let store = catalog.store();
    let snap = source
        .snapshot
        .as_ref()
        .ok_or_else(|| EngineError::Internal("no snapshot to reuse".into()))?;
    let (Some(sv), Some(ev)) = (snap.symbols, snap.edges) else {
        return Err(EngineError::Internal("snapshot without analysis".into()));
    };
    let go_builds = load_go_builds(store, &source.id, snap.files, wanted).await?;
    let mut loader = Loader::new(wanted, frames.cloned()).with_go_builds(go_builds);
    // Both tables are in path order when written whole (files are listed sorted by path, and
    // both are written in that order): read them side by side, so a file is packed as soon as
    // its symbols and its edges are both read, and only the files in between are held as
    // structs. Files updated in place (`update_rows`) come after, out of order; their rows
    // are merged all the same (`Loader::take`).
    let symbols = tables::open_table_for_pass(store, &source.id, "symbols", sv).await?;
    let mut symbol_batches =
        tables::scan_stream_ranged(&symbols, "symbols", Loader::SYMBOL_COLUMNS, LOAD_SCAN_ROWS)
            .await?;
    let edges = tables::open_table_for_pass(store, &source.id, "edges", ev).await?;
    let mut edge_batches =
        tables::scan_stream_ranged(&edges, "edges", Loader::EDGE_COLUMNS, LOAD_SCAN_ROWS).await?;
    let mut edge_batch: Option<(RecordBatch, usize)> = None;
    loop {
        // Symbols up to the end of the next batch: the files before its last path are
        // complete on that side (the last one may go on in the next batch).
        let bound = match symbol_batches.try_next().await? {
            Some(batch) if batch.num_rows() == 0 => continue,
            Some(batch) => {
                tokio::task::block_in_place(|| loader.symbols(&batch))?;
                let last = Columns::new(&batch).str("path")?;
                Some(last.value(batch.num_rows() - 1).to_string())
            }
            None => None,
        };
        let at_end = bound.is_none();
        if !at_end {
            loader.flush();
        }
        // Edges of the files before the bound (all of them at the end).
        loop {
            let (batch, row) = match edge_batch.take() {
                Some(b) => b,
                None => match edge_batches.try_next().await? {
                    Some(b) => (b, 0),
                    None => break,
                },
            };
            let next = tokio::task::block_in_place(|| loader.edges(&batch, row, bound.as_deref()))?;
            if next < batch.num_rows() {
                edge_batch = Some((batch, next));
                break;
            }
        }
        loader.flush();
        tokio::task::block_in_place(|| loader.pack_before(bound.as_deref()))?;
        if at_end {
            break;
        }
    }
    Ok(loader.into_packed())
}

/// The build constraints of the `wanted` Go files that state one ([`gobuild::build_line`]),
/// by path, read from their contents in `files` at `version`: resolution reads them, and no
/// table stores them. Only the Go files' rows are read, and nothing when none is wanted.
pub(super) async fn load_go_builds(
    store: &quarry_storage::Store,
    source_id: &str,
    version: u64,
    wanted: &FxHashSet<&str>,
) -> Result<FxHashMap<String, String>> {
    use futures::TryStreamExt;
    let mut found = FxHashMap::default();
    if !wanted.iter().any(|p| p.ends_with(".go")) {
        return Ok(found);
    }
    let lance_err = |e: lance::Error| EngineError::Storage(StorageError::lance("files", e));
    let ds = tables::open_table_for_pass(store, source_id, "files", version).await?;
    let mut scan = tables::bulk_scan(&ds);
    scan.project(&["path", "content"]).map_err(lance_err)?;
    scan.filter("language = 'go'").map_err(lance_err)?;
    let mut stream = scan.try_into_stream().await.map_err(lance_err)?;
    while let Some(batch) = stream.try_next().await.map_err(lance_err)? {
        let cols = Columns::new(&batch);
        let (paths, contents) = (cols.str("path")?, cols.str("content")?);
        for r in 0..batch.num_rows() {
            let path = paths.value(r);
            if wanted.contains(path)
                && let Some(line) = gobuild::build_line(contents.value(r))
            {
                found.insert(path.to_string(), line);
            }
        }
    }
    Ok(found)
}
