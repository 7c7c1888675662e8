//! Quarry's planner: every request becomes a DataFusion `LogicalPlan` here, and only here.
//!
//! It plans the read-only SQL console, ArtifactQuery statements and the Tool API's requests.
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
/// Tool requests (read, tree, fetch, relationships, grep candidates) as logical plans.
pub mod tools;

pub use error::{PlanError, Result};
