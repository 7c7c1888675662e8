//! The search phase: definitions and files as search units, built into the semantic index
//! (or updated from the previous one).

use super::*;

/// Files tokenised per batch when building the search index: at most this many, and fewer
/// once their contents reach [`SEARCH_BATCH_BYTES`] (a batch's contents, tokens and postings
/// are in memory at once, twice over while the previous batch merges).
pub(super) const SEARCH_BATCH_FILES: usize = 256;
/// See [`SEARCH_BATCH_FILES`]. A batch's tokens and records are several times its contents:
/// at 16 MiB the registry's search phase rose ~300 MB above its start, at 4 MiB it stays
/// below the writes' peak, at the same speed (the index is the same either way).
pub(super) const SEARCH_BATCH_BYTES: i64 = 4 << 20;
/// See [`SEARCH_BATCH_FILES`]. A unit's input, record and tokens are ~1 KB whatever its
/// file's size, and a few files declare thousands (`libc`'s constants: ~2 000 in 200 KB), so
/// a batch of them within the byte bound held ~40 000 units, a ~45 MB spike above the
/// phase's level on the registry.
pub(super) const SEARCH_BATCH_UNITS: usize = 8192;

/// Whether a search batch of `files` files, `bytes` bytes of contents and `units` definitions
/// is full.
pub(super) fn search_batch_full(files: usize, bytes: i64, units: usize) -> bool {
    files >= SEARCH_BATCH_FILES || bytes >= SEARCH_BATCH_BYTES || units >= SEARCH_BATCH_UNITS
}

/// A file's definitions as the search index takes them after a fresh analysis: its packed
/// analysis's frame (the same rows the `symbols` table was written from), read back per batch.
pub(super) struct Definitions {
    pub(super) path: String,
    pub(super) frame: quarry_analysis::analyze::packed::Frame,
    /// How many of its symbols are search units (known from the names, before unpacking).
    pub(super) units: usize,
}

