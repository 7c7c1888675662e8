//! The admin API (`/api/admin`): what a deployment needs without shell access — register and
//! re-index data sources, manage keys, read the organisation's plan (setting it is the
//! operator's: `quarry orgs set-plan`). Guarded by admin keys
//! (`quarry keys create --admin`, or a JWT with `role: admin`); everything acts on the
//! caller's own organisation. Other keys get 403 `FORBIDDEN`.
//!
//! Indexing runs in the background (202 Accepted); poll `GET /api/admin/sources` for
//! readiness. What may be registered is `quarry_engine::location::AdminPolicy`'s to say
//! (docs/operations.md, "Security model"): by default remote git URLs of hosts whose
//! addresses are public, cloned confined to their transport and those addresses.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use quarry_engine::index::{self, IndexOptions};
use quarry_engine::location;
use quarry_storage::{ApiKey, Plan};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::{ApiError, AppState, source_json};
use crate::sources::Principal;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/sources", get(list_sources).post(register_source))
        .route("/sources/{source}/reindex", post(reindex))
        .route("/keys", get(list_keys).post(create_key))
        .route("/keys/{id}/rotate", post(rotate_key))
        .route("/keys/{id}/revoke", post(revoke_key))
        .route("/plan", get(get_plan))
}

fn require_admin(who: &Principal) -> Result<(), ApiError> {
    if who.admin {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "FORBIDDEN",
            "the admin API needs an admin key ('quarry keys create --admin') or a JWT with role 'admin'",
        ))
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "INVALID_REQUEST", message)
}

/// Parse a JSON body into `T`, with the 400 error body (docs/api.md, "Errors") naming the problem.
fn body<T: for<'de> Deserialize<'de>>(v: Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        bad(if path == "." {
            e.inner().to_string()
        } else {
            format!("{path}: {}", e.inner())
        })
    })
}

/// Every source of the caller's organisation, whatever the admin key's own scope.
async fn org_sources(
    state: &AppState,
    who: &Principal,
) -> Result<Vec<quarry_storage::DataSource>, ApiError> {
    crate::sources::visible(&state.catalog, &Principal::org(&who.org))
        .await
        .map_err(ApiError::internal)
}

