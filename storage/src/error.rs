//! Storage errors, by phase.

use thiserror::Error;

/// Result alias for storage operations.
pub type Result<T, E = StorageError> = std::result::Result<T, E>;

#[derive(Debug, Error)]
pub enum StorageError {
    /// The store URL could not be understood.
    #[error("invalid store URL '{url}': {reason}")]
    InvalidStoreUrl { url: String, reason: String },
    /// An object-store operation failed.
    #[error("object store error at '{path}': {source}")]
    ObjectStore {
        path: String,
        #[source]
        source: object_store::Error,
    },
    /// A Lance dataset operation failed.
    #[error("table '{table}' error: {source}")]
    Lance {
        table: String,
        #[source]
        source: Box<lance::Error>,
    },
    /// A catalog record could not be decoded: the store is corrupt or from another version.
    #[error("corrupt catalog record '{path}': {reason}")]
    CorruptCatalog { path: String, reason: String },
    /// A named thing does not exist.
    #[error("{what} '{name}' not found")]
    NotFound { what: &'static str, name: String },
    /// The request conflicts with what is stored.
    #[error("{0}")]
    Conflict(String),
    /// Arrow-level failure while building or reading batches.
    #[error("arrow error: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
}

impl StorageError {
    pub fn lance(table: impl Into<String>, source: lance::Error) -> Self {
        StorageError::Lance {
            table: table.into(),
            source: Box::new(source),
        }
    }
    pub(crate) fn os(path: impl ToString, source: object_store::Error) -> Self {
        StorageError::ObjectStore {
            path: path.to_string(),
            source,
        }
    }
}
