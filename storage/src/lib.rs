//! Quarry's storage layer: where indexed repositories live.
//!
//! A [`Store`] is a URL — a local directory (the embedded default) or `s3://bucket/prefix` —
//! reached only through `object_store` and Lance. Under it:
//!
//! ```text
//! catalog/sources/<id>.json     data sources (repositories, workspaces), readiness, snapshot
//! catalog/keys/<id>.json        API keys (hash only)
//! catalog/leases/<key>/<n>.json  who runs an index of a source now (lease generations)
//! sources/<id>/files.lance      Lance datasets, one per table (schema::TABLES)
//! sources/<id>/symbols.lance
//! sources/<id>/edges.lance
//! ```
//!
//! ```
//! # tokio_test_block_on(async {
//! let store = quarry_storage::Store::open("memory://").unwrap();
//! let catalog = quarry_storage::Catalog::new(store);
//! assert!(catalog.sources().await.unwrap().is_empty());
//! # });
//! # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     tokio::runtime::Runtime::new().unwrap().block_on(f)
//! # }
//! ```

/// Data sources, readiness, snapshots and keys.
pub mod catalog;
/// Errors by phase.
pub mod error;
/// One index run of a source at a time, across processes: leases by conditional put.
pub mod lease;
/// S3 clients for the catalog and for Lance.
mod s3;
/// Arrow schemas of the tables.
pub mod schema;
/// Store URL resolution and raw object access.
pub mod store;
/// Lance reads and writes.
pub mod tables;

pub use catalog::{
    ApiKey, Catalog, Conversation, DEFAULT_ORG, DataSource, IndexStats, Org, Plan, PlanName,
    Readiness, Snapshot, SourceType, Turn,
};
pub use error::{Result, StorageError};
pub use store::Store;
