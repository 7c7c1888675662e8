//! The HTTP server: bearer auth in front of every `/api` route, error bodies as docs/api.md, "Errors" gives them.
//!
//! Served: `GET /api/health` and `GET /api/openapi.json` (no auth), `POST /api/tools/<name>`
//! (the Tool API, see `tools`), `GET /api/datasources/all` and `GET /api/datasources/ready`
//! (with lexical relevance filtering for `query`, failing open). The other REST routes and
//! MCP are tracked by their issues.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::{Query, Request, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use quarry_storage::{Catalog, DataSource, Readiness, SourceType};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::sources::{self, Principal};

/// Largest request body accepted.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// Longest a request may run.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Clone)]
pub struct AppState {
    pub catalog: Catalog,
    /// Host names MCP accepts (`*` = any); see `mcp`.
    pub mcp_allowed_hosts: Vec<String>,
    /// JWT verification (`None`: only API keys are accepted).
    pub jwt: Option<std::sync::Arc<crate::auth::JwtConfig>>,
    /// Rate limits by plan (in this process; see `limits`).
    pub limiter: crate::limits::Limiter,
    /// What admin keys may register (docs/operations.md, "Security model").
    pub admin_policy: quarry_engine::location::AdminPolicy,
}

/// An error response (docs/api.md, "Errors").
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }
    pub fn internal(e: impl std::fmt::Display) -> Self {
        tracing::error!(error = %e, "internal error");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "internal error",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": {"code": self.code, "message": self.message}})),
        )
            .into_response()
    }
}

/// Build the router.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/datasources/all", get(datasources_all))
        .route("/datasources/ready", get(datasources_ready))
        .route("/tools/{name}", post(tool_call))
        .route("/datasources/ontology", get(crate::rest::ontology))
        .route("/search/grep", get(crate::rest::search_grep))
        .route("/search/semantic", get(crate::rest::search_semantic))
        .route(
            "/search",
            get(crate::rest::search_legacy).post(json_route(crate::rest::search_post)),
        )
        .route(
            "/search/artifacts",
            post(json_route(crate::rest::artifacts)),
        )
        .route(
            "/chat/completions",
            post(crate::connectors::chat_completions),
        )
        .merge(
            Router::new()
                .route_service(
                    "/mcp",
                    crate::mcp::service(state.clone(), mcp_hosts(&state)),
                )
                .layer(middleware::from_fn(crate::mcp::screen)),
        )
        .nest("/admin", crate::admin::routes())
        .route_layer(middleware::from_fn_with_state(state.clone(), require_key));
    Router::new()
        .route(
            "/api/health",
            get(|| async { Json(json!({"status": "ok"})) }),
        )
        .route(
            "/api/openapi.json",
            get(|| async { Json(crate::tools::openapi::document()) }),
        )
        .route(
            "/api/knowledge-retrieval/dify/retrieval",
            post(crate::connectors::dify_retrieval),
        )
        .nest("/api", api)
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, "NOT_FOUND", "no such endpoint")
        })
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            MAX_BODY_BYTES,
        ))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(middleware::map_response(transport_errors_as_json))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// The body-size and timeout layers answer in plain text; give them the error body (docs/api.md, "Errors").
async fn transport_errors_as_json(resp: Response) -> Response {
    let json = resp
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("json"));
    match resp.status() {
        StatusCode::PAYLOAD_TOO_LARGE if !json => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "PAYLOAD_TOO_LARGE",
            format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
        )
        .into_response(),
        StatusCode::REQUEST_TIMEOUT if !json => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "REQUEST_TIMEOUT",
            format!(
                "the request took longer than {} s; narrow it (fewer sources, a more selective query) and retry",
                REQUEST_TIMEOUT.as_secs()
            ),
        )
        .into_response(),
        _ => resp,
    }
}

type BoxedResponse =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Response, ApiError>> + Send>>;

