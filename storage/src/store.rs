//! The store: a URL (local directory or `s3://bucket/prefix`) and the object store behind it.
//!
//! Nothing here assumes a local filesystem: the catalog is read and written through
//! `object_store`, and Lance datasets are addressed by URL under the same root.

use std::sync::Arc;

use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};
use url::Url;

use crate::error::{Result, StorageError};

/// An opened store: where everything Quarry keeps lives.
#[derive(Clone)]
pub struct Store {
    url: Url,
    object_store: Arc<dyn ObjectStore>,
    root: Path,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("url", &self.url.as_str())
            .finish()
    }
}

/// The version of a stored object, as a conditional replacement compares it.
#[derive(Debug, Clone)]
pub struct ObjectVersion(object_store::UpdateVersion);

impl Store {
    /// Open a store from a URL or a local path (relative paths are resolved against the
    /// current directory; the directory is created when missing).
    pub fn open(location: &str) -> Result<Self> {
        let invalid = |reason: String| StorageError::InvalidStoreUrl {
            url: location.to_string(),
            reason,
        };
        if location.trim().is_empty() {
            return Err(invalid("empty location".into()));
        }
        let url = match Url::parse(location) {
            Ok(url) if url.scheme().len() > 1 => url,
            _ => {
                let path = std::path::absolute(location).map_err(|e| invalid(e.to_string()))?;
                std::fs::create_dir_all(&path).map_err(|e| invalid(e.to_string()))?;
                let path = path.canonicalize().map_err(|e| invalid(e.to_string()))?;
                Url::from_directory_path(&path)
                    .map_err(|_| invalid("not an absolute directory path".into()))?
            }
        };
        let (object_store, root): (Arc<dyn ObjectStore>, Path) = match url.scheme() {
            "file" => {
                let path = url
                    .to_file_path()
                    .map_err(|_| invalid("not a local path".into()))?;
                std::fs::create_dir_all(&path).map_err(|e| invalid(e.to_string()))?;
                let fs = object_store::local::LocalFileSystem::new_with_prefix(&path)
                    .map_err(|e| invalid(e.to_string()))?;
                (Arc::new(fs), Path::default())
            }
            "s3" | "s3a" => {
                let bucket = url
                    .host_str()
                    .ok_or_else(|| invalid("missing bucket".into()))?;
                let s3 = crate::s3::builder(bucket)
                    .build()
                    .map_err(|e| invalid(e.to_string()))?;
                (Arc::new(s3), Path::from(url.path().trim_matches('/')))
            }
            "memory" => (
                Arc::new(object_store::memory::InMemory::new()),
                Path::default(),
            ),
            other => {
                return Err(invalid(format!(
                    "unsupported scheme '{other}' (use a directory path, file:// or s3://)"
                )));
            }
        };
        let mut url = url;
        // `s3a://` (Hadoop's name) is the same store as `s3://`, and is named so from here on:
        // Lance picks its commit handler by scheme, and only `s3` gets conditional puts —
        // under `s3a` two concurrent writers could each commit the same table version.
        if url.scheme() == "s3a" {
            url.set_scheme("s3")
                .map_err(|_| invalid("cannot rename s3a:// to s3://".into()))?;
        }
        if !url.path().ends_with('/') {
            url.set_path(&format!("{}/", url.path()));
        }
        Ok(Store {
            url,
            object_store,
            root,
        })
    }

    /// The store's URL (always ends with `/`).
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The object store and the root prefix inside it.
    pub fn object_store(&self) -> &Arc<dyn ObjectStore> {
        &self.object_store
    }

    /// An object path under the store root.
    pub fn path(&self, rel: &str) -> Path {
        let mut parts: Vec<String> = self.root.parts().map(|p| p.as_ref().to_string()).collect();
        parts.extend(rel.split('/').filter(|s| !s.is_empty()).map(String::from));
        Path::from_iter(parts)
    }

    /// The URL of a Lance dataset under the store root.
    pub fn dataset_url(&self, rel: &str) -> String {
        format!("{}{}", self.url, rel.trim_start_matches('/'))
    }

    /// Read an object; `None` when it does not exist.
    pub async fn get(&self, rel: &str) -> Result<Option<Vec<u8>>> {
        let path = self.path(rel);
        match self.object_store.get(&path).await {
            // `Vec::from` takes the buffer over when the `Bytes` owns it alone (a local file is
            // read into one): no copy of objects of 100 MB and more (the derived indexes).
            Ok(r) => Ok(Some(Vec::from(
                r.bytes().await.map_err(|e| StorageError::os(&path, e))?,
            ))),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(StorageError::os(&path, e)),
        }
    }

