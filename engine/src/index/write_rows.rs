//! The rows phase: `symbols` and `edges` resolved and written, whole on a first index,
//! per changed file (in place) on a re-index, with their row digests.

use super::*;

/// Lance writers of the `symbols` table, in parallel ([`stream_table`]): its pages are
/// encoded on one thread per writer, and with one its producer waited on the encoder a third
/// of the time.
pub(super) const SYMBOLS_WRITERS: usize = 2;

/// How many of a table's chunks [`stream_table`] makes at once, in parallel (each is at most
/// `rows::STREAM_BYTES` of analyses, sized for this).
pub(super) const CHUNKS_AT_ONCE: usize = 2;

/// Write a table from rows produced per file, streaming: a scoped thread turns file ranges
/// into Arrow batches ([`CHUNKS_AT_ONCE`] ranges at a time, each in parallel within itself)
/// and sends them, in order, over a bounded channel that Lance's writer reads. With `writers`
/// above 1, the ranges are cut into that many runs, each made by a thread of its own (also
/// [`CHUNKS_AT_ONCE`] at a time) and written by a Lance writer of its own, all committed as
/// one version in order ([`tables::write_table_readers`]). Returns (version, rows). Nothing
/// is published here; if a producer fails (which ends its stream early) the error is
/// returned, so the partial version is never published. Uses `block_in_place`: call it on a
/// multi-thread tokio runtime (the CLI, the server and the test runners all are).
#[allow(clippy::too_many_arguments)]
pub(super) fn stream_table<F>(
    store: &quarry_storage::Store,
    source_id: &str,
    table: &str,
    schema: arrow_schema::SchemaRef,
    chunks: &[std::ops::Range<usize>],
    writers: usize,
    progress: &dyn Progress,
    make_batch: F,
) -> Result<(u64, u64)>
where
    F: Fn(std::ops::Range<usize>) -> Result<(RecordBatch, u64)> + Send + Sync,
{
    let writers = writers.clamp(1, chunks.len().max(1));
    let mut runs: Vec<&[std::ops::Range<usize>]> = chunks
        .chunks(chunks.len().div_ceil(writers).max(1))
        .collect();
    if runs.is_empty() {
        runs.push(&[]);
    }
    let make_batch = &make_batch;
    tokio::task::block_in_place(|| {
        std::thread::scope(|s| {
            let mut producers = Vec::with_capacity(runs.len());
            let mut readers: Vec<Box<dyn arrow_array::RecordBatchReader + Send>> = Vec::new();
            for run in runs {
                let (tx, rx) = std::sync::mpsc::sync_channel::<RecordBatch>(2);
                producers.push(s.spawn(move || -> Result<u64> {
                    let mut rows = 0;
                    // Chunks are made a few at a time, each on a pool thread: one chunk's
                    // steps (unpacking, resolving, digesting in parallel, then tallying and
                    // building its batch alone) left both cores and Lance's encoder waiting
                    // on one another, ~1.55 cores in all.
                    for window in run.chunks(CHUNKS_AT_ONCE) {
                        let made: Vec<Result<(RecordBatch, u64)>> =
                            window.par_iter().map(|c| make_batch(c.clone())).collect();
                        for (chunk, made) in window.iter().zip(made) {
                            let (batch, n) = made?;
                            rows += n;
                            progress.advance(chunk.len() as u64, 0);
                            // A closed channel means the writer failed; its error is reported
                            // below.
                            if n > 0 && tx.send(batch).is_err() {
                                return Ok(rows);
                            }
                        }
                    }
                    Ok(rows)
                }));
                readers.push(Box::new(RecordBatchIterator::new(
                    rx.into_iter().map(Ok),
                    schema.clone(),
                )));
            }
            let written = tokio::runtime::Handle::current().block_on(async {
                if readers.len() == 1
                    && let Some(reader) = readers.pop()
                {
                    tables::write_table_reader(store, source_id, table, reader).await
                } else {
                    tables::write_table_readers(store, source_id, table, readers).await
                }
            });
            let mut rows = 0;
            for producer in producers {
                rows += producer.join().map_err(|_| {
                    EngineError::Internal(format!("building the {table} table panicked"))
                })??;
            }
            Ok((written?, rows))
        })
    })
}

