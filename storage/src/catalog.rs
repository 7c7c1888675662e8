//! The catalog: organisations' data sources (repositories and workspaces), their readiness and
//! the table versions of their current snapshot, and API keys (stored only as hashes).
//!
//! Each record is one JSON object in the store (`catalog/sources/<id>.json`,
//! `catalog/keys/<id>.json`). A single-object put is atomic on every object store, so a record
//! is always either the old or the new one. A source's `snapshot` pins the Lance version of each
//! of its tables: an index run writes new table versions first and publishes them by rewriting
//! this one record, so a crash before that leaves the previous snapshot in force.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Result, StorageError};
use crate::store::Store;

/// The organisation used when none is named.
pub const DEFAULT_ORG: &str = "default";

/// Repository or workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceType {
    Repository,
    Workspace,
}

/// Indexing progress of a data source (docs/tools.md, "get_data_sources").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Readiness {
    /// Registered; nothing queryable yet.
    NotReady,
    /// Files are stored (readable, grep-able); analysis is not published yet.
    PartiallyReady,
    /// Files, symbols, edges and search indexes are published.
    Ready,
}

impl Readiness {
    pub fn as_str(self) -> &'static str {
        match self {
            Readiness::NotReady => "NotReady",
            Readiness::PartiallyReady => "PartiallyReady",
            Readiness::Ready => "Ready",
        }
    }
}

/// The published table versions of a repository (one consistent snapshot).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Lance version of `files`.
    pub files: u64,
    /// Lance version of `symbols`, once analysis is published.
    pub symbols: Option<u64>,
    /// Lance version of `edges`, once analysis is published.
    pub edges: Option<u64>,
    /// Commit the snapshot was taken from (git sources).
    pub commit: Option<String>,
    /// RFC 3339 time of publication.
    pub indexed_at: String,
    /// Counts recorded at publication.
    pub stats: IndexStats,
    /// Version of the analyser that produced `symbols`/`edges`; analyses of another version
    /// are not reused by incremental re-indexing.
    #[serde(default)]
    pub analyzer: u32,
}

/// Counts of one index run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexStats {
    pub files: u64,
    pub bytes: u64,
    pub symbols: u64,
    pub edges: u64,
    pub reparsed: u64,
    pub reused: u64,
    /// Of `reparsed`, files stored without symbols or edges because their parse was given up
    /// (tree-sitter's memory for it passed its budget: engine `analyze::PARSE_MEMORY_BUDGET`).
    #[serde(default)]
    pub unanalysed: u64,
    pub skipped: std::collections::BTreeMap<String, u64>,
    pub languages: std::collections::BTreeMap<String, u64>,
}

/// A data source record (as docs/tools.md, "get_data_sources" shows it, plus internal fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DataSource {
    pub id: String,
    pub org: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: SourceType,
    pub full_name: Option<String>,
    pub url: Option<String>,
    pub branch: Option<String>,
    pub repository_ids: Option<Vec<String>>,
    pub description: Option<String>,
    pub readiness: Readiness,
    pub snapshot: Option<Snapshot>,
    /// Table versions of snapshots replaced less than the retention window ago, which
    /// requests that began before the replacement may still read: clean-up keeps them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retained: Vec<Retained>,
    pub created_at: String,
    pub updated_at: String,
}

/// A replaced snapshot's table versions, kept until `until` (seconds since the epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retained {
    pub files: u64,
    pub symbols: Option<u64>,
    pub edges: Option<u64>,
    pub until: u64,
}

impl DataSource {
    /// The `owner/repo` prefix of this repository's artifact identifiers.
    pub fn identifier_prefix(&self) -> &str {
        self.full_name.as_deref().unwrap_or(&self.name)
    }
}

/// A chat conversation: the turns so far, kept per organisation so later requests with the
/// same `conversation_id` continue it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: String,
    pub org: String,
    pub turns: Vec<Turn>,
    pub created_at: String,
    pub updated_at: String,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub role: String,
    pub content: String,
}

