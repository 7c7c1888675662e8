//! API keys (creation — the secret is shown once, only its hash is stored — and rotation) and
//! authentication of API keys and JWTs.

use anyhow::Context;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use quarry_storage::{ApiKey, Catalog, Plan, PlanName};
use rand::Rng;
use serde::Deserialize;

use crate::http::AppState;
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
    plan: Option<Plan>,
    admin: bool,
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
        plan,
        expires_at: None,
        admin,
    };
    catalog.put_key(&key).await?;
    Ok((key, secret))
}

/// Rotate a key: a new key with the same organisation, scope, plan and role; the old one keeps
/// working for `grace_secs` more seconds, then stops. Returns the new record and its secret.
pub async fn rotate_key(
    catalog: &Catalog,
    old: &ApiKey,
    grace_secs: u64,
) -> quarry_storage::Result<(ApiKey, String)> {
    let (new, secret) = create_key(
        catalog,
        &old.org,
        old.sources.clone(),
        old.public_chat,
        old.plan,
        old.admin,
    )
    .await?;
    let mut retired = old.clone();
    let until = quarry_storage::catalog::now_secs() + grace_secs;
    retired.expires_at = Some(retired.expires_at.map_or(until, |t| t.min(until)));
    catalog.put_key(&retired).await?;
    Ok((new, secret))
}

/// The principal behind an `Authorization` header value: an API key, or a JWT when the
/// server is configured for them (`ApiKeyOrJwt`). `None` = unauthenticated (401).
pub async fn authenticate(
    state: &AppState,
    header: Option<&str>,
) -> quarry_storage::Result<Option<Principal>> {
    let Some(token) = header.and_then(|h| {
        let (scheme, token) = h.trim().split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
    }) else {
        return Ok(None);
    };
    if token.is_empty() || token.len() > 8192 {
        return Ok(None);
    }
    let catalog = &state.catalog;
    if !token.starts_with(KEY_PREFIX) && token.matches('.').count() == 2 {
        let Some(jwt) = &state.jwt else {
            return Ok(None);
        };
        let Some(claims) = jwt.verify(token) else {
            return Ok(None);
        };
        let (plan, subject) = match claims.plan.as_deref().and_then(PlanName::parse) {
            Some(name) if name != PlanName::Enterprise => (
                Plan::new(name, None, None).ok(),
                format!("jwt:{}:{}", claims.org, claims.sub.as_deref().unwrap_or("")),
            ),
            _ => (
                org_plan(catalog, &claims.org).await?,
                format!("org:{}", claims.org),
            ),
        };
        return Ok(Some(Principal {
            scope: claims.sources,
            public_chat: false,
            key_id: None,
            plan,
            subject,
            admin: claims.role.as_deref() == Some("admin"),
            org: claims.org,
        }));
    }
    if token.len() > 512 {
        return Ok(None);
    }
    let Some(k) = catalog.authenticate(token).await? else {
        return Ok(None);
    };
    let (plan, subject) = match k.plan {
        Some(p) => (Some(p), format!("key:{}", k.id)),
        None => (org_plan(catalog, &k.org).await?, format!("org:{}", k.org)),
    };
    Ok(Some(Principal {
        org: k.org,
        scope: k.sources,
        public_chat: k.public_chat,
        key_id: Some(k.id),
        plan,
        subject,
        admin: k.admin,
    }))
}

async fn org_plan(catalog: &Catalog, org: &str) -> quarry_storage::Result<Option<Plan>> {
    Ok(catalog.org(org).await?.and_then(|o| o.plan))
}

/// The claims Quarry reads from a JWT.
#[derive(Debug, Deserialize)]
pub struct Claims {
    /// The organisation (required).
    pub org: String,
    pub sub: Option<String>,
    /// Data sources (names or ids) the token may see; absent = the whole organisation.
    pub sources: Option<Vec<String>>,
    /// `free`, `pro` or `team`: limits for this token; absent = the organisation's plan.
    pub plan: Option<String>,
    /// `admin` for administrative tokens.
    pub role: Option<String>,
}

/// How JWTs are verified: HS256 with a shared secret and/or RS256 with public keys (a PEM
/// file or a JWKS file). `exp` is required; `iss`/`aud` are checked when configured.
pub struct JwtConfig {
    hs256: Option<DecodingKey>,
    rs256: Vec<(Option<String>, DecodingKey)>,
    issuer: Option<String>,
    audience: Option<String>,
}

impl JwtConfig {
    /// `None` when neither a secret nor a public key is configured (JWTs are then refused).
    pub fn new(
        secret: Option<&str>,
        public_key_file: Option<&std::path::Path>,
        issuer: Option<String>,
        audience: Option<String>,
    ) -> anyhow::Result<Option<JwtConfig>> {
        let hs256 = secret
            .filter(|s| !s.is_empty())
            .map(|s| DecodingKey::from_secret(s.as_bytes()));
        let mut rs256 = Vec::new();
        if let Some(path) = public_key_file {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the JWT public key {}", path.display()))?;
            if text.trim_start().starts_with('{') {
                let set: JwkSet = serde_json::from_str(&text)
                    .with_context(|| format!("{} is not a JWKS document", path.display()))?;
                for jwk in &set.keys {
                    rs256.push((
                        jwk.common.key_id.clone(),
                        DecodingKey::from_jwk(jwk).context("unusable key in the JWKS")?,
                    ));
                }
            } else {
                rs256.push((
                    None,
                    DecodingKey::from_rsa_pem(text.as_bytes()).with_context(|| {
                        format!("{} is not an RSA public key (PEM)", path.display())
                    })?,
                ));
            }
            anyhow::ensure!(!rs256.is_empty(), "no keys in {}", path.display());
        }
        if hs256.is_none() && rs256.is_empty() {
            return Ok(None);
        }
        Ok(Some(JwtConfig {
            hs256,
            rs256,
            issuer,
            audience,
        }))
    }

    /// The claims of a valid, unexpired token.
    pub fn verify(&self, token: &str) -> Option<Claims> {
        let header = jsonwebtoken::decode_header(token).ok()?;
        let key = match header.alg {
            Algorithm::HS256 => self.hs256.as_ref()?,
            Algorithm::RS256 => match &header.kid {
                Some(kid) => self
                    .rs256
                    .iter()
                    .find(|(k, _)| k.as_deref() == Some(kid))
                    .or_else(|| self.rs256.iter().find(|(k, _)| k.is_none()))
                    .map(|(_, key)| key)?,
                None => self.rs256.first().map(|(_, key)| key)?,
            },
            _ => return None,
        };
        let mut validation = Validation::new(header.alg);
        validation.set_required_spec_claims(&["exp"]);
        // A token whose `nbf` is still ahead (beyond the leeway) is not valid yet.
        validation.validate_nbf = true;
        validation.leeway = 30;
        if let Some(iss) = &self.issuer {
            validation.set_issuer(&[iss]);
        }
        match &self.audience {
            Some(aud) => validation.set_audience(&[aud]),
            None => validation.validate_aud = false,
        }
        let data = jsonwebtoken::decode::<Claims>(token, key, &validation).ok()?;
        quarry_storage::catalog::valid_id(&data.claims.org).then_some(data.claims)
    }
}
