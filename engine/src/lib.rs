//! Quarry's engine: ingestion and execution.
//!
//! Ingestion turns a repository into rows of the storage tables; execution runs DataFusion
//! plans over those tables. This crate orchestrates — streams, tables, the store — and is
//! compiled at the dev profile's opt-level 1; the per-file, per-row work it drives is
//! `quarry-analysis`'s. Modules in pipeline order:

/// For git sources, each file's blob id per `files` version: a re-index reads only changed blobs.
pub mod blobs;
/// What the derived indexes share: a per-process cache, format checks, clean-up.
pub mod derived;
/// Per-file digests of the symbols and edges rows: a small change rewrites only what differs.
pub mod digest;
/// Dense vectors from an embeddings endpoint (optional).
pub mod embed;
/// Errors by phase.
pub mod error;
/// DataFusion sessions over published snapshots; the read-only SQL console.
pub mod exec;
/// The `index` pipeline: stream, analyse, resolve, commit.
pub mod index;
/// What a location string names (by git's rules), and what admin keys may register.
pub mod location;
/// Publishing a run: the source's lease, the record's compare-and-swap, retention.
pub mod publish;
/// Arrow results as JSON rows and text tables.
pub mod render;
/// The lexical search index `semantic_search` ranks with.
pub mod search;
/// Where files come from: directories, git repositories, git URLs.
pub mod source;
/// The exact trigram index that narrows grep to candidate files.
pub mod trigram;

pub use error::{EngineError, Result};

// The CPU-bound modules live in `quarry-analysis` (compiled optimised, beside Lance) and are
// used from there. `derived`, `digest`, `render`, `search` and `trigram` above are this
// crate's I/O for the analysis module of the same name: each stores and loads what that one
// builds, so the two share a name on purpose.