/// What writing the `symbols` and `edges` rows needs: every file's packed analysis (in path
/// order), their chunks for streaming, and the run's identifiers and files version.
pub(super) struct RowsCx<'a> {
    pub(super) store: &'a quarry_storage::Store,
    /// The run's identifiers and every file's packed analysis (in path order).
    pub(super) files: rows::Files<'a>,
    pub(super) chunks: &'a [std::ops::Range<usize>],
    pub(super) progress: &'a dyn Progress,
    pub(super) files_version: u64,
    /// A first index's trigram builder, waiting to finish ([`TrigramGate`]).
    pub(super) trigram_gate: Option<&'a TrigramGate>,
}

impl<'a> std::ops::Deref for RowsCx<'a> {
    type Target = rows::Files<'a>;

    fn deref(&self) -> &rows::Files<'a> {
        &self.files
    }
}

/// Write both tables whole (a first index, a large change, or no digests to compare with),
/// and each file's row digests into `digests`. Streaming: rows are resolved per file chunk
/// straight into Arrow batches that Lance consumes, so no repository-wide row set is ever
/// built. Returns (symbols version, edges version, symbol rows, edge rows).
pub(super) fn write_rows(
    cx: &RowsCx<'_>,
    resolver: &mut resolve::Resolver<'_>,
    digests: &mut [(RowDigest, RowDigest)],
) -> Result<(u64, u64, u64, u64)> {
    let ids = cx.ids;
    let made = Mutex::new(digests.to_vec());
    // One phase per table, so the log's memory lines say which write peaks.
    cx.progress
        .phase("writing edges", Some(resolver.len() as u64));
    // Edges first: they are tallied as they stream, so each symbol row can carry its
    // relationship counts (ArtifactQuery's `incoming_calls` & co. are then plain columns
    // instead of a join over every edge).
    let counts: Mutex<Vec<[u32; 3]>> = Mutex::new(vec![[0; 3]; resolver.symbol_count()]);
    let (ev, n_edges) = {
        let resolver = &*resolver;
        stream_table(
            cx.store,
            ids.0,
            "edges",
            EDGES.clone(),
            cx.chunks,
            1,
            cx.progress,
            |range| {
                let unpacked = cx.unpack(range.clone())?;
                let (rows, made_here) = rows::edge_rows(cx, resolver, range, &unpacked)?;
                record(&made, &made_here, 0)?;
                rows::tally(&counts, &rows)?;
                Ok((
                    rows::edge_batch(EDGES.clone(), ids, &rows)?,
                    rows.len() as u64,
                ))
            },
        )?
    };
    failpoint("edges_written");
    resolver.release_candidates();
    if let Some(gate) = cx.trigram_gate {
        gate.open();
    }
    cx.progress
        .phase("writing symbols", Some(resolver.len() as u64));
    let counts = counts
        .into_inner()
        .map_err(|_| EngineError::Internal("poisoned".into()))?;
    let resolver = &*resolver;
    let (sv, n_symbols) = stream_table(
        cx.store,
        ids.0,
        "symbols",
        SYMBOLS.clone(),
        cx.chunks,
        SYMBOLS_WRITERS,
        cx.progress,
        |range| {
            let unpacked = cx.unpack(range.clone())?;
            let (rows, made_here) = rows::symbol_rows(cx, resolver, range, &unpacked, &counts)?;
            record(&made, &made_here, 1)?;
            let n = rows.len() as u64;
            Ok((rows::symbol_batch(SYMBOLS.clone(), ids, &rows, &counts)?, n))
        },
    )?;
    let made = made
        .into_inner()
        .map_err(|_| EngineError::Internal("poisoned".into()))?;
    digests.copy_from_slice(&made);
    Ok((sv, ev, n_symbols, n_edges))
}

