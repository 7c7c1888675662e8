//! For git sources: each indexed file's blob id and stored length, per `files` version, so a
//! re-index reads only the blobs whose id changed. Reading every blob through `git cat-file`
//! was ~10 s of an unchanged re-index of the registry copy as a git repository (7–8× faster
//! than its first index, where a directory's is ~45×).
//!
//! One object per `files` version, `sources/<id>/blobs/files-<v>.blobs`, written after the
//! table and removed with the versions it describes. Without it (a directory source, an older
//! store, a lost object) a re-index reads every blob. Its bytes are in docs/formats.md
//! ("Blob ids").

use std::collections::HashMap;

use quarry_storage::Store;

use crate::derived::CorruptIndex;

const MAGIC: &[u8; 8] = b"QBLOBS01";

/// Per path: (blob id, stored length in bytes).
pub type Blobs = HashMap<String, (String, u64)>;

pub fn path(source_id: &str, files_version: u64) -> String {
    format!("sources/{source_id}/blobs/files-{files_version:010}.blobs")
}

pub fn encode(blobs: &Blobs) -> Vec<u8> {
    crate::derived::encode_by_path(MAGIC, blobs, 100, |out, (id, len)| {
        let id = &id.as_bytes()[..id.len().min(255)];
        out.push(id.len() as u8);
        out.extend_from_slice(id);
        out.extend_from_slice(&len.to_le_bytes());
    })
}

pub fn decode(bytes: &[u8]) -> Result<Blobs, CorruptIndex> {
    crate::derived::decode_by_path(bytes, MAGIC, "blob ids", |r| {
        let id_len = r.take(1)?[0] as usize;
        let id = std::str::from_utf8(r.take(id_len)?)
            .map_err(|_| CorruptIndex("blob ids: an id is not UTF-8".into()))?
            .to_string();
        Ok((id, r.u64()?))
    })
}

pub async fn save(
    store: &Store,
    source_id: &str,
    files_version: u64,
    blobs: &Blobs,
) -> quarry_storage::Result<()> {
    store
        .put(&path(source_id, files_version), encode(blobs))
        .await
}

/// The blob ids of a published `files` version; empty when there are none to trust (a
/// directory source, never written, unreadable, another format): every blob is read then.
pub async fn load(store: &Store, source_id: &str, files_version: u64) -> Blobs {
    let path = path(source_id, files_version);
    let what = ("blob ids", "reading every blob");
    crate::derived::read_parsed(store, source_id, &path, what, decode)
        .await
        .unwrap_or_default()
}

/// Remove the blob ids of `files` versions below `keep_from`.
pub async fn remove_older(
    store: &Store,
    source_id: &str,
    keep_from: u64,
) -> quarry_storage::Result<()> {
    let dir = format!("sources/{source_id}/blobs/");
    crate::derived::remove_older(store, &dir, "files-", keep_from).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_ids_round_trip_and_reject_damage() {
        let mut blobs = Blobs::new();
        blobs.insert("src/a.rs".into(), ("0123abcd".repeat(5), 12));
        blobs.insert("ü/b.py".into(), ("ffff".into(), 0));
        let bytes = encode(&blobs);
        assert_eq!(decode(&bytes).unwrap(), blobs);
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_err());
        assert!(decode(b"QBLOBS99").is_err());
    }
}
