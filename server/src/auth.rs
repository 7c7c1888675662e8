//! API keys: creation (the secret is shown once, only its hash is stored) and authentication.

use quarry_storage::{ApiKey, Catalog};
use rand::Rng;

use crate::sources::Principal;

/// Prefix of every Quarry key, so leaked keys are recognisable by secret scanners.
pub const KEY_PREFIX: &str = "qry_";

/// Generate a new secret (`qry_` + 40 random alphanumerics).
pub fn new_secret() -> String {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    let body: String = (0..40)
        .map(|_| CHARS[rng.random_range(0..CHARS.len())] as char)
        .collect();
    format!("{KEY_PREFIX}{body}")
}

/// Create and store a key; returns the record and the secret (shown once).
pub async fn create_key(
    catalog: &Catalog,
    org: &str,
    sources: Option<Vec<String>>,
    public_chat: bool,
) -> quarry_storage::Result<(ApiKey, String)> {
    let secret = new_secret();
    let key = ApiKey {
        id: quarry_storage::catalog::new_id("key"),
        org: org.to_string(),
        hash: quarry_storage::catalog::hash_key(&secret),
        sources,
        public_chat,
        created_at: quarry_storage::catalog::now_rfc3339(),
        revoked: false,
    };
    catalog.put_key(&key).await?;
    Ok((key, secret))
}

/// The principal behind an `Authorization` header value, if it carries a valid key.
pub async fn authenticate(
    catalog: &Catalog,
    header: Option<&str>,
) -> quarry_storage::Result<Option<Principal>> {
    let Some(token) = header.and_then(|h| {
        let (scheme, token) = h.trim().split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
    }) else {
        return Ok(None);
    };
    if token.is_empty() || token.len() > 512 {
        return Ok(None);
    }
    Ok(catalog.authenticate(token).await?.map(|k| Principal {
        org: k.org,
        scope: k.sources,
        public_chat: k.public_chat,
        key_id: Some(k.id),
    }))
}
