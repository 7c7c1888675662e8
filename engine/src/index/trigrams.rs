//! The trigram phase: the grep index built from the files as they stream (or updated from
//! the previous one), spooled to temporary files and stored.

use super::*;

/// The trigram index of a first index, built from each chunk's contents as the `files` table
/// streams, instead of reading every content back from the table afterwards: its serial
/// merge of posting lists then runs while the other chunks are parsed (the separate phase ran
/// at 1.2 of 2 cores), and the contents are not decoded again. Documents are added in row
/// order, so the index is byte for byte the one built from the table.
pub(super) enum InlineTrigrams {
    Building {
        builder: trigram::Builder,
        texts: std::io::BufWriter<std::fs::File>,
    },
    /// Building failed; the index is built from the table instead.
    Failed(String),
}

impl InlineTrigrams {
    /// A builder spilling posting lists and frames to the store's scratch files.
    pub(super) fn start(store: &quarry_storage::Store) -> Self {
        match new_trigram_builder(store) {
            Ok((builder, texts)) => InlineTrigrams::Building { builder, texts },
            Err(e) => InlineTrigrams::Failed(e.to_string()),
        }
    }

    /// The builder on a thread of its own, fed one chunk at a time (the sender; none queued:
    /// each send waits for the builder to take the chunk); when the sender is dropped it
    /// finishes the index into scratch files, once the [`TrigramGate`] is dropped too. On the
    /// file stream's thread, each chunk's serial part (its posting lists, its frames written)
    /// left one core idle while the next chunk waited to be read and parsed. `None` when no
    /// thread could be started (the index is then built from the table).
    pub(super) fn spawn(
        store: &quarry_storage::Store,
    ) -> Option<(
        std::sync::mpsc::SyncSender<Vec<(String, Vec<u8>)>>,
        std::thread::JoinHandle<FinishedTrigrams>,
        TrigramGate,
    )> {
        let mut inline = Self::start(store);
        let store = store.clone();
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<(String, Vec<u8>)>>(0);
        let (gate, opened) = std::sync::mpsc::channel::<()>();
        let handle = std::thread::Builder::new()
            .name("quarry-trigrams".into())
            .spawn(move || {
                for chunk in rx {
                    let files: Vec<(&str, &[u8])> = chunk
                        .iter()
                        .map(|(p, c)| (p.as_str(), c.as_slice()))
                        .collect();
                    inline.add(&files);
                }
                // What is left to finish is the merge; nothing is ever sent to the gate, so
                // this returns when it is dropped.
                inline.seal();
                let _ = opened.recv();
                match inline {
                    InlineTrigrams::Building { builder, texts } => {
                        finish_trigram_files(&store, builder, texts).map_err(|e| e.to_string())
                    }
                    InlineTrigrams::Failed(e) => Err(e),
                }
            })
            .ok()?;
        Some((tx, handle, TrigramGate(Mutex::new(Some(gate)))))
    }

    pub(super) fn seal(&mut self) {
        if let InlineTrigrams::Building { builder, .. } = self
            && let Err(e) = builder.seal()
        {
            *self = InlineTrigrams::Failed(e.to_string());
        }
    }

    pub(super) fn add(&mut self, files: &[(&str, &[u8])]) {
        if let InlineTrigrams::Building { builder, texts } = self
            && let Err(e) = builder
                .add_batch(files)
                .and_then(|()| builder.drain_texts(texts))
        {
            *self = InlineTrigrams::Failed(e.to_string());
        }
    }
}

/// Holds a first index's trigram builder back from finishing (merging its posting lists,
/// ~2 s of one core and ~10 MB of read buffers and directory on the registry copy) until it is
/// dropped or [`Self::open`]ed: the `edges` write, where a first index peaks, opens it once
/// the edges are written, so the merge runs beside the `symbols` write instead.
pub(super) struct TrigramGate(Mutex<Option<std::sync::mpsc::Sender<()>>>);

impl TrigramGate {
    pub(super) fn open(&self) {
        if let Ok(mut gate) = self.0.lock() {
            gate.take();
        }
    }
}

