//! Quarry's engine: ingestion and execution.
//!
//! Ingestion turns a repository into rows of the storage tables; execution runs DataFusion
//! plans over those tables. Modules in pipeline order:

/// Errors by phase.
pub mod error;
/// Language detection and grammars.
pub mod lang;
/// Where files come from: directories, git repositories, git URLs.
pub mod source;
/// Tree-sitter analysis of one file: symbols, raw edges, complexity.
pub mod analyze;
/// Repository-wide edge resolution.
pub mod resolve;
/// Arrow batch building and reading.
pub mod batch;
/// The `index` pipeline: stream, analyse, resolve, commit.
pub mod index;
/// DataFusion sessions over published snapshots; the read-only SQL console.
pub mod exec;
/// Arrow results as JSON rows and text tables.
pub mod render;

pub use error::{EngineError, Result};
