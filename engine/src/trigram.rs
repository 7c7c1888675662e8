//! The trigram index in the store: where [`quarry_analysis::trigram`]'s objects are written,
//! read and removed, and the per-process cache of loaded indexes. The format, the builder and
//! the candidate search are there, compiled optimised; this is I/O.

use std::sync::Arc;

use quarry_storage::Store;

pub use quarry_analysis::trigram::*;

/// Parse the start of the serialised index at `path` with `parse`, reading a growing prefix
/// (1 MiB, then four times more each time) until `parse` succeeds or the whole object has
/// been read. Returns what `parse` made and the object's size.
async fn read_head<T>(
    path: &str,
    store: &Store,
    parse: impl Fn(&[u8]) -> Result<T, CorruptIndex>,
) -> Result<(T, u64), String> {
    let size = store
        .size(path)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{path} is missing"))?;
    let mut want = size.min(1 << 20);
    loop {
        let bytes = store
            .get_ranges(path, std::slice::from_ref(&(0..want)))
            .await
            .map_err(|e| e.to_string())?
            .pop()
            .unwrap_or_default();
        match parse(&bytes) {
            Ok(head) => return Ok((head, size)),
            // A prefix too short: read more (the whole object at most).
            Err(_) if want < size => want = size.min(want.saturating_mul(4)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// The head of the index of `files` at `version`, never its posting lists: the documents and
/// the gram count from the object's start (a growing prefix at a time), then the gram
/// directory in one read of exactly its bytes. Checked as [`TrigramIndex::load`] checks.
pub async fn load_head(store: &Store, source_id: &str, version: u64) -> Result<Head, String> {
    let path = grams_path(source_id, version);
    let ((contents, grams, dir_at), size) = read_head(&path, store, Head::read_documents).await?;
    let postings_at = Head::postings_start(grams, dir_at, size)
        .ok_or_else(|| format!("trigram index: {grams} grams do not fit in {path}"))?;
    let dir = store
        .get_ranges(&path, std::slice::from_ref(&(dir_at..postings_at)))
        .await
        .map_err(|e| e.to_string())?
        .pop()
        .unwrap_or_default();
    Head::new(
        (contents, grams),
        Vec::from(dir),
        (dir_at, postings_at, size),
        &path,
    )
}

/// The documents of the index of `files` at `version`, without reading its postings (an
/// index builder that only reads contents need not fetch the whole index): the object is read
/// from its start, a growing prefix at a time, until the document list is whole.
pub async fn load_contents(
    store: &Store,
    source_id: &str,
    version: u64,
) -> Result<Contents, String> {
    let path = grams_path(source_id, version);
    Ok(read_head(&path, store, Contents::read_prefix).await?.0)
}

/// Store a built index: the contents first, so an index that exists always has them (tests;
/// `quarry index` stores spooled files with [`save_files`]).
#[cfg(test)]
pub async fn save(
    store: &Store,
    source_id: &str,
    version: u64,
    (grams, texts): (Vec<u8>, Vec<u8>),
) -> quarry_storage::Result<()> {
    store.put(&texts_path(source_id, version), texts).await?;
    store.put(&grams_path(source_id, version), grams).await
}

/// Store an index built to spooled files ([`Builder::finish_to`]): contents first, as
/// [`save`] does.
pub async fn save_files(
    store: &Store,
    source_id: &str,
    version: u64,
    grams: std::fs::File,
    texts: std::fs::File,
) -> quarry_storage::Result<()> {
    store
        .put_file(&texts_path(source_id, version), texts)
        .await?;
    store.put_file(&grams_path(source_id, version), grams).await
}

/// The contents of `docs` (ids of `ix`, the index of `files` at `version`), in that order.
pub async fn read_texts(
    store: &Store,
    source_id: &str,
    version: u64,
    ix: &Contents,
    docs: &[u32],
) -> Result<Vec<String>, String> {
    let frames = read_frames(store, source_id, version, ix, docs).await?;
    // Decompress on every core (the caller is on a multi-thread runtime, like all of ours).
    tokio::task::block_in_place(|| decompress(ix, docs, frames))
}

/// The compressed frames of `docs`' contents, in that order ([`decompress_one`] each).
pub async fn read_frames(
    store: &Store,
    source_id: &str,
    version: u64,
    ix: &Contents,
    docs: &[u32],
) -> Result<Vec<bytes::Bytes>, String> {
    let ranges = docs
        .iter()
        .map(|&d| ix.frame_range(d).ok_or_else(|| format!("no document {d}")))
        .collect::<Result<Vec<_>, String>>()?;
    store
        .get_ranges(&texts_path(source_id, version), &ranges)
        .await
        .map_err(|e| e.to_string())
}

static LOADED: crate::derived::Cache<TrigramIndex> = crate::derived::Cache::new();

/// The index of a repository's `files` at `version`, loaded once per process; `None` when
/// there is none (a store written before trigram indexes, or a failed build) or it is
/// unreadable — grep then reads every file the filters admit, which is slower, never wrong.
/// (Each is roughly a third of its repository's source size; at most 64 stay loaded.)
pub async fn load(store: &Store, source_id: &str, version: u64) -> Option<Arc<TrigramIndex>> {
    let path = grams_path(source_id, version);
    let what = ("trigram index", "grep reads every file");
    LOADED
        .load(store, (source_id, version), &path, what, TrigramIndex::load)
        .await
}

/// Whether the index of `files` at `version` exists in this format (its magic bytes: an
/// index written by an older Quarry is rebuilt by the next index run). Reads 8 bytes.
pub async fn is_current(store: &Store, source_id: &str, version: u64) -> bool {
    crate::derived::is_current(store, &grams_path(source_id, version), MAGIC).await
}

/// Remove the indexes of `files` versions older than `keep_from` (the previous snapshot's
/// version stays, for servers still answering from it).
pub async fn remove_older(
    store: &Store,
    source_id: &str,
    keep_from: u64,
) -> quarry_storage::Result<()> {
    let dir = format!("sources/{source_id}/trigrams/");
    crate::derived::remove_older(store, &dir, "files-", keep_from).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Index (path, content) pairs in one batch and store the index as `version`.
    async fn build_and_save(
        store: &Store,
        source_id: &str,
        version: u64,
        files: &[(String, String)],
    ) {
        let batch: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_bytes()))
            .collect();
        let mut b = Builder::new();
        b.add_batch(&batch).unwrap();
        save(store, source_id, version, b.finish()).await.unwrap();
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_document_list_longer_than_the_first_read_loads_whole() {
        // ~1.6 MB of paths: more than the first prefix Contents::load reads.
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        let files: Vec<(String, String)> = (0..12_000)
            .map(|i| {
                (
                    format!("{}/f{i}.rs", "deep/".repeat(25)),
                    format!("fn f{i}() {{}}\n"),
                )
            })
            .collect();
        build_and_save(&store, "repo_y", 1, &files).await;
        let contents = load_contents(&store, "repo_y", 1).await.unwrap();
        let paths: Vec<&str> = contents.paths().iter().map(String::as_str).collect();
        let want: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, want);
        let texts = read_texts(&store, "repo_y", 1, &contents, &[11_999, 3])
            .await
            .unwrap();
        assert_eq!(texts, vec![files[11_999].1.clone(), files[3].1.clone()]);
        // A missing index is an error, not a panic.
        assert!(load_contents(&store, "repo_y", 2).await.is_err());
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn an_update_reads_the_published_lists_a_slice_at_a_time() {
        // Files of pseudo-random printable bytes: ~200 000 distinct trigrams, a gram
        // directory over the first read's 1 MiB and many slices of posting lists.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut text = |n: usize| -> String {
            (0..n)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    char::from(b'!' + (state % 94) as u8)
                })
                .collect()
        };
        let files: Vec<(String, String)> = (0..30)
            .map(|i| (format!("f{i:02}.txt"), text(8_000)))
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        build_and_save(&store, "repo_s", 1, &files).await;
        let head = load_head(&store, "repo_s", 1).await.unwrap();
        assert!(
            head.grams() > 4 << 14,
            "{} grams: too few for several slices",
            head.grams()
        );
        let added = ("new.txt".to_string(), text(3_000));
        let keep = |p: &str| p != "f07.txt";
        let reads = std::cell::Cell::new(0);
        let grams_size = store.size(&grams_path("repo_s", 1)).await.unwrap().unwrap();
        let texts_size = store.size(&texts_path("repo_s", 1)).await.unwrap().unwrap();
        let updated = tokio::task::block_in_place(|| {
            let reader = |path: String| {
                let store = &store;
                move |r: std::ops::Range<u64>| {
                    let got = tokio::runtime::Handle::current()
                        .block_on(store.get_ranges(&path, std::slice::from_ref(&r)));
                    Ok(got.unwrap().pop().unwrap().to_vec())
                }
            };
            let lists = reader(grams_path("repo_s", 1));
            let postings = |r: std::ops::Range<u64>| {
                assert!(
                    r.start >= head.postings_at() && r.end <= grams_size,
                    "{r:?}"
                );
                reads.set(reads.get() + 1);
                lists(r)
            };
            let mut texts = Vec::new();
            let spill = Some(tempfile::tempfile().unwrap());
            let contents = (texts_size, reader(texts_path("repo_s", 1)));
            let mut b =
                Builder::from_index_reading(&head, postings, contents, keep, &mut texts, spill)
                    .unwrap();
            b.add_batch(&[(added.0.as_str(), added.1.as_bytes())])
                .unwrap();
            let mut grams = Vec::new();
            b.finish_to(&mut grams, &mut texts).unwrap();
            (grams, texts)
        });
        assert!(
            reads.get() > 4,
            "posting lists read in {} pieces",
            reads.get()
        );
        let mut fresh = Builder::new();
        let mut batch: Vec<(&str, &[u8])> = files
            .iter()
            .filter(|(p, _)| keep(p))
            .map(|(p, c)| (p.as_str(), c.as_bytes()))
            .collect();
        batch.push((added.0.as_str(), added.1.as_bytes()));
        fresh.add_batch(&batch).unwrap();
        assert!(
            updated == fresh.finish(),
            "the updated index differs from a fresh build"
        );
        // A truncated index is an error, not a panic.
        let bytes = store.get(&grams_path("repo_s", 1)).await.unwrap().unwrap();
        store
            .put(&grams_path("repo_s", 2), bytes[..bytes.len() / 2].to_vec())
            .await
            .unwrap();
        assert!(load_head(&store, "repo_s", 2).await.is_err());
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn contents_come_back_exactly_from_the_store() {
        let store = Store::open("memory://").unwrap();
        let files: Vec<(String, String)> = (0..50)
            .map(|i| {
                (
                    format!("d/f{i}.rs"),
                    format!("fn f{i}() {{}}\n// é{}\n", "x".repeat(i * 37)),
                )
            })
            .collect();
        build_and_save(&store, "repo_x", 3, &files).await;
        assert!(is_current(&store, "repo_x", 3).await);
        assert!(!is_current(&store, "repo_x", 2).await);
        let ix = load(&store, "repo_x", 3).await.unwrap();
        let contents = load_contents(&store, "repo_x", 3).await.unwrap();
        assert_eq!(contents.paths(), ix.paths());
        let docs = ix.candidates(&["f17()".into()]).unwrap();
        assert_eq!(docs, vec![17]);
        let texts = read_texts(&store, "repo_x", 3, ix.contents(), &[40, 17, 0])
            .await
            .unwrap();
        assert_eq!(
            texts,
            vec![files[40].1.clone(), files[17].1.clone(), files[0].1.clone()]
        );
        remove_older(&store, "repo_x", 4).await.unwrap();
        assert!(!is_current(&store, "repo_x", 3).await);
        assert!(
            store
                .list("sources/repo_x/trigrams/")
                .await
                .unwrap()
                .is_empty()
        );
    }
}
