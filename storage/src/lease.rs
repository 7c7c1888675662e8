//! Leases: one `quarry index` run of a data source at a time, across processes and hosts,
//! on a local directory and on S3 alike (docs/operations.md, "Concurrent writers").
//!
//! A lease is a sequence of generations, `catalog/leases/<key>/<generation>.json`, each
//! created with a conditional put (create only if absent), which both stores provide. The
//! latest generation is the lease: its holder renews it by rewriting its own record; it is
//! free when released, when its holder stopped renewing for the lease's time to live (the
//! holder died), or at once when the holder ran on this machine and its process is gone. Taking a free lease creates the next generation, so of two takers only one
//! succeeds. A holder that finds a later generation than its own has lost the lease and must
//! not publish.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::catalog::{now_secs, secs_rfc3339};
use crate::{Result, StorageError, Store};

/// The default time to live: a holder that has not renewed for this long is taken to be dead.
pub const DEFAULT_TTL: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Record {
    holder: String,
    since: u64,
    renewed: u64,
    ttl: u64,
    #[serde(default)]
    released: bool,
    /// The holding process, and the machine it runs on (host name and boot id): a holder on
    /// this machine whose process is gone is dead without waiting for its time to live.
    #[serde(default)]
    pid: u32,
    #[serde(default)]
    machine: String,
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// This machine's host name (Linux), for naming a lease's holder.
pub fn host_name() -> String {
    read_trimmed("/proc/sys/kernel/hostname").unwrap_or_else(|| "localhost".into())
}

/// This machine: its host name and the kernel's boot id (Linux), or nothing where unknown.
fn this_machine() -> String {
    match (
        read_trimmed("/proc/sys/kernel/hostname"),
        read_trimmed("/proc/sys/kernel/random/boot_id"),
    ) {
        (Some(host), Some(boot)) => format!("{host}/{boot}"),
        _ => String::new(),
    }
}

/// Whether the record's holder is known to have died: it ran on this machine and its
/// process no longer exists.
fn holder_gone(r: &Record) -> bool {
    r.pid != 0
        && !r.machine.is_empty()
        && r.machine == this_machine()
        && r.pid != std::process::id()
        && !std::path::Path::new(&format!("/proc/{}", r.pid)).exists()
}

/// Who holds a lease, when it is not free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    /// `host:pid` of the holding process, and what it runs.
    pub holder: String,
    pub since: u64,
    pub renewed: u64,
    /// When it is taken over if not renewed (seconds since the epoch).
    pub expires: u64,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} since {} (renewed {} s ago; taken over after {} if it stops renewing)",
            self.holder,
            secs_rfc3339(self.since),
            now_secs().saturating_sub(self.renewed),
            secs_rfc3339(self.expires)
        )
    }
}

/// A held lease.
#[derive(Debug, Clone)]
pub struct Lease {
    store: Store,
    dir: String,
    generation: u64,
    record: Record,
}

/// The lease's directory for one key (the key is hashed: names may hold any character).
fn lease_dir(key: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(key.as_bytes());
    format!("catalog/leases/{}", hex::encode(&digest[..16]))
}

fn object(dir: &str, generation: u64) -> String {
    format!("{dir}/{generation:020}.json")
}

fn encode(r: &Record) -> Result<Vec<u8>> {
    serde_json::to_vec(r).map_err(|e| StorageError::Conflict(format!("lease record: {e}")))
}

/// The latest generation and its record.
async fn latest(store: &Store, dir: &str) -> Result<Option<(u64, Option<Record>)>> {
    let generation = store
        .list(dir)
        .await?
        .iter()
        .filter_map(|n| n.strip_suffix(".json")?.parse::<u64>().ok())
        .max();
    let Some(generation) = generation else {
        return Ok(None);
    };
    let record = match store.get(&object(dir, generation)).await? {
        Some(bytes) => serde_json::from_slice(&bytes).ok(),
        None => None,
    };
    Ok(Some((generation, record)))
}

fn holder_of(r: &Record) -> Holder {
    Holder {
        holder: r.holder.clone(),
        since: r.since,
        renewed: r.renewed,
        expires: r.renewed + r.ttl,
    }
}

