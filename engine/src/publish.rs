//! Publishing an index run (docs/operations.md, "Concurrent writers" and "Retention"): runs
//! of one source hold its lease, so they happen one at a time across processes and hosts; a
//! run publishes only when the catalog record still holds the snapshot it started from (a
//! compare and swap of the record where the store provides one); and
//! a replaced snapshot's table versions stay readable for the retention window.

use std::sync::Arc;
use std::time::Duration;

use quarry_storage::catalog::{Retained, now_secs};
use quarry_storage::lease::{self, Lease};
use quarry_storage::{Catalog, DataSource, Snapshot, StorageError};

use crate::error::{EngineError, Result};

/// The table versions a snapshot pins: files, symbols, edges.
pub type Versions = (u64, Option<u64>, Option<u64>);

pub fn versions_of(s: Option<&Snapshot>) -> Option<Versions> {
    s.map(|s| (s.files, s.symbols, s.edges))
}

/// Seconds from the environment, or a default.
fn seconds(var: &str, default: Duration) -> Duration {
    std::env::var(var)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(default, Duration::from_secs)
}

/// How long a replaced snapshot stays readable: `QUARRY_SNAPSHOT_RETENTION_SECONDS`, by
/// default five times the server's request timeout, so a request that read the record just
/// before a re-index published never meets a removed file.
pub fn retention() -> Duration {
    seconds(
        "QUARRY_SNAPSHOT_RETENTION_SECONDS",
        Duration::from_secs(300),
    )
}

/// A held lease, renewed in the background until released.
pub struct LeaseKeeper {
    lease: Arc<tokio::sync::Mutex<Lease>>,
    renewing: tokio::task::JoinHandle<()>,
}

impl LeaseKeeper {
    /// Take the lease of source `name` of `org`, waiting up to `wait` for a run holding it.
    pub async fn take(catalog: &Catalog, org: &str, name: &str, wait: Duration) -> Result<Self> {
        let ttl = seconds("QUARRY_LEASE_SECONDS", lease::DEFAULT_TTL);
        let holder = format!(
            "quarry index on {}, pid {}",
            lease::host_name(),
            std::process::id()
        );
        let key = format!("{org}\u{0}{name}");
        let lease = match Lease::acquire(catalog.store(), &key, &holder, ttl, wait).await? {
            Ok(lease) => lease,
            Err(held) => {
                return Err(EngineError::Conflict(format!(
                    "another index run of '{name}' is in progress: {held}. Nothing was changed; \
                     run again when it has finished, or pass --wait SECONDS to wait for it"
                )));
            }
        };
        let every = lease.renew_every();
        let lease = Arc::new(tokio::sync::Mutex::new(lease));
        if crate::index::fault("stalled_holder") {
            // Fault injection: a holder that hangs, holding the lease without renewing it.
            tokio::time::sleep(Duration::from_secs(60)).await;
        }
        let renewed = lease.clone();
        let renewing = tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                if let Err(e) = renewed.lock().await.renew().await {
                    // The run finds out when it checks before publishing.
                    tracing::warn!("renewing the index lease: {e}");
                    if matches!(e, StorageError::Conflict(_)) {
                        break;
                    }
                }
            }
        });
        Ok(LeaseKeeper { lease, renewing })
    }

    /// Whether the lease is still held.
    pub async fn check(&self) -> Result<()> {
        Ok(self.lease.lock().await.check().await?)
    }

    /// Release the lease (a failure leaves it to expire).
    pub async fn release(self) {
        self.renewing.abort();
        let lease = self.lease.lock().await.clone();
        if let Err(e) = lease.release().await {
            tracing::warn!("releasing the index lease: {e}");
        }
    }
}

/// Publish `source`'s record, replacing the snapshot `published` (what this run started from,
/// or last published itself): refused when the lease was lost or the record changed since.
/// The replaced snapshot joins `retained`, whose expired entries are dropped.
pub async fn publish(
    catalog: &Catalog,
    source: &mut DataSource,
    published: &mut Option<Versions>,
    keeper: &LeaseKeeper,
) -> Result<()> {
    keeper.check().await?;
    let (current, version) = match catalog.source_versioned(&source.id).await? {
        Some((record, version)) => (Some(record), Some(version)),
        None => (None, None),
    };
    let changed = || {
        EngineError::Conflict(format!(
            "the catalog record of '{}' changed while this run indexed it (another writer \
             published): nothing was published; run the index again",
            source.name
        ))
    };
    let now_published = current
        .as_ref()
        .and_then(|c| versions_of(c.snapshot.as_ref()));
    if now_published != *published {
        return Err(changed());
    }
    let now = now_secs();
    let mut retained = current.map(|c| c.retained).unwrap_or_default();
    retained.retain(|r| r.until > now);
    let new = versions_of(source.snapshot.as_ref());
    if let Some((files, symbols, edges)) = *published
        && *published != new
    {
        retained.push(Retained {
            files,
            symbols,
            edges,
            until: now + retention().as_secs(),
        });
    }
    source.retained = retained;
    // Compare and swap against the record just read (where the store provides it: S3).
    if !catalog.put_source_if(source, version.as_ref()).await? {
        return Err(changed());
    }
    *published = new;
    Ok(())
}

/// The oldest version of each table that clean-up keeps: the oldest a retained snapshot
/// pins (`None`: nothing to clean).
pub fn keep_from(source: &DataSource) -> (Option<u64>, Option<u64>, Option<u64>) {
    let r = &source.retained;
    (
        r.iter().map(|r| r.files).min(),
        r.iter().filter_map(|r| r.symbols).min(),
        r.iter().filter_map(|r| r.edges).min(),
    )
}
