//! MCP at `/api/mcp`: the eleven tools over streamable HTTP, served by `rmcp`.
//!
//! The bearer key is checked by the same middleware as every other `/api` route before rmcp
//! sees the request (401 otherwise); the authenticated [`Principal`] travels in the HTTP
//! request's extensions, which rmcp hands to the handler as `http::request::Parts`. Each call
//! goes through the Tool API's one mechanism (`tools::call`): the `rendered` text becomes the
//! content, `obj` the `structuredContent` (always: every tool declares an `outputSchema`, see
//! `tools/outputs.rs`, so `output_format` only picks the text), and a repairable error an
//! `isError: true` result carrying both. Stateless (no sessions), JSON responses; both protocol revisions rmcp serves
//! (2025-11-25 and 2026-07-28) work.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;

use crate::http::AppState;
use crate::sources::Principal;

/// Hosts accepted by default (DNS-rebinding protection); `--mcp-allowed-hosts` widens it.
pub const DEFAULT_ALLOWED_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1"];

#[derive(Clone)]
pub struct QuarryMcp {
    state: AppState,
}

fn tool_list() -> Vec<Tool> {
    crate::tools::tools()
        .into_iter()
        .map(|t| {
            let mut schema = (t.input_schema)();
            if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
                props.insert(
                    "output_format".into(),
                    serde_json::json!({"type": ["string", "null"], "enum": ["json", "agentic", null],
                        "description": "What the text content holds: the agent-facing rendering (omitted or agentic) or the JSON of the structured result (json). structuredContent is always the structured result."}),
                );
            }
            let object = |v: Value| match v {
                Value::Object(o) => o,
                _ => JsonObject::new(),
            };
            let output = object(t.obj_schema());
            let schema = object(schema);
            let mut annotations = ToolAnnotations::new();
            annotations.read_only_hint = Some(true);
            annotations.destructive_hint = Some(false);
            annotations.idempotent_hint = Some(true);
            annotations.open_world_hint = Some(false);
            let mut tool = Tool::new(t.name, t.description, Arc::new(schema));
            tool.annotations = Some(annotations);
            tool.output_schema = Some(Arc::new(output));
            tool
        })
        .collect()
}

impl ServerHandler for QuarryMcp {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("quarry", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Quarry answers questions about indexed code. Call get_data_sources first; then semantic_search and/or grep_search; then fetch_artifacts (read_file as fallback) and get_artifact_relationships. Use chat only for synthesis.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let who = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|p| p.extensions.get::<Principal>())
            .cloned()
            .ok_or_else(|| ErrorData::internal_error("request not authenticated", None))?;
        let name = request.name.to_string();
        if !crate::tools::tools().iter().any(|t| t.name == name) {
            return Err(ErrorData::invalid_params(
                format!("unknown tool '{name}'"),
                None,
            ));
        }
        let mut args = request.arguments.unwrap_or_default();
        // The declared outputSchema obliges structuredContent on every result, so over MCP
        // output_format only chooses what the text content holds.
        let json_text = match args.remove("output_format") {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) if s == "agentic" => false,
            Some(Value::String(s)) if s == "json" => true,
            Some(other) => {
                return Err(ErrorData::invalid_params(
                    format!("unknown output_format {other}; use \"json\", \"agentic\" or omit it"),
                    None,
                ));
            }
        };
        let envelope = crate::tools::call(&self.state, &who, &name, Value::Object(args))
            .await
            .map_err(|e| ErrorData::invalid_params(e.0, None))?;
        let obj = envelope.get("obj").cloned();
        let is_error = obj.as_ref().is_some_and(|o| o.get("error").is_some());
        let rendered = envelope
            .get("rendered")
            .and_then(Value::as_str)
            .filter(|_| !json_text || is_error)
            .map(str::to_string);
        let text =
            rendered.unwrap_or_else(|| obj.as_ref().map(Value::to_string).unwrap_or_default());
        let mut result = if is_error {
            CallToolResult::error(vec![ContentBlock::text(text)])
        } else {
            CallToolResult::success(vec![ContentBlock::text(text)])
        };
        result.structured_content = obj;
        Ok(result.into())
    }
}

/// A JSON-RPC error response.
fn rpc_error(
    status: axum::http::StatusCode,
    id: Value,
    code: i32,
    message: &str,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    (status, axum::Json(body)).into_response()
}

/// What rmcp would answer imprecisely, answered before it: a JSON-RPC batch (which the
/// streamable HTTP transport does not take) gets a JSON-RPC `-32600` instead of a plain-text
/// 415, and `tools/call` whose `arguments` is not an object gets `-32602` (invalid params)
/// instead of `-32601`.
pub async fn screen(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::StatusCode;
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, crate::http::MAX_BODY_BYTES).await {
        Ok(b) => b,
        Err(_) => {
            return rpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                Value::Null,
                -32600,
                &format!(
                    "the request is larger than {} bytes",
                    crate::http::MAX_BODY_BYTES
                ),
            );
        }
    };
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Array(_)) => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                -32600,
                "JSON-RPC batches are not supported: send one request per HTTP request",
            );
        }
        Ok(Value::Object(m)) if m.get("method").and_then(Value::as_str) == Some("tools/call") => {
            let args = m.get("params").and_then(|p| p.get("arguments"));
            if args.is_some_and(|a| !a.is_object() && !a.is_null()) {
                return rpc_error(
                    StatusCode::OK,
                    m.get("id").cloned().unwrap_or(Value::Null),
                    -32602,
                    "tools/call 'arguments' must be an object of the tool's arguments, e.g. {\"query\": \"…\"}",
                );
            }
        }
        _ => {}
    }
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

/// The MCP service to mount at `/api/mcp` (behind the bearer middleware).
pub fn service(
    state: AppState,
    allowed_hosts: Vec<String>,
) -> StreamableHttpService<QuarryMcp, NeverSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_allowed_hosts(allowed_hosts);
    StreamableHttpService::new(
        move || {
            Ok(QuarryMcp {
                state: state.clone(),
            })
        },
        Arc::new(NeverSessionManager::default()),
        config,
    )
}
