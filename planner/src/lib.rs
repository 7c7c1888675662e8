//! Quarry's planner: every request becomes a DataFusion `LogicalPlan` here, and only here.
//!
//! Today it plans the read-only SQL console; ArtifactQuery and the tool requests land beside
//! it (see the open issues).
//!
//! ```no_run
//! # async fn demo(ctx: &datafusion::prelude::SessionContext) {
//! let plan = quarry_planner::sql::plan(ctx, "SELECT language, COUNT(*) FROM files GROUP BY language").await.unwrap();
//! println!("{}", plan.display_indent());
//! # }
//! ```

/// ArtifactQuery: the analytics language.
pub mod artifactquery;
/// Planner errors.
pub mod error;
/// The read-only SQL console.
pub mod sql;

pub use error::{PlanError, Result};
