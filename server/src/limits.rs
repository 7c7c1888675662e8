//! Rate limits by plan (docs/operations.md, "Plans and rate limits"): requests per hour and concurrent requests.
//!
//! Counted per *subject*: a key with its own plan is its own subject; keys without one share
//! their organisation's counters (a JWT's subject is its organisation, or its `sub` when the
//! token names a plan). The hour is a fixed window that starts with the subject's first request
//! and resets an hour later — exact and easy to reason about: at most `requests_per_hour`
//! requests are admitted in any window, never more. Concurrency is counted while a request's
//! handler runs (the permit is released when the response is produced).
//!
//! The state lives in this process, or, with `--rate-limit-redis`, in Redis (`shared`), where
//! every replica counts against the same windows and slots (docs/operations.md, "Rate limits
//! across replicas").

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, HeaderValue};
use quarry_storage::catalog::{Plan, now_secs};

/// The window of a per-hour limit.
pub const WINDOW_SECS: u64 = 3600;

#[derive(Default)]
struct Counter {
    window_start: u64,
    used: u64,
    in_flight: u32,
}

/// The limiter shared by every route: in-process counters, and Redis when configured.
#[derive(Clone, Default)]
pub struct Limiter {
    counters: Arc<Mutex<HashMap<String, Counter>>>,
    shared: Option<Arc<crate::limits_redis::Shared>>,
}

/// What a response reports about the caller's limit.
#[derive(Debug, Clone, Copy)]
pub struct Quota {
    pub limit: u64,
    pub remaining: u64,
    /// Unix seconds when the window resets.
    pub reset: u64,
}

impl Quota {
    /// `plan`'s quota with `used` requests counted in the window ending at `reset`.
    pub fn of(plan: &Plan, used: u64, reset: u64) -> Self {
        Quota {
            limit: plan.requests_per_hour,
            remaining: plan.requests_per_hour.saturating_sub(used),
            reset,
        }
    }

    pub fn headers(&self, h: &mut HeaderMap) {
        h.insert("x-ratelimit-limit", HeaderValue::from(self.limit));
        h.insert("x-ratelimit-remaining", HeaderValue::from(self.remaining));
        h.insert("x-ratelimit-reset", HeaderValue::from(self.reset));
    }
}

/// Why a request was refused.
#[derive(Debug)]
pub struct Refused {
    pub quota: Quota,
    pub retry_after: u64,
    pub message: String,
}

/// Where an admitted request's concurrency slot is held.
enum Slot {
    Local(Limiter),
    Shared(crate::limits_redis::SlotHandle),
}

/// An admitted request; releases its concurrency slot when dropped.
pub struct Permit {
    slot: Slot,
    subject: String,
    pub quota: Quota,
}

impl Drop for Permit {
    fn drop(&mut self) {
        match &mut self.slot {
            Slot::Local(limiter) => {
                if let Ok(mut m) = limiter.counters.lock()
                    && let Some(c) = m.get_mut(&self.subject)
                {
                    c.in_flight = c.in_flight.saturating_sub(1);
                }
            }
            Slot::Shared(handle) => handle.release(),
        }
    }
}

/// Why the limits refuse a request, before its message is written.
pub enum Exceeded {
    Hourly,
    Concurrent,
}

/// The refusal of `plan`'s limit, with `used` requests counted in the window ending `reset`.
pub fn refusal(why: Exceeded, plan: &Plan, used: u64, reset: u64, now: u64) -> Refused {
    let quota = Quota::of(plan, used, reset);
    match why {
        Exceeded::Hourly => {
            let retry_after = reset.saturating_sub(now).max(1);
            Refused {
                quota,
                retry_after,
                message: format!(
                    "rate limit exceeded: plan '{}' allows {} requests per hour; retry after {} (in {retry_after} s)",
                    plan.name.as_str(),
                    plan.requests_per_hour,
                    quarry_storage::catalog::secs_rfc3339(reset)
                ),
            }
        }
        Exceeded::Concurrent => Refused {
            quota,
            retry_after: 1,
            message: format!(
                "too many concurrent requests: plan '{}' allows {} at a time; retry after 1 s, when one has finished",
                plan.name.as_str(),
                plan.concurrent
            ),
        },
    }
}

