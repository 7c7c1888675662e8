//! Row digests in the store (the format and the hashing are [`quarry_analysis::digest`]'s).

use quarry_storage::Store;

pub use quarry_analysis::digest::*;

pub async fn save(
    store: &Store,
    source_id: &str,
    versions: (u64, u64),
    digests: &Digests,
) -> quarry_storage::Result<()> {
    store.put(&path(source_id, versions), encode(digests)).await
}

/// The digests of a published pair of versions; `None` when there are none to trust (never
/// written, unreadable, or in another format): the caller then rewrites both tables.
pub async fn load(store: &Store, source_id: &str, versions: (u64, u64)) -> Option<Digests> {
    let bytes = match store.get(&path(source_id, versions)).await {
        Ok(Some(b)) => b,
        Ok(None) => return None,
        Err(e) => {
            tracing::warn!("reading the row digests of {source_id}: {e}");
            return None;
        }
    };
    match tokio::task::block_in_place(|| decode(&bytes)) {
        Ok(d) => Some(d),
        Err(e) => {
            tracing::warn!("{source_id}: {e}; rewriting symbols and edges whole");
            None
        }
    }
}

/// Remove the digests of `symbols` versions below `keep_from`.
pub async fn remove_older(
    store: &Store,
    source_id: &str,
    keep_from: u64,
) -> quarry_storage::Result<()> {
    let dir = format!("sources/{source_id}/rows/");
    crate::derived::remove_older(store, &dir, "symbols-", keep_from).await
}