/// Build and store the trigram index of `files` at `version`, streaming the contents.
pub(super) async fn build_trigrams(
    store: &quarry_storage::Store,
    source_id: &str,
    version: u64,
) -> Result<()> {
    use futures::TryStreamExt;
    let ds = tables::open_table_for_pass(store, source_id, "files", version).await?;
    let lance_err = |e: lance::Error| EngineError::Storage(StorageError::lance("files", e));
    let mut scan = tables::bulk_scan(&ds);
    scan.project(&["path", "content"]).map_err(lance_err)?;
    scan.batch_size(1024);
    let mut stream = scan.try_into_stream().await.map_err(lance_err)?;
    let failed =
        |e: std::io::Error| EngineError::Internal(format!("building the trigram index: {e}"));
    let (mut builder, mut texts) = new_trigram_builder(store).map_err(failed)?;
    while let Some(batch) = stream.try_next().await.map_err(lance_err)? {
        let cols = Columns::new(&batch);
        let (paths, contents) = (cols.str("path")?, cols.str("content")?);
        let files: Vec<(&str, &[u8])> = (0..batch.num_rows())
            .map(|i| (paths.value(i), contents.value(i).as_bytes()))
            .collect();
        tokio::task::block_in_place(|| {
            builder.add_batch(&files)?;
            builder.drain_texts(&mut texts)
        })
        .map_err(failed)?;
    }
    finish_trigrams(store, source_id, version, builder, texts).await
}

/// A trigram index builder whose posting lists past a budget go to a scratch file in sorted
/// runs (merged at the end), and the scratch file its contents' frames are drained to — so
/// neither is held whole in memory.
pub(super) fn new_trigram_builder(
    store: &quarry_storage::Store,
) -> std::io::Result<(trigram::Builder, std::io::BufWriter<std::fs::File>)> {
    let mut builder = trigram::Builder::new();
    builder.spill_to(store.spool()?)?;
    Ok((builder, spool_writer(store)?))
}

/// Finish a trigram index whose documents are all added (its frames so far in `texts`, a
/// scratch file) and store it.
pub(super) async fn finish_trigrams(
    store: &quarry_storage::Store,
    source_id: &str,
    version: u64,
    builder: trigram::Builder,
    texts: std::io::BufWriter<std::fs::File>,
) -> Result<()> {
    let (grams, texts) =
        tokio::task::block_in_place(|| finish_trigram_files(store, builder, texts))?;
    trigram::save_files(store, source_id, version, grams, texts).await?;
    Ok(())
}

/// Grep stays correct without a trigram index (it reads every admitted file): a failed build
/// is said, and indexing goes on.
pub(super) fn warn_without_trigrams(progress: &dyn Progress, built: Result<()>) {
    if let Err(e) = built {
        progress.warn(&format!(
            "the trigram index was not built ({e}); grep will read every file"
        ));
    }
}

/// A trigram index's `.grams` and `.texts` objects, complete in scratch files (or why not).
pub(super) type FinishedTrigrams = std::result::Result<(std::fs::File, std::fs::File), String>;

/// Finish `builder` into scratch files: (`.grams`, `.texts`), ready to be stored.
pub(super) fn finish_trigram_files(
    store: &quarry_storage::Store,
    builder: trigram::Builder,
    mut texts: std::io::BufWriter<std::fs::File>,
) -> Result<(std::fs::File, std::fs::File)> {
    let failed =
        |e: std::io::Error| EngineError::Internal(format!("building the trigram index: {e}"));
    let mut grams = spool_writer(store).map_err(failed)?;
    builder.finish_to(&mut grams, &mut texts).map_err(failed)?;
    let unspooled = |w| unspool(w).map_err(EngineError::Internal);
    Ok((unspooled(grams)?, unspooled(texts)?))
}

/// A scratch file for packed analyses' frames; `None` (frames stay in memory) when the store
/// has nowhere to put one — indexing still works, with more memory.
pub(super) fn frame_file(store: &quarry_storage::Store) -> Option<Arc<FrameFile>> {
    match store.spool() {
        Ok(file) => Some(FrameFile::new(file)),
        Err(e) => {
            tracing::warn!("no scratch file for packed analyses ({e}); keeping them in memory");
            None
        }
    }
}

/// Two buffered scratch files of the store ([`quarry_storage::Store::spool`]) for a derived
/// object pair being built.
pub(super) fn spools(
    store: &quarry_storage::Store,
) -> std::io::Result<(
    std::io::BufWriter<std::fs::File>,
    std::io::BufWriter<std::fs::File>,
)> {
    Ok((spool_writer(store)?, spool_writer(store)?))
}

/// A buffered scratch file of the store ([`quarry_storage::Store::spool`]).
pub(super) fn spool_writer(
    store: &quarry_storage::Store,
) -> std::io::Result<std::io::BufWriter<std::fs::File>> {
    Ok(std::io::BufWriter::with_capacity(1 << 20, store.spool()?))
}

