//! Rate-limit counters in Redis, shared by every replica (`quarry serve --rate-limit-redis`;
//! docs/operations.md, "Rate limits across replicas").
//!
//! One Lua script admits a request atomically, on Redis's clock: the subject's hourly window
//! (a hash: start, used) and its concurrency slots (a sorted set of slot ids scored by their
//! expiry). A slot is removed when its request finishes, and expires on its own after
//! [`SLOT_TTL_MS`] should the replica holding it die. Redis unreachable: the limiter answers
//! from this process's counters (logged, at most once per [`RETRY_AFTER`]), never an error.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use quarry_storage::catalog::{Plan, now_secs};

use crate::limits::{Exceeded, Quota, Refused, WINDOW_SECS, refusal};

/// A concurrency slot expires this long after it was taken (twice the request timeout).
pub const SLOT_TTL_MS: u64 = 2 * crate::http::REQUEST_TIMEOUT.as_millis() as u64;
/// How long one Redis call may take before the request is admitted locally instead.
const CALL_TIMEOUT: Duration = Duration::from_millis(500);
/// After a failure, Redis is tried again only after this long (requests meanwhile are counted
/// locally, without waiting on a dead server).
const RETRY_AFTER: Duration = Duration::from_secs(5);

/// KEYS: window hash, slots set. ARGV: limit, concurrent, window ms, slot id, slot ttl ms.
/// Returns {decision, used, reset ms}: 0 over the hourly limit, 1 over concurrency, 2 admitted.
const ADMIT: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local start = tonumber(redis.call('HGET', KEYS[1], 'start') or '0')
local used = tonumber(redis.call('HGET', KEYS[1], 'used') or '0')
local window = tonumber(ARGV[3])
if used == 0 or now >= start + window then
  start = now
  used = 0
end
local reset = start + window
if used >= tonumber(ARGV[1]) then
  return {0, used, reset}
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then
  return {1, used, reset}
end
used = used + 1
redis.call('HSET', KEYS[1], 'start', start, 'used', used)
redis.call('PEXPIREAT', KEYS[1], reset + 60000)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), ARGV[4])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[5]) * 2)
return {2, used, reset}
"#;

pub struct Shared {
    client: redis::Client,
    script: redis::Script,
    conn: tokio::sync::Mutex<Option<redis::aio::MultiplexedConnection>>,
    /// Unix milliseconds before which Redis is not tried again.
    down_until: AtomicU64,
}

/// A held slot; [`SlotHandle::release`] removes it.
pub struct SlotHandle {
    shared: Arc<Shared>,
    key: String,
    id: String,
}

impl SlotHandle {
    pub fn release(&mut self) {
        let (shared, key, id) = (self.shared.clone(), self.key.clone(), self.id.clone());
        // Dropped outside a runtime (never, in the server): the slot expires on its own.
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                if let Some(mut conn) = shared.connection().await {
                    let removed: Result<i64, _> = tokio::time::timeout(
                        CALL_TIMEOUT,
                        redis::cmd("ZREM").arg(&key).arg(&id).query_async(&mut conn),
                    )
                    .await
                    .unwrap_or_else(|_| Err(timeout_error()));
                    if let Err(e) = removed {
                        shared.failed(&e);
                    }
                }
            });
        }
    }
}

fn timeout_error() -> redis::RedisError {
    redis::RedisError::from(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        "Redis did not answer in time",
    ))
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Shared {
    pub fn new(url: &str) -> Result<Self, String> {
        let client = redis::Client::open(url)
            .map_err(|e| format!("--rate-limit-redis '{url}' is not a Redis URL: {e}"))?;
        Ok(Shared {
            client,
            script: redis::Script::new(ADMIT),
            conn: tokio::sync::Mutex::new(None),
            down_until: AtomicU64::new(0),
        })
    }

    fn failed(&self, e: &redis::RedisError) {
        let until = now_ms() + RETRY_AFTER.as_millis() as u64;
        if self.down_until.swap(until, Ordering::SeqCst) < now_ms() {
            tracing::warn!(
                error = %e,
                "Redis unreachable for rate limits: counting in this process for {} s",
                RETRY_AFTER.as_secs()
            );
        }
    }

    /// A connection, unless Redis failed recently or cannot be reached now.
    async fn connection(&self) -> Option<redis::aio::MultiplexedConnection> {
        if now_ms() < self.down_until.load(Ordering::SeqCst) {
            return None;
        }
        let mut conn = self.conn.lock().await;
        if let Some(c) = conn.as_ref() {
            return Some(c.clone());
        }
        match tokio::time::timeout(CALL_TIMEOUT, self.client.get_multiplexed_async_connection())
            .await
            .unwrap_or_else(|_| Err(timeout_error()))
        {
            Ok(c) => {
                *conn = Some(c.clone());
                Some(c)
            }
            Err(e) => {
                self.failed(&e);
                None
            }
        }
    }

    /// Admit a request in Redis: `Err(())` when Redis could not decide (the caller counts
    /// locally).
    pub async fn admit(
        self: &Arc<Self>,
        subject: &str,
        plan: &Plan,
    ) -> Result<Result<(SlotHandle, Quota), Refused>, ()> {
        let mut conn = self.connection().await.ok_or(())?;
        let (window, slots) = (
            format!("quarry:rl:{{{subject}}}:window"),
            format!("quarry:rl:{{{subject}}}:slots"),
        );
        let id = format!("{:032x}", rand::random::<u128>());
        let mut call = self.script.key(&window);
        call.key(&slots)
            .arg(plan.requests_per_hour)
            .arg(plan.concurrent)
            .arg(WINDOW_SECS * 1000)
            .arg(&id)
            .arg(SLOT_TTL_MS);
        let answer: Result<(i64, u64, u64), _> =
            tokio::time::timeout(CALL_TIMEOUT, call.invoke_async(&mut conn))
                .await
                .unwrap_or_else(|_| Err(timeout_error()));
        let (decision, used, reset_ms) = match answer {
            Ok(a) => a,
            Err(e) => {
                self.failed(&e);
                // A broken connection is made again on the next try.
                *self.conn.lock().await = None;
                return Err(());
            }
        };
        let reset = reset_ms.div_ceil(1000);
        Ok(match decision {
            2 => Ok((
                SlotHandle {
                    shared: self.clone(),
                    key: slots,
                    id,
                },
                Quota::of(plan, used, reset),
            )),
            0 => Err(refusal(Exceeded::Hourly, plan, used, reset, now_secs())),
            _ => Err(refusal(Exceeded::Concurrent, plan, used, reset, now_secs())),
        })
    }
}
