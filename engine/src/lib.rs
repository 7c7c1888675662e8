//! Quarry's engine: ingestion and execution.
//!
//! Ingestion turns a repository into rows of the storage tables; execution runs DataFusion
//! plans over those tables. Modules in pipeline order:

/// The binary's global allocator (jemalloc), compiled at the engine's opt-level.
pub mod alloc;
/// Tree-sitter analysis of one file: symbols, raw edges, complexity.
pub mod analyze;
/// Arrow batch building and reading.
pub mod batch;
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
/// Line-oriented matching with ripgrep's semantics (grep verification).
pub mod grep;
/// The `index` pipeline: stream, analyse, resolve, commit.
pub mod index;
/// Language detection and grammars.
pub mod lang;
/// Arrow results as JSON rows and text tables.
pub mod render;
/// Repository-wide edge resolution.
pub mod resolve;
/// The lexical search index `semantic_search` ranks with.
pub mod search;
/// Where files come from: directories, git repositories, git URLs.
pub mod source;
pub mod spill;
/// Embeddings from a local model folder (Model2Vec static models).
pub mod static_model;
/// Code-aware tokens for ranking.
pub mod text;
/// The exact trigram index that narrows grep to candidate files.
pub mod trigram;

pub use error::{EngineError, Result};
