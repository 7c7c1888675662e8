//! Access paths for other platforms: the Dify-style retrieval connector
//! (`POST /api/knowledge-retrieval/dify/retrieval`) and OpenAI-compatible chat completions
//! (`POST /api/chat/completions`). Both run the same retrieval as the tools.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{Map, Value, json};

use crate::http::{ApiError, AppState, parse_json_body};
use crate::sources::Principal;

fn dify_error(status: StatusCode, code: u32, msg: impl Into<String>) -> Response {
    (
        status,
        Json(json!({"error_code": code, "error_msg": msg.into()})),
    )
        .into_response()
}

/// `POST /api/knowledge-retrieval/dify/retrieval` — Dify's External Knowledge API.
/// Authenticates itself so that failures use Dify's error shape (docs/api.md, "Retrieval connector").
pub async fn dify_retrieval(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let header = headers.get("authorization").and_then(|v| v.to_str().ok());
    let who = match crate::auth::authenticate(&state, header).await {
        Ok(Some(p)) => p,
        Ok(None) => {
            return dify_error(
                StatusCode::UNAUTHORIZED,
                1004,
                "Authorization failed: missing or invalid API key (Authorization: Bearer <key>)",
            );
        }
        Err(e) => {
            tracing::error!(error = %e, "retrieval auth failed");
            return dify_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                2001,
                "internal server error",
            );
        }
    };
    let permit = match crate::http::admit(&state, &who).await {
        Ok(p) => p,
        Err(refused) => {
            // Dify's shape; 1002 is its "access denied" code, the message says why.
            let mut resp = dify_error(StatusCode::TOO_MANY_REQUESTS, 1002, &refused.message);
            refused.quota.headers(resp.headers_mut());
            resp.headers_mut().insert(
                "retry-after",
                axum::http::HeaderValue::from(refused.retry_after),
            );
            return resp;
        }
    };
    let mut resp = dify_answer(&state, &who, &body).await;
    if let Some(p) = &permit {
        p.quota.headers(resp.headers_mut());
    }
    resp
}

async fn dify_answer(state: &AppState, who: &Principal, body: &Bytes) -> Response {
    let req: Value = match serde_json::from_slice(body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => {
            return dify_error(
                StatusCode::BAD_REQUEST,
                1001,
                "the body must be a JSON object",
            );
        }
        Err(e) => return dify_error(StatusCode::BAD_REQUEST, 1001, format!("invalid JSON: {e}")),
    };
    let Some(knowledge_id) = req["knowledge_id"]
        .as_str()
        .filter(|s| !s.trim().is_empty())
    else {
        return dify_error(
            StatusCode::BAD_REQUEST,
            1001,
            "knowledge_id (string) is required",
        );
    };
    let Some(query) = req["query"].as_str().filter(|s| !s.trim().is_empty()) else {
        return dify_error(StatusCode::BAD_REQUEST, 1001, "query (string) is required");
    };
    let top_k = match &req["retrieval_setting"]["top_k"] {
        Value::Null => 5,
        v => match v
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 1.0 && *f <= 100.0)
        {
            Some(f) => f as usize,
            None => {
                return dify_error(
                    StatusCode::BAD_REQUEST,
                    1001,
                    "retrieval_setting.top_k must be an integer from 1 to 100",
                );
            }
        },
    };
    let threshold = match &req["retrieval_setting"]["score_threshold"] {
        Value::Null => 0.0,
        v => match v.as_f64().filter(|f| (0.0..=1.0).contains(f)) {
            Some(f) => f,
            None => {
                return dify_error(
                    StatusCode::BAD_REQUEST,
                    1001,
                    "retrieval_setting.score_threshold must be a number from 0 to 1",
                );
            }
        },
    };
    let conditions = match Conditions::parse(&req["metadata_condition"]) {
        Ok(c) => c,
        Err(m) => return dify_error(StatusCode::BAD_REQUEST, 1001, m),
    };
    // The knowledge base: a repository or workspace of this key's organisation.
    let all_in_org = match crate::sources::visible(
        &state.catalog,
        &Principal {
            scope: None,
            ..who.clone()
        },
    )
    .await
    {
        Ok(v) => v,
        Err(e) => {
            tracing::error!(error = %e, "retrieval failed");
            return dify_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                2001,
                "internal server error",
            );
        }
    };
    if !all_in_org
        .iter()
        .any(|s| s.id == knowledge_id || s.name.eq_ignore_ascii_case(knowledge_id))
    {
        return dify_error(
            StatusCode::NOT_FOUND,
            1003,
            format!("knowledge base '{knowledge_id}' does not exist"),
        );
    }
    let visible = crate::sources::visible(&state.catalog, who)
        .await
        .unwrap_or_default();
    if !visible
        .iter()
        .any(|s| s.id == knowledge_id || s.name.eq_ignore_ascii_case(knowledge_id))
    {
        return dify_error(
            StatusCode::FORBIDDEN,
            1002,
            format!("this key may not access '{knowledge_id}'"),
        );
    }
    match retrieve(
        &state,
        &who,
        knowledge_id,
        query,
        top_k,
        threshold,
        &conditions,
    )
    .await
    {
        Ok(records) => Json(json!({"records": records})).into_response(),
        Err(e) if e.code == "internal_error" => dify_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            2001,
            "internal server error",
        ),
        Err(e) => dify_error(StatusCode::BAD_REQUEST, 1001, e.message),
    }
}