/// An API key record; the key itself is never stored, only its SHA-256.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiKey {
    pub id: String,
    pub org: String,
    pub hash: String,
    /// Names or ids of the data sources the key may see; `None` = the whole organisation.
    pub sources: Option<Vec<String>>,
    pub public_chat: bool,
    pub created_at: String,
    pub revoked: bool,
    /// The key's own plan; `None` = the organisation's.
    #[serde(default)]
    pub plan: Option<Plan>,
    /// Unix seconds after which the key stops working (set when it is rotated).
    #[serde(default)]
    pub expires_at: Option<u64>,
    /// An administrative key: may call `/api/admin/*` for its organisation.
    #[serde(default)]
    pub admin: bool,
}

impl ApiKey {
    /// Whether the key authenticates at `now` (unix seconds).
    pub fn active_at(&self, now: u64) -> bool {
        !self.revoked && self.expires_at.is_none_or(|t| now < t)
    }
}

/// The plans (docs/operations.md, "Plans and rate limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanName {
    Free,
    Pro,
    Team,
    Enterprise,
}

impl PlanName {
    pub fn parse(s: &str) -> Option<PlanName> {
        match s.to_ascii_lowercase().as_str() {
            "free" => Some(PlanName::Free),
            "pro" => Some(PlanName::Pro),
            "team" => Some(PlanName::Team),
            "enterprise" => Some(PlanName::Enterprise),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            PlanName::Free => "free",
            PlanName::Pro => "pro",
            PlanName::Team => "team",
            PlanName::Enterprise => "enterprise",
        }
    }
}

/// A plan with its limits (docs/operations.md, "Plans and rate limits": requests per hour and concurrent requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub name: PlanName,
    pub requests_per_hour: u64,
    pub concurrent: u32,
}

impl Plan {
    /// A plan by its name as users type it (`free`, `pro`, `team`, `enterprise`), with the
    /// custom numbers `enterprise` needs.
    pub fn named(
        name: &str,
        requests_per_hour: Option<u64>,
        concurrent: Option<u32>,
    ) -> std::result::Result<Plan, String> {
        let name = PlanName::parse(name).ok_or_else(|| {
            format!("unknown plan '{name}'; plans are free, pro, team, enterprise")
        })?;
        Plan::new(name, requests_per_hour, concurrent)
    }

    /// A plan by name; `enterprise` takes custom numbers (both required).
    pub fn new(
        name: PlanName,
        requests_per_hour: Option<u64>,
        concurrent: Option<u32>,
    ) -> std::result::Result<Plan, String> {
        let standard = |r: u64, c: u32| {
            if requests_per_hour.is_some() || concurrent.is_some() {
                Err(format!(
                    "plan '{}' has fixed limits ({r} requests per hour, {c} concurrent); custom numbers are for 'enterprise'",
                    name.as_str()
                ))
            } else {
                Ok(Plan {
                    name,
                    requests_per_hour: r,
                    concurrent: c,
                })
            }
        };
        match name {
            PlanName::Free => standard(100, 5),
            PlanName::Pro => standard(1_000, 20),
            PlanName::Team => standard(5_000, 50),
            PlanName::Enterprise => match (requests_per_hour, concurrent) {
                (Some(r), Some(c)) if r > 0 && c > 0 => Ok(Plan {
                    name,
                    requests_per_hour: r,
                    concurrent: c,
                }),
                _ => Err("plan 'enterprise' needs custom limits: --requests-per-hour N and --concurrent N (both above 0)".into()),
            },
        }
    }
}

/// An organisation's settings. Organisations exist implicitly (by name) until one is stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Org {
    pub name: String,
    /// `None` = unlimited (the self-hosted default).
    pub plan: Option<Plan>,
    pub updated_at: String,
}

/// Generate a new opaque id with a prefix, e.g. `repo_3f2a…`.
pub fn new_id(prefix: &str) -> String {
    let u = uuid::Uuid::new_v4().simple().to_string();
    format!("{prefix}_{}", &u[..16])
}

/// SHA-256 of a key, hex.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// Current time as RFC 3339 (UTC, seconds).
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs)
}

