//! `quarry index`: register a repository and (re)build its tables.
//!
//! 1. resolve the input (directory, git repository, git URL) and list its files;
//! 2. stream the files table to Lance chunk by chunk — reading, classifying (binary,
//!    oversized, vendored, generated, minified, invalid UTF-8), hashing and analysing each
//!    chunk in parallel. Files whose hash is unchanged are not parsed; on a re-index only new
//!    and changed files are written (appended, with the rows they replace deleted);
//! 3. on a first index, publish the files (`PartiallyReady`: readable and grep-able);
//! 4. if nothing changed, keep the published analysis; otherwise load the published analyses
//!    of the unchanged files, resolve edges across the repository, write `symbols` and
//!    `edges`, and publish the new snapshot (`Ready`) by rewriting the one catalog record.
//!    Until then readers keep the previous snapshot, so a crash or error leaves it intact.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::ArrowError;
use quarry_storage::schema::{EDGES, FILES, SYMBOLS};
use quarry_storage::{Catalog, DataSource, IndexStats, Readiness, Snapshot, SourceType, tables};
use rayon::prelude::*;

use crate::digest::{self, RowDigest};
use crate::error::{EngineError, Result};
use crate::source::{Entry, ResolvedSource};
use crate::{blobs, embed, search, trigram};
use quarry_analysis::analyze::packed::{FrameFile, Packed};
use quarry_analysis::analyze::{self, FileAnalysis};
use quarry_analysis::batch::{BatchBuilder, Cells, Columns, opt_str};
pub use quarry_analysis::file::count_lines;
use quarry_analysis::file::{classify_content, classify_path, hash_bytes};
use quarry_analysis::gobuild;
use quarry_analysis::lang::Lang;
use quarry_analysis::reload::Loader;
use quarry_analysis::resolve::{self, FileInput, file_identifier};
use quarry_analysis::rows::{self, stream_chunks};
use quarry_storage::StorageError;
use rustc_hash::{FxHashMap, FxHashSet};

/// Bump when analysis output changes, so re-indexing does not reuse stale analyses
/// (CHANGELOG.md says what each version changed).
pub const ANALYZER_VERSION: u32 = 35;

/// Files larger than this are skipped (counted as `oversized`) unless configured otherwise.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Options of one index run.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    pub name: Option<String>,
    pub branch: Option<String>,
    pub description: Option<String>,
    pub org: String,
    pub max_file_bytes: u64,
    /// Set when the admin policy admitted the input: how its clone is confined.
    pub admitted: Option<crate::location::Admitted>,
    /// How long to wait for another run of the same source to finish (its lease).
    pub lease_wait: Duration,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            name: None,
            branch: None,
            description: None,
            org: quarry_storage::DEFAULT_ORG.to_string(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            admitted: None,
            lease_wait: Duration::ZERO,
        }
    }
}

/// What an index run did.
#[derive(Debug, Clone)]
pub struct IndexReport {
    pub source: DataSource,
    pub stats: IndexStats,
    pub elapsed: Duration,
    pub warnings: Vec<String>,
    /// Bytes of older table versions removed from the store by this run.
    pub reclaimed_bytes: u64,
}

/// Progress reporting (a terminal progress bar, log lines, or nothing).
pub trait Progress: Send + Sync {
    /// A new phase begins; `total` files when known.
    fn phase(&self, name: &str, total: Option<u64>);
    /// `files` more files and `bytes` more bytes are done.
    fn advance(&self, files: u64, bytes: u64);
    /// Something the user should know.
    fn warn(&self, message: &str);
}

/// Progress that reports nothing.
pub struct Quiet;
impl Progress for Quiet {
    fn phase(&self, _: &str, _: Option<u64>) {}
    fn advance(&self, _: u64, _: u64) {}
    fn warn(&self, _: &str) {}
}

/// The previous snapshot's per-file hashes, and whether its analyses are reusable.
#[derive(Default)]
struct Previous {
    /// Path → content hash of the published files.
    files: HashMap<String, String>,
    /// Whether the published symbols/edges can stand in for unchanged files (same analyser).
    reusable: bool,
    /// A git source's published blob ids and stored lengths, by path (empty otherwise): a
    /// blob whose id is unchanged is not read again.
    blobs: blobs::Blobs,
    /// Whether the published files table holds a path twice (see `index_leased`).
    duplicated: bool,
}