    /// The size of an object in bytes; `None` when it does not exist.
    pub async fn size(&self, rel: &str) -> Result<Option<u64>> {
        let path = self.path(rel);
        match self.object_store.head(&path).await {
            Ok(meta) => Ok(Some(meta.size)),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(StorageError::os(&path, e)),
        }
    }

    /// Read byte ranges of an object, in the order asked (nearby ranges are fetched
    /// together). A local store reads the file with `std` directly: object_store's local
    /// reader zero-fills each buffer before reading into it, which in the README's debug
    /// build (dependencies at opt-level 0) was a seventh of a selective grep.
    pub async fn get_ranges(
        &self,
        rel: &str,
        ranges: &[std::ops::Range<u64>],
    ) -> Result<Vec<bytes::Bytes>> {
        let path = self.path(rel);
        if self.url.scheme() == "file"
            && let Ok(dir) = self.url.to_file_path()
        {
            let file = dir.join(rel.trim_start_matches('/'));
            let ranges = ranges.to_vec();
            let read = tokio::task::spawn_blocking(move || read_ranges(&file, &ranges))
                .await
                .map_err(|e| std::io::Error::other(e.to_string()));
            return read.and_then(|r| r).map_err(|e| {
                let source = object_store::Error::Generic {
                    store: "LocalFileSystem",
                    source: Box::new(e),
                };
                StorageError::os(&path, source)
            });
        }
        self.object_store
            .get_ranges(&path, ranges)
            .await
            .map_err(|e| StorageError::os(&path, e))
    }

    /// Write an object atomically (readers see the old or the new value, never a part).
    pub async fn put(&self, rel: &str, data: Vec<u8>) -> Result<()> {
        let path = self.path(rel);
        self.object_store
            .put(&path, data.into())
            .await
            .map_err(|e| StorageError::os(&path, e))?;
        Ok(())
    }

    /// Read an object and the version a conditional replacement ([`Store::put_if`]) compares
    /// against; `None` when it does not exist.
    pub async fn get_versioned(&self, rel: &str) -> Result<Option<(Vec<u8>, ObjectVersion)>> {
        let path = self.path(rel);
        match self.object_store.get(&path).await {
            Ok(r) => {
                let version = ObjectVersion(object_store::UpdateVersion {
                    e_tag: r.meta.e_tag.clone(),
                    version: r.meta.version.clone(),
                });
                let bytes = r.bytes().await.map_err(|e| StorageError::os(&path, e))?;
                Ok(Some((Vec::from(bytes), version)))
            }
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(StorageError::os(&path, e)),
        }
    }

    /// Replace the object at `rel` only if it is still at `version` (`None`: only if none
    /// exists): `false` when another writer changed it first. S3 and the in-memory store
    /// compare and swap atomically; a local directory has no conditional replacement, so
    /// there the object is replaced whatever it holds (writers of one source are serialised
    /// by its lease, `lease.rs`).
    pub async fn put_if(
        &self,
        rel: &str,
        data: Vec<u8>,
        version: Option<&ObjectVersion>,
    ) -> Result<bool> {
        let Some(version) = version else {
            return self.create(rel, data).await;
        };
        let path = self.path(rel);
        let opts = object_store::PutOptions {
            mode: object_store::PutMode::Update(version.0.clone()),
            ..Default::default()
        };
        match self
            .object_store
            .put_opts(&path, data.clone().into(), opts)
            .await
        {
            Ok(_) => Ok(true),
            Err(
                object_store::Error::Precondition { .. }
                | object_store::Error::AlreadyExists { .. },
            ) => Ok(false),
            Err(object_store::Error::NotImplemented { .. }) => {
                self.put(rel, data).await?;
                Ok(true)
            }
            Err(e) => Err(StorageError::os(&path, e)),
        }
    }

    /// Create an object only if none exists at `rel` (a conditional put: on a local directory
    /// and on S3 alike). `false` when one existed.
    pub async fn create(&self, rel: &str, data: Vec<u8>) -> Result<bool> {
        let path = self.path(rel);
        let opts = object_store::PutOptions {
            mode: object_store::PutMode::Create,
            ..Default::default()
        };
        match self.object_store.put_opts(&path, data.into(), opts).await {
            Ok(_) => Ok(true),
            Err(object_store::Error::AlreadyExists { .. }) => Ok(false),
            Err(e) => Err(StorageError::os(&path, e)),
        }
    }

