//! The Tool API's OpenAPI 3.1 document ("Tool API v3", version 3.0.0), generated from the
//! tools' own argument types (the same schemas that validate requests).

use serde_json::{Map, Value, json};

use super::tools;

fn error_body() -> Value {
    json!({
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {
            "code": {"type": "string"}, "message": {"type": "string"}}}},
    })
}

/// The document served at `/api/openapi.json`.
pub fn document() -> Value {
    let mut paths = Map::new();
    for t in tools() {
        let mut input = (t.input_schema)();
        if let Some(props) = input.get_mut("properties").and_then(Value::as_object_mut) {
            props.insert(
                "output_format".into(),
                json!({"description": "Omit for obj and rendered; json for obj only; agentic for rendered only.",
                       "type": ["string", "null"], "enum": ["json", "agentic", null]}),
            );
        }
        let err = |d: &str| json!({"description": d, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}});
        paths.insert(
            format!("/api/tools/{}", t.name),
            json!({"post": {
                "operationId": t.name,
                "summary": t.name,
                "description": format!("{} Rendered form: {}.", t.description, t.rendered),
                "tags": ["tools"],
                "requestBody": {"required": true, "content": {
                    "application/json": {"schema": input.clone()},
                    "text/json": {"schema": input.clone()},
                    "application/*+json": {"schema": input},
                }},
                "responses": {
                    "200": {"description": "The tool's envelope; repairable failures carry obj.error and a <tool_error> block in rendered.",
                            "content": {"application/json": {"schema": {
                                "type": "object",
                                "properties": {
                                    "obj": t.obj_schema(),
                                    "rendered": {"type": "string", "description": "Agent-facing text."},
                                },
                            }}}},
                    "400": err("Malformed JSON, a body that is not an object, or an unknown output_format."),
                    "401": err("Missing or invalid API key."),
                    "403": err("The key may not use this resource."),
                    "429": err("Rate limit exceeded."),
                    "500": err("Internal error."),
                },
            }}),
        );
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Quarry Tool API v3",
            "version": "3.0.0",
            "description": "Tool API v3: read-only code intelligence tools. Every tool is POST /api/tools/<name> with a JSON object of arguments; unknown arguments are rejected with a repairable error (unknown_argument); chat is stateless.",
        },
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "A Quarry API key (quarry keys create)."}},
            "schemas": {
                "ErrorBody": error_body(),
            },
        },
    })
}
