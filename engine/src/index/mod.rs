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

mod failpoints;
mod previous;
mod register;
mod search_units;
mod stream;
mod trigrams;
mod write_rows;

use self::failpoints::failpoint;
pub(crate) use self::failpoints::fault;
pub use self::register::validate_name;
use self::{previous::*, register::*, search_units::*, stream::*, trigrams::*, write_rows::*};

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