/// Build and store the search index of `symbols` at `symbols_version`: definitions come in file
/// order, grouped per file — from the analyses' frames when this run made them (`defs`, in the
/// table's order), else streamed from the table; their files' contents come from the trigram
/// index's frames (random access by path), so nothing repository-wide is held but the index.
pub(super) async fn build_search(
    store: &quarry_storage::Store,
    source: &DataSource,
    (files_version, symbols_version): (u64, u64),
    defs: Option<&[Definitions]>,
    base: Option<SearchBase<'_>>,
) -> Result<()> {
    use futures::TryStreamExt;
    let id = source.id.as_str();
    // The records (and at the end the index) go to scratch files of the store, not memory.
    let spool = || {
        store.spool().map_err(|e| {
            EngineError::Internal(format!("creating a scratch file for the search index: {e}"))
        })
    };
    // Updating: start from the previous index's unchanged files; only the changed files'
    // definitions are read (and tokenised) below.
    let mut builder = match &base {
        None => search::Builder::spooled(spool()?, spool()?)
            .map_err(|e| EngineError::Internal(format!("building the search index: {e}")))?,
        Some(b) => {
            // Neither object is read whole: the index's head (its units and terms), then its
            // posting lists a slice of terms at a time, and the records a window at a time.
            let size = |path: String| async move {
                store
                    .size(&path)
                    .await?
                    .map(|n| (path.clone(), n))
                    .ok_or_else(|| {
                        EngineError::Internal(format!(
                            "the previous search index ({path}) is missing"
                        ))
                    })
            };
            let (index, index_len) = size(search::index_path(id, b.old)).await?;
            let (records, records_len) = size(search::units_path(id, b.old)).await?;
            let (sink, spill) = (spool()?, spool()?);
            tokio::task::block_in_place(|| {
                let old = search::load_head(range_reader(store, &index), index_len)
                    .map_err(|e| format!("{index}: {e}"))?;
                // The posting lists start where the head ends.
                let head = old.postings_at();
                let mut read = range_reader(store, &index);
                let postings = move |r: std::ops::Range<u64>| read(head + r.start..head + r.end);
                let keep = |p: &str| b.present.contains(p) && !b.changed.contains(p);
                let read_records = (records_len, range_reader(store, &records));
                search::Builder::from_index_reading(
                    &old,
                    postings,
                    read_records,
                    keep,
                    Some(sink),
                    Some(spill),
                )
                .map_err(|e| format!("{index}, {records}: {e}"))
            })
            .map_err(EngineError::Internal)?
        }
    };
    // Only the trigram index's documents (where each content's frame lies): its postings are
    // not needed here, and holding them (~a third of the source) would add to this phase's peak.
    let ix = trigram::load_contents(store, id, files_version)
        .await
        .map_err(|e| EngineError::Internal(format!("the trigram index (file contents): {e}")))?;
    let lance_err =
        |t: &'static str| move |e: lance::Error| EngineError::Storage(StorageError::lance(t, e));

    // Per path: identifier, language, lines, bytes (small: no contents).
    let mut meta: HashMap<String, (String, String, i64, i64)> = HashMap::new();
    let ds = tables::open_table_for_pass(store, id, "files", files_version).await?;
    let mut scan = tables::bulk_scan(&ds);
    scan.project(&["path", "identifier", "language", "lines", "bytes"])
        .map_err(lance_err("files"))?;
    let mut stream = scan.try_into_stream().await.map_err(lance_err("files"))?;
    while let Some(batch) = stream.try_next().await.map_err(lance_err("files"))? {
        let cols = Columns::new(&batch);
        let (p, i, l) = (
            cols.str("path")?,
            cols.str("identifier")?,
            cols.str("language")?,
        );
        let (n, b) = (cols.int("lines")?, cols.int("bytes")?);
        for r in 0..batch.num_rows() {
            meta.insert(
                p.value(r).to_string(),
                (
                    i.value(r).to_string(),
                    l.value(r).to_string(),
                    n.value(r),
                    b.value(r),
                ),
            );
        }
    }
    let doc_of: HashMap<&str, u32> = ix
        .paths()
        .iter()
        .enumerate()
        .map(|(d, p)| (p.as_str(), d as u32))
        .collect();

    let prefix = source.identifier_prefix();
    let inputs = SearchInputs {
        store,
        ix: &ix,
        files_version,
        source_id: id,
        meta: &meta,
        doc_of: &doc_of,
        prefix: &prefix,
    };
    let mut done: HashSet<String> = HashSet::new();
    match defs {
        Some(defs) => {
            let wanted = defs.iter().filter(|d| {
                d.units > 0 && base.as_ref().is_none_or(|b| b.changed.contains(&d.path))
            });
            let mut batch: Vec<&Definitions> = Vec::new();
            let (mut batch_bytes, mut batch_units) = (0, 0);
            for d in wanted {
                if search_batch_full(batch.len(), batch_bytes, batch_units) {
                    let groups = packed_definitions(&batch)?;
                    inputs.add(&mut done, &mut builder, groups).await?;
                    (batch, batch_bytes, batch_units) = (Vec::new(), 0, 0);
                }
                batch_bytes += meta.get(&d.path).map_or(0, |m| m.3);
                batch_units += d.units;
                batch.push(d);
            }
            let groups = packed_definitions(&batch)?;
            inputs.add(&mut done, &mut builder, groups).await?;
        }
        None => {
            scan_definitions(
                store,
                source,
                symbols_version,
                base.as_ref(),
                &inputs,
                &mut done,
                &mut builder,
            )
            .await?
        }
    }
    // Then the files without definitions.
    let rest: Vec<String> = ix
        .paths()
        .iter()
        .filter(|p| !done.contains(p.as_str()))
        .filter(|p| base.as_ref().is_none_or(|b| b.changed.contains(p.as_str())))
        .cloned()
        .collect();
    let mut groups: Vec<(String, Defs<'_>)> = Vec::new();
    let mut group_bytes = 0;
    for p in rest {
        group_bytes += meta.get(&p).map_or(0, |m| m.3);
        groups.push((p, Defs::Rows(Vec::new())));
        if search_batch_full(groups.len(), group_bytes, 0) {
            group_bytes = 0;
            inputs
                .add(&mut done, &mut builder, std::mem::take(&mut groups))
                .await?;
        }
    }
    inputs.add(&mut done, &mut builder, groups).await?;
    let index = spool()?;
    let (index, records) = tokio::task::block_in_place(|| builder.finish_spooled(index))
        .map_err(|e| EngineError::Internal(format!("building the search index: {e}")))?;
    search::save_files(store, id, symbols_version, index, records).await?;
    Ok(())
}

/// A file's definitions as the search build gets them: rows read from `symbols`, or the
/// analysis's packed frame, unpacked on the pool with the rest of the file's work
/// ([`SearchInputs::add`]).
pub(super) enum Defs<'a> {
    Rows(Vec<search::SymbolInput>),
    Packed(&'a quarry_analysis::analyze::packed::Frame),
}

impl Defs<'_> {
    /// The search units of the file at `path`.
    pub(super) fn units(self, prefix: &str, path: &str) -> Result<Vec<search::SymbolInput>> {
        match self {
            Defs::Rows(rows) => Ok(rows),
            Defs::Packed(frame) => {
                let a = frame.unpack_symbols().map_err(|e| {
                    EngineError::Internal(format!("unpacking the analysis of {path}: {e}"))
                })?;
                Ok(search::definitions(prefix, path, &a))
            }
        }
    }
}