async fn retrieve(
    state: &AppState,
    who: &Principal,
    knowledge_id: &str,
    query: &str,
    top_k: usize,
    threshold: f64,
    conditions: &Conditions,
) -> Result<Vec<Value>, crate::tools::ToolError> {
    let search = |args: Value| async move {
        let Value::Object(m) = args else {
            unreachable!()
        };
        crate::tools::run(state, who, "semantic_search", m).await
    };
    // Over-fetch so metadata filtering and the threshold still leave top_k.
    let found = search(json!({"question": query, "data_sources": [knowledge_id], "max_results": (top_k * 5).min(500)})).await?.obj;
    let results = found["results"].as_array().cloned().unwrap_or_default();
    let best = results
        .iter()
        .filter_map(|r| r["score"].as_f64())
        .fold(0.0_f64, f64::max);
    let stored = stored_languages(state, who, knowledge_id, &results).await;
    let mut kept: Vec<(Value, f64, Map<String, Value>)> = Vec::new();
    for r in results {
        let path = r["location"]["path"].as_str().unwrap_or("").to_string();
        let ext = path
            .rsplit_once('.')
            .map(|(_, e)| e.to_string())
            .filter(|e| !e.contains('/'))
            .unwrap_or_default();
        let language = match stored.get(&path) {
            Some(l) => l.as_str(),
            None => quarry_analysis::lang::Lang::detect(&path)
                .map(|l| l.name())
                .unwrap_or("text"),
        };
        let mut meta = Map::new();
        meta.insert("path".into(), json!(path));
        meta.insert("file_extension".into(), json!(ext));
        meta.insert("language".into(), json!(language));
        meta.insert("kind".into(), r["kind"].clone());
        meta.insert("identifier".into(), r["identifier"].clone());
        meta.insert("data_source".into(), r["dataSource"]["name"].clone());
        meta.insert(
            "start_line".into(),
            r["location"]["range"]["start"]["line"].clone(),
        );
        meta.insert(
            "end_line".into(),
            r["location"]["range"]["end"]["line"].clone(),
        );
        if !conditions.admit(&meta) {
            continue;
        }
        let score = if best > 0.0 {
            r["score"].as_f64().unwrap_or(0.0) / best
        } else {
            0.0
        };
        if score < threshold {
            continue;
        }
        kept.push((r, (score * 10000.0).round() / 10000.0, meta));
        if kept.len() == top_k {
            break;
        }
    }
    if kept.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<Value> = kept
        .iter()
        .map(|(r, _, _)| r["identifier"].clone())
        .collect();
    let fetched = crate::tools::run(
        state,
        who,
        "fetch_artifacts",
        match json!({"identifiers": ids}) {
            Value::Object(m) => m,
            _ => Map::new(),
        },
    )
    .await?
    .obj;
    let arts = fetched["artifacts"].as_array().cloned().unwrap_or_default();
    Ok(kept
        .into_iter()
        .zip(arts)
        .map(|((r, score, meta), a)| {
            json!({
                "content": a["content"].as_str().unwrap_or_else(|| r["description"].as_str().unwrap_or("")),
                "score": score,
                "title": r["identifier"],
                "metadata": meta,
            })
        })
        .collect())
}