impl Limiter {
    /// A limiter whose counters live in Redis at `url` (in-process counters when it cannot
    /// be reached).
    pub fn shared(url: &str) -> Result<Self, String> {
        Ok(Limiter {
            counters: Arc::default(),
            shared: Some(Arc::new(crate::limits_redis::Shared::new(url)?)),
        })
    }

    /// Admit one request of `subject` under `plan`, or refuse it.
    pub async fn admit(&self, subject: &str, plan: &Plan) -> Result<Permit, Refused> {
        if let Some(shared) = &self.shared {
            match shared.admit(subject, plan).await {
                Ok(Ok((handle, quota))) => {
                    return Ok(Permit {
                        slot: Slot::Shared(handle),
                        subject: subject.to_string(),
                        quota,
                    });
                }
                Ok(Err(refused)) => return Err(refused),
                // Unreachable (logged there): this process's own counters stand in.
                Err(()) => {}
            }
        }
        self.admit_at(subject, plan, now_secs())
    }

    fn admit_at(&self, subject: &str, plan: &Plan, now: u64) -> Result<Permit, Refused> {
        let mut m = self
            .counters
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let c = m.entry(subject.to_string()).or_default();
        if c.used == 0 || now >= c.window_start + WINDOW_SECS {
            c.window_start = now;
            c.used = 0;
        }
        let reset = c.window_start + WINDOW_SECS;
        if c.used >= plan.requests_per_hour {
            return Err(refusal(Exceeded::Hourly, plan, c.used, reset, now));
        }
        if c.in_flight >= plan.concurrent {
            return Err(refusal(Exceeded::Concurrent, plan, c.used, reset, now));
        }
        c.used += 1;
        c.in_flight += 1;
        let quota = Quota::of(plan, c.used, reset);
        drop(m);
        Ok(Permit {
            slot: Slot::Local(self.clone()),
            subject: subject.to_string(),
            quota,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quarry_storage::catalog::PlanName;

    fn plan(r: u64, c: u32) -> Plan {
        Plan::new(PlanName::Enterprise, Some(r), Some(c)).unwrap()
    }

    #[test]
    fn admits_exactly_the_hourly_number_then_resets() {
        let l = Limiter::default();
        let p = plan(3, 10);
        for left in [2, 1, 0] {
            let permit = l.admit_at("k", &p, 1000).unwrap();
            assert_eq!(permit.quota.remaining, left);
            assert_eq!(permit.quota.reset, 1000 + WINDOW_SECS);
        }
        let refused = l.admit_at("k", &p, 1000 + WINDOW_SECS - 10).err().unwrap();
        assert_eq!(refused.retry_after, 10);
        assert!(
            refused.message.contains("3 requests per hour"),
            "{}",
            refused.message
        );
        // Another subject has its own counter; the window resets after an hour.
        assert!(l.admit_at("other", &p, 1001).is_ok());
        assert_eq!(
            l.admit_at("k", &p, 1000 + WINDOW_SECS)
                .unwrap()
                .quota
                .remaining,
            2
        );
    }

    #[test]
    fn concurrency_counts_requests_in_flight() {
        let l = Limiter::default();
        let p = plan(100, 2);
        let a = l.admit_at("k", &p, 5).unwrap();
        let _b = l.admit_at("k", &p, 5).unwrap();
        let refused = l.admit_at("k", &p, 5).err().unwrap();
        assert!(refused.message.contains("2 at a time"));
        drop(a);
        assert!(l.admit_at("k", &p, 5).is_ok());
    }

    #[test]
    fn standard_plans_match_spec() {
        let free = Plan::new(PlanName::Free, None, None).unwrap();
        assert_eq!((free.requests_per_hour, free.concurrent), (100, 5));
        let team = Plan::new(PlanName::Team, None, None).unwrap();
        assert_eq!((team.requests_per_hour, team.concurrent), (5000, 50));
        assert!(Plan::new(PlanName::Pro, Some(5), None).is_err());
        assert!(Plan::new(PlanName::Enterprise, Some(5), None).is_err());
    }
}
