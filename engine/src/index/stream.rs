//! The files phase: the listing read, classified, hashed and analysed chunk by chunk in
//! parallel, streamed to the `files` table (appends and deletes on a re-index).

use super::*;

/// Accumulated while the files table streams to storage.
#[derive(Default)]
pub(super) struct Accum {
    /// `None`: unchanged, its analysis is the published one (loaded only if needed).
    pub(super) analysed: Vec<(String, &'static str, Option<Arc<Packed>>)>,
    /// Files whose previous row (path, old hash) must be replaced.
    pub(super) replaced: Vec<(String, String)>,
    /// A git source's blob id and stored length of every file stored, by path.
    pub(super) blobs: blobs::Blobs,
    /// When the table is updated in place: the rows appended, for the trigram index update.
    pub(super) changed: Changed,
    pub(super) stats: IndexStats,
}

/// The new and changed files of an in-place update (path, content), in the order their rows
/// are appended, so the trigram index can be updated rather than rebuilt. Held only up to
/// [`CHANGED_BYTES`]: a larger change rebuilds the index from the table instead.
#[derive(Default)]
pub(super) struct Changed {
    pub(super) files: Vec<(String, String)>,
    pub(super) bytes: u64,
    pub(super) overflowed: bool,
}

/// Contents held for an in-place trigram index update (beyond this, the index is rebuilt).
pub(super) const CHANGED_BYTES: u64 = 64 * 1024 * 1024;

impl Changed {
    pub(super) fn push(&mut self, path: &str, content: &str) {
        if self.overflowed {
            return;
        }
        self.bytes += content.len() as u64;
        if self.bytes > CHANGED_BYTES {
            self.overflowed = true;
            self.files = Vec::new();
            return;
        }
        self.files.push((path.to_string(), content.to_string()));
    }

    /// The appended files, unless there were too many to hold.
    pub(super) fn take(&mut self) -> Option<Vec<(String, String)>> {
        (!self.overflowed).then(|| std::mem::take(&mut self.files))
    }
}

/// A listed file's content as the stream has it.
pub(super) enum Content {
    Read(Vec<u8>),
    /// Not read: a git blob with the id published for this file, whose stored content (of
    /// this hash and length) is unchanged.
    Unchanged {
        hash: String,
        len: u64,
    },
}

pub(super) struct FileStream {
    pub(super) entries: std::vec::IntoIter<Entry>,
    pub(super) reader: crate::source::Reader,
    pub(super) previous: Arc<Previous>,
    pub(super) acc: Arc<Mutex<Accum>>,
    pub(super) prefix: String,
    pub(super) source_id: String,
    pub(super) max_file_bytes: u64,
    pub(super) progress: Arc<dyn Progress>,
    /// Emit rows only for new and changed files (the table is updated in place).
    pub(super) only_changes: bool,
    /// Where the packed analyses' frames go (a scratch file), when one could be made.
    pub(super) frames: Option<Arc<FrameFile>>,
    /// On a first index, the trigram index is built from the contents as they stream (see
    /// [`InlineTrigrams`]): each chunk's (path, content) pairs go to its thread.
    pub(super) trigrams: Option<std::sync::mpsc::SyncSender<Vec<(String, Vec<u8>)>>>,
}

/// A chunk of the file stream: up to this many bytes of contents or files. Several chunks'
/// contents are in flight at once (being read and parsed, in the `files` batch Lance encodes,
/// at the trigram builder); 8 MiB instead of 16 lowered a first index's peak anonymous memory
/// on the registry copy from 234 to 208–220 MB at the same CPU time.
pub(super) const CHUNK_BYTES: u64 = 8 * 1024 * 1024;
pub(super) const CHUNK_FILES: usize = 1024;

impl FileStream {
    pub(super) fn next_chunk(&mut self) -> Option<std::result::Result<RecordBatch, ArrowError>> {
        loop {
            let mut chunk: Vec<(Entry, Content)> = Vec::new();
            let mut chunk_bytes = 0;
            let mut skipped_here: Vec<&'static str> = Vec::new();
            while chunk.len() < CHUNK_FILES && chunk_bytes < CHUNK_BYTES {
                let Some(entry) = self.entries.next() else {
                    break;
                };
                if let Some(reason) = classify_path(&entry.path, entry.size, self.max_file_bytes) {
                    skipped_here.push(reason);
                    continue;
                }
                if let Some(same) = self.unchanged_blob(&entry) {
                    chunk.push((entry, same));
                    continue;
                }
                match self.reader.read(&entry) {
                    Ok(bytes) => {
                        chunk_bytes += bytes.len() as u64;
                        chunk.push((entry, Content::Read(bytes)));
                    }
                    Err(e) => {
                        if let crate::source::Blob::Git(_) = entry.blob {
                            // The git reader failing is not a per-file problem.
                            return Some(Err(ArrowError::ExternalError(Box::new(e))));
                        }
                        skipped_here.push("unreadable");
                    }
                }
            }
            let exhausted = chunk.is_empty() && skipped_here.is_empty();
            if exhausted {
                return None;
            }
            match self.process(chunk, skipped_here) {
                Ok(Some(batch)) => return Some(Ok(batch)),
                Ok(None) => continue,
                Err(e) => return Some(Err(ArrowError::ExternalError(Box::new(e)))),
            }
        }
    }

