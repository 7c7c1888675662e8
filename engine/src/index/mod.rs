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
mod publish;
mod register;
mod search_units;
mod stream;
mod trigrams;
mod write_rows;

use self::failpoints::failpoint;
pub(crate) use self::failpoints::fault;
pub use self::register::{validate_full_name, validate_name};
use self::{previous::*, register::*, search_units::*, stream::*, trigrams::*};

/// Bump when analysis output changes, so re-indexing does not reuse stale analyses
/// (CHANGELOG.md says what each version changed).
pub const ANALYZER_VERSION: u32 = 36;

/// Files larger than this are skipped (counted as `oversized`) unless configured otherwise.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Options of one index run.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    pub name: Option<String>,
    /// The source's full name (`owner/name`), instead of the one its remote or directory
    /// gives.
    pub full_name: Option<String>,
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
            full_name: None,
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
    if let Some(full_name) = &opts.full_name {
        validate_full_name(full_name)?;
    }
    let keeper =
        crate::publish::LeaseKeeper::take(catalog, &opts.org, &name, opts.lease_wait).await?;
    let result = index_leased(
        catalog, resolved, &name, opts, progress, started, warnings, &keeper,
    )
    .await;
    keeper.release().await;
    result
}

/// What an index run carries from phase to phase.
struct Run<'r> {
    catalog: &'r Catalog,
    store: &'r quarry_storage::Store,
    opts: &'r IndexOptions,
    progress: Arc<dyn Progress>,
    keeper: &'r crate::publish::LeaseKeeper,
    /// The source's catalog record: published with the files on a first index, then whole.
    source: DataSource,
    /// The versions last read or published, which the next publish compares and swaps.
    published: Option<crate::publish::Versions>,
    /// The identifiers' prefix, the source's `owner/repo`.
    prefix: String,
    /// The run's counts, complete after the rows phase.
    stats: IndexStats,
}

/// The files phase's outcome, read by the phases after it.
struct FilesWritten {
    version: u64,
    /// Whether this run wrote a new version of `files` (false: nothing changed).
    changed: bool,
    commit: Option<String>,
    previous: Arc<Previous>,
    /// The published `files` version updated in place; `None` when the table was written whole.
    pinned: Option<u64>,
    /// The previous snapshot's `symbols` and `edges` versions.
    previous_rows: (Option<u64>, Option<u64>),
    acc: Arc<Mutex<Accum>>,
    /// Where the packed analyses wait for resolution ([`frame_file`]).
    frames: Option<Arc<FrameFile>>,
    /// A first index's trigram builder, fed by the stream ([`InlineTrigrams`]).
    trigram_thread: Option<std::thread::JoinHandle<FinishedTrigrams>>,
    trigram_gate: Option<TrigramGate>,
}

/// The trigram index's work that runs on beside the rows phase.
struct TrigramsRunning {
    /// A first index's builder thread, finishing the index the stream fed.
    finishing: Option<std::thread::JoinHandle<FinishedTrigrams>>,
    /// An in-place update of the published index; `false` when that could not be read.
    updating: Option<tokio::task::JoinHandle<bool>>,
}

/// An in-place update's paths: those present now, and those new or changed.
type Delta = (HashSet<String>, HashSet<String>);

/// Each listed file's path, language and fresh analysis (`None`: unchanged, published).
type Analysed = Vec<(String, &'static str, Option<Arc<Packed>>)>;

/// The rows phase's outcome.
struct RowsWritten {
    symbols: u64,
    edges: u64,
    /// This run's fresh definitions, for the search phase (`None`: the published rows stand).
    defs: Option<Vec<Definitions>>,
}

/// The rest of an index run, under the source's lease: its phases in order
/// (docs/architecture.md, "Life of an index run").
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
    let source = register(catalog, name, &resolved, opts).await?;
    let mut run = Run {
        catalog,
        store: catalog.store(),
        opts,
        progress,
        keeper,
        published: crate::publish::versions_of(source.snapshot.as_ref()),
        prefix: source.identifier_prefix().to_string(),
        source,
        stats: IndexStats::default(),
    };
    let mut files = run.write_files(resolved).await?; // stream.rs
    let (trigrams, delta) = run.start_trigrams(&mut files).await?; // trigrams.rs
    failpoint("files_written");
    let analysed = run.take_analyses(&files)?;
    if run.source.snapshot.is_none() {
        run.publish_files(&files).await?; // publish.rs
    }
    let rows = run.write_rows(&files, analysed).await?; // write_rows.rs
    run.finish_trigrams(trigrams, &files).await; // trigrams.rs
    run.index_search(&files, &delta, &rows).await; // search_units.rs
    run.embed(rows.symbols).await; // search_units.rs
    run.publish_ready(&files, &rows).await?; // publish.rs
    let reclaimed_bytes = run.remove_older(&files, &rows).await; // publish.rs
    warnings.extend(
        run.stats
            .skipped
            .get("symlink")
            .map(|n| format!("{n} symlinks were not followed")),
    );
    Ok(IndexReport {
        source: run.source,
        stats: run.stats,
        elapsed: started.elapsed(),
        warnings,
        reclaimed_bytes,
    })
}

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