/// A batch of files with their analyses' frames, for [`SearchInputs::add`].
pub(super) fn packed_definitions<'a>(batch: &[&'a Definitions]) -> Result<Vec<(String, Defs<'a>)>> {
    if fault("search_frames") {
        return Err(EngineError::Internal(
            "failpoint 'search_frames': a packed analysis does not decode".into(),
        ));
    }
    Ok(batch
        .iter()
        .map(|d| (d.path.clone(), Defs::Packed(&d.frame)))
        .collect())
}

/// The search units of `symbols` at `symbols_version` (of the changed files only, with `base`),
/// streamed from the table in file order and added per batch of files.
pub(super) async fn scan_definitions(
    store: &quarry_storage::Store,
    source: &DataSource,
    symbols_version: u64,
    base: Option<&SearchBase<'_>>,
    inputs: &SearchInputs<'_>,
    done: &mut HashSet<String>,
    builder: &mut search::Builder,
) -> Result<()> {
    use futures::TryStreamExt;
    let id = source.id.as_str();
    let lance_err =
        |t: &'static str| move |e: lance::Error| EngineError::Storage(StorageError::lance(t, e));
    let mut pending: Vec<(String, Defs<'static>)> = Vec::new();
    let (mut pending_bytes, mut pending_units) = (0, 0);
    let ds = tables::open_table_for_pass(store, id, "symbols", symbols_version).await?;
    let mut scan = tables::bulk_scan(&ds);
    // `identifier` and `summary` are not read but made again, as `symbol_batch` made them:
    // the identifier from the source's prefix (fixed when it was registered), path and
    // qualified name; the summary from columns read here, by the analyser that wrote this
    // version (tables of an older analyser are rewritten before any search index is built
    // from them). They are the two longest columns: a first batch needs a page of each
    // projected column decoded, and without them the phase peaks ~40 MB lower on the
    // registry.
    let prefix = source.identifier_prefix();
    scan.project(&[
        "path",
        "kind",
        "name",
        "qualified_name",
        "signature",
        "doc",
        "is_public",
        "start_line",
        "start_character",
        "end_line",
        "end_character",
    ])
    .map_err(lance_err("symbols"))?;
    if let Some(b) = base {
        let mut paths: Vec<&String> = b.changed.iter().collect();
        paths.sort();
        let list: Vec<String> = paths.iter().map(|p| tables::sql_literal(p)).collect();
        // No changed file: no definitions to read (`path IN ()` is not SQL).
        let filter = if list.is_empty() {
            "false".to_string()
        } else {
            format!("path IN ({})", list.join(", "))
        };
        scan.filter(&filter).map_err(lance_err("symbols"))?;
    }
    scan.batch_size(8192);
    let mut stream = scan.try_into_stream().await.map_err(lance_err("symbols"))?;
    while let Some(batch) = stream.try_next().await.map_err(lance_err("symbols"))? {
        let cols = Columns::new(&batch);
        let (path, kind) = (cols.str("path")?, cols.str("kind")?);
        let (name, qname) = (cols.str("name")?, cols.str("qualified_name")?);
        let (sig, doc) = (cols.str("signature")?, cols.str("doc")?);
        let public = cols.bool("is_public")?;
        let (sl, sc, el, ec) = (
            cols.int("start_line")?,
            cols.int("start_character")?,
            cols.int("end_line")?,
            cols.int("end_character")?,
        );
        for r in 0..batch.num_rows() {
            if !search::is_unit(kind.value(r)) {
                continue;
            }
            let p = path.value(r);
            if pending.last().is_none_or(|(last, _)| last != p) {
                if search_batch_full(pending.len(), pending_bytes, pending_units) {
                    (pending_bytes, pending_units) = (0, 0);
                    // A new path: the pending files are complete (a file's rows are
                    // contiguous; should one recur, its later rows are added as more
                    // definitions of the same file).
                    inputs
                        .add(done, builder, std::mem::take(&mut pending))
                        .await?;
                }
                pending_bytes += inputs.meta.get(p).map_or(0, |m| m.3);
                pending.push((p.to_string(), Defs::Rows(Vec::new())));
            }
            if let Some((_, Defs::Rows(syms))) = pending.last_mut() {
                pending_units += 1;
                syms.push(search::symbol_input(
                    &prefix,
                    p,
                    search::DefRow {
                        kind: kind.value(r),
                        name: name.value(r),
                        qualified_name: qname.value(r),
                        signature: sig.value(r),
                        doc: opt_str(doc, r),
                        is_public: public.value(r),
                        range: [sl.value(r), sc.value(r), el.value(r), ec.value(r)],
                    },
                ));
            }
        }
    }
    inputs.add(done, builder, pending).await
}

/// What an update of the search index starts from: the index of the previous snapshot's
/// `symbols` (version `old`), whose files stay when still `present` and not `changed`.
pub(super) struct SearchBase<'a> {
    pub(super) old: u64,
    pub(super) present: &'a HashSet<String>,
    pub(super) changed: &'a HashSet<String>,
}

