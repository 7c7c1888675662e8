//! `get_artifact_relationships`: the code graph around one artifact.

use quarry_planner::tools::{self as plans, Direction};
use serde_json::{Value, json};

use super::args::{self, DEFAULT_PER_TYPE, MAX_PER_TYPE, Profile};
use super::render::abridged;
use super::{Call, RowExt, ToolError, ToolOutput, ToolResult, execute};

/// A relationship type: its name in results, the edge kinds behind it and the direction.
struct RelType {
    name: &'static str,
    kinds: &'static [&'static str],
    direction: Direction,
}

const OUTGOING_CALLS: RelType = RelType {
    name: "OutgoingCalls",
    kinds: &["calls"],
    direction: Direction::Outgoing,
};
const INCOMING_CALLS: RelType = RelType {
    name: "IncomingCalls",
    kinds: &["calls"],
    direction: Direction::Incoming,
};
const ANCESTORS: RelType = RelType {
    name: "Ancestors",
    kinds: &["inherits", "implements"],
    direction: Direction::Outgoing,
};
const DESCENDANTS: RelType = RelType {
    name: "Descendants",
    kinds: &["inherits", "implements"],
    direction: Direction::Incoming,
};
const REFERENCES: RelType = RelType {
    name: "References",
    kinds: &["references"],
    direction: Direction::Incoming,
};

fn types(p: Profile) -> Vec<RelType> {
    match p {
        Profile::CallsOnly => vec![OUTGOING_CALLS, INCOMING_CALLS],
        Profile::InheritanceOnly => vec![ANCESTORS, DESCENDANTS],
        Profile::AllRelevant => vec![OUTGOING_CALLS, INCOMING_CALLS, ANCESTORS, DESCENDANTS],
        Profile::ReferencesOnly => vec![REFERENCES],
    }
}

fn profile_name(p: Profile) -> &'static str {
    match p {
        Profile::CallsOnly => "CallsOnly",
        Profile::InheritanceOnly => "InheritanceOnly",
        Profile::AllRelevant => "AllRelevant",
        Profile::ReferencesOnly => "ReferencesOnly",
    }
}

/// Unresolved callee names listed with outgoing calls.
const UNRESOLVED: usize = 20;

pub async fn relationships(call: &Call<'_>, a: args::GetArtifactRelationships) -> ToolResult {
    let id = a.identifier.trim().to_string();
    if !id.contains("::") {
        return Err(ToolError::new(
            "invalid_argument",
            format!(
                "'{id}' is not an artifact identifier (owner/repo::path or owner/repo::path::Symbol)"
            ),
            "Pass an identifier exactly as semantic_search, grep_search or fetch_artifacts return it",
        ));
    }
    let max = a.max_count_per_type.unwrap_or(DEFAULT_PER_TYPE);
    if !(1..=MAX_PER_TYPE).contains(&max) {
        return Err(ToolError::new(
            "invalid_argument",
            format!("max_count_per_type must be between 1 and {MAX_PER_TYPE}, not {max}"),
            format!(
                "Pass max_count_per_type between 1 and {MAX_PER_TYPE} (default {DEFAULT_PER_TYPE})"
            ),
        ));
    }
    let profile = a.profile.unwrap_or_default();
    let repos = super::files::repositories_holding(
        call,
        a.data_source.as_deref(),
        std::slice::from_ref(&id),
    )
    .await?;
    let (_, ctx) = call.session(&repos).await?;
    let ids = vec![id.clone()];
    let found = !repos.is_empty()
        && (!execute(&ctx, plans::summaries(&ctx, &ids).await)
            .await?
            .is_empty()
            || !execute(&ctx, plans::files_by_identifier(&ctx, &ids).await)
                .await?
                .is_empty());
    if !found {
        return Ok(ToolOutput::json(json!({
            "sourceIdentifier": id,
            "profile": profile_name(profile),
            "found": false,
            "relationships": [],
            "availableRelationshipCounts": {"outgoingCalls": 0, "incomingCalls": 0, "ancestors": 0, "descendants": 0, "references": 0},
            "hint": "No visible artifact has this identifier. Pass it exactly as the search tools return it; semantic_search or grep_search find current identifiers.",
        })));
    }
    let counts = execute(&ctx, plans::relationship_counts(&ctx, &id).await).await?;
    let count = |dir: &str, kinds: &[&str]| -> i64 {
        counts
            .iter()
            .filter(|r| r.s("direction") == dir && kinds.contains(&r.s("kind")))
            .map(|r| r.i("n"))
            .sum()
    };
    let mut rels = Vec::new();
    for t in types(profile) {
        let dir = match t.direction {
            Direction::Outgoing => "out",
            Direction::Incoming => "in",
        };
        let total = count(dir, t.kinds);
        let rows = execute(
            &ctx,
            plans::related(&ctx, &id, t.kinds, t.direction, max as usize + 1).await,
        )
        .await?;
        let truncated = rows.len() > max as usize;
        let items: Vec<Value> = rows
            .iter()
            .take(max as usize)
            .map(|r| {
                let related = r.s("related");
                let path = r
                    .opt_s("path")
                    .map(str::to_string)
                    .unwrap_or_else(|| related.split("::").nth(1).unwrap_or("").to_string());
                json!({
                    "identifier": related,
                    "filePath": path,
                    "startLine": r.get("start_line").cloned().unwrap_or(Value::Null),
                    "shortSummary": r.opt_s("summary").unwrap_or(if r.opt_s("path").is_none() { "module level" } else { "" }),
                    "siteLine": r.i("line"),
                    "sites": r.i("sites"),
                })
            })
            .collect();
        let mut rel = json!({
            "relationType": t.name,
            "totalCount": total,
            "returnedCount": items.len(),
            "truncated": truncated,
            "items": items,
        });
        if t.name == "OutgoingCalls" {
            let un = execute(
                &ctx,
                plans::unresolved_targets(&ctx, &id, t.kinds, UNRESOLVED).await,
            )
            .await?;
            rel["unresolvedCallees"] = un
                .iter()
                .map(|r| Value::String(r.s("target_name").to_string()))
                .collect();
        }
        rels.push(rel);
    }
    let obj = json!({
        "sourceIdentifier": id,
        "profile": profile_name(profile),
        "found": true,
        "relationships": rels,
        "availableRelationshipCounts": {
            "outgoingCalls": count("out", &["calls"]),
            "incomingCalls": count("in", &["calls"]),
            "ancestors": count("out", &["inherits", "implements"]),
            "descendants": count("in", &["inherits", "implements"]),
            "references": count("in", &["references"]),
        },
        "hint": "Fetch related code with fetch_artifacts (identifiers as listed); other profiles: calls_only, inheritance_only, references_only, all_relevant.",
    });
    let rendered = abridged(&obj, 25);
    Ok(ToolOutput { obj, rendered })
}
