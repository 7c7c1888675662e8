//! S3: one client configuration for the catalog and for Lance's tables.
//!
//! Both are `object_store`'s `AmazonS3`, configured from the standard `AWS_*` environment
//! (`AmazonS3Builder::from_env`: `AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`, …,
//! instance, container and web-identity credentials; docs/operations.md). Lance reaches it
//! through [`LanceS3`], registered for `s3://` and `s3a://` in the process's Lance session
//! (`tables::lance_session`), instead of Lance's own AWS provider: that provider brings the
//! AWS SDK, OpenDAL and aws-lc's C library into the build (64 crates of a newcomer's first
//! build), and configured its client differently from the catalog's.
//!
//! TLS is rustls on *ring*, installed as the process's default provider before the first
//! client is built (`object_store`'s HTTP client, reqwest 0.13, is built without one).

use std::sync::Arc;

use lance::io::{ObjectStore as LanceStore, ObjectStoreParams};
use lance_io::object_store::{
    DEFAULT_CLOUD_IO_PARALLELISM, DEFAULT_DOWNLOAD_RETRY_COUNT, ObjectStoreProvider,
};
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use url::Url;

/// Lance reads tables from object stores in blocks of this size (its default for clouds).
const BLOCK_SIZE: usize = 64 * 1024;

/// The builder of every S3 client: the environment's configuration, for `bucket`.
pub(crate) fn builder(bucket: &str) -> AmazonS3Builder {
    static TLS: std::sync::Once = std::sync::Once::new();
    TLS.call_once(|| {
        // Fails only when a provider is installed already, which is as good.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    AmazonS3Builder::from_env()
        .with_bucket_name(bucket)
        // Lance completes multipart copies with If-None-Match instead of replacing an
        // existing object (what its own provider configured).
        .with_config(AmazonS3ConfigKey::CopyIfNotExists, "multipart")
}

/// Lance's object stores for `s3://bucket/…` URLs, built by [`builder`].
#[derive(Debug)]
pub(crate) struct LanceS3;

#[async_trait::async_trait]
impl ObjectStoreProvider for LanceS3 {
    async fn new_store(&self, base: Url, params: &ObjectStoreParams) -> lance::Result<LanceStore> {
        let bucket = base
            .host_str()
            .filter(|b| !b.is_empty())
            .ok_or_else(|| lance::Error::invalid_input(format!("no bucket in the URL {base}")))?;
        let builder = builder(bucket);
        // Cloudflare R2 accepts only multipart uploads of equal parts.
        let constant_parts = params.use_constant_size_upload_parts
            || builder
                .get_config_value(&AmazonS3ConfigKey::Endpoint)
                .is_some_and(|e| e.contains("r2.cloudflarestorage.com"));
        let s3 = builder.build()?;
        Ok(LanceStore::new(
            Arc::new(s3),
            base,
            Some(params.block_size.unwrap_or(BLOCK_SIZE)),
            params.object_store_wrapper.clone(),
            constant_parts,
            params.list_is_lexically_ordered.unwrap_or(true),
            DEFAULT_CLOUD_IO_PARALLELISM,
            DEFAULT_DOWNLOAD_RETRY_COUNT,
            params.storage_options(),
        ))
    }
}
