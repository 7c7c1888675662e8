//! The CPU-bound half of Quarry's engine: what runs per file, per symbol, per edge, per
//! posting and per result row — tree-sitter analysis, edge resolution, the trigram and search
//! index formats and builders, row digests, Arrow row building, grep's matcher, rendering.
//!
//! It depends on nothing that does I/O through Lance, DataFusion or the store: so it compiles
//! beside them, early in a clean build, and optimised (opt-level 2 in the dev profile), while
//! `quarry-engine` — the orchestration of streams, tables and the store — compiles at the
//! profile's opt-level 1 once Lance is done (docs/architecture.md, "Crates").

/// Tree-sitter analysis of one file: symbols, raw edges, complexity.
pub mod analyze;
/// Arrow batch building and reading.
pub mod batch;
/// What each language's standard library names (methods of built-in types, global objects).
pub mod builtins;
/// The byte formats the derived objects share: checked reads, varints, zstd frames.
pub mod derived;
/// Per-file digests of the symbols and edges rows: a small change rewrites only what differs.
pub mod digest;
/// What a file is before analysis: skipped or not, lines, content hash.
pub mod file;
/// Go's build constraints as file names state them (`os_linux.go`).
pub mod gobuild;
/// Line-oriented matching with ripgrep's semantics (grep verification).
pub mod grep;
/// Language detection and grammars.
pub mod lang;
/// Analyses rebuilt from the published rows of unchanged files.
pub mod reload;
/// Results as JSON rows, XML text and JSON bodies.
pub mod render;
/// Repository-wide edge resolution.
pub mod resolve;
/// The `symbols` and `edges` rows: Arrow batches and per-file digests.
pub mod rows;
/// The lexical search index `semantic_search` ranks with: tokenising, building, ranking.
pub mod search;
/// Sorted runs spilled to scratch files, merged back.
pub mod spill;
/// Embeddings from a local model folder (Model2Vec static models).
pub mod static_model;
/// Code-aware tokens for ranking.
pub mod text;
/// The exact trigram index that narrows grep to candidate files.
pub mod trigram;