    /// A git blob whose id is the one published with an unchanged file: its content is that
    /// file's, so it is not read (`Content::Unchanged`).
    pub(super) fn unchanged_blob(&self, entry: &Entry) -> Option<Content> {
        let crate::source::Blob::Git(id) = &entry.blob else {
            return None;
        };
        // A `.h` header's language is read from its text (`Lang::detect_in`).
        if quarry_analysis::lang::content_decides(&entry.path) {
            return None;
        }
        let (published, len) = self.previous.blobs.get(&entry.path)?;
        let hash = self.previous.files.get(&entry.path)?;
        (self.only_changes && self.previous.reusable && published == id).then(|| {
            Content::Unchanged {
                hash: hash.clone(),
                len: *len,
            }
        })
    }

    pub(super) fn process(
        &mut self,
        chunk: Vec<(Entry, Content)>,
        skipped: Vec<&'static str>,
    ) -> Result<Option<RecordBatch>> {
        struct Prepared<'a> {
            path: &'a str,
            text: &'a str,
            /// The stored content's length (`text`'s, or the published one's when unread).
            len: u64,
            /// A git source's blob id of the file.
            blob_id: Option<&'a str>,
            lang: &'static str,
            hash: String,
            analysis: Option<Arc<Packed>>,
            /// Why the file's parse was given up, if it was (stored without an analysis).
            given_up: Option<analyze::ParseGivenUp>,
        }
        let previous = self.previous.clone();
        let frames = self.frames.clone();
        let mut skipped = skipped;
        // Classify, hash and (for changed files) analyse in parallel; keep document order.
        // Analyses are packed as they are made (only names stay decoded until rows are written).
        type Outcome<'a> = std::result::Result<std::io::Result<Prepared<'a>>, &'static str>;
        // One task per file: rayon otherwise hands out runs of neighbouring files, and where
        // big files sit together (a crate's generated bindings) one thread worked through a
        // run of them alone while the other waited at the end of the chunk.
        let results: Vec<Outcome> = chunk
            .par_iter()
            .with_max_len(1)
            .map(|(entry, content)| {
                let lang = Lang::detect(&entry.path);
                let blob_id = match &entry.blob {
                    crate::source::Blob::Git(id) => Some(id.as_str()),
                    crate::source::Blob::Fs(_) => None,
                };
                let bytes = match content {
                    Content::Read(bytes) => bytes,
                    Content::Unchanged { hash, len } => {
                        return Ok(Ok(Prepared {
                            path: &entry.path,
                            text: "",
                            len: *len,
                            blob_id,
                            lang: lang.map(Lang::name).unwrap_or("text"),
                            hash: hash.clone(),
                            analysis: None,
                            given_up: None,
                        }));
                    }
                };
                let text = classify_content(bytes)?;
                let lang = lang.and_then(|_| Lang::detect_in(&entry.path, text));
                let hash = hash_bytes(bytes);
                let unchanged = previous.reusable && previous.files.get(&entry.path) == Some(&hash);
                let parse_as = if unchanged { None } else { lang };
                let (fresh, given_up) =
                    match parse_as.map(|l| analyze::analyze_within_budget(l, text)) {
                        Some(Ok(a)) => (a, None),
                        Some(Err(why)) => (FileAnalysis::default(), Some(why)),
                        None => (FileAnalysis::default(), None),
                    };
                let analysis = match (!unchanged).then(|| Packed::new_in(&fresh, frames.as_ref())) {
                    Some(Ok(p)) => Some(Arc::new(p)),
                    Some(Err(e)) => return Ok(Err(e)),
                    None => None,
                };
                Ok(Ok(Prepared {
                    path: &entry.path,
                    text,
                    len: text.len() as u64,
                    blob_id,
                    lang: lang.map(Lang::name).unwrap_or("text"),
                    hash,
                    analysis,
                    given_up,
                }))
            })
            .collect();
        let mut prepared: Vec<Prepared> = Vec::with_capacity(results.len());
        // Per file of the chunk: how many of its leading bytes its stored content leaves off
        // (a byte order mark, see `classify_content`), or `None` when it is skipped. The
        // trigram index gets exactly the stored contents, as a build from the table would.
        let mut indexed: Vec<Option<usize>> = Vec::with_capacity(results.len());
        for (r, (_, content)) in results.into_iter().zip(&chunk) {
            match r {
                Ok(p) => {
                    let p =
                        p.map_err(|e| EngineError::Internal(format!("packing an analysis: {e}")))?;
                    let cut = match content {
                        Content::Read(bytes) => bytes.len() - p.text.len(),
                        Content::Unchanged { .. } => 0,
                    };
                    indexed.push(Some(cut));
                    prepared.push(p);
                }
                Err(reason) => {
                    indexed.push(None);
                    skipped.push(reason);
                }
            }
        }
        let mut b = BatchBuilder::new(FILES.clone());
        let mut emitted = 0;
        {
            let mut acc = self
                .acc
                .lock()
                .map_err(|_| EngineError::Internal("poisoned".into()))?;
            for reason in &skipped {
                *acc.stats.skipped.entry(reason.to_string()).or_default() += 1;
            }
            for p in &prepared {
                if let Some(id) = p.blob_id {
                    acc.blobs
                        .insert(p.path.to_string(), (id.to_string(), p.len));
                }
                let analysis = p.analysis.clone();
                if analysis.is_some() {
                    acc.stats.reparsed += 1;
                } else {
                    acc.stats.reused += 1;
                }
                if let Some(why) = p.given_up {
                    acc.stats.unanalysed += 1;
                    self.progress.warn(&format!("{}: {why}", p.path));
                }
                acc.stats.files += 1;
                acc.stats.bytes += p.len;
                *acc.stats.languages.entry(p.lang.to_string()).or_default() += 1;
                acc.analysed.push((p.path.to_string(), p.lang, analysis));
                let old = previous.files.get(p.path);
                if self.only_changes && old == Some(&p.hash) {
                    continue;
                }
                if let Some(old) = old {
                    acc.replaced.push((p.path.to_string(), old.clone()));
                }
                emitted += 1;
                if self.only_changes {
                    acc.changed.push(p.path, p.text);
                }
                b.str(0, Some(&self.source_id));
                b.str(1, Some(&file_identifier(&self.prefix, p.path)));
                b.str(2, Some(p.path));
                b.str(3, Some(p.lang));
                b.int(4, Some(p.text.len() as i64));
                b.int(5, Some(count_lines(p.text)));
                b.str(6, Some(&p.hash));
                b.str(7, Some(p.text));
            }
        }
        let bytes: u64 = prepared.iter().map(|p| p.len).sum();
        self.progress
            .advance((prepared.len() + skipped.len()) as u64, bytes);
        drop(prepared);
        if let Some(trigrams) = &self.trigrams {
            let files: Vec<(String, Vec<u8>)> = chunk
                .into_iter()
                .zip(indexed)
                .filter_map(|((entry, content), cut)| {
                    // (A first index reads every file: nothing is `Unchanged` there.)
                    let Content::Read(mut bytes) = content else {
                        return None;
                    };
                    bytes.drain(..cut?);
                    Some((entry.path, bytes))
                })
                .collect();
            // A stopped builder thread (it cannot fail, short of a panic) leaves the index to
            // be built from the table.
            if trigrams.send(files).is_err() {
                self.trigrams = None;
            }
        }
        if emitted == 0 {
            return Ok(None);
        }
        Ok(Some(b.finish()?))
    }
}