impl Lease {
    /// Take the lease named `key` for `holder`, or say who holds it.
    pub async fn try_acquire(
        store: &Store,
        key: &str,
        holder: &str,
        ttl: Duration,
    ) -> Result<std::result::Result<Lease, Holder>> {
        let dir = lease_dir(key);
        loop {
            let now = now_secs();
            let next = match latest(store, &dir).await? {
                None => 1,
                Some((_, Some(r)))
                    if !r.released && now < r.renewed + r.ttl && !holder_gone(&r) =>
                {
                    return Ok(Err(holder_of(&r)));
                }
                // Released, expired, or unreadable (a torn write of a dead holder).
                Some((g, _)) => g + 1,
            };
            let record = Record {
                holder: holder.to_string(),
                since: now,
                renewed: now,
                ttl: ttl.as_secs().max(1),
                released: false,
                pid: std::process::id(),
                machine: this_machine(),
            };
            if store.create(&object(&dir, next), encode(&record)?).await? {
                // Generations before the previous one are no longer read by anyone.
                if next > 2 {
                    let _ = store.delete(&object(&dir, next - 2)).await;
                }
                return Ok(Ok(Lease {
                    store: store.clone(),
                    dir,
                    generation: next,
                    record,
                }));
            }
            // Another taker created it first: look again.
        }
    }

    /// Take the lease, waiting up to `wait` for its holder to release it (or to die).
    pub async fn acquire(
        store: &Store,
        key: &str,
        holder: &str,
        ttl: Duration,
        wait: Duration,
    ) -> Result<std::result::Result<Lease, Holder>> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match Self::try_acquire(store, key, holder, ttl).await? {
                Ok(lease) => return Ok(Ok(lease)),
                Err(h) if tokio::time::Instant::now() >= deadline => return Ok(Err(h)),
                Err(_) => {
                    let pause = Duration::from_millis(250 + u64::from(rand::random::<u8>()));
                    tokio::time::sleep(pause.min(ttl)).await;
                }
            }
        }
    }

    /// Renew the lease; `Err(Conflict)` when it was lost (taken over after it expired).
    pub async fn renew(&mut self) -> Result<()> {
        self.check().await?;
        self.record.renewed = now_secs();
        self.store
            .put(&object(&self.dir, self.generation), encode(&self.record)?)
            .await?;
        self.check().await
    }

    /// Whether this is still the latest generation and not expired: what a holder checks
    /// right before it publishes.
    pub async fn check(&self) -> Result<()> {
        let lost = |why: &str| {
            Err(StorageError::Conflict(format!(
                "the index lease was lost ({why}): another run took it over; this run publishes nothing"
            )))
        };
        match latest(&self.store, &self.dir).await? {
            Some((g, _)) if g != self.generation => lost("a later run holds it"),
            None => lost("its record is gone"),
            _ if now_secs() >= self.record.renewed + self.record.ttl => {
                lost("it was not renewed in time")
            }
            _ => Ok(()),
        }
    }

    /// How often to renew: three times per time to live.
    pub fn renew_every(&self) -> Duration {
        Duration::from_secs(self.record.ttl).div_f64(3.0)
    }

    /// Release the lease (the next run takes it at once).
    pub async fn release(mut self) -> Result<()> {
        if self.check().await.is_err() {
            return Ok(());
        }
        self.record.released = true;
        self.store
            .put(&object(&self.dir, self.generation), encode(&self.record)?)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_holder_at_a_time_and_takeover_after_expiry() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        let ttl = Duration::from_secs(2);
        let a = Lease::try_acquire(&store, "k", "a", ttl)
            .await
            .unwrap()
            .unwrap();
        let held = Lease::try_acquire(&store, "k", "b", ttl)
            .await
            .unwrap()
            .unwrap_err();
        assert_eq!(held.holder, "a");
        assert!(held.to_string().contains("since"), "{held}");
        a.release().await.unwrap();
        let b = Lease::try_acquire(&store, "k", "b", ttl)
            .await
            .unwrap()
            .unwrap();
        // b dies (never renews): after the time to live, c takes over and b has lost it.
        tokio::time::sleep(Duration::from_millis(2100)).await;
        let c = Lease::try_acquire(&store, "k", "c", ttl)
            .await
            .unwrap()
            .unwrap();
        assert!(b.check().await.is_err());
        c.check().await.unwrap();
        // Other keys are independent; concurrent takers: exactly one wins.
        let takers: Vec<_> = (0..8)
            .map(|i| {
                let store = store.clone();
                tokio::spawn(async move {
                    Lease::try_acquire(&store, "race", &format!("t{i}"), ttl)
                        .await
                        .unwrap()
                        .is_ok()
                })
            })
            .collect();
        let mut won = 0;
        for t in takers {
            won += usize::from(t.await.unwrap());
        }
        assert_eq!(won, 1);
    }
}
