//! `get_artifact_relationships`: the code graph around one artifact.

use quarry_planner::tools::{self as plans, Direction};
use serde_json::{Value, json};

use super::args::{self, DEFAULT_PER_TYPE, MAX_PER_TYPE, MinConfidence, Profile};
use super::render::abridged;
use super::{Call, RowExt, ToolError, ToolOutput, ToolResult, execute};

/// A relationship type: its name in results, the edge kinds behind it and the direction;
/// whether sites that stayed unresolved may belong in it (calls name their targets, bases are
/// written by name; a reference to an unresolved name is no site of this artifact's), and the
/// field listing the unresolved targets' names, when it has one.
struct RelType {
    name: &'static str,
    kinds: &'static [&'static str],
    direction: Direction,
    has_unresolved_sites: bool,
    unresolved_names: Option<&'static str>,
}

const OUTGOING_CALLS: RelType = RelType {
    name: "OutgoingCalls",
    kinds: &["calls"],
    direction: Direction::Outgoing,
    has_unresolved_sites: true,
    unresolved_names: Some("unresolvedCallees"),
};
const INCOMING_CALLS: RelType = RelType {
    name: "IncomingCalls",
    kinds: &["calls"],
    direction: Direction::Incoming,
    has_unresolved_sites: true,
    unresolved_names: None,
};
const ANCESTORS: RelType = RelType {
    name: "Ancestors",
    kinds: &["inherits", "implements"],
    direction: Direction::Outgoing,
    has_unresolved_sites: true,
    unresolved_names: Some("externalAncestors"),
};
const DESCENDANTS: RelType = RelType {
    name: "Descendants",
    kinds: &["inherits", "implements"],
    direction: Direction::Incoming,
    has_unresolved_sites: false,
    unresolved_names: None,
};
const REFERENCES: RelType = RelType {
    name: "References",
    kinds: &["references"],
    direction: Direction::Incoming,
    has_unresolved_sites: false,
    unresolved_names: None,
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

/// Unresolved callee (and base) names listed with outgoing calls (and ancestors).
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
    let max = args::in_range(
        "max_count_per_type",
        a.max_count_per_type,
        DEFAULT_PER_TYPE,
        (1, MAX_PER_TYPE),
    )?;
    let profile = a.profile.unwrap_or_default();
    let repos = super::files::repositories_holding(
        call,
        a.data_source.as_deref(),
        std::slice::from_ref(&id),
    )
    .await?;
    let (_, ctx) = call.session(&repos).await?;
    let ids = vec![id.clone()];
    // The symbol's own row (its name is what call sites write: `toJson` of `Gson.toJson#2`).
    let symbol = match repos.is_empty() {
        true => Vec::new(),
        false => execute(&ctx, plans::symbols_by_identifier(&ctx, &ids).await).await?,
    };
    let found = !repos.is_empty()
        && (!symbol.is_empty()
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
    let min = a.min_confidence.unwrap_or_default();
    let accepted = min.accepted();
    let counts = execute(&ctx, plans::relationship_counts(&ctx, &id, &accepted).await).await?;
    let all_counts = match min {
        MinConfidence::Guess => counts.clone(),
        _ => {
            let every = MinConfidence::Guess.accepted();
            execute(&ctx, plans::relationship_counts(&ctx, &id, &every).await).await?
        }
    };
    let count_in = |counts: &[serde_json::Map<String, Value>], dir: &str, kinds: &[&str]| -> i64 {
        counts
            .iter()
            .filter(|r| r.s("direction") == dir && kinds.contains(&r.s("kind")))
            .map(|r| r.i("n"))
            .sum()
    };
    let count = |dir: &str, kinds: &[&str]| count_in(&counts, dir, kinds);
    // (A file has no name calls write: nothing unresolved is its caller.)
    let name = symbol.first().map(|s| s.s("name").to_string());
    let mut rels = Vec::new();
    for t in types(profile) {
        let dir = match t.direction {
            Direction::Outgoing => "out",
            Direction::Incoming => "in",
        };
        let total = count(dir, t.kinds);
        let below = count_in(&all_counts, dir, t.kinds) - total;
        let filter = plans::EdgeFilter {
            kinds: t.kinds,
            confidences: &accepted,
        };
        let rows = execute(
            &ctx,
            plans::related(&ctx, &id, &filter, t.direction, max as usize + 1).await,
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
                    "resolution": r.get("resolution").cloned().unwrap_or(Value::Null),
                    "confidence": r.get("confidence").cloned().unwrap_or(Value::Null),
                })
            })
            .collect();
        // Sites that stayed unresolved and may belong here: this artifact's own calls to
        // external or dynamic targets, or calls elsewhere that name it and found nothing.
        let unresolved = match (&name, t.direction) {
            _ if !t.has_unresolved_sites => 0,
            (None, Direction::Incoming) => 0,
            (name, _) => {
                let name = name.as_deref().unwrap_or("");
                let plan = plans::unresolved_sites(&ctx, &id, name, t.kinds, t.direction).await;
                execute(&ctx, plan).await?.first().map_or(0, |r| r.i("n"))
            }
        };
        let mut rel = json!({
            "relationType": t.name,
            "totalCount": total,
            "returnedCount": items.len(),
            "truncated": truncated,
            "complete": below == 0 && unresolved == 0,
            "belowMinConfidence": below,
            "unresolvedSites": unresolved,
            "items": items,
        });
        if let Some(key) = t.unresolved_names {
            let un = execute(
                &ctx,
                plans::unresolved_targets(&ctx, &id, t.kinds, UNRESOLVED).await,
            )
            .await?;
            rel[key] = un
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
        "minConfidence": min.as_str(),
        "hint": "Fetch related code with fetch_artifacts (identifiers as listed); other profiles: calls_only, inheritance_only, references_only, all_relevant. A list that is not complete left out name-only guesses (min_confidence: guess lists them) or has unresolved sites.",
    });
    let rendered = abridged(&obj, 25);
    Ok(ToolOutput { obj, rendered })
}