impl Iterator for FileStream {
    type Item = std::result::Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_chunk()
    }
}

pub(super) type BatchResult = std::result::Result<RecordBatch, ArrowError>;

/// Run the file stream one chunk ahead of its consumer, on its own thread: while Lance encodes
/// and compresses chunk N, chunk N+1 is read and analysed. Pulled in turn, the two left a
/// sixth of the parse phase's CPU idle. The thread ends when the stream does, or when the
/// consumer goes away (a failed write drops the receiver, and the next send fails).
pub(super) fn run_ahead(stream: FileStream) -> impl Iterator<Item = BatchResult> + Send + 'static {
    let (tx, rx) = std::sync::mpsc::sync_channel::<BatchResult>(1);
    let spawned = std::thread::Builder::new()
        .name("quarry-files".into())
        .spawn(move || {
            for item in stream {
                if tx.send(item).is_err() {
                    break;
                }
            }
        });
    let failed = spawned.err().map(|e| {
        Err(ArrowError::ExternalError(Box::new(EngineError::Internal(
            format!("starting the file reader thread: {e}"),
        ))))
    });
    failed.into_iter().chain(rx)
}

/// Update a published files table in place: append new and changed files, then delete the rows
/// they replace and the rows of files that are gone. Returns the new version (or the pinned one
/// when nothing changed) and whether anything changed. Nothing is published here.
pub(super) async fn update_files(
    store: &quarry_storage::Store,
    source_id: &str,
    version: u64,
    stream: impl Iterator<Item = BatchResult> + Send + 'static,
    acc: &Arc<Mutex<Accum>>,
    previous: &Previous,
) -> Result<(u64, bool)> {
    // Run the first chunk off the async runtime to learn whether anything changed.
    let (mut stream, any) = tokio::task::spawn_blocking(move || {
        let mut stream = stream.peekable();
        let any = stream.peek().is_some();
        (stream, any)
    })
    .await
    .map_err(|e| EngineError::Internal(e.to_string()))?;
    let mut ds = None;
    if any {
        let mut d = tables::checkout_for_update(store, source_id, "files", version).await?;
        let rest =
            RecordBatchIterator::new(std::iter::from_fn(move || stream.next()), FILES.clone());
        tables::append_reader(&mut d, "files", Box::new(rest)).await?;
        ds = Some(d);
    }
    let gone: Vec<String> = {
        let a = acc
            .lock()
            .map_err(|_| EngineError::Internal("poisoned".into()))?;
        let kept: std::collections::HashSet<&str> =
            a.analysed.iter().map(|(p, _, _)| p.as_str()).collect();
        let row = |p: &str, h: &str| {
            format!(
                "path = {} AND hash = {}",
                tables::sql_literal(p),
                tables::sql_literal(h)
            )
        };
        a.replaced
            .iter()
            .map(|(p, h)| row(p, h))
            .chain(
                previous
                    .files
                    .iter()
                    .filter(|(p, _)| !kept.contains(p.as_str()))
                    .map(|(p, h)| row(p, h)),
            )
            .collect()
    };
    if !gone.is_empty() {
        let d = match ds.as_mut() {
            Some(d) => d,
            None => {
                ds.insert(tables::checkout_for_update(store, source_id, "files", version).await?)
            }
        };
        tables::delete_where_any(d, "files", &gone).await?;
    }
    if let Some(d) = ds.as_mut() {
        tables::compact_if_fragmented(d, "files").await?;
    }
    Ok(match ds {
        Some(d) => (d.version().version, true),
        None => (version, false),
    })
}