/// Accumulated while the files table streams to storage.
#[derive(Default)]
struct Accum {
    /// `None`: unchanged, its analysis is the published one (loaded only if needed).
    analysed: Vec<(String, &'static str, Option<Arc<Packed>>)>,
    /// Files whose previous row (path, old hash) must be replaced.
    replaced: Vec<(String, String)>,
    /// A git source's blob id and stored length of every file stored, by path.
    blobs: blobs::Blobs,
    /// When the table is updated in place: the rows appended, for the trigram index update.
    changed: Changed,
    stats: IndexStats,
}

/// The new and changed files of an in-place update (path, content), in the order their rows
/// are appended, so the trigram index can be updated rather than rebuilt. Held only up to
/// [`CHANGED_BYTES`]: a larger change rebuilds the index from the table instead.
#[derive(Default)]
struct Changed {
    files: Vec<(String, String)>,
    bytes: u64,
    overflowed: bool,
}

/// Contents held for an in-place trigram index update (beyond this, the index is rebuilt).
const CHANGED_BYTES: u64 = 64 * 1024 * 1024;

impl Changed {
    fn push(&mut self, path: &str, content: &str) {
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
    fn take(&mut self) -> Option<Vec<(String, String)>> {
        (!self.overflowed).then(|| std::mem::take(&mut self.files))
    }
}

/// A listed file's content as the stream has it.
enum Content {
    Read(Vec<u8>),
    /// Not read: a git blob with the id published for this file, whose stored content (of
    /// this hash and length) is unchanged.
    Unchanged {
        hash: String,
        len: u64,
    },
}

struct FileStream {
    entries: std::vec::IntoIter<Entry>,
    reader: crate::source::Reader,
    previous: Arc<Previous>,
    acc: Arc<Mutex<Accum>>,
    prefix: String,
    source_id: String,
    max_file_bytes: u64,
    progress: Arc<dyn Progress>,
    /// Emit rows only for new and changed files (the table is updated in place).
    only_changes: bool,
    /// Where the packed analyses' frames go (a scratch file), when one could be made.
    frames: Option<Arc<FrameFile>>,
    /// On a first index, the trigram index is built from the contents as they stream (see
    /// [`InlineTrigrams`]): each chunk's (path, content) pairs go to its thread.
    trigrams: Option<std::sync::mpsc::SyncSender<Vec<(String, Vec<u8>)>>>,
}

/// The trigram index of a first index, built from each chunk's contents as the `files` table
/// streams, instead of reading every content back from the table afterwards: its serial
/// merge of posting lists then runs while the other chunks are parsed (the separate phase ran
/// at 1.2 of 2 cores), and the contents are not decoded again. Documents are added in row
/// order, so the index is byte for byte the one built from the table.
enum InlineTrigrams {
    Building {
        builder: trigram::Builder,
        texts: std::io::BufWriter<std::fs::File>,
    },
    /// Building failed; the index is built from the table instead.
    Failed(String),
}

impl InlineTrigrams {
    /// A builder spilling posting lists and frames to the store's scratch files.
    fn start(store: &quarry_storage::Store) -> Self {
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
    fn spawn(
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

    fn seal(&mut self) {
        if let InlineTrigrams::Building { builder, .. } = self
            && let Err(e) = builder.seal()
        {
            *self = InlineTrigrams::Failed(e.to_string());
        }
    }

    fn add(&mut self, files: &[(&str, &[u8])]) {
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
struct TrigramGate(Mutex<Option<std::sync::mpsc::Sender<()>>>);

impl TrigramGate {
    fn open(&self) {
        if let Ok(mut gate) = self.0.lock() {
            gate.take();
        }
    }
}

/// A chunk of the file stream: up to this many bytes of contents or files. Several chunks'
/// contents are in flight at once (being read and parsed, in the `files` batch Lance encodes,
/// at the trigram builder); 8 MiB instead of 16 lowered a first index's peak anonymous memory
/// on the registry copy from 234 to 208–220 MB at the same CPU time.
const CHUNK_BYTES: u64 = 8 * 1024 * 1024;
const CHUNK_FILES: usize = 1024;

impl FileStream {
    fn next_chunk(&mut self) -> Option<std::result::Result<RecordBatch, ArrowError>> {
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
    fn unchanged_blob(&self, entry: &Entry) -> Option<Content> {
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

    fn process(
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

type BatchResult = std::result::Result<RecordBatch, ArrowError>;

/// Run the file stream one chunk ahead of its consumer, on its own thread: while Lance encodes
/// and compresses chunk N, chunk N+1 is read and analysed. Pulled in turn, the two left a
/// sixth of the parse phase's CPU idle. The thread ends when the stream does, or when the
/// consumer goes away (a failed write drops the receiver, and the next send fails).
fn run_ahead(stream: FileStream) -> impl Iterator<Item = BatchResult> + Send + 'static {
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

/// Crash-test hook: when `QUARRY_FAILPOINT` names this point, the process aborts here, as a
/// crash would. Points: `files_written`, `symbols_written`, `edges_written` (each after that
/// table's new version is written, before anything publishes it).
fn failpoint(name: &str) {
    if fault(name) {
        eprintln!("failpoint '{name}': aborting");
        std::process::abort();
    }
}

/// Fault-injection hook: whether `QUARRY_FAILPOINT` names this point, where the caller then
/// fails as the fault it stands for would. Points: `search_frames` (this run's packed
/// analyses do not decode when the search index reads them, as with a damaged scratch file),
/// `stalled_holder` (the run hangs for a minute after taking its lease, never renewing it).
pub(crate) fn fault(name: &str) -> bool {
    std::env::var("QUARRY_FAILPOINT").is_ok_and(|v| v == name)
}

/// Register (if new) and index a repository. Must run on a multi-thread tokio runtime (the
/// symbols/edges writers stream from a scoped thread via `block_in_place`).
pub async fn index_repository(
    catalog: &Catalog,
    input: &str,
    opts: &IndexOptions,
    progress: Arc<dyn Progress>,
) -> Result<IndexReport> {
    let started = Instant::now();
    progress.phase("resolving", None);
    let input_owned = input.to_string();
    let branch = opts.branch.clone();
    let admitted = opts.admitted.clone();
    let resolved = tokio::task::spawn_blocking(move || {
        ResolvedSource::resolve(&input_owned, branch.as_deref(), admitted.as_ref())
    })
    .await
    .map_err(|e| EngineError::Internal(e.to_string()))??;
    let warnings = resolved.warnings.clone();
    for w in &warnings {
        progress.warn(w);
    }
    let name = opts
        .name
        .clone()
        .unwrap_or_else(|| resolved.default_name.clone());
    validate_name(&name)?;
    let keeper =
        crate::publish::LeaseKeeper::take(catalog, &opts.org, &name, opts.lease_wait).await?;
    let result = index_leased(
        catalog, resolved, &name, opts, progress, started, warnings, &keeper,
    )
    .await;
    keeper.release().await;
    result
}

/// The rest of an index run, under the source's lease.
#[allow(clippy::too_many_arguments)]
async fn index_leased(
    catalog: &Catalog,
    resolved: ResolvedSource,
    name: &str,
    opts: &IndexOptions,
    progress: Arc<dyn Progress>,
    started: Instant,
    mut warnings: Vec<String>,
    keeper: &crate::publish::LeaseKeeper,
) -> Result<IndexReport> {
    let mut source = register(catalog, name, &resolved, opts).await?;
    let mut published = crate::publish::versions_of(source.snapshot.as_ref());
    let prefix = source.identifier_prefix().to_string();

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
    let (trigram_feed, mut trigram_thread, trigram_gate) = match pinned
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
            let v =
                tables::write_table_reader(store, &source.id, "files", Box::new(reader)).await?;
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
            let present: HashSet<String> = a.analysed.iter().map(|(p, _, _)| p.clone()).collect();
            a.changed.take().map(|changed| (present, changed))
        }
        _ => None,
    };
    // Both ways of finishing the trigram index run beside the analyses' resolution and
    // writes, and are joined before the search phase (which reads the contents from it).
    let mut finishing_trigrams = None;
    let mut updating_trigrams = None;
    // The search index update needs only the paths: the contents go to the trigram update.
    let (delta, changed_contents): (Option<(HashSet<String>, HashSet<String>)>, _) = match delta {
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
    failpoint("files_written");

    let Accum {
        analysed,
        mut stats,
        ..
    } = std::mem::take(
        &mut *acc
            .lock()
            .map_err(|_| EngineError::Internal("poisoned".into()))?,
    );
    if source.snapshot.is_none() {
        source.readiness = Readiness::PartiallyReady;
        source.snapshot = Some(Snapshot {
            files: files_version,
            symbols: None,
            edges: None,
            commit: commit.clone(),
            indexed_at: quarry_storage::catalog::now_rfc3339(),
            stats: stats.clone(),
            analyzer: ANALYZER_VERSION,
        });
        source.updated_at = quarry_storage::catalog::now_rfc3339();
        crate::publish::publish(catalog, &mut source, &mut published, keeper).await?;
    }

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
                    let a = match a.or_else(|| loaded.remove(&p)) {
                        Some(a) => a,
                        None => Arc::new(Packed::new(&FileAnalysis::default()).map_err(|e| {
                            EngineError::Internal(format!("packing an analysis: {e}"))
                        })?),
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
        if let Err(e) = embed::build(store, &source.id, symbols_version, &provider, &advance).await
        {
            progress.warn(&format!(
                "no dense vectors ({e}); semantic search stays lexical for this repository"
            ));
        }
    }

    source.readiness = Readiness::Ready;
    source.snapshot = Some(Snapshot {
        files: files_version,
        symbols: Some(symbols_version),
        edges: Some(edges_version),
        commit,
        indexed_at: quarry_storage::catalog::now_rfc3339(),
        stats: stats.clone(),
        analyzer: ANALYZER_VERSION,
    });
    source.updated_at = quarry_storage::catalog::now_rfc3339();
    crate::publish::publish(catalog, &mut source, &mut published, keeper).await?;
    // Versions before the oldest retained snapshot's are no longer read by anyone.
    let (keep_files, keep_symbols, keep_edges) = crate::publish::keep_from(&source);
    if let Some(keep_from) = keep_files
        && let Err(e) = trigram::remove_older(store, &source.id, keep_from).await
    {
        progress.warn(&format!("old trigram indexes were not removed: {e}"));
    }
    if let Some(keep_from) = keep_symbols
        && let Err(e) = search::remove_older(store, &source.id, keep_from).await
    {
        progress.warn(&format!("old search indexes were not removed: {e}"));
    }
    if let Some(keep_from) = keep_symbols
        && let Err(e) = digest::remove_older(store, &source.id, keep_from).await
    {
        progress.warn(&format!("old row digests were not removed: {e}"));
    }
    if let Some(keep_from) = keep_files
        && let Err(e) = blobs::remove_older(store, &source.id, keep_from).await
    {
        progress.warn(&format!("old blob ids were not removed: {e}"));
    }
    // Likewise the tables' older versions (a large change writes whole new versions of
    // `symbols` and `edges`; a small one deletes and appends, leaving versions in between):
    // the retained snapshots' stay, for requests and servers still answering from them.
    let mut reclaimed_bytes = 0;
    for (table, current, keep_from) in [
        ("files", files_version, keep_files),
        ("symbols", symbols_version, keep_symbols),
        ("edges", edges_version, keep_edges),
    ] {
        let Some(keep_from) = keep_from else { continue };
        match tables::remove_versions_before(store, &source.id, table, current, keep_from).await {
            Ok(bytes) => reclaimed_bytes += bytes,
            Err(e) => progress.warn(&format!("old versions of {table} were not removed: {e}")),
        }
    }
    warnings.extend(
        stats
            .skipped
            .get("symlink")
            .map(|n| format!("{n} symlinks were not followed")),
    );
    Ok(IndexReport {
        source,
        stats,
        elapsed: started.elapsed(),
        warnings,
        reclaimed_bytes,
    })
}

/// Build and store the trigram index of `files` at `version`, streaming the contents.
async fn build_trigrams(
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
fn new_trigram_builder(
    store: &quarry_storage::Store,
) -> std::io::Result<(trigram::Builder, std::io::BufWriter<std::fs::File>)> {
    let mut builder = trigram::Builder::new();
    builder.spill_to(store.spool()?)?;
    Ok((builder, spool_writer(store)?))
}

/// Finish a trigram index whose documents are all added (its frames so far in `texts`, a
/// scratch file) and store it.
async fn finish_trigrams(
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
fn warn_without_trigrams(progress: &dyn Progress, built: Result<()>) {
    if let Err(e) = built {
        progress.warn(&format!(
            "the trigram index was not built ({e}); grep will read every file"
        ));
    }
}

/// A trigram index's `.grams` and `.texts` objects, complete in scratch files (or why not).
type FinishedTrigrams = std::result::Result<(std::fs::File, std::fs::File), String>;

/// Finish `builder` into scratch files: (`.grams`, `.texts`), ready to be stored.
fn finish_trigram_files(
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
fn frame_file(store: &quarry_storage::Store) -> Option<Arc<FrameFile>> {
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
fn spools(
    store: &quarry_storage::Store,
) -> std::io::Result<(
    std::io::BufWriter<std::fs::File>,
    std::io::BufWriter<std::fs::File>,
)> {
    Ok((spool_writer(store)?, spool_writer(store)?))
}

/// A buffered scratch file of the store ([`quarry_storage::Store::spool`]).
fn spool_writer(
    store: &quarry_storage::Store,
) -> std::io::Result<std::io::BufWriter<std::fs::File>> {
    Ok(std::io::BufWriter::with_capacity(1 << 20, store.spool()?))
}

/// A spooled file, flushed, to be stored.
fn unspool(w: std::io::BufWriter<std::fs::File>) -> std::result::Result<std::fs::File, String> {
    w.into_inner()
        .map_err(|e| format!("writing a scratch file: {}", e.error()))
}

/// A reader of ranges of the store's object at `path`, for code that runs in `block_in_place`
/// (the published derived indexes an update reads a slice at a time).
fn range_reader<'s>(
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
async fn update_trigrams(
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

/// Files tokenised per batch when building the search index: at most this many, and fewer
/// once their contents reach [`SEARCH_BATCH_BYTES`] (a batch's contents, tokens and postings
/// are in memory at once, twice over while the previous batch merges).
const SEARCH_BATCH_FILES: usize = 256;
/// See [`SEARCH_BATCH_FILES`]. A batch's tokens and records are several times its contents:
/// at 16 MiB the registry's search phase rose ~300 MB above its start, at 4 MiB it stays
/// below the writes' peak, at the same speed (the index is the same either way).
const SEARCH_BATCH_BYTES: i64 = 4 << 20;
/// See [`SEARCH_BATCH_FILES`]. A unit's input, record and tokens are ~1 KB whatever its
/// file's size, and a few files declare thousands (`libc`'s constants: ~2 000 in 200 KB), so
/// a batch of them within the byte bound held ~40 000 units, a ~45 MB spike above the
/// phase's level on the registry.
const SEARCH_BATCH_UNITS: usize = 8192;

/// Whether a search batch of `files` files, `bytes` bytes of contents and `units` definitions
/// is full.
fn search_batch_full(files: usize, bytes: i64, units: usize) -> bool {
    files >= SEARCH_BATCH_FILES || bytes >= SEARCH_BATCH_BYTES || units >= SEARCH_BATCH_UNITS
}

/// A file's definitions as the search index takes them after a fresh analysis: its packed
/// analysis's frame (the same rows the `symbols` table was written from), read back per batch.
struct Definitions {
    path: String,
    frame: quarry_analysis::analyze::packed::Frame,
    /// How many of its symbols are search units (known from the names, before unpacking).
    units: usize,
}

/// Build and store the search index of `symbols` at `symbols_version`: definitions come in file
/// order, grouped per file — from the analyses' frames when this run made them (`defs`, in the
/// table's order), else streamed from the table; their files' contents come from the trigram
/// index's frames (random access by path), so nothing repository-wide is held but the index.
async fn build_search(
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
enum Defs<'a> {
    Rows(Vec<search::SymbolInput>),
    Packed(&'a quarry_analysis::analyze::packed::Frame),
}

impl Defs<'_> {
    /// The search units of the file at `path`.
    fn units(self, prefix: &str, path: &str) -> Result<Vec<search::SymbolInput>> {
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
fn packed_definitions<'a>(batch: &[&'a Definitions]) -> Result<Vec<(String, Defs<'a>)>> {
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
async fn scan_definitions(
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
struct SearchBase<'a> {
    old: u64,
    present: &'a HashSet<String>,
    changed: &'a HashSet<String>,
}

/// Where the search index's inputs come from: the contents (the trigram index's frames) and
/// the files table's metadata, by path.
struct SearchInputs<'a> {
    store: &'a quarry_storage::Store,
    ix: &'a trigram::Contents,
    files_version: u64,
    source_id: &'a str,
    meta: &'a HashMap<String, (String, String, i64, i64)>,
    doc_of: &'a HashMap<&'a str, u32>,
    /// The source's identifier prefix (definitions' identifiers).
    prefix: &'a str,
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

/// Update a published files table in place: append new and changed files, then delete the rows
/// they replace and the rows of files that are gone. Returns the new version (or the pinned one
/// when nothing changed) and whether anything changed. Nothing is published here.
async fn update_files(
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

/// Display names are used as references in tool arguments: keep them printable and unambiguous.
pub fn validate_name(name: &str) -> Result<()> {
    if name.trim().is_empty()
        || name.len() > 100
        || name.chars().any(|c| c.is_control() || c == ',')
    {
        return Err(EngineError::Source(format!(
            "invalid name '{name}': use 1–100 printable characters without commas"
        )));
    }
    Ok(())
}

async fn register(
    catalog: &Catalog,
    name: &str,
    resolved: &ResolvedSource,
    opts: &IndexOptions,
) -> Result<DataSource> {
    let now = quarry_storage::catalog::now_rfc3339();
    let existing = catalog
        .sources()
        .await?
        .into_iter()
        .find(|s| s.org == opts.org && s.name == name);
    match existing {
        Some(s) if s.kind == SourceType::Workspace => Err(EngineError::Conflict(format!(
            "'{name}' is a workspace; choose another --name for the repository"
        ))),
        // (A record written before credentials were stripped compares without them.)
        Some(s)
            if s.url.as_deref().map(crate::location::redacted).as_deref()
                != Some(resolved.url.as_str()) =>
        {
            Err(EngineError::Conflict(format!(
                "a repository named '{name}' already exists for {}; pass --name to register this one under another name",
                s.url.as_deref().unwrap_or("another location")
            )))
        }
        Some(mut s) => {
            s.url = Some(resolved.url.clone());
            if let Some(d) = &opts.description {
                s.description = Some(d.clone());
            }
            if opts.branch.is_some() || resolved.branch.is_some() {
                s.branch = resolved.branch.clone();
            }
            Ok(s)
        }
        None => {
            let s = DataSource {
                id: quarry_storage::catalog::new_id("repo"),
                org: opts.org.clone(),
                name: name.to_string(),
                kind: SourceType::Repository,
                full_name: Some(resolved.full_name.clone()),
                url: Some(resolved.url.clone()),
                branch: resolved.branch.clone(),
                repository_ids: None,
                description: opts.description.clone(),
                readiness: Readiness::NotReady,
                snapshot: None,
                retained: Vec::new(),
                created_at: now.clone(),
                updated_at: now,
            };
            catalog.put_source(&s).await?;
            Ok(s)
        }
    }
}

/// Load the previous snapshot's file hashes, and whether its analyses can be reused.
async fn load_previous(catalog: &Catalog, source: &DataSource) -> Result<Previous> {
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
const LOAD_SCAN_ROWS: u64 = 1 << 18;

/// The published analyses (symbols and raw edges) of the given files.
async fn load_previous_analyses(
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
async fn load_go_builds(
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

/// Lance writers of the `symbols` table, in parallel ([`stream_table`]): its pages are
/// encoded on one thread per writer, and with one its producer waited on the encoder a third
/// of the time.
const SYMBOLS_WRITERS: usize = 2;

/// How many of a table's chunks [`stream_table`] makes at once, in parallel (each is at most
/// `rows::STREAM_BYTES` of analyses, sized for this).
const CHUNKS_AT_ONCE: usize = 2;

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
fn stream_table<F>(
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
struct RowsCx<'a> {
    store: &'a quarry_storage::Store,
    /// The run's identifiers and every file's packed analysis (in path order).
    files: rows::Files<'a>,
    chunks: &'a [std::ops::Range<usize>],
    progress: &'a dyn Progress,
    files_version: u64,
    /// A first index's trigram builder, waiting to finish ([`TrigramGate`]).
    trigram_gate: Option<&'a TrigramGate>,
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
fn write_rows(
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
fn record(
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
fn max_in_place(files: usize) -> usize {
    (files / 8).max(256)
}

/// Update both tables in place from the published versions `(symbols, edges)`: every file's
/// rows are made again and digested, and only the files whose digest differs from the
/// published one (and the files gone) have their rows deleted and appended anew. Returns
/// `None`, having written nothing, when more files differ than [`max_in_place`]. Returns
/// (symbols version, edges version, symbol rows, edge rows) otherwise.
async fn update_rows(
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
async fn rewrite_in_place(
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

/// Relationship counts per symbol number: [incoming calls, outgoing calls, incoming
/// references] — what ArtifactQuery's relationship fields mean (docs/artifactquery.md).
/// Summaries for the CLI: counts by language, sorted by file count.
pub fn languages_by_count(stats: &IndexStats) -> Vec<(String, u64)> {
    let mut v: Vec<_> = stats
        .languages
        .iter()
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// Skips, sorted by reason.
pub fn skipped_total(stats: &IndexStats) -> u64 {
    stats.skipped.values().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counting_matches_editors() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\nb"), 2);
        assert_eq!(count_lines("\n\n"), 2);
        // What the minified check counts with it: as many as `str::lines` yields.
        for text in [
            "",
            "a",
            "a\n",
            "a\nb",
            "\n",
            "\n\n",
            "a\r\nb\r\n",
            "\r\n",
            "a\n\nb",
        ] {
            assert_eq!(count_lines(text), text.lines().count() as i64, "{text:?}");
        }
    }

    /// Rows stream in chunks of at most 256 files and at most `STREAM_BYTES` of analyses.
    #[test]
    fn stream_chunks_cut_by_files_and_by_bytes() {
        let small = std::iter::repeat_n(10, 600);
        assert_eq!(stream_chunks(small), vec![0..256, 256..512, 512..600]);
        let b = quarry_analysis::rows::STREAM_BYTES;
        // A file over the budget is a chunk of its own; the bytes budget cuts the rest.
        let sizes = [b / 4, b / 2, 2 * b + 1, b / 4, 3 * b / 4, 1];
        assert_eq!(
            stream_chunks(sizes.into_iter()),
            vec![0..2, 2..3, 3..5, 5..6]
        );
        assert!(stream_chunks(std::iter::empty()).is_empty());
    }

    #[test]
    fn classification() {
        assert_eq!(classify_path("vendor/x.go", 10, 100), Some("vendored"));
        assert_eq!(classify_path("web/app.min.js", 10, 100), Some("generated"));
        // Python's bytecode caches are build output, not dependencies.
        assert_eq!(
            classify_path("lib/__pycache__/a.cpython-311.pyc", 10, 100),
            Some("generated")
        );
        assert_eq!(classify_path("old/a.pyc", 10, 100), Some("generated"));
        assert_eq!(classify_path("src/__pycache__.py", 10, 100), None);
        assert_eq!(classify_path("big.rs", 101, 100), Some("oversized"));
        assert_eq!(classify_path("src/lib.rs", 10, 100), None);
        assert_eq!(classify_content(b"a\0b").unwrap_err(), "binary");
        assert_eq!(
            classify_content(&[0xff, 0xfe, b'a']).unwrap_err(),
            "invalid_utf8"
        );
        assert_eq!(
            classify_content(b"// Code generated by x. DO NOT EDIT.\npackage a").unwrap_err(),
            "generated"
        );
        assert_eq!(
            classify_content(
                b"/* automatically generated by rust-bindgen 0.72.1 */\n\npub const A: u32 = 1;"
            )
            .unwrap_err(),
            "generated"
        );
        assert_eq!(
            classify_content(b"# This file is automatically generated.\n[package]").unwrap_err(),
            "generated"
        );
        assert!(classify_content(b"fn main() {}\n").is_ok());
        assert_eq!(
            classify_content(b"\xef\xbb\xbfdef f():\n").unwrap(),
            "def f():\n"
        );
        // Said in passing, not a generator's header.
        assert!(
            classify_content(b"//! Bindings to libfoo; see the generated docs.\nfn f() {}").is_ok()
        );
    }
}