    /// A scratch file for an object being built, so a large one (an index) need not be held in
    /// memory: under `.spool/` of a local store (the same disk as the result), else in the
    /// system's temporary directory (`TMPDIR`). Deleted when dropped.
    pub fn spool(&self) -> std::io::Result<std::fs::File> {
        let dir = match self.url.scheme() {
            "file" => self
                .url
                .to_file_path()
                .map(|d| d.join(".spool"))
                .map_err(|_| std::io::Error::other("not a local path"))?,
            _ => std::env::temp_dir(),
        };
        std::fs::create_dir_all(&dir)?;
        tempfile::tempfile_in(dir)
    }

    /// Write an object from a local file (a [`Self::spool`]ed one), streamed in parts; as
    /// atomic as [`Self::put`] (an interrupted upload leaves no object). A local store's
    /// scratch file is on the same disk as the object: it is linked into place instead
    /// (`link_into_place`), so its bytes are not copied (a first index's derived objects are
    /// about the size of its source); where that fails, it is copied as for any store.
    pub async fn put_file(&self, rel: &str, file: std::fs::File) -> Result<()> {
        use std::io::{Read, Seek};
        use tokio::io::AsyncReadExt;
        const PART: usize = 8 << 20;
        let path = self.path(rel);
        let os = |e: std::io::Error| {
            let source = object_store::Error::Generic {
                store: "spool",
                source: Box::new(e),
            };
            StorageError::os(&path, source)
        };
        if self.url.scheme() == "file"
            && let Ok(dir) = self.url.to_file_path()
        {
            let dest = dir.join(rel.trim_start_matches('/'));
            match link_into_place(&file, &dest) {
                Ok(()) => return Ok(()),
                Err(e) => tracing::debug!("copying {rel} instead of linking it: {e}"),
            }
        }
        let mut file = file;
        file.rewind().map_err(os)?;
        let len = file.metadata().map_err(os)?.len();
        if len <= PART as u64 {
            let mut data = Vec::with_capacity(len as usize);
            file.read_to_end(&mut data).map_err(os)?;
            return self.put(rel, data).await;
        }
        let upload = self
            .object_store
            .put_multipart(&path)
            .await
            .map_err(|e| StorageError::os(&path, e))?;
        let mut writer = object_store::WriteMultipart::new_with_chunk_size(upload, PART);
        let mut file = tokio::fs::File::from_std(file);
        let mut buf = vec![0u8; PART];
        loop {
            let n = match file.read(&mut buf).await {
                Ok(n) => n,
                Err(e) => {
                    writer.abort().await.ok();
                    return Err(os(e));
                }
            };
            if n == 0 {
                break;
            }
            if let Err(e) = writer.wait_for_capacity(2).await {
                return Err(StorageError::os(&path, e));
            }
            writer.write(&buf[..n]);
        }
        writer
            .finish()
            .await
            .map_err(|e| StorageError::os(&path, e))?;
        Ok(())
    }

    /// Delete an object (missing is fine).
    pub async fn delete(&self, rel: &str) -> Result<()> {
        let path = self.path(rel);
        match self.object_store.delete(&path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(StorageError::os(&path, e)),
        }
    }

    /// Names of the objects directly under a prefix.
    pub async fn list(&self, rel: &str) -> Result<Vec<String>> {
        use futures::TryStreamExt;
        let prefix = self.path(rel);
        let metas: Vec<_> = self
            .object_store
            .list(Some(&prefix))
            .try_collect()
            .await
            .map_err(|e| StorageError::os(&prefix, e))?;
        let mut names: Vec<String> = metas
            .into_iter()
            .filter_map(|m| m.location.filename().map(String::from))
            .collect();
        names.sort();
        Ok(names)
    }
}

/// Give a scratch file (an unnamed `O_TMPFILE` one, [`Store::spool`]) the name `dest`,
/// replacing what was there atomically: linked under a staging name beside it (`dest#<digits>`,
/// which `object_store` lists as an unfinished upload, not an object) through
/// `/proc/self/fd`, then renamed over `dest`. Fails where the file cannot be linked (a scratch
/// file that was named and unlinked, another filesystem, no `/proc`): the caller copies it.
#[cfg(target_os = "linux")]
fn link_into_place(file: &std::fs::File, dest: &std::path::Path) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let parent = dest
        .parent()
        .ok_or_else(|| std::io::Error::other("no parent directory"))?;
    std::fs::create_dir_all(parent)?;
    // A scratch file is made private (0600); an object gets what a file created here would
    // (0666 less the umask), as `object_store` writes them, so a server run by another user
    // reads it as it reads the tables.
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o666 & !umask()))?;
    }
    let mut staged = dest.as_os_str().to_owned();
    staged.push(format!("#{}", rand::random::<u64>()));
    let source = format!("/proc/self/fd/{}", file.as_raw_fd());
    let cwd = rustix::fs::CWD;
    rustix::fs::linkat(
        cwd,
        source.as_str(),
        cwd,
        std::path::Path::new(&staged),
        rustix::fs::AtFlags::SYMLINK_FOLLOW,
    )?;
    std::fs::rename(&staged, dest).inspect_err(|_| {
        let _ = std::fs::remove_file(&staged);
    })
}