impl Run<'_> {
    /// List the files and stream them, read, classified and analysed, to the `files` table;
    /// store a git source's blob ids beside it.
    pub(super) async fn write_files(&mut self, resolved: ResolvedSource) -> Result<FilesWritten> {
        let (catalog, opts) = (self.catalog, self.opts);
        let progress = self.progress.clone();
        let source = &self.source;
        let prefix = &self.prefix;
        progress.phase("listing files", None);
        let (resolved, entries, skipped_list) = tokio::task::spawn_blocking(move || {
            let mut skipped = Vec::new();
            let entries = resolved.entries(&mut skipped)?;
            Ok::<_, EngineError>((resolved, entries, skipped))
        })
        .await
        .map_err(|e| EngineError::Internal(e.to_string()))??;

        let previous = Arc::new(load_previous(catalog, &source).await?);
        let acc = Arc::new(Mutex::new(Accum::default()));
        {
            let mut a = acc
                .lock()
                .map_err(|_| EngineError::Internal("poisoned".into()))?;
            for (_, reason) in &skipped_list {
                *a.stats.skipped.entry(reason.to_string()).or_default() += 1;
            }
        }
        // The grammars' dense parse tables stay built while the files are parsed, and are freed
        // after (they would sit through resolution and the table writes, where a first index peaks).
        let parsing = quarry_analysis::analyze::dense::Keep::new();
        progress.phase("reading and parsing", Some(entries.len() as u64));
        // A published `files` holding a path twice (written by concurrent runs before leases) is
        // replaced whole, as a first index would write it.
        let pinned = source
            .snapshot
            .as_ref()
            .map(|s| s.files)
            .filter(|_| !previous.duplicated);
        if previous.duplicated {
            progress.warn("the published files table holds some paths twice: rewriting it whole");
        }
        let previous_symbols = source.snapshot.as_ref().and_then(|s| s.symbols);
        let previous_edges = source.snapshot.as_ref().and_then(|s| s.edges);
        // Analyses wait for resolution with only their names in memory; the rest of each goes
        // to a scratch file (kept in memory should none be possible here).
        let frames = frame_file(catalog.store());
        // A first index writes every file's row in listing order: the trigram index is built
        // from the same stream (an update keeps its in-place path below).
        let (trigram_feed, trigram_thread, trigram_gate) = match pinned
            .is_none()
            .then(|| InlineTrigrams::spawn(catalog.store()))
        {
            Some(Some((feed, thread, gate))) => (Some(feed), Some(thread), Some(gate)),
            _ => (None, None, None),
        };
        let stream = FileStream {
            frames: frames.clone(),
            entries: entries.into_iter(),
            reader: resolved.reader()?,
            previous: previous.clone(),
            acc: acc.clone(),
            prefix: prefix.clone(),
            source_id: source.id.clone(),
            max_file_bytes: opts.max_file_bytes,
            progress: progress.clone(),
            only_changes: pinned.is_some(),
            trigrams: trigram_feed,
        };
        let store = catalog.store();
        let (files_version, files_changed) = match pinned {
            None => {
                let reader = RecordBatchIterator::new(run_ahead(stream), FILES.clone());
                let v = tables::write_table_reader(store, &source.id, "files", Box::new(reader))
                    .await?;
                (v, true)
            }
            Some(version) => {
                update_files(
                    store,
                    &source.id,
                    version,
                    run_ahead(stream),
                    &acc,
                    &previous,
                )
                .await?
            }
        };
        drop(parsing);
        tokio::task::block_in_place(quarry_analysis::analyze::release_parse_memory);
        let commit = resolved.commit.clone();
        drop(resolved);
        // A git source's blob ids beside the files version they describe (also when the files did
        // not change but an older run wrote none), so the next run reads only changed blobs.
        {
            let ids = std::mem::take(
                &mut acc
                    .lock()
                    .map_err(|_| EngineError::Internal("poisoned".into()))?
                    .blobs,
            );
            if !ids.is_empty()
                && (files_changed || previous.blobs.is_empty())
                && let Err(e) = blobs::save(store, &source.id, files_version, &ids).await
            {
                // The next re-index then reads every blob.
                tracing::warn!("storing the blob ids: {e}");
            }
        }
        Ok(FilesWritten {
            version: files_version,
            changed: files_changed,
            commit,
            previous,
            pinned,
            previous_rows: (previous_symbols, previous_edges),
            acc,
            frames,
            trigram_thread,
            trigram_gate,
        })
    }

    /// The analyses the files phase gathered (`None` for an unchanged file), and its counts.
    pub(super) fn take_analyses(&mut self, files: &FilesWritten) -> Result<Analysed> {
        let Accum {
            analysed, stats, ..
        } = std::mem::take(
            &mut *files
                .acc
                .lock()
                .map_err(|_| EngineError::Internal("poisoned".into()))?,
        );
        self.stats = stats;
        Ok(analysed)
    }
}