fn rfc3339(secs: u64) -> String {
    // Civil-from-days (Howard Hinnant), to avoid a date-time dependency.
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Catalog operations over a store.
#[derive(Debug, Clone)]
pub struct Catalog {
    store: Store,
}

impl Catalog {
    pub fn new(store: Store) -> Self {
        Catalog { store }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    async fn read_json<T: for<'de> Deserialize<'de>>(&self, rel: &str) -> Result<Option<T>> {
        match self.store.get(rel).await? {
            None => Ok(None),
            Some(bytes) => {
                serde_json::from_slice(&bytes)
                    .map(Some)
                    .map_err(|e| StorageError::CorruptCatalog {
                        path: rel.to_string(),
                        reason: e.to_string(),
                    })
            }
        }
    }

    async fn write_json<T: Serialize>(&self, rel: &str, value: &T) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(value).map_err(|e| StorageError::CorruptCatalog {
            path: rel.to_string(),
            reason: e.to_string(),
        })?;
        self.store.put(rel, bytes).await
    }

    /// All data sources of all organisations, sorted by organisation then name.
    pub async fn sources(&self) -> Result<Vec<DataSource>> {
        let mut out = Vec::new();
        for file in self.store.list("catalog/sources").await? {
            if let Some(id) = file.strip_suffix(".json")
                && let Some(ds) = self.read_json::<DataSource>(&source_path(id)).await?
            {
                out.push(ds);
            }
        }
        out.sort_by(|a, b| (&a.org, &a.name, &a.id).cmp(&(&b.org, &b.name, &b.id)));
        Ok(out)
    }

    /// One data source by id.
    pub async fn source(&self, id: &str) -> Result<Option<DataSource>> {
        if !valid_id(id) {
            return Ok(None);
        }
        self.read_json(&source_path(id)).await
    }

    /// One data source and the version of its record, for [`Catalog::put_source_if`].
    pub async fn source_versioned(
        &self,
        id: &str,
    ) -> Result<Option<(DataSource, crate::store::ObjectVersion)>> {
        if !valid_id(id) {
            return Ok(None);
        }
        let rel = source_path(id);
        match self.store.get_versioned(&rel).await? {
            None => Ok(None),
            Some((bytes, version)) => serde_json::from_slice(&bytes)
                .map(|ds| Some((ds, version)))
                .map_err(|e| StorageError::CorruptCatalog {
                    path: rel,
                    reason: e.to_string(),
                }),
        }
    }

    /// Replace a data source record only if it is still at `version` (compare and swap where
    /// the store provides it, `Store::put_if`); `false` when another writer changed it.
    pub async fn put_source_if(
        &self,
        ds: &DataSource,
        version: Option<&crate::store::ObjectVersion>,
    ) -> Result<bool> {
        let rel = source_path(&ds.id);
        let bytes = serde_json::to_vec_pretty(ds).map_err(|e| StorageError::CorruptCatalog {
            path: rel.clone(),
            reason: e.to_string(),
        })?;
        self.store.put_if(&rel, bytes, version).await
    }

    /// Insert or replace a data source record (atomic).
    pub async fn put_source(&self, ds: &DataSource) -> Result<()> {
        self.write_json(&source_path(&ds.id), ds).await
    }

    /// Remove a data source record.
    pub async fn delete_source(&self, id: &str) -> Result<()> {
        self.store.delete(&source_path(id)).await
    }

    /// A stored chat conversation of an organisation (`None` for an unknown or malformed id).
    pub async fn conversation(&self, org: &str, id: &str) -> Result<Option<Conversation>> {
        if !valid_id(id) || !valid_id(org) {
            return Ok(None);
        }
        self.read_json(&conversation_path(org, id)).await
    }

    /// Insert or replace a conversation (atomic).
    pub async fn put_conversation(&self, c: &Conversation) -> Result<()> {
        if !valid_id(&c.id) || !valid_id(&c.org) {
            return Err(StorageError::CorruptCatalog {
                path: format!("conversation {}", c.id),
                reason: "ids are 1-64 letters, digits, '_' or '-'".into(),
            });
        }
        self.write_json(&conversation_path(&c.org, &c.id), c).await
    }

    /// All API key records.
    pub async fn keys(&self) -> Result<Vec<ApiKey>> {
        let mut out = Vec::new();
        for file in self.store.list("catalog/keys").await? {
            if let Some(id) = file.strip_suffix(".json")
                && let Some(k) = self.read_json::<ApiKey>(&key_path(id)).await?
            {
                out.push(k);
            }
        }
        out.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)));
        Ok(out)
    }

    /// Store a key record, and the hash → id entry that lets [`Catalog::authenticate`] find
    /// it with two reads however many keys exist.
    pub async fn put_key(&self, key: &ApiKey) -> Result<()> {
        self.write_json(&key_path(&key.id), key).await?;
        self.store
            .put(&key_hash_path(&key.hash), key.id.clone().into_bytes())
            .await
    }

    /// The active key record matching a presented secret.
    pub async fn authenticate(&self, secret: &str) -> Result<Option<ApiKey>> {
        let hash = hash_key(secret);
        let now = now_secs();
        let found = match self.store.get(&key_hash_path(&hash)).await? {
            Some(id) => {
                let id = String::from_utf8_lossy(&id).to_string();
                if valid_id(&id) {
                    self.read_json::<ApiKey>(&key_path(&id)).await?
                } else {
                    None
                }
            }
            // Stores written before the hash entries existed get them all, once; after that an
            // unknown secret costs one read, not a scan.
            None if self.store.get(KEY_HASHES_COMPLETE).await?.is_some() => None,
            None => {
                let keys = self.keys().await?;
                for k in &keys {
                    self.put_key(k).await?;
                }
                self.store.put(KEY_HASHES_COMPLETE, b"1".to_vec()).await?;
                keys.into_iter().find(|k| k.hash == hash)
            }
        };
        Ok(found.filter(|k| k.hash == hash && k.active_at(now)))
    }

    /// An organisation's stored settings (`None` when none were ever set).
    pub async fn org(&self, name: &str) -> Result<Option<Org>> {
        if !valid_id(name) {
            return Ok(None);
        }
        self.read_json(&org_path(name)).await
    }

    /// Every organisation with stored settings.
    pub async fn orgs(&self) -> Result<Vec<Org>> {
        let mut out = Vec::new();
        for file in self.store.list("catalog/orgs").await? {
            if let Some(name) = file.strip_suffix(".json")
                && let Some(o) = self.read_json::<Org>(&org_path(name)).await?
            {
                out.push(o);
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }

    /// Insert or replace an organisation's settings (atomic).
    pub async fn put_org(&self, org: &Org) -> Result<()> {
        if !valid_id(&org.name) {
            return Err(StorageError::CorruptCatalog {
                path: format!("organisation {}", org.name),
                reason: "names are 1-64 letters, digits, '_' or '-'".into(),
            });
        }
        self.write_json(&org_path(&org.name), org).await
    }
}

/// Current unix time in seconds.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Unix seconds as RFC 3339 (UTC).
pub fn secs_rfc3339(secs: u64) -> String {
    rfc3339(secs)
}

fn org_path(name: &str) -> String {
    format!("catalog/orgs/{name}.json")
}

fn conversation_path(org: &str, id: &str) -> String {
    format!("catalog/conversations/{org}/{id}.json")
}

/// Whether `id` can name a catalog record (1-64 ASCII letters, digits, `_`, `-`).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn source_path(id: &str) -> String {
    format!("catalog/sources/{id}.json")
}