/// Where the search index's inputs come from: the contents (the trigram index's frames) and
/// the files table's metadata, by path.
pub(super) struct SearchInputs<'a> {
    pub(super) store: &'a quarry_storage::Store,
    pub(super) ix: &'a trigram::Contents,
    pub(super) files_version: u64,
    pub(super) source_id: &'a str,
    pub(super) meta: &'a HashMap<String, (String, String, i64, i64)>,
    pub(super) doc_of: &'a HashMap<&'a str, u32>,
    /// The source's identifier prefix (definitions' identifiers).
    pub(super) prefix: &'a str,
}

impl SearchInputs<'_> {
    /// Read the contents of `groups`' files and add them, with their definitions, to `builder`.
    /// Each file's work — its definitions unpacked, its content decompressed, both tokenised —
    /// is one task on the pool, so a batch waits once for its slowest file (three steps over
    /// the batch, each waiting for its slowest, left ~0.4 of the 2 cores idle through the
    /// phase).
    async fn add(
        &self,
        done: &mut HashSet<String>,
        builder: &mut search::Builder,
        groups: Vec<(String, Defs<'_>)>,
    ) -> Result<()> {
        let Self {
            store,
            ix,
            files_version,
            source_id,
            meta,
            doc_of,
            prefix,
        } = *self;
        if groups.is_empty() {
            return Ok(());
        }
        // A path the files table does not hold (cannot happen in a consistent snapshot) is left out.
        let groups: Vec<_> = groups
            .into_iter()
            .filter(|(p, _)| doc_of.contains_key(p.as_str()) && meta.contains_key(p))
            .collect();
        let docs: Vec<u32> = groups.iter().map(|(p, _)| doc_of[p.as_str()]).collect();
        let frames = trigram::read_frames(store, source_id, files_version, ix, &docs)
            .await
            .map_err(|e| {
                EngineError::Internal(format!("reading contents for the search index: {e}"))
            })?;
        // A file's own unit goes with the first group that names it.
        let jobs: Vec<_> = groups
            .into_iter()
            .zip(docs)
            .zip(frames)
            .map(|(((path, defs), doc), frame)| {
                let with_file_unit = done.insert(path.clone());
                (path, defs, doc, frame, with_file_unit)
            })
            .collect();
        let files = tokio::task::block_in_place(|| {
            jobs.into_par_iter()
                .map(|(path, defs, doc, frame, with_file_unit)| {
                    let symbols = defs.units(prefix, &path)?;
                    let content = trigram::decompress_one(ix, doc, &frame).map_err(|e| {
                        EngineError::Internal(format!("reading contents for the search index: {e}"))
                    })?;
                    let (identifier, language, lines, bytes) = meta[&path].clone();
                    Ok(search::tokenise(&search::FileInput {
                        path,
                        identifier,
                        language,
                        lines,
                        bytes,
                        content,
                        symbols,
                        with_file_unit,
                    }))
                })
                .collect::<Result<Vec<_>>>()
        })?;
        tokio::task::block_in_place(|| builder.add_tokenised(files))
            .map_err(|e| EngineError::Internal(format!("building the search index: {e}")))
    }
}

