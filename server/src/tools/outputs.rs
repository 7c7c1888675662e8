//! The shape of every tool's `obj` as JSON Schema (draft 2020-12).
//!
//! Declared as MCP `outputSchema` (so `structuredContent` must conform — the official Python
//! client checks it on every call) and as the `obj` of the OpenAPI 200 response (schemathesis
//! checks every response against it). Each tool's schema is `anyOf` its success shape and the
//! repairable error shape of docs/tools.md, "Repairable errors", because a repairable error is a normal result.
//!
//! The schemas name every field the tools write and mark the ones always present as required;
//! objects stay open (`additionalProperties` is not false) so adding a field is not a breaking
//! change for clients that validate.

use serde_json::{Value, json};

fn s() -> Value {
    json!({"type": "string"})
}
fn i() -> Value {
    json!({"type": "integer"})
}
fn n() -> Value {
    json!({"type": "number"})
}
fn b() -> Value {
    json!({"type": "boolean"})
}
fn arr(items: Value) -> Value {
    json!({"type": "array", "items": items})
}
/// `schema` or null.
fn opt(schema: Value) -> Value {
    json!({"anyOf": [schema, {"type": "null"}]})
}
fn strings(values: &[&str]) -> Value {
    json!({"type": "string", "enum": values})
}

/// An object whose listed fields are all required.
fn obj(fields: &[(&str, Value)]) -> Value {
    obj_with(fields, &[])
}

/// An object with required `fields` and `optional` ones.
fn obj_with(fields: &[(&str, Value)], optional: &[(&str, Value)]) -> Value {
    let mut props = serde_json::Map::new();
    for (k, v) in fields.iter().chain(optional) {
        props.insert((*k).to_string(), v.clone());
    }
    let required: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    json!({"type": "object", "properties": props, "required": required})
}

fn source_ref() -> Value {
    obj(&[
        ("type", strings(&["Repository", "Workspace"])),
        ("id", s()),
        ("name", s()),
    ])
}

fn position() -> Value {
    obj(&[("line", i()), ("character", i())])
}

fn location() -> Value {
    obj(&[
        ("path", s()),
        ("range", obj(&[("start", position()), ("end", position())])),
    ])
}

/// The search result fields (docs/tools.md, "semantic_search") shared by semantic and grep results.
fn search_result(extra: &[(&str, Value)]) -> Value {
    let mut fields = vec![
        ("kind", s()),
        ("dataSource", opt(source_ref())),
        ("identifier", s()),
        ("location", location()),
        ("score", n()),
        ("description", s()),
        ("contentByteSize", i()),
    ];
    fields.extend(extra.iter().cloned());
    obj(&fields)
}

/// The repairable error (docs/tools.md, "Repairable errors") (diagnostics add fields such as `position` and `caret`).
pub fn error() -> Value {
    obj(&[(
        "error",
        obj(&[
            ("code", s()),
            ("message", s()),
            ("retry", s()),
            ("try", s()),
        ]),
    )])
}

pub fn get_data_sources() -> Value {
    let source = obj_with(
        &[
            ("id", s()),
            ("name", s()),
            ("type", strings(&["Repository", "Workspace"])),
            ("fullName", opt(s())),
            ("url", opt(s())),
            ("branch", opt(s())),
            ("repositoryIds", opt(arr(s()))),
            ("description", opt(s())),
            (
                "readiness",
                strings(&["NotReady", "PartiallyReady", "Ready"]),
            ),
        ],
        &[("relevanceReason", s())],
    );
    obj(&[
        ("data_sources", arr(source)),
        (
            "relevance_status",
            strings(&["not_requested", "skipped", "failed_open", "succeeded"]),
        ),
        ("total_available", i()),
        ("billed", b()),
        ("hint", s()),
        (
            "warnings",
            arr(obj_with(&[("code", s()), ("message", s())], &[])),
        ),
    ])
}

pub fn semantic_search() -> Value {
    obj(&[("results", arr(search_result(&[]))), ("hint", s())])
}

pub fn grep_search() -> Value {
    let context_line = obj(&[("lineNumber", i()), ("lineText", s())]);
    let matched = obj(&[
        ("lineNumber", i()),
        ("startColumn", i()),
        ("endColumn", i()),
        ("lineText", s()),
        ("remark", s()),
        ("contextLines", arr(context_line)),
    ]);
    let result = search_result(&[
        ("startLine", i()),
        ("endLine", i()),
        ("matchCount", i()),
        ("matches", arr(matched)),
        ("matchedByName", b()),
        ("summary", s()),
    ]);
    obj(&[
        ("results", arr(result)),
        ("totalMatches", i()),
        ("truncated", b()),
        ("dataSourceIds", arr(s())),
        ("hint", s()),
    ])
}

