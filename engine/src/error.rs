//! Engine errors, by phase.

use thiserror::Error;

pub type Result<T, E = EngineError> = std::result::Result<T, E>;

#[derive(Debug, Error)]
pub enum EngineError {
    /// The input to index could not be opened or understood.
    #[error("{0}")]
    Source(String),
    /// A git command failed.
    #[error("git: {0}")]
    Git(String),
    /// `--branch` names nothing in the repository.
    #[error("unknown branch '{branch}'{}", if available.is_empty() { String::new() } else { format!(" (available: {})", available.join(", ")) })]
    UnknownBranch {
        branch: String,
        available: Vec<String>,
    },
    /// The request conflicts with what the catalog holds.
    #[error("{0}")]
    Conflict(String),
    /// A named data source does not exist.
    #[error("{0}")]
    NotFound(String),
    /// A query was refused before execution (e.g. not read-only).
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Storage(#[from] quarry_storage::StorageError),
    #[error("query error: {0}")]
    DataFusion(#[from] datafusion::error::DataFusionError),
    #[error("arrow error: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<quarry_analysis::rows::RowsError> for EngineError {
    fn from(e: quarry_analysis::rows::RowsError) -> Self {
        EngineError::Internal(e.0)
    }
}