/// A spooled file, flushed, to be stored.
pub(super) fn unspool(
    w: std::io::BufWriter<std::fs::File>,
) -> std::result::Result<std::fs::File, String> {
    w.into_inner()
        .map_err(|e| format!("writing a scratch file: {}", e.error()))
}

/// A reader of ranges of the store's object at `path`, for code that runs in `block_in_place`
/// (the published derived indexes an update reads a slice at a time).
pub(super) fn range_reader<'s>(
    store: &'s quarry_storage::Store,
    path: &str,
) -> impl FnMut(std::ops::Range<u64>) -> std::io::Result<Vec<u8>> + use<'s> {
    let path = path.to_string();
    move |r: std::ops::Range<u64>| {
        let got = tokio::runtime::Handle::current().block_on(store.get_ranges(&path, &[r]));
        match got {
            Ok(mut parts) => Ok(parts.pop().map(Vec::from).unwrap_or_default()),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    }
}

/// Update the trigram index of `files` at `old` into one of `files` at `version`, which holds
/// the rows of `old` whose path is still `present` and not `changed`, then the `changed` rows
/// (as [`update_files`] leaves the table). `false` when the published index cannot be read
/// (missing, or an older format): the caller builds from the table instead.
pub(super) async fn update_trigrams(
    store: &quarry_storage::Store,
    source_id: &str,
    (old, version): (u64, u64),
    present: &HashSet<String>,
    changed: &[(String, String)],
) -> bool {
    // Neither object is read whole: the index's documents and gram directory, then its
    // posting lists a slice at a time (~100 MB of them for the cargo registry's sources), and
    // the contents object by ranges (it is ~a quarter of the source).
    let head = match trigram::load_head(store, source_id, old).await {
        Ok(head) => head,
        Err(e) => {
            tracing::warn!("reading the trigram index of {source_id}: {e}; rebuilding it");
            return false;
        }
    };
    let texts = trigram::texts_path(source_id, old);
    let Some(texts_len) = store.size(&texts).await.ok().flatten() else {
        return false;
    };
    let grams_path = trigram::grams_path(source_id, old);
    let reader = |path: &str| range_reader(store, path);
    let built = tokio::task::block_in_place(|| {
        let rewritten: HashSet<&str> = changed.iter().map(|(p, _)| p.as_str()).collect();
        let keep = |p: &str| present.contains(p) && !rewritten.contains(p);
        let (mut grams, mut texts_out) = spools(store).map_err(|e| e.to_string())?;
        // The kept posting lists go straight to a scratch file (the first run), not memory.
        let spill = store.spool().map_err(|e| e.to_string())?;
        let mut builder = trigram::Builder::from_index_reading(
            &head,
            reader(&grams_path),
            (texts_len, reader(&texts)),
            keep,
            &mut texts_out,
            Some(spill),
        )
        .map_err(|e| e.to_string())?;
        drop(head);
        for chunk in changed.chunks(1024) {
            let files: Vec<(&str, &[u8])> = chunk
                .iter()
                .map(|(p, c)| (p.as_str(), c.as_bytes()))
                .collect();
            builder.add_batch(&files).map_err(|e| e.to_string())?;
            builder
                .drain_texts(&mut texts_out)
                .map_err(|e| e.to_string())?;
        }
        builder
            .finish_to(&mut grams, &mut texts_out)
            .map_err(|e| e.to_string())?;
        Ok::<_, String>((unspool(grams)?, unspool(texts_out)?))
    });
    match built {
        Ok((grams, texts)) => trigram::save_files(store, source_id, version, grams, texts)
            .await
            .is_ok(),
        Err(e) => {
            tracing::warn!("updating the trigram index of {source_id}: {e}; rebuilding it");
            false
        }
    }
}

