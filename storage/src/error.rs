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
    /// A Lance dataset operation failed. `message` is Lance's, without the source locations
    /// it appends (paths into the build's cargo registry), and with a concurrent commit said
    /// in words.
    #[error("table '{table}' error: {message}")]
    Lance {
        table: String,
        message: String,
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
        let message = match &source {
            lance::Error::CommitConflict { .. }
            | lance::Error::RetryableCommitConflict { .. }
            | lance::Error::IncompatibleTransaction { .. } => {
                "another writer committed to this table at the same time; nothing of this run was published: run it again".to_string()
            }
            other => without_source_locations(&other.to_string()),
        };
        StorageError::Lance {
            table: table.into(),
            message,
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

/// `text` without the `, /…/src/file.rs:12:34` locations Lance appends to its messages.
pub fn without_source_locations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split(", ").enumerate() {
        let location = part
            .trim_end_matches(['.', ')'])
            .rsplit_once(".rs:")
            .is_some_and(|(file, pos)| {
                file.contains('/')
                    && pos
                        .split(':')
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            });
        if location {
            continue;
        }
        if i > 0 && !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn source_locations_are_dropped() {
        assert_eq!(
            super::without_source_locations(
                "Not found: sources/x/data/a.lance, /root/.cargo/registry/src/index.crates.io-1/lance-io-14.0.2/src/local.rs:123:31"
            ),
            "Not found: sources/x/data/a.lance"
        );
        assert_eq!(super::without_source_locations("a, b"), "a, b");
    }
}