fn key_path(id: &str) -> String {
    format!("catalog/keys/{id}.json")
}

/// Written once every key has its hash entry.
const KEY_HASHES_COMPLETE: &str = "catalog/key-hashes/complete";

/// Hash → key id (the hash is hex SHA-256, so it is a safe object name).
fn key_hash_path(hash: &str) -> String {
    format!("catalog/key-hashes/{hash}")
}

/// The directory (relative to the store root) holding a repository's tables.
pub fn source_data_dir(id: &str) -> String {
    format!("sources/{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_known_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_000_000), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn ids_are_validated() {
        assert!(valid_id("repo_0123abcd"));
        assert!(!valid_id("../etc"));
        assert!(!valid_id(""));
    }

    fn key(id: &str, secret: &str) -> ApiKey {
        ApiKey {
            id: id.into(),
            org: "default".into(),
            hash: hash_key(secret),
            sources: None,
            public_chat: false,
            created_at: now_rfc3339(),
            revoked: false,
            plan: None,
            expires_at: None,
            admin: false,
        }
    }

    #[tokio::test]
    async fn keys_are_found_by_hash_including_keys_written_before_the_hash_entries() {
        let cat = Catalog::new(Store::open("memory://").unwrap());
        cat.put_key(&key("key_new", "qry_new")).await.unwrap();
        // A record from an older version: no hash entry.
        cat.write_json(&key_path("key_old"), &key("key_old", "qry_old"))
            .await
            .unwrap();
        assert_eq!(
            cat.authenticate("qry_new").await.unwrap().unwrap().id,
            "key_new"
        );
        assert!(cat.store.get(KEY_HASHES_COMPLETE).await.unwrap().is_none());
        assert_eq!(
            cat.authenticate("qry_old").await.unwrap().unwrap().id,
            "key_old"
        );
        assert!(cat.store.get(KEY_HASHES_COMPLETE).await.unwrap().is_some());
        assert!(
            cat.store
                .get(&key_hash_path(&hash_key("qry_old")))
                .await
                .unwrap()
                .is_some()
        );
        assert!(cat.authenticate("qry_unknown").await.unwrap().is_none());
        // Revoked and expired keys do not authenticate.
        let mut revoked = key("key_new", "qry_new");
        revoked.revoked = true;
        cat.put_key(&revoked).await.unwrap();
        assert!(cat.authenticate("qry_new").await.unwrap().is_none());
        let mut expired = key("key_old", "qry_old");
        expired.expires_at = Some(now_secs() - 1);
        cat.put_key(&expired).await.unwrap();
        assert!(cat.authenticate("qry_old").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_record_is_replaced_only_at_the_version_read() {
        let cat = Catalog::new(Store::open("memory://").unwrap());
        let mut ds = DataSource {
            id: new_id("repo"),
            org: DEFAULT_ORG.into(),
            name: "cas".into(),
            kind: SourceType::Repository,
            full_name: None,
            url: None,
            branch: None,
            repository_ids: None,
            description: None,
            readiness: Readiness::NotReady,
            snapshot: None,
            retained: Vec::new(),
            created_at: now_rfc3339(),
            updated_at: now_rfc3339(),
        };
        assert!(cat.put_source_if(&ds, None).await.unwrap());
        assert!(
            !cat.put_source_if(&ds, None).await.unwrap(),
            "exists already"
        );
        let (_, v1) = cat.source_versioned(&ds.id).await.unwrap().unwrap();
        ds.description = Some("first".into());
        assert!(cat.put_source_if(&ds, Some(&v1)).await.unwrap());
        // A second writer that read the same version loses.
        ds.description = Some("second".into());
        assert!(!cat.put_source_if(&ds, Some(&v1)).await.unwrap());
        let (now, _) = cat.source_versioned(&ds.id).await.unwrap().unwrap();
        assert_eq!(now.description.as_deref(), Some("first"));
    }

    #[tokio::test]
    async fn sources_round_trip_through_the_store() {
        let store = Store::open("memory://").unwrap();
        let cat = Catalog::new(store);
        let ds = DataSource {
            id: new_id("repo"),
            org: DEFAULT_ORG.into(),
            name: "demo".into(),
            kind: SourceType::Repository,
            full_name: Some("acme/demo".into()),
            url: None,
            branch: Some("main".into()),
            repository_ids: None,
            description: None,
            readiness: Readiness::NotReady,
            snapshot: None,
            retained: Vec::new(),
            created_at: now_rfc3339(),
            updated_at: now_rfc3339(),
        };
        cat.put_source(&ds).await.unwrap();
        assert_eq!(cat.sources().await.unwrap(), vec![ds.clone()]);
        assert_eq!(cat.source(&ds.id).await.unwrap(), Some(ds));
        assert_eq!(cat.source("nope").await.unwrap(), None);
    }
}
