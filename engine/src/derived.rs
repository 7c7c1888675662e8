//! What the derived objects (the trigram index, the search index, dense vectors) share: each
//! is built from one table version and never changes once written, so a process loads each
//! one once; a format is recognised by its leading magic bytes; versions older than the
//! previous snapshot's are removed after a new one is published.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use quarry_storage::Store;

pub use quarry_analysis::derived::*;

/// Loaded objects kept per kind at once.
const MAX_LOADED: usize = 64;

type Key = (String, String, u64);

/// Objects of one kind loaded by this process, by (store, source, version). A cached object is
/// never stale: a new table version gets a new object. An object that could not be parsed
/// (corrupt, or written by an older Quarry) is remembered as failed for [`RETRY_FAILED`], so
/// it is not read and warned about on every request, yet a rebuild in place (`quarry index`
/// rewrites an older format at the same version) is picked up by a running server.
pub struct Cache<T>(OnceLock<Mutex<HashMap<Key, Loaded<T>>>>);

/// How long a failed load is remembered before the object is read again.
pub const RETRY_FAILED: std::time::Duration = std::time::Duration::from_secs(30);

enum Loaded<T> {
    Ok(Arc<T>),
    Failed(std::time::Instant),
}

impl<T> Cache<T> {
    pub const fn new() -> Self {
        Cache(OnceLock::new())
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Loaded<T>>> {
        self.0
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// The object at `path` (of `source_id`'s table `version`), parsed by `parse` on first
    /// use. `None` when it does not exist or cannot be read or parsed; the warning names
    /// what it is and the fallback that answers meanwhile (`(what, fallback)`).
    pub async fn load(
        &self,
        store: &Store,
        (source_id, version): (&str, u64),
        path: &str,
        (what, fallback): (&str, &str),
        parse: impl FnOnce(Vec<u8>) -> Result<T, CorruptIndex>,
    ) -> Option<Arc<T>> {
        let key = (store.url().to_string(), source_id.to_string(), version);
        match self.map().get(&key) {
            Some(Loaded::Ok(x)) => return Some(x.clone()),
            Some(Loaded::Failed(at)) if at.elapsed() < RETRY_FAILED => return None,
            _ => {}
        }
        let bytes = read(store, source_id, path, what).await?;
        let (x, entry) = match tokio::task::block_in_place(|| parse(bytes)) {
            Ok(x) => {
                let x = Arc::new(x);
                (Some(x.clone()), Loaded::Ok(x))
            }
            Err(e) => {
                tracing::warn!("{source_id}: {e}; {fallback} until it is re-indexed");
                (None, Loaded::Failed(std::time::Instant::now()))
            }
        };
        let mut map = self.map();
        if map.len() >= MAX_LOADED {
            map.clear();
        }
        map.insert(key, entry);
        x
    }
}

impl<T> Default for Cache<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The object at `path` of `source_id`, read and parsed by `parse`, uncached (for objects a
/// run reads once). `None` when it does not exist or cannot be read or parsed; the warning
/// names what it is and what happens instead (`(what, fallback)`).
pub async fn read_parsed<T>(
    store: &Store,
    source_id: &str,
    path: &str,
    (what, fallback): (&str, &str),
    parse: impl FnOnce(&[u8]) -> Result<T, CorruptIndex>,
) -> Option<T> {
    let bytes = read(store, source_id, path, what).await?;
    tokio::task::block_in_place(|| parse(&bytes))
        .map_err(|e| tracing::warn!("{source_id}: {e}; {fallback}"))
        .ok()
}

/// The object at `path` of `source_id`; `None` when it does not exist, or (warned about,
/// naming `what` it is) cannot be read.
async fn read(store: &Store, source_id: &str, path: &str, what: &str) -> Option<Vec<u8>> {
    match store.get(path).await {
        Ok(bytes) => bytes,
        Err(e) => {
            tracing::warn!("reading the {what} of {source_id}: {e}");
            None
        }
    }
}

/// The first `n` bytes of the object at `path` (fewer if it is shorter; `None` if it does not
/// exist or cannot be read).
pub async fn head(store: &Store, path: &str, n: u64) -> Option<bytes::Bytes> {
    store
        .get_ranges(path, std::slice::from_ref(&(0..n)))
        .await
        .ok()?
        .into_iter()
        .next()
}

/// Whether the object at `path` exists and starts with `magic` (is in the current format).
pub async fn is_current(store: &Store, path: &str, magic: &[u8]) -> bool {
    head(store, path, magic.len() as u64)
        .await
        .is_some_and(|b| b.as_ref() == magic)
}

/// Remove the objects in `dir` named `<prefix><version>.…` whose version is below
/// `keep_from` (the previous snapshot's version stays, for servers still answering from it).
pub async fn remove_older(
    store: &Store,
    dir: &str,
    prefix: &str,
    keep_from: u64,
) -> quarry_storage::Result<()> {
    for name in store.list(dir).await? {
        let version = name
            .strip_prefix(prefix)
            .and_then(|n| n.split_once('.'))
            .and_then(|(v, _)| v.parse::<u64>().ok());
        if version.is_some_and(|v| v < keep_from) {
            store.delete(&format!("{dir}{name}")).await?;
        }
    }
    Ok(())
}