/// Adapt a handler taking a parsed JSON body to one taking the raw body, so malformed JSON
/// gets a 400 with the error body (docs/api.md, "Errors") rather than axum's plain-text rejection.
fn json_route<F, Fut>(
    f: F,
) -> impl Fn(State<AppState>, Extension<Principal>, HeaderMap, Bytes) -> BoxedResponse
+ Clone
+ Send
+ Sync
+ 'static
where
    F: Fn(State<AppState>, Extension<Principal>, Json<Value>) -> Fut
        + Clone
        + Send
        + Sync
        + 'static,
    Fut: std::future::Future<Output = Result<Response, ApiError>> + Send + 'static,
{
    move |state, who, headers, body| {
        let f = f.clone();
        Box::pin(async move {
            let v = parse_json_body(&headers, &body)?;
            f(state, who, Json(v)).await
        })
    }
}

fn mcp_hosts(state: &AppState) -> Vec<String> {
    if state.mcp_allowed_hosts.iter().any(|h| h == "*") {
        Vec::new() // rmcp: an empty list accepts any host
    } else {
        state.mcp_allowed_hosts.clone()
    }
}

async fn require_key(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let header = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok());
    match crate::auth::authenticate(&state, header).await {
        Ok(Some(principal)) => {
            let permit = match admit(&state, &principal).await {
                Ok(p) => p,
                Err(refused) => return refused_response(&refused),
            };
            req.extensions_mut().insert(principal);
            let mut resp = next.run(req).await;
            if let Some(p) = &permit {
                p.quota.headers(resp.headers_mut());
            }
            drop(permit);
            resp
        }
        Ok(None) => ApiError::new(
            StatusCode::UNAUTHORIZED,
            "UNAUTHORIZED",
            "missing or invalid API key or token: send 'Authorization: Bearer <key>' (create one with 'quarry keys create')",
        )
        .into_response(),
        Err(e) => ApiError::internal(e).into_response(),
    }
}

/// Count a request against the caller's plan (`Ok(None)`: no plan, unlimited).
pub async fn admit(
    state: &AppState,
    who: &Principal,
) -> Result<Option<crate::limits::Permit>, crate::limits::Refused> {
    match &who.plan {
        None => Ok(None),
        Some(plan) => state.limiter.admit(&who.subject, plan).await.map(Some),
    }
}

/// The 429 (docs/api.md, "Errors"): `RATE_LIMITED`, the retry time in the message, `Retry-After`, and the
/// rate-limit headers.
pub fn refused_response(r: &crate::limits::Refused) -> Response {
    let mut resp =
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED", &r.message).into_response();
    r.quota.headers(resp.headers_mut());
    resp.headers_mut()
        .insert("retry-after", axum::http::HeaderValue::from(r.retry_after));
    resp
}

/// A data source as docs/tools.md, "get_data_sources" shows it.
/// A data source as the API shows it to `who`. Locations never carry credentials (a record
/// stored with them is shown without); a local path on the server is shown to admins only.
pub fn source_json(s: &DataSource, who: &Principal) -> Value {
    let repo = s.kind == SourceType::Repository;
    let url = s
        .url
        .as_deref()
        .filter(|_| repo)
        // (A recorded local path is absolute or a `file://` URL: local by its shape alone, so no
        // file-system lookup per listed source.)
        .filter(|u| who.admin || !quarry_engine::location::classify_with(u, |_| false).is_local())
        .map(quarry_engine::location::redacted);
    json!({
        "id": s.id,
        "name": s.name,
        "type": match s.kind { SourceType::Repository => "Repository", SourceType::Workspace => "Workspace" },
        "fullName": s.full_name,
        "url": url,
        "branch": if repo { s.branch.clone() } else { None },
        "repositoryIds": if repo { None } else { s.repository_ids.clone() },
        "description": s.description,
        "readiness": s.readiness.as_str(),
    })
}

#[derive(Deserialize)]
struct ListQuery {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(rename = "searchTerm")]
    search_term: Option<String>,
    /// Natural-language relevance query (fails open: see the module docs).
    query: Option<String>,
}

