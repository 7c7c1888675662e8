//! `get_data_sources`.

use quarry_storage::Readiness;
use serde_json::{Value, json};

use super::render::{attrs, xml_escape};
use super::{Call, ToolOutput, ToolResult, args};
use crate::http::source_json;
use crate::sources::{Relevance, rank_relevance};

pub async fn get_data_sources(call: &Call<'_>, a: args::GetDataSources) -> ToolResult {
    let mut warnings: Vec<Value> = Vec::new();
    if a.alive_only.is_some() {
        warnings.push(json!({
            "code": "deprecated_argument",
            "message": "'alive_only' is deprecated; use 'ready_only'",
            "alias": "alive_only",
            "canonical": "ready_only",
        }));
    }
    let ready_only = a.ready_only.or(a.alive_only).unwrap_or(true);
    let listed: Vec<_> = call
        .visible
        .iter()
        .filter(|s| !ready_only || s.readiness >= Readiness::PartiallyReady)
        .cloned()
        .collect();
    let total = listed.len();
    let query = a.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
    let (status, billed, items): (&str, bool, Vec<Value>) = match query {
        None => (
            "not_requested",
            false,
            listed.iter().map(|s| source_json(s, call.who)).collect(),
        ),
        Some(_) if call.who.public_chat => (
            "skipped",
            false,
            listed.iter().map(|s| source_json(s, call.who)).collect(),
        ),
        Some(q) => match rank_relevance(q, &listed) {
            Relevance::Skipped => (
                "skipped",
                false,
                listed.iter().map(|s| source_json(s, call.who)).collect(),
            ),
            Relevance::NoMatch => (
                "failed_open",
                false,
                listed.iter().map(|s| source_json(s, call.who)).collect(),
            ),
            Relevance::Ranked(ranked) => (
                "succeeded",
                true,
                ranked
                    .into_iter()
                    .map(|(s, reason)| {
                        let mut v = source_json(&s, call.who);
                        v["relevanceReason"] = Value::String(reason);
                        v
                    })
                    .collect(),
            ),
        },
    };
    let hint = if items.is_empty() {
        "No data source is available to this key yet. Index a repository ('quarry index PATH') and try again.".to_string()
    } else {
        "Pass names from this list in 'data_sources' (or 'data_source') of the other tools. Next: semantic_search for concepts, grep_search for exact text, then fetch_artifacts.".to_string()
    };
    let obj = json!({
        "data_sources": items,
        "relevance_status": status,
        "total_available": total,
        "billed": billed,
        "hint": hint,
        "warnings": warnings,
    });
    let mut rendered = format!(
        "<data_sources relevance_status=\"{status}\" count=\"{}\">\n",
        items.len()
    );
    for s in &items {
        let get = |k: &str| s.get(k).and_then(Value::as_str);
        rendered.push_str(&format!(
            "<data_source{} />\n",
            attrs(&[
                ("type", get("type")),
                ("id", get("id")),
                ("name", get("name")),
                ("fullName", get("fullName")),
                ("readiness", get("readiness")),
                ("relevanceReason", get("relevanceReason")),
            ])
        ));
    }
    rendered.push_str("</data_sources>\n");
    for w in &warnings {
        rendered.push_str(&format!(
            "<warning>{}</warning>\n",
            xml_escape(w["message"].as_str().unwrap_or(""))
        ));
    }
    rendered.push_str(&hint);
    Ok(ToolOutput { obj, rendered })
}