pub fn get_file_tree() -> Value {
    let tree = obj(&[
        ("dataSource", source_ref()),
        ("fullName", opt(s())),
        ("path", s()),
        ("found", b()),
        ("tree", s()),
        ("nodeCount", i()),
        ("truncated", b()),
    ]);
    obj(&[("trees", arr(tree)), ("hint", s())])
}

pub fn get_artifact_relationships() -> Value {
    let item = obj(&[
        ("identifier", s()),
        ("filePath", s()),
        ("startLine", opt(i())),
        ("shortSummary", s()),
        ("siteLine", i()),
        ("sites", i()),
    ]);
    let relationship = obj_with(
        &[
            (
                "relationType",
                strings(&[
                    "OutgoingCalls",
                    "IncomingCalls",
                    "Ancestors",
                    "Descendants",
                    "References",
                ]),
            ),
            ("totalCount", i()),
            ("returnedCount", i()),
            ("truncated", b()),
            ("items", arr(item)),
        ],
        &[("unresolvedCallees", arr(s()))],
    );
    let counts = obj(&[
        ("outgoingCalls", i()),
        ("incomingCalls", i()),
        ("ancestors", i()),
        ("descendants", i()),
        ("references", i()),
    ]);
    obj(&[
        ("sourceIdentifier", s()),
        ("profile", s()),
        ("found", b()),
        ("relationships", arr(relationship)),
        ("availableRelationshipCounts", counts),
        ("hint", s()),
    ])
}

pub fn query_artifact_metadata() -> Value {
    let cell = json!({"type": ["string", "integer", "number", "boolean", "null"]});
    obj(&[
        ("rawStatement", s()),
        ("version", strings(&["V1"])),
        (
            "resultShape",
            strings(&["Rows", "Aggregate", "GroupedAggregate"]),
        ),
        ("columns", arr(s())),
        (
            "rows",
            arr(json!({"type": "object", "additionalProperties": cell})),
        ),
        ("returnedRows", i()),
        ("truncated", b()),
        ("limit", i()),
        ("dataSourceIds", arr(s())),
    ])
}

pub fn get_artifact_query_schema() -> Value {
    let field = obj(&[("name", s()), ("type", s()), ("description", s())]);
    let entity = obj(&[("name", s()), ("description", s()), ("fields", arr(field))]);
    obj(&[
        ("dsl_version", strings(&["artifactquery/v1"])),
        ("entity", s()),
        ("entities", arr(s())),
        ("fields", arr(s())),
        ("relationships", arr(s())),
        ("operators", arr(s())),
        ("aggregates", arr(s())),
        ("required_limit", b()),
        ("max_limit", i()),
        ("entity_details", arr(entity)),
        ("examples", arr(s())),
    ])
}

pub fn read_file() -> Value {
    let file = obj(&[
        ("identifier", s()),
        ("path", s()),
        ("dataSource", opt(source_ref())),
        ("fullName", opt(s())),
        ("startLine", i()),
        ("endLine", i()),
        ("totalLines", i()),
        ("contentByteSize", i()),
        ("numberedContent", s()),
    ]);
    let candidate = obj(&[
        ("path", s()),
        ("identifier", s()),
        ("dataSource", opt(source_ref())),
    ]);
    obj(&[
        ("found", b()),
        ("files", arr(file)),
        ("candidates", arr(candidate.clone())),
        ("sameNameCandidates", arr(candidate)),
        ("sameNameTotalCount", i()),
        ("hint", s()),
    ])
}

pub fn fetch_artifacts() -> Value {
    let preview = obj(&[("identifier", s()), ("summary", s())]);
    let relationships = obj(&[
        ("incomingCallsCount", i()),
        ("incomingCalls", arr(preview.clone())),
        ("outgoingCallsCount", i()),
        ("outgoingCalls", arr(preview)),
    ]);
    // Found artifacts carry everything; a missing one is just {identifier, found: false}.
    let artifact = obj_with(
        &[("identifier", s()), ("found", b())],
        &[
            ("kind", s()),
            ("path", s()),
            ("dataSource", opt(source_ref())),
            ("content", s()),
            ("contentByteSize", i()),
            ("contentTruncated", b()),
            ("startLine", i()),
            ("endLine", i()),
            ("signature", s()),
            ("summary", s()),
            ("relationships", relationships),
        ],
    );
    obj(&[("artifacts", arr(artifact)), ("hint", s())])
}

pub fn chat() -> Value {
    obj(&[
        ("answer", s()),
        ("stateless", json!({"const": true})),
        ("citations", arr(s())),
        ("mode", s()),
        ("hint", s()),
    ])
}

pub fn get_repository_ontology() -> Value {
    obj(&[
        ("repository_count", i()),
        ("dataSource", source_ref()),
        ("content", s()),
    ])
}

/// The schema of `obj` for a tool whose success shape is `success`.
pub fn obj_schema(success: Value) -> Value {
    json!({"type": "object", "anyOf": [success, error()]})
}