/// This process's umask, from `/proc/self/status` (reading it with `umask(2)` means setting it
/// for a moment, under every other thread's file creations); 022 where it cannot be read.
#[cfg(target_os = "linux")]
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("Umask:"))?;
            u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
        })
        .unwrap_or(0o022)
}

#[cfg(not(target_os = "linux"))]
fn link_into_place(_: &std::fs::File, _: &std::path::Path) -> std::io::Result<()> {
    Err(std::io::Error::other("linking a scratch file needs Linux"))
}

/// Read byte ranges of a local file (a range past the end comes back short).
fn read_ranges(
    file: &std::path::Path,
    ranges: &[std::ops::Range<u64>],
) -> std::io::Result<Vec<bytes::Bytes>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(file)?;
    ranges
        .iter()
        .map(|r| {
            let len = r.end.saturating_sub(r.start);
            f.seek(SeekFrom::Start(r.start))?;
            let mut buf = Vec::with_capacity(len as usize);
            (&mut f).take(len).read_to_end(&mut buf)?;
            Ok(bytes::Bytes::from(buf))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A spooled object larger than one part is uploaded in parts and comes back exactly; a
    /// small one in one put; both on a local store and an in-memory one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn spooled_files_are_stored_exactly() {
        let dir = tempfile::tempdir().unwrap();
        for store in [
            Store::open(dir.path().to_str().unwrap()).unwrap(),
            Store::open("memory://").unwrap(),
        ] {
            for len in [0usize, 1000, (8 << 20) * 2 + 12345] {
                let data: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
                let mut f = store.spool().unwrap();
                f.write_all(&data).unwrap();
                let rel = format!("x/obj-{len}");
                store.put_file(&rel, f).await.unwrap();
                assert!(store.get(&rel).await.unwrap() == Some(data), "{len} bytes");
            }
        }
        // Scratch files of a local store live (briefly) under it, and are gone once dropped.
        let spool = dir.path().join(".spool");
        assert!(spool.is_dir());
        assert_eq!(std::fs::read_dir(&spool).unwrap().count(), 0);
    }

    /// On a local store a scratch file is linked into place, not copied: an object written
    /// again is replaced whole, no staging name is left beside it, and the listing shows the
    /// objects.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn spooled_files_replace_objects_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().to_str().unwrap()).unwrap();
        for data in [vec![7u8; 100_000], b"short".to_vec(), Vec::new()] {
            let mut f = store.spool().unwrap();
            f.write_all(&data).unwrap();
            #[cfg(target_os = "linux")]
            let inode = std::os::unix::fs::MetadataExt::ino(&f.metadata().unwrap());
            store.put_file("d/e/obj", f).await.unwrap();
            assert!(store.get("d/e/obj").await.unwrap() == Some(data.clone()));
            // The object is the scratch file itself, not a copy, with a created file's mode.
            #[cfg(target_os = "linux")]
            {
                use std::os::unix::fs::MetadataExt;
                let meta = std::fs::metadata(dir.path().join("d/e/obj")).unwrap();
                assert_eq!(meta.ino(), inode);
                assert_eq!(meta.mode() & 0o777, 0o666 & !umask());
            }
            let names: Vec<String> = std::fs::read_dir(dir.path().join("d/e"))
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            assert_eq!(names, ["obj"]);
            assert_eq!(store.list("d/e").await.unwrap(), ["obj"]);
        }
    }

    /// `s3a://` opens the same store as `s3://` and is named `s3://`, so Lance commits to it
    /// with conditional puts (its commit handler goes by the URL's scheme).
    #[test]
    fn s3a_is_named_s3() {
        let store = Store::open("s3a://bucket/some/prefix").unwrap();
        assert_eq!(store.url().as_str(), "s3://bucket/some/prefix/");
        assert_eq!(
            store.dataset_url("t.lance"),
            "s3://bucket/some/prefix/t.lance"
        );
    }
}