/// Store digests by file number, as the edges' (`which` 0) or the symbols' (1).
pub(super) fn record(
    into: &Mutex<Vec<(RowDigest, RowDigest)>>,
    made: &[(usize, RowDigest)],
    which: usize,
) -> Result<()> {
    let mut into = into
        .lock()
        .map_err(|_| EngineError::Internal("poisoned".into()))?;
    for &(fi, d) in made {
        if let Some(slot) = into.get_mut(fi) {
            *(if which == 0 { &mut slot.0 } else { &mut slot.1 }) = d;
        }
    }
    Ok(())
}

/// Files whose rows may be rewritten in place, at most: a larger change rewrites the
/// tables whole (each delete commit scans a column of the whole table).
pub(super) fn max_in_place(files: usize) -> usize {
    (files / 8).max(256)
}

/// Update both tables in place from the published versions `(symbols, edges)`: every file's
/// rows are made again and digested, and only the files whose digest differs from the
/// published one (and the files gone) have their rows deleted and appended anew. Returns
/// `None`, having written nothing, when more files differ than [`max_in_place`]. Returns
/// (symbols version, edges version, symbol rows, edge rows) otherwise.
pub(super) async fn update_rows(
    cx: &RowsCx<'_>,
    resolver: &mut resolve::Resolver<'_>,
    published: &digest::Digests,
    (old_sv, old_ev): (u64, u64),
    digests: &mut [(RowDigest, RowDigest)],
) -> Result<Option<(u64, u64, u64, u64)>> {
    let ids = cx.ids;
    let files = cx.analysed.len();
    let present: HashSet<&str> = cx.analysed.iter().map(|(p, _, _)| p.as_str()).collect();
    let gone: Vec<&str> = published
        .keys()
        .map(String::as_str)
        .filter(|p| !present.contains(p))
        .collect();
    // Every file's edges digested (and tallied for the symbols' counts), and its symbols
    // digested without their counts, file by file in parallel; the counts are added to the
    // symbols' digests below, once every edge is tallied.
    let (made, counts, n_edges) = tokio::task::block_in_place(|| {
        rows::digest_every_file(cx, resolver, || cx.progress.advance(1, 0))
    })?;
    let mut partial = vec![[0; 16]; files];
    for (fi, (edges, symbols)) in made.into_iter().enumerate() {
        digests[fi].0 = edges;
        partial[fi] = symbols;
    }
    let differ = |pick: fn(&(RowDigest, RowDigest)) -> RowDigest, digests: &[_]| -> Vec<usize> {
        (0..files)
            .filter(|&fi| published.get(&cx.analysed[fi].0).map(pick) != Some(pick(&digests[fi])))
            .collect()
    };
    let edges_differ = differ(|d| d.0, digests);
    if edges_differ.len() + gone.len() > max_in_place(files) {
        return Ok(None);
    }
    cx.progress.phase(
        &format!(
            "updating edges: rows of {} files differ",
            edges_differ.len() + gone.len()
        ),
        None,
    );
    let ev = {
        let resolver = &*resolver;
        rewrite_in_place(
            cx,
            ("edges", "source_path", old_ev),
            &edges_differ,
            &gone,
            |part, unpacked| {
                let rows: Vec<resolve::EdgeRow> = part
                    .iter()
                    .zip(unpacked)
                    .flat_map(|(&fi, a)| resolver.edges(fi, a))
                    .collect();
                Ok(rows::edge_batch(EDGES.clone(), ids, &rows)?)
            },
        )
        .await?
    };
    failpoint("edges_written");
    resolver.release_candidates();
    // Symbols: every file's digest finished with its rows' final counts.
    let resolver = &*resolver;
    let n_symbols = resolver.symbol_count() as u64;
    digests
        .par_iter_mut()
        .zip(&partial)
        .enumerate()
        .for_each(|(fi, (d, p))| {
            let numbers = resolver.symbol_range(fi);
            d.1 = rows::symbol_digest_of_counts(p, counts[numbers].iter().copied());
        });
    let symbols_differ = differ(|d| d.1, digests);
    cx.progress.phase(
        &format!(
            "updating symbols: rows of {} files differ",
            symbols_differ.len() + gone.len()
        ),
        None,
    );
    let sv = rewrite_in_place(
        cx,
        ("symbols", "path", old_sv),
        &symbols_differ,
        &gone,
        |part, unpacked| {
            let rows: Vec<resolve::SymbolRow> = part
                .iter()
                .zip(unpacked)
                .flat_map(|(&fi, a)| resolver.symbols(fi, a))
                .collect();
            Ok(rows::symbol_batch(SYMBOLS.clone(), ids, &rows, &counts)?)
        },
    )
    .await?;
    Ok(Some((sv, ev, n_symbols, n_edges)))
}