impl Run<'_> {
    /// Start the trigram index: finishing the one built from the stream, updating the
    /// published one from the changed files, or building it from the table. Returns what
    /// runs on, and the paths present and changed of an in-place update (the search phase's
    /// update reads them).
    pub(super) async fn start_trigrams(
        &mut self,
        files: &mut FilesWritten,
    ) -> Result<(TrigramsRunning, Option<Delta>)> {
        let (store, progress) = (self.store, self.progress.clone());
        let source = &self.source;
        let (files_version, files_changed, pinned) = (files.version, files.changed, files.pinned);
        let acc = &files.acc;
        let trigram_thread = &mut files.trigram_thread;
        // The trigram index grep prunes with; rebuilt whenever the files changed.
        // (Also when an older run, or an older Quarry, published files without it.)
        // (And when the published one is in an older format: its magic bytes are checked.)
        // After an in-place update of the files table, the derived indexes are updated too (when
        // the change was small enough to hold): the paths present now, and the files whose rows
        // were appended (new and changed) with their contents.
        let delta = match pinned {
            Some(_) if files_changed => {
                let mut a = acc
                    .lock()
                    .map_err(|_| EngineError::Internal("poisoned".into()))?;
                let present: HashSet<String> =
                    a.analysed.iter().map(|(p, _, _)| p.clone()).collect();
                a.changed.take().map(|changed| (present, changed))
            }
            _ => None,
        };
        // Both ways of finishing the trigram index run beside the analyses' resolution and
        // writes, and are joined before the search phase (which reads the contents from it).
        let mut finishing_trigrams = None;
        let mut updating_trigrams = None;
        // The search index update needs only the paths: the contents go to the trigram update.
        let (delta, changed_contents): (Option<(HashSet<String>, HashSet<String>)>, _) = match delta
        {
            Some((present, changed)) => {
                let paths = changed.iter().map(|(p, _)| p.clone()).collect();
                (Some((present, paths)), Some(changed))
            }
            None => (None, None),
        };
        if files_changed || !trigram::is_current(store, &source.id, files_version).await {
            match (pinned, &delta, changed_contents, trigram_thread.take()) {
                // A small change: the published index is updated from its kept documents and
                // the changed files' contents, on a task of its own (its ~1 core beside the
                // loading of the unchanged analyses, which keeps ~1 of 2 busy).
                (Some(old), Some((present, _)), Some(changed), _) => {
                    progress.phase(
                        &format!(
                            "indexing content (trigrams): updating {} changed files, beside the \
                         next phases",
                            changed.len()
                        ),
                        None,
                    );
                    let (store, id, present) = (store.clone(), source.id.clone(), present.clone());
                    updating_trigrams = Some(tokio::spawn(async move {
                        let versions = (old, files_version);
                        update_trigrams(&store, &id, versions, &present, &changed).await
                    }));
                }
                // The stream is done and its sender dropped: the builder thread is finishing the
                // index (merging its posting lists).
                (_, _, _, Some(thread)) => finishing_trigrams = Some(thread),
                _ => {
                    progress.phase("indexing content (trigrams)", None);
                    let built = build_trigrams(store, &source.id, files_version).await;
                    warn_without_trigrams(progress.as_ref(), built);
                }
            }
        }
        let running = TrigramsRunning {
            finishing: finishing_trigrams,
            updating: updating_trigrams,
        };
        Ok((running, delta))
    }

    /// Join the trigram index's work, building it from the table if that failed.
    pub(super) async fn finish_trigrams(&self, running: TrigramsRunning, files: &FilesWritten) {
        let (store, progress) = (self.store, self.progress.clone());
        let source = &self.source;
        let files_version = files.version;
        let trigram_gate = &files.trigram_gate;
        let TrigramsRunning {
            finishing: finishing_trigrams,
            updating: updating_trigrams,
        } = running;
        if let Some(task) = updating_trigrams {
            if !task.is_finished() {
                progress.phase("indexing content (trigrams): finishing the update", None);
            }
            // `false` (logged): the published index could not be read; build from the table.
            if !task.await.unwrap_or(false) {
                progress.phase("indexing content (trigrams)", None);
                let built = build_trigrams(store, &source.id, files_version).await;
                warn_without_trigrams(progress.as_ref(), built);
            }
        }
        if let Some(thread) = finishing_trigrams {
            // Opened by the `edges` write; this is for any run that did not reach it.
            if let Some(gate) = &trigram_gate {
                gate.open();
            }
            let built = match tokio::task::block_in_place(|| thread.join()) {
                Ok(Ok((grams, texts))) => {
                    trigram::save_files(store, &source.id, files_version, grams, texts)
                        .await
                        .map_err(EngineError::from)
                }
                finished => {
                    let why = match finished {
                        Ok(Err(e)) => e,
                        _ => "its thread panicked".to_string(),
                    };
                    tracing::warn!("building the trigram index while streaming: {why}");
                    progress.phase("indexing content (trigrams)", None);
                    build_trigrams(store, &source.id, files_version).await
                }
            };
            warn_without_trigrams(progress.as_ref(), built);
        }
    }
}
