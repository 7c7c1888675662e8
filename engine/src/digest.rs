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
    let path = path(source_id, versions);
    let what = ("row digests", "rewriting symbols and edges whole");
    crate::derived::read_parsed(store, source_id, &path, what, decode).await
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