/// One table's in-place update from its published `version`: delete the rows of the files
/// `differ` (file numbers) and `gone` (paths) by their path `column`, append the differing
/// files' rows as `batch` makes them, compact if fragmented, and record the files version
/// (so the result is a new version even when no row changed). Returns that version.
pub(super) async fn rewrite_in_place(
    cx: &RowsCx<'_>,
    (table, column, version): (&str, &str, u64),
    differ: &[usize],
    gone: &[&str],
    batch: impl Fn(&[usize], &[FileAnalysis]) -> Result<RecordBatch>,
) -> Result<u64> {
    let mut ds = tables::checkout_for_update(cx.store, cx.ids.0, table, version).await?;
    let paths: Vec<&str> = differ
        .iter()
        .map(|&fi| cx.analysed[fi].0.as_str())
        .chain(gone.iter().copied())
        .collect();
    tables::delete_where_in(&mut ds, table, column, &paths).await?;
    let mut batches = Vec::new();
    tokio::task::block_in_place(|| {
        cx.for_each_chunk::<EngineError>(differ, |part, unpacked| {
            let b = batch(part, unpacked)?;
            if b.num_rows() > 0 {
                batches.push(b);
            }
            Ok(())
        })
    })?;
    if let Some(first) = batches.first() {
        let schema = first.schema();
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), schema);
        tables::append_reader(&mut ds, table, Box::new(reader)).await?;
    }
    tables::compact_if_fragmented(&mut ds, table).await?;
    Ok(tables::set_config(
        &mut ds,
        table,
        "quarry.files_version",
        &cx.files_version.to_string(),
    )
    .await?)
}