impl Run<'_> {
    /// Build the search index of the new `symbols` version, or update the previous one.
    pub(super) async fn index_search(
        &self,
        files: &FilesWritten,
        delta: &Option<Delta>,
        rows: &RowsWritten,
    ) {
        let (store, progress) = (self.store, self.progress.clone());
        let source = &self.source;
        let files_version = files.version;
        let previous_symbols = files.previous_rows.0;
        let previous = &files.previous;
        let symbols_version = rows.symbols;
        let defs = &rows.defs;
        // The search index semantic_search ranks with; rebuilt whenever the symbols changed
        // (or are published without one, by an earlier run or an older Quarry).
        if !search::is_current(store, &source.id, symbols_version).await {
            // Updated from the previous snapshot's index when only some files changed (and the
            // analyser did not: the unchanged files' definitions are then the published ones).
            let base = match (previous_symbols, &delta) {
                (Some(old), Some((present, changed))) if previous.reusable => Some(SearchBase {
                    old,
                    present,
                    changed,
                }),
                _ => None,
            };
            let mut updated = false;
            if let Some(base) = base {
                progress.phase(
                    &format!(
                        "indexing for search: updating {} changed files",
                        base.changed.len()
                    ),
                    None,
                );
                let built = build_search(
                    store,
                    &source,
                    (files_version, symbols_version),
                    defs.as_deref(),
                    Some(base),
                );
                match built.await {
                    Ok(()) => updated = true,
                    Err(e) => tracing::warn!("updating the search index: {e}; rebuilding it"),
                }
            }
            if !updated {
                progress.phase("indexing for search", None);
            }
            if !updated {
                let versions = (files_version, symbols_version);
                let mut built = build_search(store, &source, versions, defs.as_deref(), None).await;
                if let Err(e) = &built
                    && defs.is_some()
                {
                    // This run's packed analyses would not do (a damaged scratch file): the
                    // `symbols` version just written holds the same definitions.
                    tracing::warn!(
                        "building the search index from this run's analyses: {e}; reading the \
                     definitions from symbols instead"
                    );
                    built = build_search(store, &source, versions, None, None).await;
                }
                if let Err(e) = built {
                    progress.warn(&format!(
                        "the search index was not built ({e}); semantic search will rank table rows"
                    ));
                }
            }
        }
    }

    /// Embed the search units, when an embeddings endpoint is configured.
    pub(super) async fn embed(&self, symbols_version: u64) {
        let (store, progress) = (self.store, self.progress.clone());
        let source = &self.source;
        // Dense vectors, when an embeddings endpoint is configured (QUARRY_EMBEDDINGS_URL).
        if let Some(provider) = embed::Provider::from_env()
            && search::is_current(store, &source.id, symbols_version).await
            && !embed::exists(store, &source.id, symbols_version, &provider.model).await
        {
            let units = search::load(store, &source.id, symbols_version)
                .await
                .map_or(0, |ix| ix.units());
            progress.phase(
                &format!("embedding with {} ({} units)", provider.model, units),
                Some(units as u64),
            );
            let advance = |n: usize| progress.advance(n as u64, 0);
            if let Err(e) =
                embed::build(store, &source.id, symbols_version, &provider, &advance).await
            {
                progress.warn(&format!(
                    "no dense vectors ({e}); semantic search stays lexical for this repository"
                ));
            }
        }
    }
}