/// The listed sources (relevance-filtered when `query` is given) and the total before the
/// relevance filter.
async fn list(
    state: &AppState,
    who: &Principal,
    q: &ListQuery,
    ready_only: bool,
) -> Result<(Vec<Value>, usize), ApiError> {
    let kind = match q.kind.as_deref() {
        None => None,
        Some(k) if k.eq_ignore_ascii_case("repository") => Some(SourceType::Repository),
        Some(k) if k.eq_ignore_ascii_case("workspace") => Some(SourceType::Workspace),
        Some(k) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "INVALID_PARAMETER",
                format!("type must be Repository or Workspace, not '{k}'"),
            ));
        }
    };
    let visible = sources::visible(&state.catalog, who)
        .await
        .map_err(ApiError::internal)?;
    let listed: Vec<DataSource> = visible
        .into_iter()
        .filter(|s| kind.is_none_or(|k| s.kind == k))
        .filter(|s| !ready_only || s.readiness >= Readiness::PartiallyReady)
        .filter(|s| {
            q.search_term
                .as_deref()
                .is_none_or(|t| s.name.to_lowercase().contains(&t.to_lowercase()))
        })
        .collect();
    let total = listed.len();
    let query = q.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
    let items = match query {
        Some(query) if !who.public_chat => match sources::rank_relevance(query, &listed) {
            sources::Relevance::Ranked(ranked) => ranked
                .into_iter()
                .map(|(s, reason)| {
                    let mut v = source_json(&s, who);
                    v["relevanceReason"] = Value::String(reason);
                    v
                })
                .collect(),
            // Fails open: the full list, without relevanceReason.
            _ => listed.iter().map(|s| source_json(s, who)).collect(),
        },
        _ => listed.iter().map(|s| source_json(s, who)).collect(),
    };
    Ok((items, total))
}

async fn list_response(
    state: &AppState,
    who: &Principal,
    q: &ListQuery,
    ready_only: bool,
) -> Result<Response, ApiError> {
    let (items, total) = list(state, who, q, ready_only).await?;
    let mut resp = Json(items).into_response();
    if q.query.is_some() && !who.public_chat {
        resp.headers_mut()
            .insert("X-Service-Total-Data-Sources", total.into());
    }
    Ok(resp)
}

async fn datasources_all(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    list_response(&state, &who, &q, false).await
}

async fn datasources_ready(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Query(q): Query<ListQuery>,
) -> Result<Response, ApiError> {
    list_response(&state, &who, &q, true).await
}

/// `POST /api/tools/<name>`: JSON bodies (`application/json`, `text/json`, `application/*+json`;
/// a missing or form content type is read as JSON too, for `curl -d`).
async fn tool_call(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    if !crate::tools::tools().iter().any(|t| t.name == name) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!(
                "no tool '{name}'; tools: {}",
                crate::tools::tools()
                    .iter()
                    .map(|t| t.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let value = parse_json_body(&headers, &body)?;
    match crate::tools::call(&state, &who, &name, value).await {
        Ok(v) => Ok(json_response(&v)),
        Err(crate::tools::BadRequest(m)) => {
            Err(ApiError::new(StatusCode::BAD_REQUEST, "INVALID_REQUEST", m))
        }
    }
}

/// A 200 JSON response, serialised by the engine (optimised even in the debug build: large
/// tool answers took milliseconds to write at opt-level 0). For the large answers: tools, search.
pub fn json_response(v: &Value) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        quarry_engine::render::json_bytes(v),
    )
        .into_response()
}

/// A JSON request body (`application/json`, `text/json`, `application/*+json`; a missing or
/// form content type is read as JSON too, for `curl -d`); 400 with the error body (docs/api.md, "Errors") otherwise.
pub fn parse_json_body(headers: &HeaderMap, body: &[u8]) -> Result<Value, ApiError> {
    if let Some(ct) = headers.get("content-type").and_then(|v| v.to_str().ok()) {
        let mime = ct
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let json_like = mime == "application/json"
            || mime == "text/json"
            || (mime.starts_with("application/") && mime.ends_with("+json"))
            || mime == "application/x-www-form-urlencoded";
        if !json_like {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "INVALID_REQUEST",
                format!("unsupported content type '{mime}'; send JSON as application/json"),
            ));
        }
    }
    serde_json::from_slice(body).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "INVALID_REQUEST",
            format!("malformed JSON body: {e}"),
        )
    })
}

/// Bind and serve until Ctrl-C; `on_bound` receives the actual address (port 0 is allowed).
pub async fn serve(
    state: AppState,
    addr: SocketAddr,
    on_bound: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    on_bound(listener.local_addr()?);
    let app = router(state);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