impl Run<'_> {
    /// Resolve the edges and write `symbols` and `edges` (or keep the published ones when
    /// nothing changed), with their row digests.
    pub(super) async fn write_rows(
        &mut self,
        files: &FilesWritten,
        analysed: Analysed,
    ) -> Result<RowsWritten> {
        let (catalog, store) = (self.catalog, self.store);
        let progress = self.progress.clone();
        let source = &self.source;
        let prefix = &self.prefix;
        let stats = &mut self.stats;
        let (files_version, files_changed) = (files.version, files.changed);
        let (previous_symbols, previous_edges) = files.previous_rows;
        let pinned = files.pinned;
        let previous = &files.previous;
        let frames = &files.frames;
        let trigram_gate = &files.trigram_gate;
        let reusable = source
            .snapshot
            .as_ref()
            .filter(|s| !files_changed && s.analyzer == ANALYZER_VERSION)
            .and_then(|s| Some((s.symbols?, s.edges?, s.stats.symbols, s.stats.edges)));
        // With fresh analyses, the search index takes its definitions from their frames (`defs`)
        // rather than reading the `symbols` table back.
        let (symbols_version, edges_version, defs) = match reusable {
            Some((sv, ev, n_symbols, n_edges)) => {
                // Nothing changed: the published analysis stands.
                stats.symbols = n_symbols;
                stats.edges = n_edges;
                (sv, ev, None)
            }
            None => {
                // Unchanged files take their published analysis; load only those.
                let missing: FxHashSet<&str> = analysed
                    .iter()
                    .filter(|(_, _, a)| a.is_none())
                    .map(|(p, _, _)| p.as_str())
                    .collect();
                let mut loaded = if missing.is_empty() {
                    FxHashMap::default()
                } else {
                    progress.phase("loading unchanged analyses", None);
                    load_previous_analyses(catalog, &source, &missing, frames.as_ref()).await?
                };
                // Each unchanged file's loaded analysis (already packed) beside it; a file the
                // tables hold no row of had an empty analysis.
                let analysed: Vec<(String, &'static str, Arc<Packed>)> = analysed
                    .into_iter()
                    .map(|(p, l, a)| {
                        let a =
                            match a.or_else(|| loaded.remove(&p)) {
                                Some(a) => a,
                                None => Arc::new(Packed::new(&FileAnalysis::default()).map_err(
                                    |e| EngineError::Internal(format!("packing an analysis: {e}")),
                                )?),
                            };
                        Ok((p, l, a))
                    })
                    .collect::<Result<_>>()?;
                progress.phase("resolving edges", Some(analysed.len() as u64));
                let inputs: Vec<FileInput> = analysed
                    .iter()
                    .map(|(path, lang, a)| FileInput {
                        path,
                        language: lang,
                        lang: Lang::from_name(lang),
                        names: a.names(),
                    })
                    .collect();
                let mut resolver = resolve::Resolver::new(&inputs);
                let id = source.id.clone();
                let ids = (id.as_str(), prefix.as_str());
                let chunks = stream_chunks(analysed.iter().map(|(_, _, a)| a.raw_len()));
                // Each file's digests of its rows (edges, symbols), published with the tables.
                let mut digests = vec![([0; 16], [0; 16]); analysed.len()];
                let rows = RowsCx {
                    store,
                    files: rows::Files {
                        ids,
                        analysed: &analysed,
                    },
                    chunks: &chunks,
                    progress: progress.as_ref(),
                    files_version,
                    trigram_gate: trigram_gate.as_ref(),
                };
                // After a small change, only the rows of the files whose rows differ are
                // rewritten (needs the published rows' digests).
                let published = match (previous_symbols, previous_edges, pinned) {
                    (Some(sv), Some(ev), Some(_)) if previous.reusable => {
                        digest::load(store, &id, (sv, ev))
                            .await
                            .map(|d| (d, (sv, ev)))
                    }
                    _ => None,
                };
                let updated = match &published {
                    Some((old, versions)) => {
                        update_rows(&rows, &mut resolver, old, *versions, &mut digests).await?
                    }
                    None => None,
                };
                let (sv, ev, n_symbols, n_edges) = match updated {
                    Some(done) => done,
                    None => write_rows(&rows, &mut resolver, &mut digests)?,
                };
                let by_path: digest::Digests = analysed
                    .iter()
                    .zip(&digests)
                    .map(|((path, _, _), d)| (path.clone(), *d))
                    .collect();
                if let Err(e) = digest::save(store, &id, (sv, ev), &by_path).await {
                    // The next re-index then rewrites both tables whole.
                    tracing::warn!("storing the row digests: {e}");
                }
                drop(by_path);
                stats.symbols = n_symbols;
                stats.edges = n_edges;
                failpoint("symbols_written");
                // Both borrow `analysed`, which gives up its names here.
                drop(resolver);
                drop(inputs);
                // Each file's frame, without the names held beside it. The frames are in the
                // scratch file (in memory only when the store could not make one, `frame_file`).
                let defs: Vec<Definitions> = analysed
                    .into_iter()
                    .map(|(path, _, a)| {
                        let names = a.names();
                        let units = (0..names.symbol_count())
                            .filter(|&i| search::is_unit(names.kind(i)))
                            .count();
                        Definitions {
                            path,
                            frame: a.frame(),
                            units,
                        }
                    })
                    .collect();
                (sv, ev, Some(defs))
            }
        };

        Ok(RowsWritten {
            symbols: symbols_version,
            edges: edges_version,
            defs,
        })
    }
}
