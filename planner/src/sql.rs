//! The SQL console: one read-only statement (a query, `VALUES`, or `EXPLAIN` of one) planned by
//! DataFusion over the session's tables. DDL, DML (including `COPY`) and session statements
//! (`SET`, transactions) are refused before anything runs.

use datafusion::execution::context::{SQLOptions, SessionContext};
use datafusion::logical_expr::LogicalPlan;

use crate::error::{PlanError, Result};

/// Plan one read-only SQL statement.
pub async fn plan(ctx: &SessionContext, sql: &str) -> Result<LogicalPlan> {
    if sql.trim().is_empty() {
        return Err(PlanError::Invalid(
            "empty statement: write a query such as SELECT * FROM files LIMIT 5".into(),
        ));
    }
    let plan = ctx
        .state()
        .create_logical_plan(sql)
        .await
        .map_err(|e| PlanError::Invalid(strip_context(&e.to_string())))?;
    SQLOptions::new()
        .with_allow_ddl(false)
        .with_allow_dml(false)
        .with_allow_statements(false)
        .verify_plan(&plan)
        .map_err(|e| {
            PlanError::Refused(format!(
                "the SQL console is read-only: only queries (SELECT, WITH, VALUES, EXPLAIN) are allowed — {}",
                strip_context(&e.to_string())
            ))
        })?;
    Ok(plan)
}

/// DataFusion prefixes errors with their phase ("Error during planning: …"); keep the message.
fn strip_context(msg: &str) -> String {
    msg.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn refuses_writes_and_session_statements() {
        let ctx = SessionContext::new();
        for sql in [
            "CREATE TABLE t AS VALUES (1)",
            "CREATE VIEW v AS SELECT 1",
            "SET datafusion.execution.batch_size = 1",
            "COPY (SELECT 1) TO '/tmp/x.csv'",
            "DROP TABLE files",
        ] {
            let err = plan(&ctx, sql).await.unwrap_err();
            assert!(
                matches!(err, PlanError::Refused(_) | PlanError::Invalid(_)),
                "{sql}: {err}"
            );
            if !sql.starts_with("DROP") {
                assert!(matches!(err, PlanError::Refused(_)), "{sql}: {err}");
            }
        }
        assert!(plan(&ctx, "SELECT 1 + 1").await.is_ok());
        assert!(plan(&ctx, "EXPLAIN SELECT 1").await.is_ok());
    }
}