/// The stored language of results' files whose language their content decides (a `.h`
/// header is C or C++), by path: the path alone says C. Empty when there are none, or the
/// lookup fails (the path's language is used then).
async fn stored_languages(
    state: &AppState,
    who: &Principal,
    knowledge_id: &str,
    results: &[Value],
) -> std::collections::HashMap<String, String> {
    let mut paths: Vec<&str> = results
        .iter()
        .filter_map(|r| r["location"]["path"].as_str())
        .filter(|p| quarry_analysis::lang::content_decides(p))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    if paths.is_empty() {
        return Default::default();
    }
    let list: Vec<String> = paths
        .iter()
        .map(|p| format!("'{}'", p.replace('\'', "''")))
        .collect();
    let statement = format!(
        "SELECT path, language FROM files WHERE path IN ({}) LIMIT 1000",
        list.join(", ")
    );
    let args = json!({"statement": statement, "data_sources": [knowledge_id]});
    let Value::Object(args) = args else {
        return Default::default();
    };
    let Ok(out) = crate::tools::run(state, who, "query_artifact_metadata", args).await else {
        return Default::default();
    };
    out.obj["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|row| {
            Some((
                row["path"].as_str()?.to_string(),
                row["language"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// `metadata_condition` (Dify): conditions on record metadata joined by `and`/`or`.
pub struct Conditions {
    any: bool,
    items: Vec<(Vec<String>, String, Option<Value>)>,
}

const OPERATORS: &[&str] = &[
    "contains",
    "not contains",
    "start with",
    "end with",
    "is",
    "is not",
    "in",
    "not in",
    "empty",
    "not empty",
    "=",
    "≠",
    "!=",
    ">",
    "<",
    "≥",
    ">=",
    "≤",
    "<=",
    "before",
    "after",
];

impl Conditions {
    pub fn parse(v: &Value) -> Result<Self, String> {
        if v.is_null() {
            return Ok(Conditions {
                any: false,
                items: Vec::new(),
            });
        }
        let any = match v["logical_operator"]
            .as_str()
            .unwrap_or("and")
            .to_ascii_lowercase()
            .as_str()
        {
            "and" => false,
            "or" => true,
            other => {
                return Err(format!(
                    "metadata_condition.logical_operator must be 'and' or 'or', not '{other}'"
                ));
            }
        };
        let mut items = Vec::new();
        for c in v["conditions"].as_array().cloned().unwrap_or_default() {
            let names: Vec<String> = match &c["name"] {
                Value::String(s) => vec![s.clone()],
                Value::Array(a) => a
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                _ => return Err("each condition needs a name (array of strings)".into()),
            };
            let op = c["comparison_operator"].as_str().unwrap_or("").to_string();
            if !OPERATORS.contains(&op.as_str()) {
                return Err(format!(
                    "unknown comparison_operator '{op}'; one of: {}",
                    OPERATORS.join(", ")
                ));
            }
            let value = match &c["value"] {
                Value::Null => None,
                other => Some(other.clone()),
            };
            items.push((names, op, value));
        }
        Ok(Conditions { any, items })
    }

    pub fn admit(&self, meta: &Map<String, Value>) -> bool {
        if self.items.is_empty() {
            return true;
        }
        let mut results = self.items.iter().map(|(names, op, value)| {
            names
                .iter()
                .any(|n| test(meta.get(n.as_str()), op, value.as_ref()))
        });
        if self.any {
            results.any(|x| x)
        } else {
            results.all(|x| x)
        }
    }
}

fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn test(field: Option<&Value>, op: &str, value: Option<&Value>) -> bool {
    let f = field.map(as_text).unwrap_or_default();
    let v = value.map(as_text).unwrap_or_default();
    let list = || -> Vec<String> {
        match value {
            Some(Value::Array(a)) => a.iter().map(as_text).collect(),
            _ => v.split(',').map(|s| s.trim().to_string()).collect(),
        }
    };
    let num = |s: &str| s.parse::<f64>().ok();
    let cmp = |o: fn(f64, f64) -> bool| match (num(&f), num(&v)) {
        (Some(a), Some(b)) => o(a, b),
        _ => false,
    };
    match op {
        "contains" => f.contains(&v),
        "not contains" => !f.contains(&v),
        "start with" => f.starts_with(&v),
        "end with" => f.ends_with(&v),
        "is" | "=" => f == v,
        "is not" | "≠" | "!=" => f != v,
        "in" => list().contains(&f),
        "not in" => !list().contains(&f),
        "empty" => f.is_empty(),
        "not empty" => !f.is_empty(),
        ">" | "after" => cmp(|a, b| a > b) || (num(&f).is_none() && op == "after" && f > v),
        "<" | "before" => cmp(|a, b| a < b) || (num(&f).is_none() && op == "before" && f < v),
        "≥" | ">=" => cmp(|a, b| a >= b),
        "≤" | "<=" => cmp(|a, b| a <= b),
        _ => false,
    }
}

/// Turns kept per stored conversation.
pub const MAX_TURNS: usize = 40;

/// `POST /api/chat/completions` (OpenAI-compatible). The conversation is stored per
/// organisation under `conversation_id` (minted when absent, returned on every response); its
/// earlier user turns, with the request's own earlier messages, give retrieval context. The
/// answer is the `chat` tool's (LLM or extractive).
pub async fn chat_completions(
    State(state): State<AppState>,
    Extension(who): Extension<Principal>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req = parse_json_body(&headers, &body)?;
    let bad = |m: &str| ApiError::new(StatusCode::BAD_REQUEST, "INVALID_PARAMETER", m.to_string());
    let messages = req["messages"]
        .as_array()
        .ok_or_else(|| bad("messages (an array of {role, content}) is required"))?;
    let mut question = String::new();
    let mut earlier: Vec<String> = Vec::new();
    for m in messages {
        let role = m["role"]
            .as_str()
            .ok_or_else(|| bad("each message needs a role"))?;
        let content = match &m["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => return Err(bad("each message needs content (a string)")),
        };
        if role == "user" {
            if !question.is_empty() {
                earlier.push(std::mem::take(&mut question));
            }
            question = content;
        }
    }
    if question.trim().is_empty() {
        return Err(bad("no user message to answer"));
    }
    // Data sources: dataSources [{type, id}], names, or datasource_ids; else the key's scope.
    let mut refs: Vec<String> = Vec::new();
    for d in req["dataSources"].as_array().into_iter().flatten() {
        if let Some(id) = d["id"].as_str() {
            refs.push(id.to_string());
        }
    }
    for key in ["names", "datasource_ids"] {
        for n in req[key].as_array().into_iter().flatten() {
            if let Some(s) = n.as_str() {
                refs.push(s.to_string());
            }
        }
    }
    // The conversation: stored per organisation under `conversation_id` (minted when absent).
    let conversation_id = match &req["conversation_id"] {
        Value::Null => quarry_storage::catalog::new_id("conv"),
        Value::String(c) if quarry_storage::catalog::valid_id(c) => c.clone(),
        _ => {
            return Err(bad(
                "conversation_id must be 1-64 letters, digits, '_' or '-'",
            ));
        }
    };
    let now = quarry_storage::catalog::now_rfc3339();
    let mut conversation = state
        .catalog
        .conversation(&who.org, &conversation_id)
        .await
        .map_err(ApiError::internal)?
        .unwrap_or_else(|| quarry_storage::Conversation {
            id: conversation_id.clone(),
            org: who.org.clone(),
            turns: Vec::new(),
            created_at: now.clone(),
            updated_at: now.clone(),
        });
    // Earlier user turns (stored, then this request's) give retrieval their context.
    let mut context: Vec<String> = conversation
        .turns
        .iter()
        .filter(|t| t.role == "user")
        .map(|t| t.content.clone())
        .collect();
    context.extend(earlier);
    let skip = context.len().saturating_sub(3);
    let recent = &context[skip..];
    let full_question = if recent.is_empty() {
        question.clone()
    } else {
        format!("{} {}", recent.join(" "), question)
    };
    let mut args = Map::new();
    args.insert("question".into(), json!(full_question));
    if !refs.is_empty() {
        args.insert("data_sources".into(), json!(refs));
    }
    let out = crate::tools::run(&state, &who, "chat", args)
        .await
        .map_err(crate::rest::tool_error)?;
    let answer = out.obj["answer"].as_str().unwrap_or("").to_string();
    conversation.turns.push(quarry_storage::Turn {
        role: "user".into(),
        content: question.clone(),
    });
    conversation.turns.push(quarry_storage::Turn {
        role: "assistant".into(),
        content: answer.clone(),
    });
    let keep = conversation.turns.len().saturating_sub(MAX_TURNS);
    conversation.turns.drain(..keep);
    conversation.updated_at = now;
    state
        .catalog
        .put_conversation(&conversation)
        .await
        .map_err(ApiError::internal)?;
    let id = format!(
        "chatcmpl-{}",
        quarry_storage::catalog::new_id("c").trim_start_matches("c_")
    );
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let model = req["model"].as_str().unwrap_or("quarry").to_string();
    let prompt_tokens = (full_question.len() / 4) as u64;
    let completion_tokens = (answer.len() / 4) as u64;
    if req["stream"].as_bool() == Some(true) {
        let chunk = |delta: Value, finish: Value| {
            json!({"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
                   "conversation_id": conversation_id,
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        let mut sse = String::new();
        sse.push_str(&format!(
            "data: {}\n\n",
            chunk(json!({"role": "assistant", "content": ""}), Value::Null)
        ));
        for piece in split_pieces(&answer, 200) {
            sse.push_str(&format!(
                "data: {}\n\n",
                chunk(json!({"content": piece}), Value::Null)
            ));
        }
        sse.push_str(&format!("data: {}\n\n", chunk(json!({}), json!("stop"))));
        sse.push_str("data: [DONE]\n\n");
        return Ok((
            [
                ("content-type", "text/event-stream"),
                ("cache-control", "no-cache"),
            ],
            sse,
        )
            .into_response());
    }
    Ok(Json(json!({
        "id": id,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "conversation_id": conversation_id,
        "citations": out.obj["citations"],
        "choices": [{"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
    }))
    .into_response())
}

/// Split text into pieces of about `n` bytes at character boundaries.
fn split_pieces(s: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in s.chars() {
        cur.push(ch);
        if cur.len() >= n {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
