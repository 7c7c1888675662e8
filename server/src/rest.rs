//! REST endpoints (docs/api.md, "Routes") beyond the data-source lists: ontology download, grep and
//! semantic search, the legacy search routes, batch artifacts, and the retrieval connector.
//! Each one runs the same tool code as the Tool API (`tools::run`) and maps its repairable
//! errors to HTTP statuses with the error body of docs/api.md, "Errors". Array parameters are repeated query
//! parameters (`?Names=a&Names=b`); parameter names match case-insensitively.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{Map, Value, json};

use crate::http::{ApiError, AppState};
use crate::sources::Principal;
use crate::tools::ToolError;

/// Most identifiers per `POST /api/search/artifacts` (docs/tools.md, "Common rules").
pub const MAX_REST_ARTIFACTS: usize = 20;

/// Query parameters, repeated keys kept, names compared case-insensitively.
pub struct Params(Vec<(String, String)>);

impl Params {
    pub fn parse(raw: Option<&str>) -> Self {
        Params(
            url::form_urlencoded::parse(raw.unwrap_or("").as_bytes())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }
    fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k.trim_end_matches("[]").eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
            .collect()
    }
    fn one(&self, name: &str) -> Option<String> {
        self.all(name).into_iter().next()
    }
    fn boolean(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.one(name) {
            None => Ok(None),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "true" | "1" => Ok(Some(true)),
                "false" | "0" => Ok(Some(false)),
                _ => Err(bad(format!("{name} must be true or false, not '{v}'"))),
            },
        }
    }
    fn int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.one(name) {
            None => Ok(None),
            Some(v) => v
                .parse::<i64>()
                .map(Some)
                .map_err(|_| bad(format!("{name} must be an integer, not '{v}'"))),
        }
    }
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "INVALID_PARAMETER", m)
}

/// A tool's repairable error as an HTTP error.
pub fn tool_error(e: ToolError) -> ApiError {
    let msg = format!("{} ({})", e.message, e.try_);
    match e.code {
        "unknown_data_source" => ApiError::new(StatusCode::NOT_FOUND, "DATA_SOURCE_NOT_FOUND", msg),
        "internal_error" => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL_ERROR",
            "internal error",
        ),
        "data_source_not_ready" => {
            ApiError::new(StatusCode::BAD_REQUEST, "DATA_SOURCE_NOT_READY", msg)
        }
        _ => ApiError::new(StatusCode::BAD_REQUEST, "INVALID_PARAMETER", msg),
    }
}

async fn run(
    state: &AppState,
    who: &Principal,
    tool: &str,
    args: Value,
) -> Result<Value, ApiError> {
    let Value::Object(args) = args else {
        return Err(bad("arguments must be an object"));
    };
    crate::tools::run(state, who, tool, args)
        .await
        .map(|o| o.obj)
        .map_err(tool_error)
}

/// `DataSourceIds` (+ legacy `Ids`) and `Names`, or every visible source when none is given.
async fn sources_of(
    state: &AppState,
    who: &Principal,
    p: &Params,
) -> Result<Vec<String>, ApiError> {
    let mut refs = p.all("DataSourceIds");
    refs.extend(p.all("Ids"));
    refs.extend(p.all("Names"));
    if refs.is_empty() {
        let visible = crate::sources::visible(&state.catalog, who)
            .await
            .map_err(ApiError::internal)?;
        refs = visible
            .iter()
            .filter(|s| {
                s.kind == quarry_storage::SourceType::Repository
                    && s.readiness >= quarry_storage::Readiness::PartiallyReady
            })
            .map(|s| s.id.clone())
            .collect();
    }
    Ok(refs)
}