async fn list_sources(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let all = org_sources(&state, &who).await?;
    let list: Vec<Value> = all
        .iter()
        .map(|s| {
            let mut v = source_json(s, &who);
            if let Some(snap) = &s.snapshot {
                v["files"] = json!(snap.stats.files);
                v["symbols"] = json!(snap.stats.symbols);
            }
            v["updatedAt"] = json!(s.updated_at);
            v
        })
        .collect();
    Ok(Json(list).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Register {
    /// A git URL (or, with --admin-local-sources, a local path or file:// URL).
    url: String,
    name: Option<String>,
    branch: Option<String>,
    description: Option<String>,
}

/// Admit a location by the server's policy, or the refusal as 403 (policy) or 400 (the
/// request's own fault).
async fn admit(state: &AppState, url: &str) -> Result<location::Admitted, ApiError> {
    state.admin_policy.admit(url).await.map_err(|r| {
        if r.is_forbidden() {
            ApiError::new(StatusCode::FORBIDDEN, "FORBIDDEN", r.to_string())
        } else {
            bad(r.to_string())
        }
    })
}

async fn register_source(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    headers: axum::http::HeaderMap,
    raw: axum::body::Bytes,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let r: Register = body(crate::http::parse_json_body(&headers, &raw)?)?;
    let admitted = admit(&state, &r.url).await?;
    if let Some(n) = &r.name {
        index::validate_name(n).map_err(|e| bad(e.to_string()))?;
    }
    let opts = IndexOptions {
        name: r.name,
        full_name: None,
        branch: r.branch,
        description: r.description,
        org: who.org.clone(),
        max_file_bytes: index::DEFAULT_MAX_FILE_BYTES,
        admitted: Some(admitted.clone()),
        lease_wait: ADMIN_LEASE_WAIT,
    };
    Ok(start_indexing(&state, admitted.url, opts))
}

/// How long a background run waits for a run of the same source in progress.
const ADMIN_LEASE_WAIT: std::time::Duration = std::time::Duration::from_secs(3600);

/// Start an index run in the background; 202 with what was started.
fn start_indexing(state: &AppState, url: String, opts: IndexOptions) -> Response {
    let catalog = state.catalog.clone();
    let what = json!({"status": "indexing", "url": url, "name": opts.name,
        "hint": "Poll GET /api/admin/sources: the source appears as NotReady, then PartiallyReady, then Ready."});
    tokio::spawn(async move {
        match index::index_repository(&catalog, &url, &opts, Arc::new(index::Quiet)).await {
            Ok(report) => tracing::info!(source = %report.source.id, "admin index finished"),
            Err(e) => tracing::warn!(url = %url, error = %e, "admin index failed"),
        }
    });
    (StatusCode::ACCEPTED, Json(what)).into_response()
}

async fn reindex(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Path(source): Path<String>,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let all = org_sources(&state, &who).await?;
    let found = crate::sources::resolve_refs(&all, std::slice::from_ref(&source))
        .map_err(|e| ApiError::new(StatusCode::NOT_FOUND, "NOT_FOUND", e.to_string()))?;
    let Some(ds) = found
        .into_iter()
        .find(|s| s.kind == quarry_storage::SourceType::Repository)
    else {
        return Err(bad(format!(
            "'{source}' is a workspace; re-index its repositories"
        )));
    };
    let Some(url) = ds.url.clone() else {
        return Err(bad(format!("'{source}' has no recorded location")));
    };
    // The recorded location passes the same policy as a new one.
    let admitted = admit(&state, &location::redacted(&url)).await?;
    let opts = IndexOptions {
        name: Some(ds.name.clone()),
        full_name: None,
        branch: ds.branch.clone(),
        description: ds.description.clone(),
        org: who.org.clone(),
        max_file_bytes: index::DEFAULT_MAX_FILE_BYTES,
        admitted: Some(admitted.clone()),
        lease_wait: ADMIN_LEASE_WAIT,
    };
    Ok(start_indexing(&state, admitted.url, opts))
}

fn key_json(k: &ApiKey) -> Value {
    json!({
        "id": k.id,
        "createdAt": k.created_at,
        "revoked": k.revoked,
        "expiresAt": k.expires_at.map(quarry_storage::catalog::secs_rfc3339),
        "sources": k.sources,
        "publicChat": k.public_chat,
        "plan": k.plan,
        "admin": k.admin,
    })
}

async fn org_keys(state: &AppState, org: &str) -> Result<Vec<ApiKey>, ApiError> {
    Ok(state
        .catalog
        .keys()
        .await
        .map_err(ApiError::internal)?
        .into_iter()
        .filter(|k| k.org == org)
        .collect())
}

async fn list_keys(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let keys = org_keys(&state, &who.org).await?;
    Ok(Json(keys.iter().map(key_json).collect::<Vec<_>>()).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewKey {
    sources: Option<Vec<String>>,
    #[serde(default)]
    public_chat: bool,
    #[serde(default)]
    admin: bool,
    plan: Option<String>,
    requests_per_hour: Option<u64>,
    concurrent: Option<u32>,
}

async fn create_key(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    headers: axum::http::HeaderMap,
    raw: axum::body::Bytes,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let v = if raw.is_empty() {
        json!({})
    } else {
        crate::http::parse_json_body(&headers, &raw)?
    };
    let k: NewKey = body(v)?;
    let plan = match &k.plan {
        Some(name) => Some(Plan::named(name, k.requests_per_hour, k.concurrent).map_err(bad)?),
        None if k.requests_per_hour.is_some() || k.concurrent.is_some() => {
            return Err(bad("custom limits need \"plan\": \"enterprise\""));
        }
        None => None,
    };
    // A key's plan may narrow the organisation's limits, never widen them (the
    // organisation's plan is the operator's to set: 'quarry orgs set-plan').
    let org_plan = state
        .catalog
        .org(&who.org)
        .await
        .map_err(ApiError::internal)?
        .and_then(|o| o.plan);
    if let (Some(p), Some(o)) = (plan, org_plan)
        && (p.requests_per_hour > o.requests_per_hour || p.concurrent > o.concurrent)
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "FORBIDDEN",
            format!(
                "plan '{}' exceeds the organisation's plan '{}' ({} requests per hour, {} concurrent)",
                p.name.as_str(),
                o.name.as_str(),
                o.requests_per_hour,
                o.concurrent
            ),
        ));
    }
    if let Some(refs) = &k.sources {
        let all = org_sources(&state, &who).await?;
        crate::sources::resolve_refs(&all, refs).map_err(|e| bad(e.to_string()))?;
    }
    let (key, secret) = crate::auth::create_key(
        &state.catalog,
        &who.org,
        k.sources,
        k.public_chat,
        plan,
        k.admin,
    )
    .await
    .map_err(ApiError::internal)?;
    let mut v = key_json(&key);
    v["secret"] = json!(secret);
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Rotate {
    #[serde(default = "default_grace")]
    grace_seconds: u64,
}

fn default_grace() -> u64 {
    86_400
}

async fn find_key(state: &AppState, who: &Principal, id: &str) -> Result<ApiKey, ApiError> {
    org_keys(state, &who.org)
        .await?
        .into_iter()
        .find(|k| k.id == id)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "NOT_FOUND",
                format!("no key '{id}' in this organisation"),
            )
        })
}

async fn rotate_key(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    raw: axum::body::Bytes,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let r: Rotate = if raw.is_empty() {
        Rotate {
            grace_seconds: default_grace(),
        }
    } else {
        body(crate::http::parse_json_body(&headers, &raw)?)?
    };
    let old = find_key(&state, &who, &id).await?;
    if old.revoked {
        return Err(bad(format!("key '{id}' is revoked")));
    }
    let (key, secret) = crate::auth::rotate_key(&state.catalog, &old, r.grace_seconds)
        .await
        .map_err(ApiError::internal)?;
    let mut v = key_json(&key);
    v["secret"] = json!(secret);
    v["rotated"] = json!({"id": id, "expiresAt": quarry_storage::catalog::secs_rfc3339(
        quarry_storage::catalog::now_secs() + r.grace_seconds)});
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

async fn revoke_key(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let mut key = find_key(&state, &who, &id).await?;
    key.revoked = true;
    state
        .catalog
        .put_key(&key)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(key_json(&key)).into_response())
}

fn plan_json(org: &str, plan: Option<Plan>) -> Value {
    json!({"organisation": org, "plan": plan, "unlimited": plan.is_none()})
}

async fn get_plan(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
) -> Result<Response, ApiError> {
    require_admin(&who)?;
    let org = state
        .catalog
        .org(&who.org)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(plan_json(&who.org, org.and_then(|o| o.plan))).into_response())
}
