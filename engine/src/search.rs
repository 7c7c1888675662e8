//! The search index in the store: where [`quarry_analysis::search`]'s objects are written, read
//! and removed, and the per-process cache of loaded indexes. Tokenising, building, ranking and
//! the formats are there, compiled optimised; this is I/O.

use std::sync::Arc;

use quarry_storage::Store;
use serde_json::{Map, Value};

pub use quarry_analysis::search::*;

/// Store a built index: the records first, so an index that exists always has them (tests;
/// `quarry index` stores spooled files with [`save_files`]).
#[cfg(test)]
pub async fn save(
    store: &Store,
    source_id: &str,
    version: u64,
    (index, units): (Vec<u8>, Vec<u8>),
) -> quarry_storage::Result<()> {
    store.put(&units_path(source_id, version), units).await?;
    store.put(&index_path(source_id, version), index).await
}

/// Store an index built to scratch files ([`Builder::finish_spooled`]): records first, as
/// [`save`] does.
pub async fn save_files(
    store: &Store,
    source_id: &str,
    version: u64,
    index: std::fs::File,
    records: std::fs::File,
) -> quarry_storage::Result<()> {
    store
        .put_file(&units_path(source_id, version), records)
        .await?;
    store.put_file(&index_path(source_id, version), index).await
}

/// The records of `units` of `ix` (the index of `symbols` at `version`), in that order: the
/// row a result is rendered from ([`SearchIndex::records`]).
pub async fn read_units(
    store: &Store,
    source_id: &str,
    version: u64,
    ix: &SearchIndex,
    units: &[u32],
) -> Result<Vec<Map<String, Value>>, String> {
    let (wanted, ranges) = ix.unit_frames(units)?;
    let bytes = store
        .get_ranges(&units_path(source_id, version), &ranges)
        .await
        .map_err(|e| e.to_string())?;
    ix.records(units, wanted, bytes)
}

static LOADED: crate::derived::Cache<SearchIndex> = crate::derived::Cache::new();

/// The index of a repository's `symbols` at `version`, loaded once per process; `None` if
/// it does not exist or cannot be read (search then ranks candidate rows from the tables).
pub async fn load(store: &Store, source_id: &str, version: u64) -> Option<Arc<SearchIndex>> {
    let path = index_path(source_id, version);
    let what = ("search index", "search ranks table rows");
    LOADED
        .load(store, (source_id, version), &path, what, SearchIndex::load)
        .await
}

/// Whether the index of `symbols` at `version` exists in this format (its magic bytes: an
/// index written by an older Quarry is rebuilt by the next index run). Reads 8 bytes.
pub async fn is_current(store: &Store, source_id: &str, version: u64) -> bool {
    crate::derived::is_current(store, &index_path(source_id, version), MAGIC).await
}

/// Remove the indexes of `symbols` versions older than `keep_from`.
pub async fn remove_older(
    store: &Store,
    source_id: &str,
    keep_from: u64,
) -> quarry_storage::Result<()> {
    let dir = format!("sources/{source_id}/search/");
    crate::derived::remove_older(store, &dir, "symbols-", keep_from).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(i: usize) -> FileInput {
        let (name, content) = (format!("f{i}"), format!("def f{i}():\n    pass\n"));
        let path = format!("m{i}.py");
        FileInput {
            identifier: format!("r::{path}"),
            language: "python".into(),
            lines: 2,
            bytes: content.len() as i64,
            symbols: vec![SymbolInput {
                identifier: format!("r::f.py::{name}"),
                kind: "function".into(),
                signature: format!("def {name}()"),
                qualified_name: name.clone(),
                name,
                start_line: 1,
                end_line: 2,
                ..Default::default()
            }],
            path,
            content,
            with_file_unit: true,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn records_round_trip_through_a_store() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        let mut b = Builder::new();
        let files: Vec<FileInput> = (0..100).map(file).collect();
        b.add_files(&files).unwrap();
        save(&store, "src", 3, b.finish().unwrap()).await.unwrap();
        assert!(is_current(&store, "src", 3).await);
        let ix = load(&store, "src", 3).await.unwrap();
        assert_eq!(ix.units(), 200);
        let recs = read_units(&store, "src", 3, &ix, &[199, 0, 131])
            .await
            .unwrap();
        assert_eq!(recs[0]["identifier"], "r::f.py::f99");
        assert_eq!(recs[0]["size"], 20);
        assert_eq!(recs[1]["identifier"], "r::m0.py");
        assert_eq!(recs[2]["identifier"], "r::f.py::f65");
        remove_older(&store, "src", 4).await.unwrap();
        assert!(!is_current(&store, "src", 3).await);
    }
}