fn filters(p: &Params, args: &mut Map<String, Value>) -> Result<(), ApiError> {
    let paths = p.all("Paths");
    if !paths.is_empty() {
        args.insert("paths".into(), json!(paths));
    }
    let exts = p.all("Extensions");
    if !exts.is_empty() {
        args.insert("extensions".into(), json!(exts));
    }
    if let Some(n) = p.int("MaxResults")? {
        args.insert("max_results".into(), json!(n));
    }
    if let Some(b) = p.boolean("ExcludeMarkdown")? {
        args.insert("exclude_markdown".into(), json!(b));
    }
    Ok(())
}

/// `GET /api/search/grep`.
pub async fn search_grep(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p = Params::parse(raw.as_deref());
    let query = p.one("Query").ok_or_else(|| bad("Query is required"))?;
    let refs = sources_of(&state, &who, &p).await?;
    if refs.is_empty() {
        return Ok(Json(json!({"results": [], "pathFilter": Value::Null})).into_response());
    }
    let mut args = Map::new();
    args.insert("query".into(), json!(query));
    args.insert("data_sources".into(), json!(refs));
    if let Some(r) = p.boolean("Regex")? {
        args.insert("regex".into(), json!(r));
    }
    filters(&p, &mut args)?;
    let mut obj = run(&state, &who, "grep_search", Value::Object(args)).await?;
    let path_filter = json!({"paths": p.all("Paths"), "extensions": p.all("Extensions"), "excludeMarkdown": p.boolean("ExcludeMarkdown")?.unwrap_or(false)});
    // Moved, not copied (`json!` would serialise a copy of every result).
    let mut out = Map::new();
    out.insert("results".into(), obj["results"].take());
    out.insert("pathFilter".into(), path_filter);
    out.insert("truncated".into(), obj["truncated"].take());
    Ok(crate::http::json_response(&Value::Object(out)))
}

/// `GET /api/search/semantic`: `Query` (a question) with the grep route's filters.
pub async fn search_semantic(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p = Params::parse(raw.as_deref());
    let query = p.one("Query").ok_or_else(|| bad("Query is required"))?;
    let refs = sources_of(&state, &who, &p).await?;
    if refs.is_empty() {
        return Ok(Json(json!({"results": []})).into_response());
    }
    let mut args = Map::new();
    args.insert("question".into(), json!(query));
    args.insert("data_sources".into(), json!(refs));
    filters(&p, &mut args)?;
    let obj = run(&state, &who, "semantic_search", Value::Object(args)).await?;
    Ok(crate::http::json_response(
        &json!({"results": obj["results"], "hint": obj["hint"]}),
    ))
}

/// Legacy search (GET with query parameters, POST with `{query, datasource_ids}`): semantic
/// results with `identifier`, `description`, `contentByteSize`, and `content` when asked.
async fn legacy(
    state: &AppState,
    who: &Principal,
    query: String,
    refs: Vec<String>,
    include_content: bool,
    full: bool,
) -> Result<Value, ApiError> {
    if refs.is_empty() {
        return Ok(json!({"results": []}));
    }
    let obj = run(
        state,
        who,
        "semantic_search",
        json!({"question": query, "data_sources": refs}),
    )
    .await?;
    let mut results: Vec<Value> = obj["results"].as_array().cloned().unwrap_or_default();
    if include_content || full {
        let ids: Vec<Value> = results.iter().map(|r| r["identifier"].clone()).collect();
        let fetched = run(state, who, "fetch_artifacts", json!({"identifiers": ids})).await?;
        for (r, a) in results
            .iter_mut()
            .zip(fetched["artifacts"].as_array().cloned().unwrap_or_default())
        {
            if include_content {
                r["content"] = a["content"].clone();
            }
            if full && let Some(sig) = a["signature"].as_str() {
                r["description"] = json!(format!(
                    "{} — {}",
                    r["description"].as_str().unwrap_or(""),
                    sig
                ));
            }
        }
    }
    Ok(json!({"results": results}))
}

