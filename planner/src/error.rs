use thiserror::Error;

pub type Result<T, E = PlanError> = std::result::Result<T, E>;

#[derive(Debug, Error)]
pub enum PlanError {
    /// The statement is valid but not allowed (it would write, or change session state).
    #[error("{0}")]
    Refused(String),
    /// The statement could not be parsed or planned.
    #[error("{0}")]
    Invalid(String),
}
