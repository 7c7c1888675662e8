//! Publishing: the catalog record compared and swapped (files first on a first index,
//! then the whole snapshot), and what no retained snapshot reads removed.

use super::*;

impl Run<'_> {
    /// A first index publishes its files at once (`PartiallyReady`: readable and grep-able).
    pub(super) async fn publish_files(&mut self, files: &FilesWritten) -> Result<()> {
        let (catalog, keeper) = (self.catalog, self.keeper);
        let (source, published, stats) = (&mut self.source, &mut self.published, &self.stats);
        let (files_version, commit) = (files.version, &files.commit);
        source.readiness = Readiness::PartiallyReady;
        source.snapshot = Some(Snapshot {
            files: files_version,
            symbols: None,
            edges: None,
            commit: commit.clone(),
            indexed_at: quarry_storage::catalog::now_rfc3339(),
            stats: stats.clone(),
            analyzer: ANALYZER_VERSION,
        });
        source.updated_at = quarry_storage::catalog::now_rfc3339();
        crate::publish::publish(catalog, source, published, keeper).await?;
        Ok(())
    }

    /// Publish the whole snapshot (`Ready`).
    pub(super) async fn publish_ready(
        &mut self,
        files: &FilesWritten,
        rows: &RowsWritten,
    ) -> Result<()> {
        let (catalog, keeper) = (self.catalog, self.keeper);
        let (source, published, stats) = (&mut self.source, &mut self.published, &self.stats);
        let (files_version, commit) = (files.version, files.commit.clone());
        let (symbols_version, edges_version) = (rows.symbols, rows.edges);
        source.readiness = Readiness::Ready;
        source.snapshot = Some(Snapshot {
            files: files_version,
            symbols: Some(symbols_version),
            edges: Some(edges_version),
            commit,
            indexed_at: quarry_storage::catalog::now_rfc3339(),
            stats: stats.clone(),
            analyzer: ANALYZER_VERSION,
        });
        source.updated_at = quarry_storage::catalog::now_rfc3339();
        crate::publish::publish(catalog, source, published, keeper).await?;
        Ok(())
    }

    /// Remove what no retained snapshot reads: derived objects and table versions. Returns
    /// the bytes reclaimed.
    pub(super) async fn remove_older(&self, files: &FilesWritten, rows: &RowsWritten) -> u64 {
        let (store, progress) = (self.store, self.progress.clone());
        let source = &self.source;
        let files_version = files.version;
        let (symbols_version, edges_version) = (rows.symbols, rows.edges);
        // Versions before the oldest retained snapshot's are no longer read by anyone.
        let (keep_files, keep_symbols, keep_edges) = crate::publish::keep_from(&source);
        if let Some(keep_from) = keep_files
            && let Err(e) = trigram::remove_older(store, &source.id, keep_from).await
        {
            progress.warn(&format!("old trigram indexes were not removed: {e}"));
        }
        if let Some(keep_from) = keep_symbols
            && let Err(e) = search::remove_older(store, &source.id, keep_from).await
        {
            progress.warn(&format!("old search indexes were not removed: {e}"));
        }
        if let Some(keep_from) = keep_symbols
            && let Err(e) = digest::remove_older(store, &source.id, keep_from).await
        {
            progress.warn(&format!("old row digests were not removed: {e}"));
        }
        if let Some(keep_from) = keep_files
            && let Err(e) = blobs::remove_older(store, &source.id, keep_from).await
        {
            progress.warn(&format!("old blob ids were not removed: {e}"));
        }
        // Likewise the tables' older versions (a large change writes whole new versions of
        // `symbols` and `edges`; a small one deletes and appends, leaving versions in between):
        // the retained snapshots' stay, for requests and servers still answering from them.
        let mut reclaimed_bytes = 0;
        for (table, current, keep_from) in [
            ("files", files_version, keep_files),
            ("symbols", symbols_version, keep_symbols),
            ("edges", edges_version, keep_edges),
        ] {
            let Some(keep_from) = keep_from else { continue };
            match tables::remove_versions_before(store, &source.id, table, current, keep_from).await
            {
                Ok(bytes) => reclaimed_bytes += bytes,
                Err(e) => progress.warn(&format!("old versions of {table} were not removed: {e}")),
            }
        }
        reclaimed_bytes
    }
}