/// `GET /api/search` (legacy; `Mode` accepted and ignored).
pub async fn search_legacy(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p = Params::parse(raw.as_deref());
    let query = p.one("Query").ok_or_else(|| bad("Query is required"))?;
    if let Some(m) = p.one("Mode")
        && !["auto", "fast", "fastcomplex", "deep"].contains(&m.to_ascii_lowercase().as_str())
    {
        return Err(bad(format!(
            "Mode must be Auto, Fast, FastComplex or Deep, not '{m}'"
        )));
    }
    let full = match p.one("DescriptionDetail").map(|d| d.to_ascii_lowercase()) {
        None => false,
        Some(d) if d == "short" => false,
        Some(d) if d == "full" => true,
        Some(d) => {
            return Err(bad(format!(
                "DescriptionDetail must be Short or Full, not '{d}'"
            )));
        }
    };
    let refs = sources_of(&state, &who, &p).await?;
    let include = p.boolean("IncludeContent")?.unwrap_or(false);
    Ok(crate::http::json_response(
        &legacy(&state, &who, query, refs, include, full).await?,
    ))
}

/// `POST /api/search` (quick start): `{query, datasource_ids}`.
pub async fn search_post(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Json(body): Json<Value>,
) -> Result<Response, ApiError> {
    let query = body["query"]
        .as_str()
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| bad("query is required"))?;
    let mut refs: Vec<String> = body["datasource_ids"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if refs.is_empty() {
        refs = sources_of(&state, &who, &Params(Vec::new())).await?;
    }
    Ok(Json(legacy(&state, &who, query.to_string(), refs, false, false).await?).into_response())
}

/// `POST /api/search/artifacts`: `{identifiers}` (at most 20).
pub async fn artifacts(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    Json(body): Json<Value>,
) -> Result<Response, ApiError> {
    let ids = body["identifiers"]
        .as_array()
        .ok_or_else(|| bad("identifiers (an array of strings) is required"))?;
    if ids.is_empty() {
        return Err(bad("identifiers is empty"));
    }
    if ids.len() > MAX_REST_ARTIFACTS {
        return Err(bad(format!(
            "{} identifiers; at most {MAX_REST_ARTIFACTS} per request",
            ids.len()
        )));
    }
    let obj = run(&state, &who, "fetch_artifacts", json!({"identifiers": ids})).await?;
    let arts = obj["artifacts"].as_array().cloned().unwrap_or_default();
    if arts.iter().all(|a| a["found"] != true) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "ARTIFACT_NOT_FOUND",
            "none of the identifiers names a visible artifact",
        ));
    }
    Ok(crate::http::json_response(
        &json!({"artifacts": arts, "hint": obj["hint"]}),
    ))
}

/// `GET /api/datasources/ontology`: `Names`, `DataSourceIds`, `Ids` (mixable); workspaces
/// expand to their repositories. `{repository_count, ontologies: [{dataSource, fullName, content}]}`.
pub async fn ontology(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p = Params::parse(raw.as_deref());
    let mut refs = p.all("DataSourceIds");
    refs.extend(p.all("Ids"));
    refs.extend(p.all("Names"));
    if refs.is_empty() {
        return Err(bad("pass Names, DataSourceIds or Ids"));
    }
    let visible = crate::sources::visible(&state.catalog, &who)
        .await
        .map_err(ApiError::internal)?;
    let chosen = crate::sources::resolve_refs(&visible, &refs).map_err(|e| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "DATA_SOURCE_NOT_FOUND",
            e.to_string(),
        )
    })?;
    let repos = quarry_engine::exec::expand_repositories(&state.catalog, &chosen)
        .await
        .map_err(ApiError::internal)?;
    let mut out = Vec::new();
    for r in &repos {
        let obj = run(
            &state,
            &who,
            "get_repository_ontology",
            json!({"data_source": r.id}),
        )
        .await?;
        out.push(json!({"dataSource": obj["dataSource"], "fullName": r.full_name, "content": obj["content"]}));
    }
    Ok(Json(json!({"repository_count": out.len(), "ontologies": out})).into_response())
}
